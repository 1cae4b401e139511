"""Settings written over the virtual device's serial port survive a restart on the same image
and an --update of its firmware; --fresh starts over with the defaults."""

import subprocess

from firmware import settings as schema
from tests.host.test_sim_boot import ROOT, Sim, image_processes

CHANGES = {"brightness": 99, "anomia": {"players": 6, "tie_window_us": 2500, "lockout_ms": 800}}
MICROPYTHON = str(ROOT / ".venv" / "bin" / "micropython")

IMAGE_TOOL = """
import os, sys
sys.path.insert(0, %(root)r)
from unixbox.blockdev import mount_image, unmount_image
dev = mount_image(%(image)r, "/flash")
if %(write)r:
    with open("/flash/firmware/stale.py", "w") as f:
        f.write("# not in the source tree")
print(" ".join(sorted(os.listdir("/flash/firmware"))))
unmount_image(dev)
"""


def firmware_listing(image, write_stale=False):
    code = IMAGE_TOOL % {"root": str(ROOT), "image": str(image), "write": write_stale}
    res = subprocess.run([MICROPYTHON, "-c", code], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0, res.stderr
    return res.stdout.split()


def settings_and_boots(image, *extra):
    with Sim(image, *extra) as sim:
        sim.wait_ready()
        with sim.client() as dev:
            values = dev.settings_get()
            boots = dev.status()["journal"]["records"]
    return values, boots


def test_settings_survive_restart_and_update_and_fresh_wipes_them(tmp_path):
    image = tmp_path / "flash.img"
    defaults = schema.defaults()
    assert all(defaults[k] != v for k, v in CHANGES.items())  # the test can tell them apart

    with Sim(image, "--fresh") as sim:
        sim.wait_ready()
        with sim.client() as dev:
            assert dev.settings_set(CHANGES)["brightness"] == 99
        rc, _, err = sim.stop()
    assert rc == 0, err

    values, boots = settings_and_boots(image)
    for key, value in CHANGES.items():
        assert values[key] == value, key
    assert boots == 2  # one boot record per start: the journal persisted too

    assert "stale.py" in firmware_listing(image, write_stale=True)
    values, boots = settings_and_boots(image, "--update")
    assert all(values[k] == v for k, v in CHANGES.items())
    assert boots == 3
    listing = firmware_listing(image)
    assert "stale.py" not in listing and "app.py" in listing  # firmware replaced as a whole

    values, boots = settings_and_boots(image, "--fresh")
    assert values == defaults
    assert boots == 1
    assert image_processes(image) == []
