"""Heap the Anathema score keeper mode holds, run by `make bench` under micropython.

The mode runs on the mode harness (real context, journal and settings in a temporary
folder) from the compiled tree, as a flashed box imports it. Measured with gc.mem_alloc()
after a collection: at the start of a 3-player game, the mode's modules, its session and
the game (against the same box once the mode is stopped and its modules unloaded, as the
app does when a mode is left), and what each hand entered with the buttons adds. Prints
one JSON line.

Usage: micropython -X heapsize=192k tests/bench/anathema_box_heap.py [HANDS] [--root DIR]
"""

import gc
import json
import sys

import bench_paths  # noqa: F401 - the repository and --root on the path (tests/bench, the script's folder)

from firmware import modes
from tests.shared.anathema_box import Clock, deal_hand, score_hand
from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import Box

HAND = ([0], [1], [2], [0, 0, 0, 1, 1, 2, 2])  # one of each entry; nobody nears the target


def used():
    gc.collect()
    return gc.mem_alloc()


def measure(mode, hands, **options):
    """(bytes the mode holds at the start of a game, bytes each hand adds)."""
    with tmp_dir() as d:
        before = modes.loaded()
        box = Box(d, mode, **options)
        at = Clock()
        start = used()
        for k in range(hands):
            deal_hand(box, at, k % 3)
            score_hand(box, at, *HAND)
            box.events = []  # the harness's record of events is not the box's
        assert hands == 0 or len(box.mode.game.results) == hands and not box.mode.session.storage_error
        after = used()
        box.mode.stop()
        box.mode = box.ctx = None
        modes.unload(before)
        without = used()
        box.journal.close()
    return start - without, (after - start) // hands if hands else 0


def main(argv):
    hands = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 10
    start, per_hand = measure("anathema", hands, players=3, target=999)
    anomia, _ = measure("anomia", 0, players=3)  # the same measure of the buzzer mode, for scale
    print(json.dumps({"start_bytes": start, "per_hand_bytes": per_hand, "hands": hands,
                      "anomia_start_bytes": anomia}))


main(sys.argv)
