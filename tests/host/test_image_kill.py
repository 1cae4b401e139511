"""The virtual device's storage survives being killed: micropython appends journal records
to a littlefs image file (unixbox.blockdev.mount_image) and gets SIGKILLed mid-stream;
a new process then mounts the same image and must find every record it had reported."""

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"

WRITER = """
import sys
sys.path.insert(0, %(root)r)
from unixbox.blockdev import mount_image
from firmware.journal import Journal
mount_image(%(img)r, "/flash", block_size=4096, block_count=64)
j = Journal("/flash/journal", segment_bytes=1024)
print("start", j.last_seq, j.acked)
while True:
    seq = j.append("ev", {"i": j.last_seq + 1, "pad": "z" * 40}, t=j.last_seq + 1)
    if seq %% 7 == 0:
        j.ack(seq - 3)
    print(seq)
"""

READER = """
import sys, json
sys.path.insert(0, %(root)r)
from unixbox.blockdev import mount_image
from firmware.journal import Journal
mount_image(%(img)r, "/flash", block_size=4096, block_count=64)
j = Journal("/flash/journal", segment_bytes=1024)
recs = j.records_since(0, 100000)
ok = all(r["data"] == {"i": r["seq"], "pad": "z" * 40} and r["t"] == r["seq"] for r in recs)
print(json.dumps({"seqs": [r["seq"] for r in recs], "acked": j.acked, "last": j.last_seq,
                  "intact": ok, "stats": j.stats()}))
"""


def run_writer_until(script, reported):
    """Start the writer, wait until it has reported `reported` appends, then SIGKILL it."""
    proc = subprocess.Popen([str(MICROPYTHON), str(script)], stdout=subprocess.PIPE, text=True)
    try:
        start = proc.stdout.readline().split()
        assert start[0] == "start", start
        seqs = []
        while len(seqs) < reported:
            line = proc.stdout.readline()
            assert line, "writer stopped early"
            seqs.append(int(line))
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    return int(start[1]), seqs


@pytest.mark.skipif(not MICROPYTHON.exists(), reason="needs the micropython unix port")
def test_killed_writer_loses_no_reported_record(tmp_path):
    img = str(tmp_path / "flash.img")
    writer = tmp_path / "writer.py"
    reader = tmp_path / "reader.py"
    writer.write_text(WRITER % {"root": str(ROOT), "img": img})
    reader.write_text(READER % {"root": str(ROOT), "img": img})
    reported = []
    for target in (3, 40, 1, 95, 17):
        last_before, seqs = run_writer_until(writer, target)
        # a restart continues the sequence after everything reported so far
        assert not reported or last_before >= reported[-1]
        assert seqs[0] == last_before + 1
        reported += seqs
        out = subprocess.run([str(MICROPYTHON), str(reader)], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        state = json.loads(out.stdout)
        assert state["intact"]
        assert state["last"] >= reported[-1]
        missing = [s for s in reported if s > state["acked"] and s not in state["seqs"]]
        assert missing == [], missing
        assert state["stats"]["bad_records"] == 0
    assert os.path.getsize(img) == 4096 * 64
