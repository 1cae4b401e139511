"""Soaks: the Anomia mode on the whole virtual device, and the buzzer's decision path from
compiled .mpy files (as a flashed box loads them) under -X heapsize=64k. `make bench` runs
both with 10,000 face-offs; here they run shorter."""

import json
import subprocess
import sys
from pathlib import Path

from host.device_files import compile_tree
from host.soak import run_soak

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = str(Path(sys.executable).parent / "micropython")


def decision_path_soak(root, faceoffs, heapsize="64k"):
    res = subprocess.run([MICROPYTHON, "-X", "heapsize=" + heapsize, "tests/bench/buzzer_soak.py",
                          str(faceoffs), "--root", str(root)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_decision_path_soak_in_a_64k_heap(tmp_path):
    out = decision_path_soak(compile_tree(tmp_path / "device"), 2000)
    print("\n64k decision-path soak:", out)
    assert out["faceoffs"] >= 2000 and out["decisions"] > 1800
    assert out["mem_alloc_end"] <= out["mem_alloc_after_100"]
    assert sum(out["scores"]) > 1500


def test_virtual_device_soak_keeps_its_heap():
    out = run_soak(500)
    print("\nvirtual device soak:", out)
    assert out["mode"] == "anomia" and out["mode_error"] is None
    assert out["decisions"] >= 400 and out["ties"] > 0
    assert out["ring_overflows"] == 0 and out["event_overflows"] == 0
    # the heap may grow only by the journal's index: one entry per segment it now holds (the
    # box keeps acked records until it needs the room), at most 128 bytes each on a 64-bit port
    grown = out["segments_end"] - out["segments_after_first"]
    assert grown > 0 and out["mem_alloc_end"] <= out["mem_alloc_after_first"] + 128 * grown
