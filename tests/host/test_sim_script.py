"""`tablemate sim --players N --script FILE`: the script is checked line by line before anything
starts, its edges reach the firmware with their exact microsecond gaps, and every decision
event comes back as one JSON line. The gap test swaps in a small stand-in mode that echoes
each press's capture tick; tests/host/test_anomia_script.py runs the real buzzer mode."""

import argparse
import json
import subprocess

import pytest

from host.cli import CliError
from host.sim_script import SCRIPT_MODE, parse_script, script_options
from tests.host.test_sim_boot import ROOT, image_processes, sim_command, sim_env

MICROPYTHON = str(ROOT / ".venv" / "bin" / "micropython")
TICKS = 1 << 30  # the firmware's tick domain (firmware/ticks.py)

SCRIPT = """\
# t_us player edge
0      1 down
250    2 down   # 250 us after player 1
40000  1 up
40100  2 up

300000 3 down
300001 4 down   # 1 us apart
350000 3 up
350000 4 up
"""

# A mode that reports every player press with its capture tick and the options it got.
ECHO_MODE = """
class Mode:
    def __init__(self, ctx, options):
        self.ctx = ctx
        self.options = options

    def start(self, now_ms):
        pass

    def on_button(self, bit, down, tick_us):
        if bit < 8 and down:
            self.ctx.emit("decision", {"player": bit + 1, "tick": tick_us, "options": self.options})
            return True
        return False

    def tick(self, now_ms):
        pass

    def stop(self):
        pass
"""

PATCH = """
import sys
sys.path.insert(0, %(root)r)
from unixbox.blockdev import mount_image, unmount_image
dev = mount_image(%(image)r, "/flash")
with open("/flash/firmware/modes/echo.py", "w") as f:
    f.write(%(mode)r)
with open("/flash/firmware/modes/__init__.py", "a") as f:
    f.write("\\nAVAILABLE = (Entry(%(name)r, 'Echo', 'firmware.modes.echo', 1, 8, 4,"
            " {'tie_window_us': (('int', 0, 50000), 1000)}),)\\n")
unmount_image(dev)
"""


def write_script(tmp_path, text):
    path = tmp_path / "round.txt"
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, words", [
    ("0 1 down\n10 1 down\n", "line 2: player 1 pressed again"),
    ("0 1 up\n", "line 1: player 1 released without a press"),
    ("5 1 down\n4 2 down\n", "line 2: time 4 goes back"),
    ("0 5 down\n", "line 1: player '5' is not 1..4"),
    ("0 1 press\n", "line 1: 'press' is neither down nor up"),
    ("-3 1 down\n", "line 1: time '-3' is not a whole number"),
    ("0 1\n", "line 1: expected '<t_us> <player> <down|up>'"),
    ("# nothing\n\n", "has no edges"),
])
def test_bad_scripts_name_the_line(tmp_path, text, words):
    with pytest.raises(CliError) as err:
        parse_script(write_script(tmp_path, text), 4)
    assert words in str(err.value)
    assert err.value.status == 2


def test_mode_options_without_a_script_say_what_is_missing():
    # `tablemate sim --mode anomia --option lockout_ms=500`, with no script to play
    args = argparse.Namespace(mode="anomia", option=["lockout_ms=500"], players=None, script=None,
                              tie_window_us=None)
    with pytest.raises(CliError) as err:
        script_options(args)
    assert "--script FILE and --players N go together" in str(err.value)
    assert "--mode, --option" in str(err.value)


def test_script_parses_to_timed_edges(tmp_path):
    edges = parse_script(write_script(tmp_path, SCRIPT), 4)
    assert edges[:2] == [(0, 1, True), (250, 2, True)]
    assert edges[-1] == (350000, 4, False)
    assert len(edges) == 8


def run_script(tmp_path, image, *extra):
    script = write_script(tmp_path, SCRIPT)
    cmd = sim_command(image, "--players", "4", "--script", str(script), *extra, headless=False)
    return subprocess.run(cmd, cwd=ROOT, env=sim_env(tmp_path), capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)


def test_script_for_a_missing_mode_is_a_clear_error(tmp_path):
    image = tmp_path / "flash.img"
    first = run_script(tmp_path, image, "--fresh")  # builds the image
    assert first.returncode == 0, first.stderr
    patch = PATCH % {"root": str(ROOT), "image": str(image), "mode": ECHO_MODE, "name": "echo"}
    res = subprocess.run([MICROPYTHON, "-c", patch], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0, res.stderr
    res = run_script(tmp_path, image)
    assert res.returncode == 1, res.stderr
    assert res.stdout.startswith("serial: ")
    assert "no mode '%s'" % SCRIPT_MODE in res.stderr, res.stderr
    assert image_processes(image) == []


def test_script_edges_keep_their_exact_gaps(tmp_path):
    image = tmp_path / "flash.img"
    first = run_script(tmp_path, image, "--fresh")  # builds the image
    assert first.returncode == 0, first.stderr
    patch = PATCH % {"root": str(ROOT), "image": str(image), "mode": ECHO_MODE, "name": SCRIPT_MODE}
    res = subprocess.run([MICROPYTHON, "-c", patch], capture_output=True, text=True, timeout=30)
    assert res.returncode == 0, res.stderr

    res = run_script(tmp_path, image, "--tie-window-us", "1500")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("serial: ")
    decisions = [json.loads(line) for line in lines[1:]]
    assert [d["player"] for d in decisions] == [1, 2, 3, 4]
    assert all(d["kind"] == "decision" for d in decisions)
    assert decisions[0]["options"] == {"players": 4, "tie_window_us": 1500}
    t0 = decisions[0]["tick"]
    gaps = [(d["tick"] - t0) % TICKS for d in decisions]
    assert gaps == [0, 250, 300000, 300001], gaps
    assert image_processes(image) == []



class SlowWorld:
    """A device that takes in nothing until the host waits for it: how far ahead does the
    host get? Answers marks and the final sync as the world channel does."""

    def __init__(self):
        self.closed = False
        self.queue = []  # sent, not yet taken in
        self.answers = []
        self.edges_sent = 0
        self.edges_taken = 0
        self.most_ahead = 0

    def send(self, msg):
        self.queue.append(msg)
        if msg["t"] == "mode":
            self.answers.append({"t": "event", "kind": "mode", "name": msg["name"]})

    def edge(self, button, down, us):
        self.send({"t": "edge", "b": button, "down": down, "us": us})
        self.edges_sent += 1
        self.most_ahead = max(self.most_ahead, self.edges_sent - self.edges_taken)

    def read(self):
        out, self.answers = self.answers, []
        return out

    def wait(self, timeout):
        for msg in self.queue:  # the device catches up
            if msg["t"] == "edge":
                self.edges_taken += 1
            elif msg["t"] in ("mark", "sync"):
                self.answers.append({"t": msg["t"], "id": msg["id"]})
        self.queue = []
        return self.read()


def test_a_long_script_never_gets_more_than_two_windows_ahead_of_the_device(capsys):
    """The host must not pour a whole script into the socket and then give the device a
    fixed time for the backlog: a long script on a slow (or loaded) device then failed."""
    from host import sim_script

    edges = []
    for i in range(2000):
        t = (i + 1) * 1000000
        edges += [(t, 1, True), (t + 3000, 2, True), (t + 50000, 1, False), (t + 53000, 2, False)]
    world = SlowWorld()
    device = argparse.Namespace(world=world)
    assert sim_script.run_script(device, edges, {"players": 4}) == 0
    assert world.edges_taken == world.edges_sent == 8000
    assert world.most_ahead <= 2 * sim_script.MARK_EVERY
    capsys.readouterr()


def test_a_mode_that_fails_during_a_script_fails_the_run(capsys):
    """The box answers a failing mode by leaving it (an "error" event) and then settles in
    the menu: the script run must not end with exit 0 and the decisions cut short."""
    from host import sim_script

    class FailingWorld(SlowWorld):
        def edge(self, button, down, us):
            SlowWorld.edge(self, button, down, us)
            if self.edges_sent == 100:
                self.answers.append({"t": "event", "kind": "error", "msg": "anomia: OSError: 28"})

    edges = [((i + 1) * 1000000 + 3000 * (i % 2), 1 + i % 2, True) for i in range(200)]
    edges = [e for i in range(0, 200, 2) for e in (edges[i], edges[i + 1],
             (edges[i][0] + 50000, 1, False), (edges[i][0] + 53000, 2, False))]
    with pytest.raises(CliError, match="the mode failed during the script: anomia: OSError: 28"):
        sim_script.run_script(argparse.Namespace(world=FailingWorld()), edges, {"players": 4})
    capsys.readouterr()
