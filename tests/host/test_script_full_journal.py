"""A script played on a box whose journal is full: the box boots on a journal of a hundred
segments, every decision still comes, the storage error goes out once (not per record)
and stays in the status, and no record was deleted to make room (nothing was synced)."""

import argparse
import json
import subprocess

from firmware import app
from host import virtual_device as sim
from host.bench_host import many_records, new_image
from host.serial_client import DeviceClient
from host.sim_script import run_script

FACEOFFS = 60  # about 24 records fit in the one segment left free: the rest find the journal full

# Runs under the MicroPython unix port with the image not in use: writes the JSON-line
# records on stdin into whole journal segments (the layout of docs/storage.md, one file
# write per segment, far quicker than an append each) while more than `room` segments
# would still fit; prints the last seq written.
_FILL = """
import sys, json
sys.path.insert(0, %(root)r)
from unixbox.blockdev import mount_image, unmount_image
from firmware.journal import Journal, free_bytes
from firmware.record import encode_record
dev = mount_image(%(image)r, '/flash')
j = Journal('/flash/' + %(dir)r)
seg_bytes, floor, path = j.segment_bytes, j.floor, j.dir
j.close()
lines, size, first, last = [], 0, 0, 0
for text in sys.stdin:
    rec = json.loads(text)
    line = encode_record(rec['seq'], rec['kind'], rec['data'], rec['t'])
    if lines and size + len(line) > seg_bytes:
        if free_bytes(path) < floor + (%(room)d + 2) * seg_bytes:
            break
        with open('%%s/%%08d.seg' %% (path, first), 'wb') as f:
            for x in lines:
                f.write(x)
        lines, size, last = [], 0, rec['seq'] - 1
    if not lines:
        first = rec['seq']
    lines.append(line)
    size += len(line)
print(last)
unmount_image(dev)
"""


def fill_journal(image, room):
    """Fill the empty journal of a new image with Anomia games until no more than `room`
    segments more fit; returns the last seq written."""
    records = many_records(4000)  # more than the image holds
    code = _FILL % {"root": str(sim.ROOT), "image": str(image), "dir": app.JOURNAL_DIR, "room": room}
    res = subprocess.run([str(sim.micropython_path()), "-X", "heapsize=4m", "-c", code], capture_output=True,
                         text=True, timeout=120, input="".join(json.dumps(r) + "\n" for r in records))
    assert res.returncode == 0, res.stderr
    return int(res.stdout.split()[-1])


class Recorder:
    """The world connection, keeping every message that comes back."""

    def __init__(self, world):
        self.world = world
        self.seen = []

    def __getattr__(self, name):
        return getattr(self.world, name)

    def read(self):
        return self._keep(self.world.read())

    def wait(self, timeout):
        return self._keep(self.world.wait(timeout))

    def _keep(self, messages):
        self.seen.extend(messages)
        return messages


def test_a_script_past_the_full_journal_point_gives_every_decision(tmp_path, capsys):
    image = tmp_path / "flash.img"
    new_image(image)
    filled = fill_journal(image, room=1)
    assert filled > 2500  # a hundred segments and more: the journal of a full 2 MB image

    edges = []
    for i in range(FACEOFFS):
        t = (i + 1) * 1000000
        a, b = 1 + i % 4, 1 + (i + 1) % 4
        edges += [(t, a, True), (t + 3000, b, True), (t + 50000, a, False), (t + 53000, b, False)]
    device = sim.VirtualDevice(sim.micropython_path(), image)
    device.start()
    try:
        world = Recorder(device.connect_world())
        assert run_script(argparse.Namespace(world=world), edges, {"players": 4}) == 0
        with DeviceClient(device.port) as dev:
            status = dev.request("status")
    finally:
        device.stop()

    decisions = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(decisions) == FACEOFFS
    assert decisions[-1]["scores"] == [FACEOFFS // 4] * 4
    errors = [m for m in world.seen if m.get("kind") == "storage_error"]
    assert len(errors) == 1 and "journal full" in errors[0]["msg"], errors
    assert "journal full" in status["status"]["mode_status"]["storage_error"]
    journal = status["journal"]
    # the script's first records went in, then the journal was full; nothing deleted
    assert filled + 10 < journal["last_seq"] < filled + 2 * FACEOFFS
    assert journal["first_seq"] == 1 and journal["records"] == journal["last_seq"]
    assert journal["pruned"] == 0 and journal["acked"] == 0
