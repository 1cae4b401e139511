"""The same scripted timing on the emulated Pico (`tablemate sim --board pico --script`):
the suite's buzzer scripts give the same decisions there as on the unix box.

Cost: two boots of the emulated chip, about 80-100 s of wall time on 2 cores. With the
PIO capture, the tie window's edges (W-1, W, W+1), a bounce train and a lockout cascade,
joined into one session (tests/host/pico_compare.py says how); with the pin IRQs, the
long pauses. `python -m tests.host.pico_compare [--capture irq]` plays every script
(docs/virtual-device.md)."""

import subprocess
import sys
from pathlib import Path

from host import pico_script
from host.serial_client import TIMEOUT_SCALE_ENV
from tests.host import pico_compare
from tests.host.buzzer_scripts import SCRIPTS, Script, play_on_unix
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


def test_pin_irqs_decide_as_the_unix_box_through_pauses_past_half_the_ticks_period(tmp_path):
    """The pin-IRQ capture (--capture irq) on a script within its resolution: long_pauses,
    whose pauses of 9 to 20 minutes the emulated chip sleeps through (rp2box's warp, in steps
    of 2**28 us), and a press exactly 2**30 us after the same button's last edge."""
    require_node()
    session = pico_compare.Session(["long_pauses"], tmp_path)
    unix = play_on_unix(tmp_path, session.script)
    pico, wall = pico_compare.play_on_pico(tmp_path, session.script, capture="irq")
    diffs = pico_compare.differences(session, unix, pico, "irq")
    print("\npico box, pin IRQs: %d of %d decisions differ from the unix box's (long_pauses, %.0f min "
          "of virtual time), the Pico's run %.0f s wall"
          % (len(diffs), len(unix), int(session.script.lines[-1].split()[0]) / 60e6, wall))
    assert diffs == []
    assert [(d["winner"], d["scores"]) for d in pico][-1] == (2, [1, 1, 1, 2]) and len(unix) == 5


def test_the_pin_irqs_are_held_to_every_script_but_the_tie_window_edges():
    """irq_unresolved: only the scripts whose presses meet within the IRQ stamps' spread, or
    whose gap is within it of the tie window, are beyond the pin IRQs (the PIO plays them)."""
    unresolved = {name for name, script in SCRIPTS.items() if pico_compare.irq_unresolved(script)}
    assert unresolved == {"tie_window_minus_1", "tie_window", "tie_window_plus_1",
                          "same_microsecond_zero_window"}
    spread = pico_compare.IRQ_SPREAD_US
    near = Script(["0 1 down", "%d 2 down" % (1000 + spread - 1), "60000 1 up", "60000 2 up"])
    why = pico_compare.irq_unresolved(near)
    assert why == "P1 and P2 %d us apart, tie window 1000 us" % (1000 + spread - 1)
    # a contact's chatter is no press: only its first edge counts
    chatter = Script(["0 1 down", "1000 1 up", "1100 1 down", "2000 2 down", "60000 1 up", "60000 2 up"])
    assert pico_compare.irq_unresolved(chatter) is None
    win = {"kind": "decision", "event": "win", "winner": 2, "gap_us": 5000, "tiebreak": False}
    assert pico_compare.same_decision(win, dict(win, gap_us=5000 + spread), spread)
    assert not pico_compare.same_decision(win, dict(win, gap_us=5001 + spread), spread)


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
    notes = tmp_path / "notes.uf2"  # a file by the right name that is no firmware
    notes.write_text("not firmware\n" * 100)
    res = sim_pico(tmp_path, "--headless", "--fresh", "--image", tmp_path / "new.img", "--firmware", notes)
    assert res.returncode == 1 and "notes.uf2: not a UF2 file (--firmware)" in res.stderr, res.stderr
    assert res.stdout == "" and not (tmp_path / "new.img").exists()
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


def test_a_pause_is_skipped_once_everything_is_decided_by_whole_quanta():
    """pico_script.warp_us: nothing skipped before the last face-off's decisions are out, nor
    a pause too short to matter; a skip ends at least WARP_LEAD_US before the next edge, in
    whole quanta (the PIO counter's 2**22 us, 1 us for the pin IRQs)."""
    S = 1_000_000
    edges = [(0, 1, True), (50_000, 1, False), (1200 * S, 2, True), (1200 * S + 50_000, 2, False)]
    timed = {"lockout_ms": 800, "tie_window_us": 1000}
    base = 10_000
    quiet = base + 50_000 + pico_script.settle_after(edges[:2], timed)
    pio, irq = pico_script.WARP_QUANTUM_US["pio"], pico_script.WARP_QUANTUM_US["irq"]
    assert pico_script.warp_us(edges, 2, base, quiet - 1, timed, pio) == 0
    skip = pico_script.warp_us(edges, 2, base, quiet, timed, pio)
    left = base + 1200 * S - (quiet + skip)
    assert skip > 0 and skip % pio == 0 and pico_script.WARP_LEAD_US <= left < pico_script.WARP_LEAD_US + pio
    assert pico_script.warp_us(edges, 2, base, quiet, timed, irq) == left - pico_script.WARP_LEAD_US + skip
    assert pico_script.warp_us(edges, 0, base, quiet, timed, irq) == 0  # before the first edge
    assert pico_script.warp_us(edges, 4, base, quiet, timed, irq) == 0  # after the last
    near = edges[:2] + [(quiet - base + pico_script.WARP_LEAD_US + pico_script.WARP_MIN_US - 1, 2, True)]
    assert pico_script.warp_us(near, 2, base, quiet, timed, irq) == 0
