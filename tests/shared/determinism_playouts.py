"""Seeded random playouts printed as digest sequences, to compare CPython with MicroPython.

Usage (from the repository root):
    .venv/bin/micropython -X heapsize=192k tests/shared/determinism_playouts.py [count [game]]
    .venv/bin/python tests/shared/determinism_playouts.py [count [game]]
game is anomia (the default) or anathema. Both runtimes must print the same lines: per
playout a "start" line with the setup digest, one line per step (step number, action,
digest after it) and an "end" line with the scores; a last line "playouts N".
tests/host/test_determinism.py runs both.
"""

import sys

ROOT = __file__.rsplit("/tests/", 1)[0] if "/tests/" in __file__ else "."
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from engine import games, playout  # noqa: E402
from engine.core import canonical  # noqa: E402

DEFAULT_COUNT = 100


def playout_spec(i, name="anomia"):
    """(seed, players, options) of playout i. Anomia: every player count and both decks in
    turn; Anathema: 2, 3, 4 players and partners in turn, basic and advanced rules."""
    if name == "anathema":
        layout = i % 4
        return i * 7919 + 3, (2, 3, 4, 4)[layout], {"partners": layout == 3, "advanced": (i // 4) % 2 == 1}
    return i * 7919 + 3, 3 + i % 4, {"deck": ("blue", "red")[(i // 4) % 2]}


def emit_playouts(count, emit, name="anomia"):
    game = games.get_game(name)
    for i in range(count):
        seed, players, options = playout_spec(i, name)
        state = game.new_game(seed, players, **options)
        emit("%d start seed=%d players=%d options=%s %s"
             % (i, seed, players, canonical(options), state.digest()))
        step = [0]

        def after(st, action, i=i, step=step):
            step[0] += 1
            emit("%d %d %s %s" % (i, step[0], canonical(action), st.digest()))

        playout.run(state, seed, after=after)
        emit("%d end scores=%s winners=%s" % (i, canonical(state.scores()), canonical(state.winners())))
    emit("playouts %d" % count)


def main(argv):
    count = int(argv[1]) if len(argv) > 1 else DEFAULT_COUNT
    emit_playouts(count, print, argv[2] if len(argv) > 2 else "anomia")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
