"""The journal's segment index on a small heap (micropython): each entry made among the
play's garbage would sit between pieces that are freed later, and a long game's heap ends in
holes too small for a record. The journal collects the heap before it makes an entry, so the
entries lie side by side and the free room stays in one piece."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = str(Path(sys.executable).parent / "micropython")
SEGMENTS = 150
# In 16-byte blocks: 250-322 with the collection before each entry (the checkout path moves
# it), whatever the count of segments; without it 71 after 60 segments, and 150 run out of
# a 64k heap.
LARGEST_FREE_BLOCKS = 128


def test_a_hundred_and_fifty_segments_leave_the_free_heap_in_one_piece(tmp_path):
    res = subprocess.run([MICROPYTHON, "-X", "heapsize=64k", "tests/host/journal_fragments.py",
                          str(SEGMENTS), str(tmp_path / "journal")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert len(list((tmp_path / "journal").glob("*.seg"))) == SEGMENTS
    largest = int(re.search(r"max free sz: (\d+)", res.stdout).group(1))
    print("\nlargest free block after %d segments: %d x 16 B" % (SEGMENTS, largest))
    assert largest >= LARGEST_FREE_BLOCKS, res.stdout
