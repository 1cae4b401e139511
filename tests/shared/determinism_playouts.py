"""Seeded random playouts printed as digest sequences, to compare CPython with MicroPython.

Usage (from the repository root):
    .venv/bin/micropython -X heapsize=192k tests/shared/determinism_playouts.py [count [game]]
    .venv/bin/python tests/shared/determinism_playouts.py [count [game]]
game is anomia (the default), anastasia_solo, anathema, anastasia or anastasia_ledger.
Both must print the same lines: per playout a "start" line with the setup digest,
one line per step (step number, action, digest after it) and an "end" line with
the scores; a last line "playouts N". tests/host/test_determinism.py runs both.
"""

import sys

ROOT = __file__.rsplit("/tests/", 1)[0] if "/tests/" in __file__ else "."
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from engine import games, playout  # noqa: E402
from engine.core import canonical  # noqa: E402

DEFAULT_COUNT = 100


def playout_spec(i):
    """(seed, players, options) of Anomia playout i: every player count and both decks in turn."""
    return i * 7919 + 3, 3 + i % 4, {"deck": ("blue", "red")[(i // 4) % 2]}


# One reading of the open points per playout (engine.anastasia_solo_rules), in turn.
SOLO_READINGS = (
    {},
    {"returned_gems": "each", "token_pool": "each", "unshown": "face_down"},
    {"automa_finds_anastasia": "players_win", "clue_fee_to": "supply", "deck_blanks": 5},
    {"automa_deck": ["one: reveal_clue 1, leave 2; draw 3, expend_reveal 4 1 5, return_reveal 6 1 2"]},
    {"cards": "table"},
    {"difficulty": "hard"},
    {"difficulty": "easy", "cards": "table"},
)


def solo_spec(i):
    """(seed, players, options) of solo Anastasia playout i: 1-3 players and every reading in turn."""
    return i * 7919 + 5, 1 + i % 3, SOLO_READINGS[(i // 3) % len(SOLO_READINGS)]


def anathema_spec(i):
    """(seed, players, options) of Anathema playout i: 2, 3, 4 players and partners in turn,
    basic and advanced rules."""
    layout = i % 4
    return i * 7919 + 3, (2, 3, 4, 4)[layout], {"partners": layout == 3, "advanced": (i // 4) % 2 == 1}


def anastasia_spec(i):
    """(seed, players, options) of 4-8 player Anastasia playout i: every player count in turn."""
    return i * 7919 + 3, 4 + i % 5, {}


def ledger_spec(i):
    """(seed, players, options) of ledger playout i: every player count and Empress seat in turn."""
    players = 4 + i % 5
    return i * 7919 + 3, players, {} if players == 4 else {"empress": (i // 5) % players}


SPECS = {"anomia": playout_spec, "anastasia_solo": solo_spec, "anathema": anathema_spec,
         "anastasia": anastasia_spec, "anastasia_ledger": ledger_spec}
# Chosen by kind of action (engine.playout.KindChooser): their menus hold many questions
# and few reveals, so uniform choices would make long games that rarely reveal anyone.
BY_KIND = ("anastasia", "anastasia_ledger")


def emit_playouts(count, emit, name="anomia"):
    game = games.get_game(name)
    spec = SPECS[name]
    for i in range(count):
        seed, players, options = spec(i)
        state = game.new_game(seed, players, **options)
        emit("%d start seed=%d players=%d options=%s %s"
             % (i, seed, players, canonical(options), state.digest()))
        step = [0]

        def after(st, action, i=i, step=step):
            step[0] += 1
            emit("%d %d %s %s" % (i, step[0], canonical(action), st.digest()))

        chooser = playout.KindChooser(seed) if name in BY_KIND else None
        playout.run(state, seed, after=after, chooser=chooser)
        emit("%d end scores=%s winners=%s" % (i, canonical(state.scores()), canonical(state.winners())))
    emit("playouts %d" % count)


def main(argv):
    count = int(argv[1]) if len(argv) > 1 else DEFAULT_COUNT
    emit_playouts(count, print, argv[2] if len(argv) > 2 else "anomia")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
