"""The buzzer scripts of the test suite, by name: what tests/host/test_anomia_script.py
checks on the unix box, and what tests/host/pico_compare.py plays on both boxes to
compare their decisions. Lines are the script format of host/sim_script.py."""

import json
import subprocess

S = 1000000  # one second in µs: face-offs are spaced wider than the 800 ms lockout
TIE_WINDOW_US = 1000  # the window the tie-edge scripts run with (the mode's default)


class Script:
    def __init__(self, lines, players=4, window=None):
        self.lines = lines
        self.players = players
        self.window = window  # --tie-window-us, None for the mode's default

    def options(self):
        out = {"players": self.players}
        if self.window is not None:
            out["tie_window_us"] = self.window
        return out


def press(t, player, hold=50000):
    return ["%d %d down" % (t, player), "%d %d up" % (t + hold, player)]


def faceoff(t, first, second, gap):
    """first presses at t, second gap µs later; both release 50 ms after their press."""
    a, b = press(t, first), press(t + gap, second)
    return [a[0], b[0], a[1], b[1]] if gap < 50000 else a + b


def bounce_train():
    """P3's contact chatters for 18 ms from its first edge; P1's clean press is 2 ms later."""
    lines = []
    t = S
    for _ in range(12):
        lines.append("%d 3 down" % t)
        lines.append("%d 3 up" % (t + 700))
        t += 1500
    lines.append("%d 3 down" % t)  # finally closed
    lines.append("%d 1 down" % (S + 2000))
    lines.sort(key=lambda line: int(line.split()[0]))
    return lines + ["%d 3 up" % (S + 300000), "%d 1 up" % (S + 300000)]


def tie_breaker():
    lines = faceoff(S, 1, 2, 300)  # tie P1/P2
    lines += press(2 * S, 4) + press(2 * S + 100000, 2)  # P4 is not in the tie-breaker: P2 wins it
    return lines + press(4 * S, 4)  # everyone is eligible again


def lockout_cascade():
    lines = faceoff(S, 2, 1, 5000)
    lines += press(S + 300000, 3)  # inside the 800 ms lockout: ranked, no decision
    return lines + faceoff(S + 900000, 1, 3, 3000)  # after the lockout: a new face-off at once


def long_pauses():
    """Gaps longer than half the ticks period (~9 min), and a press exactly 2**30 us after
    the same button's last edge."""
    lines = faceoff(S, 1, 2, 3000)
    lines += faceoff(1_073_800_000, 3, 4, 5000)
    lines += faceoff(2_147_483_000, 4, 1, 6000)  # the ~17.9-minute jump of the report
    again = 2_147_483_000 + 50000 + (1 << 30)  # P4's release + one ticks period
    lines += faceoff(again, 4, 1, 2000)
    return lines + faceoff(again + 50000 + 20 * 60 * S, 2, 3, 4000)  # after a 20-minute pause


def rotation(n):
    """n face-offs, one a second, each player first in turn."""
    lines = []
    for i in range(n):
        lines += faceoff((i + 1) * S, 1 + i % 4, 1 + (i + 1) % 4, 3000)
    return lines


SCRIPTS = {
    "documented_keys": Script(faceoff(S, 2, 3, 4500)),
    "order_by_timestamp": Script(faceoff(S, 4, 1, 1500) + faceoff(2 * S, 1, 4, 1500)
                                 + faceoff(3 * S, 3, 2, 2000)),
    "tie_window_minus_1": Script(faceoff(S, 1, 2, TIE_WINDOW_US - 1), window=TIE_WINDOW_US),
    "tie_window": Script(faceoff(S, 1, 2, TIE_WINDOW_US), window=TIE_WINDOW_US),
    "tie_window_plus_1": Script(faceoff(S, 1, 2, TIE_WINDOW_US + 1), window=TIE_WINDOW_US),
    "same_microsecond_zero_window": Script(faceoff(S, 3, 1, 0), window=0),
    "tie_breaker": Script(tie_breaker()),
    "bounce_train": Script(bounce_train()),
    "lockout_cascade": Script(lockout_cascade()),
    "long_pauses": Script(long_pauses()),
    "rotation_80": Script(rotation(80)),
}


def play_on_unix(tmp_path, script, fresh=True):
    """The decision lines of one script played on the unix box (`tablemate sim --script`)."""
    from tests.host.test_sim_boot import ROOT, sim_command, sim_env

    path = tmp_path / "script.txt"
    path.write_text("\n".join(script.lines) + "\n")
    extra = ["--players", str(script.players), "--script", str(path)]
    if script.window is not None:
        extra += ["--tie-window-us", str(script.window)]
    if fresh:
        extra.append("--fresh")
    cmd = sim_command(tmp_path / "flash.img", *extra, headless=True)
    res = subprocess.run(cmd, cwd=ROOT, env=sim_env(tmp_path), capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=120)
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    assert out[0].startswith("serial: ")
    return [json.loads(line) for line in out[1:]]
