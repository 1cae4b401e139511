"""The real Anomia buzzer mode on the virtual device, driven by timed scripts:
`tablemate sim --headless --players N --script FILE [--tie-window-us W]`."""

import json
import subprocess

import pytest

from tests.host.test_sim_boot import ROOT, sim_command, sim_env

S = 1000000  # one second in µs: face-offs are spaced wider than the 800 ms lockout


def run(tmp_path, lines, players=4, window=None, fresh=True):
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n")
    extra = ["--players", str(players), "--script", str(script)]
    if window is not None:
        extra += ["--tie-window-us", str(window)]
    if fresh:
        extra.append("--fresh")
    cmd = sim_command(tmp_path / "flash.img", *extra, headless=True)
    res = subprocess.run(cmd, cwd=ROOT, env=sim_env(tmp_path), capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=120)
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    assert out[0].startswith("serial: ")
    return [json.loads(line) for line in out[1:]]


def press(t, player, hold=50000):
    return ["%d %d down" % (t, player), "%d %d up" % (t + hold, player)]


def faceoff(t, first, second, gap):
    """first presses at t, second gap µs later; both release 50 ms after their press."""
    a, b = press(t, first), press(t + gap, second)
    return [a[0], b[0], a[1], b[1]] if gap < 50000 else a + b


def test_decision_lines_have_the_documented_keys(tmp_path):
    events = run(tmp_path, faceoff(S, 2, 3, 4500))
    assert events == [{"kind": "decision", "event": "win", "winner": 2, "gap_us": 4500,
                       "tiebreak": False, "scores": [0, 1, 0, 0]}]


def test_order_is_by_timestamp_not_by_pin(tmp_path):
    lines = faceoff(S, 4, 1, 1500) + faceoff(2 * S, 1, 4, 1500) + faceoff(3 * S, 3, 2, 2000)
    events = run(tmp_path, lines)
    assert [e["winner"] for e in events] == [4, 1, 3]
    assert [e["gap_us"] for e in events] == [1500, 1500, 2000]
    assert events[-1]["scores"] == [1, 0, 1, 1]


@pytest.mark.parametrize("gap, tie", [(999, True), (1000, True), (1001, False)])
def test_tie_window_edges(tmp_path, gap, tie):
    events = run(tmp_path, faceoff(S, 1, 2, gap), window=1000)
    assert len(events) == 1
    if tie:
        assert events[0]["event"] == "tie" and events[0]["players"] == [1, 2]
    else:
        assert events[0]["event"] == "win" and events[0]["winner"] == 1
    assert events[0]["gap_us"] == gap


def test_same_microsecond_is_a_tie_even_with_a_zero_window(tmp_path):
    events = run(tmp_path, faceoff(S, 3, 1, 0), window=0)
    assert events[0]["event"] == "tie" and events[0]["players"] in ([3, 1], [1, 3])
    assert events[0]["gap_us"] == 0


def test_tie_breaker_accepts_only_the_tied_players_then_everyone_again(tmp_path):
    lines = faceoff(S, 1, 2, 300)  # tie P1/P2
    lines += press(2 * S, 4) + press(2 * S + 100000, 2)  # P4 is not in the tie-breaker: P2 wins it
    lines += press(4 * S, 4)  # everyone is eligible again
    events = run(tmp_path, lines)
    assert [e["event"] for e in events] == ["tie", "win", "win"]
    assert events[1] == {"kind": "decision", "event": "win", "winner": 2, "gap_us": None,
                         "tiebreak": True, "scores": [0, 1, 0, 0]}
    assert events[2]["winner"] == 4 and events[2]["tiebreak"] is False


def test_bounce_trains_give_one_press_at_the_first_edge(tmp_path):
    # P3's contact chatters for 18 ms from its first edge; P1's clean press is 2 ms later.
    lines = []
    t = S
    for _ in range(12):
        lines.append("%d 3 down" % t)
        lines.append("%d 3 up" % (t + 700))
        t += 1500
    lines.append("%d 3 down" % t)  # finally closed
    lines.append("%d 1 down" % (S + 2000))
    lines.sort(key=lambda line: int(line.split()[0]))
    lines += ["%d 3 up" % (S + 300000), "%d 1 up" % (S + 300000)]
    events = run(tmp_path, lines)
    assert len(events) == 1
    assert events[0]["winner"] == 3 and events[0]["gap_us"] == 2000


def test_presses_during_the_lockout_change_nothing_and_cascades_rearm(tmp_path):
    lines = faceoff(S, 2, 1, 5000)
    lines += press(S + 300000, 3)  # inside the 800 ms lockout: ranked, no decision
    lines += faceoff(S + 900000, 1, 3, 3000)  # after the lockout: a new face-off at once
    events = run(tmp_path, lines)
    assert [(e["event"], e["winner"]) for e in events] == [("win", 2), ("win", 1)]
    assert events[1]["scores"] == [1, 1, 0, 0]


def test_long_pauses_and_a_press_one_ticks_period_after_the_last_edge(tmp_path):
    """A table pauses: the virtual clock walks through gaps longer than half the ticks
    period (~9 min) as a real box's clock would, and a press exactly 2**30 us after the
    same button's last edge is a new press, not a bounce of that edge."""
    lines = faceoff(S, 1, 2, 3000)
    lines += faceoff(1_073_800_000, 3, 4, 5000)
    lines += faceoff(2_147_483_000, 4, 1, 6000)  # the ~17.9-minute jump of the report
    again = 2_147_483_000 + 50000 + (1 << 30)  # P4's release + one ticks period
    lines += faceoff(again, 4, 1, 2000)
    lines += faceoff(again + 50000 + 20 * 60 * S, 2, 3, 4000)  # after a 20-minute pause
    events = run(tmp_path, lines)
    assert [(e["winner"], e["gap_us"]) for e in events] == [
        (1, 3000), (3, 5000), (4, 6000), (4, 2000), (2, 4000)]
    assert events[-1]["scores"] == [1, 1, 1, 2]


def test_a_long_script_runs_to_the_end_on_a_fresh_box_and_again_on_the_same_image(tmp_path):
    """80 face-offs (320 edges, five flow-control windows), twice on one image. make bench
    runs 10,000 face-offs the same way (face-offs per second in script mode); here a short
    run keeps make test quick, and tests/host/test_sim_script.py checks the flow control
    that lets a script of any length settle."""
    n = 80
    lines = []
    for i in range(n):
        lines += faceoff((i + 1) * S, 1 + i % 4, 1 + (i + 1) % 4, 3000)
    for fresh in (True, False):
        events = run(tmp_path, lines, fresh=fresh)
        assert len(events) == n and events[-1]["scores"] == [n // 4 + (p < n % 4) for p in range(4)]
