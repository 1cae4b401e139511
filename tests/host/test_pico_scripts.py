"""The same scripted timing on the emulated Pico (`tablemate sim --board pico --script`):
the suite's buzzer scripts give the same decisions there as on the unix box.

Cost: two boots of the emulated chip, about 70 s of wall time on 2 cores. The subset here
covers the tie window's edges (W-1, W, W+1), a bounce train and a lockout cascade;
`python -m tests.host.pico_compare` plays every script (see docs/virtual-device.md)."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host.serial_client import TIMEOUT_SCALE_ENV
from tests.host import pico_compare
from tests.host.buzzer_scripts import SCRIPTS, play_on_unix
from tests.host.pico_box import TIMEOUT_SCALE, PicoBox, require_node
from tests.host.test_sim_boot import sim_env

BIN = Path(sys.executable).parent
# played in one game on one boot; the tie-ending ones last (each is taken back after)
SESSION = ("bounce_train", "lockout_cascade", "tie_window_minus_1", "tie_window")
CLI_SCRIPT = "tie_window_plus_1"


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    image = tmp_path_factory.mktemp("pico-scripts") / "pico-flash.img"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(TIMEOUT_SCALE_ENV, str(TIMEOUT_SCALE))
        b = PicoBox(image)
        try:
            yield b
        finally:
            b.stop()


def test_suite_scripts_decide_the_same_on_both_boxes(box, tmp_path):
    started = time.monotonic()
    rows, agree, total = pico_compare.compare(box, list(SESSION), tmp_path)
    print("\npico box: %d/%d decisions as on the unix box (%s), %.0f s wall"
          % (agree, total, ", ".join(SESSION), time.monotonic() - started))
    for name, unix, pico in rows:
        assert pico == unix, (name, unix, pico)
    assert total >= len(SESSION)


def write_script(tmp_path, script):
    path = tmp_path / "script.txt"
    path.write_text("\n".join(script.lines) + "\n")
    return path


def sim_pico(tmp_path, *args, timeout=300):
    cmd = [str(BIN / "tablemate"), "sim", "--board", "pico"] + [str(a) for a in args]
    env = sim_env(tmp_path)
    env[TIMEOUT_SCALE_ENV] = str(TIMEOUT_SCALE)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                          stdin=subprocess.DEVNULL)


def test_cli_plays_a_script_on_the_pico_as_on_the_unix_box(tmp_path):
    require_node()
    script = SCRIPTS[CLI_SCRIPT]
    path = write_script(tmp_path, script)
    res = sim_pico(tmp_path, "--players", script.players, "--tie-window-us", script.window, "--script", path)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("serial: /dev/pts/")
    pico = [json.loads(line) for line in lines[1:]]
    assert pico == play_on_unix(tmp_path, script)
    assert pico[0]["event"] == "win" and pico[0]["gap_us"] == script.window + 1
    # the unix run's image; the Pico played on a scratch box of its own
    assert list(tmp_path.glob("*.img")) == [tmp_path / "flash.img"]


def test_cli_refuses_bad_scripts_and_settings_before_starting_anything(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1 down\n10 1 down\n")
    res = sim_pico(tmp_path, "--players", "4", "--script", bad, timeout=60)
    assert res.returncode == 2 and "line 2: player 1 pressed again" in res.stderr, res.stderr
    assert res.stdout == ""
    res = sim_pico(tmp_path, "--players", "4", "--script", bad, "--capture", "usb", timeout=60)
    assert res.returncode == 2 and "invalid choice: 'usb'" in res.stderr
    image = tmp_path / "box.img"
    image.write_bytes(b"\xff" * 4096)
    res = sim_pico(tmp_path, "--headless", "--image", image, "--capture", "irq", timeout=60)
    assert res.returncode == 2 and "--capture is written with a new image: add --fresh" in res.stderr
    assert image.read_bytes() == b"\xff" * 4096
    res = subprocess.run([str(BIN / "tablemate"), "sim", "--capture", "irq", "--headless"],
                         capture_output=True, text=True, timeout=60, env=sim_env(tmp_path),
                         stdin=subprocess.DEVNULL)
    assert res.returncode != 0 and "--firmware and --capture are for --board pico" in res.stderr
