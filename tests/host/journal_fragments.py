"""A journal that starts a new segment at every record, among the garbage play leaves,
run under micropython: prints the interpreter's heap summary at the end (its "max free sz"
is the largest free block, in 16-byte blocks).

Usage: micropython -X heapsize=64k tests/host/journal_fragments.py SEGMENTS DIR [--root ROOT]
"""

import sys

ROOT = __file__.rsplit("/tests/", 1)[0] if "/tests/" in __file__ else "."
if "--root" in sys.argv:
    ROOT = sys.argv[sys.argv.index("--root") + 1]
sys.path.insert(0, ROOT)

import gc  # noqa: E402

import micropython  # noqa: E402

from firmware.journal import Journal  # noqa: E402

GARBAGE_HELD = 30  # short-lived objects alive at once, as a mode's play leaves them


def run(segments, path):
    # 64 bytes a segment: every record starts one, so every record makes an index entry
    j = Journal(path, segment_bytes=64, free=lambda: 1 << 30)
    held = []
    x = 12345
    for i in range(segments):
        for _ in range(6):
            x = (x * 1103515245 + 12345) & 0x3FFFFFFF
            held.append(bytearray(16 + x % 200))
            if len(held) > GARBAGE_HELD:
                held.pop(0)
        j.append("a", {"i": i})
    j.close()
    held = None
    gc.collect()
    micropython.mem_info()


run(int(sys.argv[1]), sys.argv[2])
