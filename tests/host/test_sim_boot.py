"""`tablemate sim --headless`: the first line names the pty, the firmware answers hello over it,
a corrupt image is refused without being touched, and nothing is left running afterwards.

Also the helpers the other test_sim_* files use (Sim, image_processes)."""

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from host.serial_client import DeviceClient, LinkError

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
READY_TIMEOUT_S = 60.0  # an upper bound for a loaded machine: every wait ends when its condition holds


def sim_command(image, *extra, headless=True):
    cmd = [str(BIN / "tablemate"), "sim", "--image", str(image)]
    if headless:
        cmd.append("--headless")
    return cmd + list(extra)


def sim_env(tmp):
    env = dict(os.environ)
    env["TABLEMATE_DATA_DIR"] = str(tmp)  # never touch the user's own image
    return env


def image_processes(image):
    """Pids of processes whose command line names the image (the micropython child)."""
    needle = str(image).encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                if needle in f.read():
                    pids.append(int(entry))
        except OSError:
            pass
    return pids


def _ctrl_c_as_in_a_terminal():
    """In the child before it starts: SIGINT and SIGQUIT as a terminal gives them. A test run
    started in the background (`make test &`) has them ignored, and the sim would inherit
    that and never see the SIGINT a test sends it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


class Sim:
    """A headless virtual device as a child process; stop() closes its stdin (its quit signal)."""

    def __init__(self, image, *extra):
        self.image = Path(image)
        self.started = time.monotonic()
        self.proc = subprocess.Popen(sim_command(image, *extra), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=ROOT, env=sim_env(self.image.parent), text=True,
                                     preexec_fn=_ctrl_c_as_in_a_terminal)
        self.first_line = self.read_line(READY_TIMEOUT_S)
        self.line_at = time.monotonic()
        assert self.first_line.startswith("serial: "), (self.first_line, self.proc.stderr.read())
        self.port = self.first_line[len("serial: "):].strip()

    def read_line(self, timeout):
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return ""
        return self.proc.stdout.readline()

    def wait_ready(self):
        """Seconds from the `serial:` line until the firmware answers hello."""
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            try:
                with DeviceClient(self.port, timeout=0.3) as dev:
                    assert dev.info["board"] == "sim"
                    return time.monotonic() - self.line_at
            except LinkError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise
                time.sleep(0.05)

    def client(self):
        return DeviceClient(self.port, timeout=2.0)

    def stop(self, timeout=60):
        """End the sim as a script would (stdin EOF); returns (exit status, rest of stdout, stderr)."""
        try:
            out, err = self.proc.communicate(timeout=timeout)  # closes stdin first
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
            raise AssertionError("the sim did not stop within %s s: %s" % (timeout, err))
        return self.proc.returncode, out, err

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.stop()
        return False


def test_first_line_is_the_serial_path_and_hello_answers(tmp_path):
    image = tmp_path / "flash.img"
    sim = Sim(image, "--fresh")
    with sim:
        assert re.fullmatch(r"serial: /dev/pts/\d+\n", sim.first_line)
        assert os.path.exists(sim.port)
        boot_s = sim.wait_ready()
        with sim.client() as dev:
            assert dev.info["firmware"] and dev.info["impl"] == "micropython"
            reply = dev.status()
            st = reply["status"]
    total_s = sim.line_at - sim.started + boot_s
    print("\nsim: image install + start %.2f s, boot to hello %.2f s (total %.2f s), "
          "free heap after boot %d B" % (sim.line_at - sim.started, boot_s, total_s, st["mem_free_boot"]))
    assert st["board"] == "sim" and st["mode"] == "menu" and st["screen"] == "menu"
    assert st["settings_error"] is None
    assert st["ring_overflows"] == 0 and st["buttons"]["stuck"] == 0
    assert st["mem_free_boot"] > 16 * 1024, st  # the firmware boots comfortably in 192k
    assert reply["journal"]["records"] == 1  # the boot record of this first start
    rc, out, err = sim.stop()
    assert rc == 0, err
    assert out == ""  # nothing but the first line without --events
    assert image_processes(image) == []
    assert image.stat().st_size > 0


def test_events_flag_prints_json_lines_after_the_first(tmp_path):
    image = tmp_path / "flash.img"
    with Sim(image, "--fresh", "--events") as sim:
        line = sim.read_line(READY_TIMEOUT_S)
        rc, out, err = sim.stop()
    assert '"kind":"ready"' in line, (line, err)
    assert rc == 0, err
    for extra in out.splitlines():
        assert extra.startswith("{") and '"t"' not in extra


def test_corrupt_image_is_refused_and_left_alone(tmp_path):
    image = tmp_path / "flash.img"
    junk = bytes((i * 37 + 11) & 0xFF for i in range(4096)) * 16
    image.write_bytes(junk)
    res = subprocess.run(sim_command(image), cwd=ROOT, env=sim_env(tmp_path), capture_output=True,
                         text=True, stdin=subprocess.DEVNULL, timeout=30)
    assert res.returncode == 1
    assert res.stdout == ""  # refused before any serial port exists
    assert "cannot mount" in res.stderr and "--fresh" in res.stderr, res.stderr
    assert res.stderr.count("\n") == 1  # one clear line
    assert image.read_bytes() == junk


def test_bad_arguments_are_one_line_errors(tmp_path):
    for args, words in (
        (["--heapsize", "lots"], "--heapsize"),
        (["--players", "4"], "--script"),
    ):
        res = subprocess.run(sim_command(tmp_path / "x.img", *args), cwd=ROOT, env=sim_env(tmp_path),
                             capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30)
        assert res.returncode == 2, (args, res.stderr)
        assert words in res.stderr and res.stderr.count("\n") == 1, res.stderr
    assert not (tmp_path / "x.img").exists()


def test_sigterm_and_sigint_stop_it_cleanly(tmp_path):
    image = tmp_path / "flash.img"
    for number, sig in enumerate((signal.SIGTERM, signal.SIGINT)):
        with Sim(image, *(["--fresh"] if number == 0 else [])) as sim:
            sim.wait_ready()
            assert image_processes(image)  # the firmware is running
            sim.proc.send_signal(sig)
            assert sim.proc.wait(60) == 0, sig  # generous: the firmware closes its journal and image first
            sim.stop()
        assert image_processes(image) == [], sig


# Fills the box's flash as records that no host synced would: other files first (quicker),
# then journal records until the journal refuses the next one.
FILL_IMAGE = """
import os, sys
sys.path.insert(0, %(root)r)
from unixbox.blockdev import mount_image, unmount_image
from firmware.journal import Journal
dev = mount_image(%(image)r, "/flash")
chunk = b"z" * 4096
with open("/flash/junk.bin", "wb") as f:
    while os.statvfs("/flash")[0] * os.statvfs("/flash")[3] > 96 * 1024:
        f.write(chunk)
        f.flush()
j = Journal("/flash/data/journal")
n = 0
try:
    while True:
        j.append("ev", {"pad": "p" * 100})
        n += 1
except OSError:
    pass
j.close()
unmount_image(dev)
print(n)
"""


def test_a_box_whose_storage_is_full_still_boots_and_says_why(tmp_path):
    """A journal full of records no host has synced (or a full filesystem) used to stop the
    firmware at boot, at its boot record: then not even a sync could make room."""
    image = tmp_path / "flash.img"
    with Sim(image, "--fresh") as sim:
        sim.wait_ready()
        assert sim.stop()[0] == 0
    fill = FILL_IMAGE % {"root": str(ROOT), "image": str(image)}
    res = subprocess.run([str(BIN / "micropython"), "-c", fill], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and int(res.stdout) > 0, res.stderr
    with Sim(image) as sim:
        sim.wait_ready()
        with sim.client() as dev:
            st = dev.status()["status"]
        assert "boot record not stored" in st["storage_error"], st
        rc, _out, err = sim.stop()
    assert rc == 0, err
