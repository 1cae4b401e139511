"""The same scripted timing on the emulated Pico (`tablemate sim --board pico --script`):
the suite's buzzer scripts give the same decisions there as on the unix box.

Cost: one boot of the emulated chip, about 50-60 s of wall time on 2 cores. The scripts
here cover the tie window's edges (W-1, W, W+1), a bounce train and a lockout cascade,
joined into one session (tests/host/pico_compare.py says how);
`python -m tests.host.pico_compare` plays every script (docs/virtual-device.md)."""

import subprocess
import sys
from pathlib import Path

from host.serial_client import TIMEOUT_SCALE_ENV
from tests.host import pico_compare
from tests.host.buzzer_scripts import play_on_unix
from tests.host.pico_box import TIMEOUT_SCALE, require_node
from tests.host.test_sim_boot import sim_env

BIN = Path(sys.executable).parent
# the tie-ending ones apart (a separator follows W-1) and last
SESSION = ("bounce_train", "lockout_cascade", "tie_window_plus_1", "tie_window_minus_1", "tie_window")


def test_suite_scripts_decide_the_same_on_both_boxes(tmp_path):
    require_node()
    session = pico_compare.Session(list(SESSION), tmp_path)
    unix = play_on_unix(tmp_path, session.script)
    pico, wall = pico_compare.play_on_pico(tmp_path, session.script)
    same = sum(1 for u, p in zip(unix, pico, strict=False) if u == p)
    print("\npico box: %d/%d decisions as on the unix box (%s), the Pico's run %.0f s wall"
          % (same, max(len(unix), len(pico)), ", ".join(SESSION), wall))
    assert pico_compare.differences(session, unix, pico) == []
    assert [name for name, _ in session.parts] == list(SESSION[:4]) + ["separator", SESSION[4]]
    assert len(unix) == 7  # 1 + 2 + 1 + 1, the separator's, 1: every script decided


def sim_pico(tmp_path, *args):
    cmd = [str(BIN / "tablemate"), "sim", "--board", "pico"] + [str(a) for a in args]
    env = sim_env(tmp_path)
    env[TIMEOUT_SCALE_ENV] = str(TIMEOUT_SCALE)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL)


def test_cli_refuses_bad_scripts_and_settings_before_starting_anything(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("0 1 down\n10 1 down\n")
    res = sim_pico(tmp_path, "--players", "4", "--script", bad)
    assert res.returncode == 2 and "line 2: player 1 pressed again" in res.stderr, res.stderr
    assert res.stdout == ""
    res = sim_pico(tmp_path, "--players", "4", "--script", bad, "--capture", "usb")
    assert res.returncode == 2 and "invalid choice: 'usb'" in res.stderr
    image = tmp_path / "box.img"
    image.write_bytes(b"\xff" * 4096)
    res = sim_pico(tmp_path, "--headless", "--image", image, "--capture", "irq")
    assert res.returncode == 2 and "--capture is written with a new image: add --fresh" in res.stderr
    assert image.read_bytes() == b"\xff" * 4096
    res = subprocess.run([str(BIN / "tablemate"), "sim", "--capture", "irq", "--headless"],
                         capture_output=True, text=True, timeout=60, env=sim_env(tmp_path),
                         stdin=subprocess.DEVNULL)
    assert res.returncode != 0 and "--firmware and --capture are for --board pico" in res.stderr


def test_a_gap_may_differ_by_the_pios_microsecond_and_nothing_else():
    win = {"kind": "decision", "event": "win", "winner": 2, "gap_us": 5000, "tiebreak": False}
    assert pico_compare.same_decision(win, dict(win, gap_us=4999))
    assert pico_compare.same_decision(win, dict(win, gap_us=5001))
    assert not pico_compare.same_decision(win, dict(win, gap_us=4998))
    assert not pico_compare.same_decision(win, dict(win, winner=1, gap_us=4999))
    assert not pico_compare.same_decision(win, dict(win, event="tie"))
    assert not pico_compare.same_decision(win, None)
    tie = {"kind": "decision", "event": "tie", "players": [1, 3], "gap_us": 1000}
    assert not pico_compare.same_decision(tie, dict(tie, players=[1, 2], gap_us=1001))
