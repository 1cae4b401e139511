"""Press-to-decision cost of the buzzer path, run under micropython by `make bench`.

Each face-off: a player's press snapshot is pushed into the EdgeRing with the real
ticks_us() (as the capture would), then the input loop runs as on the box: read the
clock, drain the ring into the Debouncer, take its events into the Arbiter and poll.
Latency = ticks_us() when poll() returned the decision - the press tick, for the
tie window 0 (pure processing) and the default window (which the decision waits for
by design). Allocations are counted with micropython.mem_total().
Prints one JSON line.

Usage: micropython -X heapsize=64k tests/bench/buzzer_latency.py N [--root DIR]
  --root DIR: import the modules from DIR (e.g. compiled .mpy files, as on a box)
"""

import sys

ROOT = __file__.rsplit("/tests/", 1)[0] if "/tests/" in __file__ else "."
if "--root" in sys.argv:
    ROOT = sys.argv[sys.argv.index("--root") + 1]
sys.path.insert(0, ROOT)

import gc  # noqa: E402
from array import array  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 2000
# Allocated before the modules load, while the heap is still in one piece.
LATENCIES = array("i", bytes(4 * N))
import json  # noqa: E402

import micropython  # noqa: E402
from pipeline import feed  # noqa: E402  (tests/bench, the script's own folder)

from firmware.arbiter import NONE, Arbiter  # noqa: E402
from firmware.buttons import Debouncer, EdgeRing  # noqa: E402
from firmware.ticks import ticks_diff, ticks_us  # noqa: E402


def run(n, window_us):
    ring = EdgeRing(64)
    deb = Debouncer(11, 25000)
    arb = Arbiter(8, window_us, 0)
    snap = [0, 0]
    ev = [0, 0, 0]
    lat = LATENCIES
    deb.start(0, ticks_us())
    gc.collect()
    before = micropython.mem_total()
    for i in range(n):
        player = i % 8
        t = ticks_us()
        ring.push(1 << player, t)
        code = NONE
        while code == NONE:
            now = ticks_us()
            feed(ring, deb, arb, snap, ev, now)
            code = arb.poll(now)
        lat[i] = ticks_diff(ticks_us(), t)
        # release, confirmed once it has been stable; the lockout (0) ends at once
        up = ticks_us()
        ring.push(0, up)
        settled = ticks_add_us(up, 30000)
        feed(ring, deb, arb, snap, ev, settled)
        while arb.poll(settled) != NONE:
            pass
    allocated = micropython.mem_total() - before
    heapsort(lat)  # in place: a sorted copy would not fit a 64k heap
    return {"median_us": lat[n // 2], "p99_us": lat[(n * 99) // 100], "max_us": lat[-1],
            "alloc_bytes_per_press": allocated / n, "presses": n}


def heapsort(a):
    n = len(a)

    def sift(start, end):
        root = start
        while 2 * root + 1 <= end:
            child = 2 * root + 1
            if child + 1 <= end and a[child] < a[child + 1]:
                child += 1
            if a[root] >= a[child]:
                return
            a[root], a[child] = a[child], a[root]
            root = child

    for start in range(n // 2 - 1, -1, -1):
        sift(start, n - 1)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        sift(0, end - 1)


def ticks_add_us(t, d):
    return (t + d) & 0x3FFFFFFF


def main():
    out = {"window_0": run(N, 0), "window_1000": run(N, 1000)}
    print(json.dumps(out))


main()
