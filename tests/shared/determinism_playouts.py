"""Seeded random playouts of every registered game printed as digest sequences, to compare
CPython with MicroPython.

Usage (from the repository root):
    .venv/bin/micropython -X heapsize=192k tests/shared/determinism_playouts.py [count [game ...]]
    .venv/bin/python tests/shared/determinism_playouts.py [count [game ...]]
Both must print the same lines: for each game in engine/games.py and each playout a
"start" line with the setup digest, one line per step (step number, action, digest
after it) and an "end" line with the scores; a last line "playouts N" (N per game).
The setups cycle through every player count the engine declares and its VARIANTS.
tests/host/test_determinism.py runs both.
"""

import gc
import sys

ROOT = __file__.rsplit("/tests/", 1)[0] if "/tests/" in __file__ else "."
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from engine import games, playout  # noqa: E402
from engine.core import canonical  # noqa: E402

DEFAULT_COUNT = 100
SMALL_HEAP = sys.implementation.name == "micropython"


def playout_spec(engine, i):
    """(seed, players, options) of playout i: every player count, then the defaults and every
    variant, in turn."""
    span = engine.MAX_PLAYERS - engine.MIN_PLAYERS + 1
    variants = list(getattr(engine, "VARIANTS", None) or ({},))
    if {} not in variants:
        variants.insert(0, {})  # the defaults too
    return i * 7919 + 3, engine.MIN_PLAYERS + i % span, variants[(i // span) % len(variants)]


def emit_playouts(count, emit, names=None):
    for name in names or sorted(games.GAMES):
        engine = games.get_game(name)
        for i in range(count):
            seed, players, options = playout_spec(engine, i)
            state = engine.new_game(seed, players, **options)
            emit("%s %d start seed=%d players=%d options=%s %s"
                 % (name, i, seed, players, canonical(options), state.digest()))
            step = [0]

            def after(st, action, name=name, i=i, step=step):
                step[0] += 1
                if SMALL_HEAP:
                    gc.collect()  # the next step's action list needs a whole block
                emit("%s %d %d %s %s" % (name, i, step[0], canonical(action), st.digest()))

            playout.run(state, seed, after=after)
            emit("%s %d end scores=%s winners=%s"
                 % (name, i, canonical(state.scores()), canonical(state.winners())))
    emit("playouts %d" % count)


def main(argv):
    count = int(argv[1]) if len(argv) > 1 else DEFAULT_COUNT
    emit_playouts(count, print, argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
