"""Anathema engine speed, run by `make bench` under micropython and CPython alike.

Measures legal_actions() per second on a busy table (15 loose cards from a random
4-player game, advanced rules: 2,224 distinct plays, so the listing is cut to its
bounds) and on the positions of ordinary random games, and random full games to 21
per second (RandomChooser for every seat, all four layouts in turn). Prints one JSON line.

Usage: micropython -X heapsize=192k tests/bench/anathema_speed.py [GAMES] [--root DIR] [--busy-once]
       python tests/bench/anathema_speed.py [GAMES]
  --root DIR: import the engine from DIR (e.g. compiled .mpy files, as on a box)
  --busy-once: only list the busy table once (to find the smallest heap that does it)
"""

import gc
import json
import sys
import time

import bench_paths  # noqa: F401 - the repository and --root on the path (tests/bench, the script's folder)

from engine import anathema
from engine.playout import RandomChooser
from tests.shared.anathema_positions import position

BUSY_TABLE = ["10b", "8b", "11a", "12d", "13c", "7d", "11d", "9c", "4b", "9d", "1a", "3a", "1d", "6a", "2c"]
BUSY_HANDS = [["11b", "10c", "10d", "12c"], ["1b", "2b", "5a", "5b"], ["1c", "2a", "5c", "5d"],
              ["3b", "3c", "7a", "7b"]]
LAYOUTS = ((2, False), (3, False), (4, False), (4, True))


def now():
    if hasattr(time, "ticks_us"):
        return time.ticks_us() / 1e6
    return time.perf_counter()


def per_second(fn, seconds):
    """How many calls of fn() run in one second (measured over about `seconds`)."""
    n = 0
    t0 = now()
    while True:
        fn()
        n += 1
        t = now() - t0
        if t >= seconds:
            return n / t


def main(argv):
    games = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 40
    busy = position(players=4, partners=True, advanced=True, hands=BUSY_HANDS, table=BUSY_TABLE)
    busy_listed = len(busy.legal_actions())
    if "--busy-once" in argv:
        print(json.dumps({"busy_listed": busy_listed}))
        return
    busy_rate = per_second(busy.legal_actions, 2.0)
    steps = 0
    listings = 0
    listing_time = 0.0
    t0 = now()
    for g in range(games):
        players, partners = LAYOUTS[g % 4]
        # each game starts on a collected heap, as a box would start one: run back to back
        # without it, 40 games leave a 160k heap in pieces too small for a 1 KB move list
        # (game 21), and a 192k one near that edge (a loaded run failed there)
        s = None
        gc.collect()
        s = anathema.new_game(g, players, partners=partners, advanced=g % 8 >= 4)
        chooser = RandomChooser(g)
        while not s.is_over():
            t = now()
            acts = s.legal_actions()
            listing_time += now() - t
            listings += 1
            s.apply(acts[chooser.rng.below(len(acts))])
            steps += 1
    elapsed = now() - t0
    print(json.dumps({
        "runtime": sys.implementation.name,
        "busy_listed": busy_listed,
        "busy_legal_per_s": busy_rate,
        "ordinary_legal_per_s": listings / listing_time,
        "games": games,
        "games_per_s": games / elapsed,
        "steps_per_game": steps / games,
    }))


if __name__ == "__main__":
    main(sys.argv)
