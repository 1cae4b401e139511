"""The solo Anastasia box's figures, run by `make bench` under micropython.

1. The automa's turn: the time of state.apply(["automa"]) (draw the card, resolve both
   actions against the table, stop at a role the table is to tell) in GAMES seeded games of
   the box's engine (cards on the table), random legal actions between the turns: median
   and max in µs.
2. The heap the mode holds at its peak: the mode on the mode harness (real context, journal
   and settings in a temporary folder), a solo game played with the buttons through every
   kind of step (clue picks, the automa's turns, a role told); gc.mem_alloc() after a
   collection after every step, its highest, against the same box once the mode is stopped
   and its modules (the mode's, its engine's, the spec helper's) unloaded, as the app does
   when a mode is left. Prints one JSON line.

Usage: micropython -X heapsize=192k tests/bench/anastasia_solo_bench.py [GAMES] [--root DIR]
"""

import gc
import json
import sys
import time

import bench_paths  # noqa: F401 - the repository and --root on the path

from firmware import modes
from tests.shared import mode_harness  # noqa: F401 - the box around the mode, not counted in its heap
from tests.shared.compat import tmp_dir


def automa_times(games):
    before = modes.loaded()
    from engine import anastasia_solo
    from engine.rng import Rng

    times = []
    for seed in range(games):
        state = anastasia_solo.new_game(seed, 1 + seed % 3, cards="table")
        rng = Rng(seed + 1000)
        while not state.is_over():
            acts = state.legal_actions()
            action = acts[rng.below(len(acts))]
            if action == ["automa"]:
                t0 = time.ticks_us()
                state.apply(action)
                times.append(time.ticks_diff(time.ticks_us(), t0))
            else:
                state.apply(action)
    times.sort()
    state = anastasia_solo = None
    modes.unload(before)
    return times


def used():
    gc.collect()
    return gc.mem_alloc()


def mode_peak():
    before = modes.loaded()
    from tests.shared.anastasia_solo_box import DRAW, REMOVE, REVEAL_CLUE, REVEAL_ROLE, Table

    with tmp_dir() as d:
        tb = Table(d)
        peak = used()
        steps = [(REVEAL_CLUE, 3), (REMOVE, 5), None, (DRAW, 1), (REVEAL_CLUE, 1), None, (REVEAL_ROLE, 2)]
        for step in steps:
            if step is None:  # the automa's turn, shown action by action, roles told "not her"
                while tb.game.phase == "automa" or tb.box.mode.shown is not None:
                    tb.ok()
                    peak = max(peak, used())
            else:
                tb.act(*step)
                if tb.box.mode.card_for is not None:
                    tb.guest(1)  # the card shown first
            peak = max(peak, used())
        tb.guest(2)  # Guest 2 is Anastasia: the end
        peak = max(peak, used())
        tb.box.mode.stop()
        tb.box.mode = tb.box.ctx = None
        modes.unload(before)
        without = used()
        tb.box.journal.close()
    return peak - without


def main(argv):
    games = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 200
    peak = mode_peak()  # first: the mode loads on a heap no game has used, as from the menu
    times = automa_times(games)
    print(json.dumps({"turns": len(times), "median_us": times[len(times) // 2], "max_us": times[-1],
                      "games": games, "mode_peak_bytes": peak}))


main(sys.argv)
