"""Finding Anastasia (4-8 players) for `make bench`, under micropython and CPython alike.

- random games per second of the whole game (engine.anastasia, every seat an
  engine.playout.KindChooser, player counts 4-8 in turn), the same games on both runtimes;
- with --box (micropython): the ledger mode on the mode harness (real context, journal and
  settings in a temporary folder): the heap it holds at the start of a 5-player game (against
  the box with the mode's modules unloaded), the most it held after any entry of a game
  entered through GameMode.enter (the act op's path).
Prints one JSON line.

Usage: micropython -X heapsize=192k tests/bench/anastasia_speed.py [GAMES] [--root DIR] [--box]
       python tests/bench/anastasia_speed.py [GAMES]
"""

import gc
import json
import sys
import time

import bench_paths  # noqa: F401 - the repository and --root on the path (tests/bench, the script's folder)


def now():
    if hasattr(time, "ticks_us"):
        return time.ticks_us() / 1e6
    return time.perf_counter()


def games_per_second(games):
    from engine import anastasia
    from engine.playout import KindChooser

    steps = 0
    t0 = now()
    for g in range(games):
        players = 4 + g % 5
        state = anastasia.new_game(g, players)
        bots = [KindChooser(g * 8 + p) for p in range(players)]
        while not state.is_over():
            state.apply(bots[state.current_player()].choose(state))
            steps += 1
    t = now() - t0
    return {"games": games, "games_per_s": games / t, "steps_per_game": steps / games}


def used():
    gc.collect()
    return gc.mem_alloc()


def box_heap(entries):
    from engine.rng import Rng
    from firmware import modes
    from tests.shared.compat import tmp_dir
    from tests.shared.mode_harness import Box

    with tmp_dir() as d:
        before = modes.loaded()
        box = Box(d, "anastasia", players=4)
        start = used()
        most = start
        rng = Rng(7)
        n = 0
        while n < entries and not box.mode.game.is_over():
            legal = box.mode.game.legal_actions()
            lasting = [a for a in legal if a[0] not in ("reveal", "reveal_self", "declare")] or legal
            action = lasting[rng.below(len(lasting))]
            legal = lasting = None
            assert box.mode.enter(action, 0) is None
            box.events = []  # the harness's record of events is not the box's
            n += 1
            most = max(most, used())
        box.mode.stop()
        box.mode = box.ctx = None
        modes.unload(before)
        without = used()
        box.journal.close()
    return {"start_bytes": start - without, "most_bytes": most - without, "entries": n}


def main(argv):
    games = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 100
    if "--box" in argv:
        print(json.dumps(box_heap(games)))
        return
    print(json.dumps(games_per_second(games)))


main(sys.argv)
