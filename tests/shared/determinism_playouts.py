"""Seeded random playouts printed as digest sequences, to compare CPython with MicroPython.

Usage (from the repository root):
    .venv/bin/micropython -X heapsize=192k tests/shared/determinism_playouts.py [count [game]]
    .venv/bin/python tests/shared/determinism_playouts.py [count [game]]
game: anomia (the default), anastasia or anastasia_ledger.
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


def playout_spec(i, game="anomia"):
    """(seed, players, options) of playout i: every player count (and each deck, each
    Empress seat) in turn."""
    seed = i * 7919 + 3
    if game == "anomia":
        return seed, 3 + i % 4, {"deck": ("blue", "red")[(i // 4) % 2]}
    players = 4 + i % 5
    if game == "anastasia_ledger" and players > 4:
        return seed, players, {"empress": (i // 5) % players}
    return seed, players, {}


def emit_playouts(count, emit, game="anomia"):
    engine = games.get_game(game)
    for i in range(count):
        seed, players, options = playout_spec(i, game)
        state = engine.new_game(seed, players, **options)
        emit("%d start seed=%d players=%d options=%s %s"
             % (i, seed, players, canonical(options), state.digest()))
        step = [0]

        def after(st, action, i=i, step=step):
            step[0] += 1
            emit("%d %d %s %s" % (i, step[0], canonical(action), st.digest()))

        # by kind: the Finding Anastasia menus hold many questions and few reveals
        chooser = None if game == "anomia" else playout.KindChooser(seed)
        playout.run(state, seed, after=after, chooser=chooser)
        emit("%d end scores=%s winners=%s" % (i, canonical(state.scores()), canonical(state.winners())))
    emit("playouts %d" % count)


def main(argv):
    count = int(argv[1]) if len(argv) > 1 else DEFAULT_COUNT
    emit_playouts(count, print, argv[2] if len(argv) > 2 else "anomia")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
