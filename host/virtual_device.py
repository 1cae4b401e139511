"""The virtual device: the firmware on the MicroPython unix port, from a littlefs2 image,
behind a pty that speaks the serial protocol, with its world channel (buttons, LEDs,
OLED, piezo) on a TCP socket this process listens on.

VirtualDevice starts, restarts (a reset of the box) and stops it; prepare_image makes or
checks its image. The `tablemate sim` command (host/sim.py) and the soaks use it.
"""

import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from host import paths
from host.cli import CliError
from host.device_files import ROOT, device_files

SIM_LAUNCH = ROOT / "unixbox" / "sim_launch.py"
BOARD = "sim"
# The unix port is a 64-bit build: every object and pointer is twice its size on the
# Pico's 32-bit RP2040, so the firmware that fits a Pico's ~190 KB needs about twice that here.
DEFAULT_HEAPSIZE = "320k"
INSTALL_HEAPSIZE = "8m"  # the installer builds the whole image in RAM
BOOT_TIMEOUT_S = 20.0  # from start to the firmware's world connection
QUIT_TIMEOUT_S = 3.0  # for the firmware to close its journal and hang up after "quit"
EXIT_GRACE_S = 2.0  # how long a firmware whose world channel closed gets to exit
CRASH_LOOP_S = 3.0  # a firmware that crashes this soon after a restart is not restarted again
EXIT_BAD_IMAGE = 3  # sim_launch.py's status for an image it cannot use
# The status a host ends the firmware process with to ask for a restart (`tablemate flash`):
# a reset somebody asked for, so never taken for a crash loop, however soon it comes.
EXIT_RESTART = 75


def micropython_path():
    exe = Path(sys.executable).parent / "micropython"
    if not exe.exists():
        raise CliError("no micropython next to %s: install the project (make) first" % sys.executable, 1)
    return exe


# ---------------------------------------------------------------- the image


def manifest():
    """What sim_launch.py --install reads: 'SRC_REL DEVICE_PATH' per line."""
    lines = []
    for src, dest in device_files(ROOT, "unix"):
        lines.append("%s %s\n" % (src.relative_to(ROOT).as_posix(), dest))
    return "".join(lines)


def _launch_tool(exe, heapsize, *args, stdin_text=None):
    cmd = [str(exe), "-X", "heapsize=" + heapsize, str(SIM_LAUNCH)] + [str(a) for a in args]
    return subprocess.run(cmd, input=stdin_text, capture_output=True, text=True, timeout=60)


def install_image(exe, image, update=False):
    """Copy the device files into a new image (or, with update, into the existing one, keeping
    its data). The image file is replaced only once the new one is complete."""
    paths.ensure_parent(image)
    res = _launch_tool(exe, INSTALL_HEAPSIZE, "--update" if update else "--install", ROOT, image,
                       stdin_text=manifest())
    if res.returncode == EXIT_BAD_IMAGE:
        message = res.stderr.strip().replace("sim_launch: ", "", 1)
        raise CliError("%s (use --fresh to start a new image)" % message, 1)
    if res.returncode != 0:
        raise CliError("cannot write the image %s: %s" % (image, (res.stderr or res.stdout).strip()), 1)


def check_image(exe, heapsize, image):
    res = _launch_tool(exe, heapsize, "--check", image)
    if res.returncode == EXIT_BAD_IMAGE:
        message = res.stderr.strip().replace("sim_launch: ", "", 1)
        raise CliError("%s (use --fresh to start a new image)" % message, 1)
    if res.returncode != 0:
        raise CliError("cannot check the image %s: %s" % (image, (res.stderr or res.stdout).strip()), 1)


class ImageLock:
    """One virtual device per image: two MicroPython processes writing the same littlefs
    image would corrupt it. An exclusive flock on IMAGE.lock, held while the device runs;
    the kernel drops it if the holder dies, so a crash never leaves the image locked."""

    def __init__(self, image):
        self.path = Path(str(image) + ".lock")
        self._f = None

    def __enter__(self):
        import fcntl

        paths.ensure_parent(self.path)
        f = open(self.path, "a+")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "?"
            f.close()
            raise CliError("the image %s is in use by another virtual device (pid %s)"
                           % (self.path.with_suffix(""), holder), 1)
        f.seek(0)
        f.truncate()
        f.write(str(os.getpid()))
        f.flush()
        self._f = f
        return self

    def __exit__(self, *exc):
        if self._f is not None:
            self._f.close()  # closing releases the flock
            self._f = None
        return False


def prepare_image(exe, heapsize, image, fresh, update=False):
    """Install on first use or with --fresh, refresh the firmware with --update; otherwise make
    sure the image mounts. Never reformats an existing image unasked."""
    if fresh or not image.exists():
        install_image(exe, image)
    elif update:
        install_image(exe, image, update=True)
    else:
        check_image(exe, heapsize, image)


# ---------------------------------------------------------------- the world channel, host side


class WorldConnection:
    """The front-end end of the world channel: JSON lines both ways."""

    def __init__(self, sock):
        self.sock = sock
        sock.setblocking(False)
        # Each message goes out at once: with Nagle's algorithm a burst of timed edges waits
        # behind the first one's delayed ACK, and the emulated Pico's clock runs on meanwhile.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buf = b""
        self.closed = False
        self.hello = None  # the board's description, once it arrived
        self.unread = []  # messages that came with the hello, kept for the front-end
        self.halted = None  # why the firmware stopped (after Ctrl-C it sits in the REPL)

    def fileno(self):
        return self.sock.fileno()

    def send(self, msg):
        return self.send_all([msg])

    def send_all(self, msgs):
        """Send messages in one write: the device reads them together (edges of one instant)."""
        if self.closed:
            return False
        data = b"".join((json.dumps(m, separators=(",", ":")) + "\n").encode() for m in msgs)
        try:
            self.sock.setblocking(True)
            self.sock.sendall(data)
        except OSError:
            self.closed = True
            return False
        finally:
            if not self.closed:
                self.sock.setblocking(False)
        return True

    def edge(self, button, down, us=None):
        return self.edges([(button, down)], us)

    def edges(self, changes, us=None):
        """Button edges [(button, down), ...] at one microsecond (now unless given), in one
        write: buttons pressed together are pressed at the same microsecond on the box."""
        if us is None:
            us = time.monotonic_ns() // 1000
        return self.send_all([{"t": "edge", "b": b, "down": 1 if down else 0, "us": us}
                              for b, down in changes])

    def read(self):
        """The messages that have arrived (without blocking); sets .closed at end of stream."""
        out, self.unread = self.unread, []
        if self.closed:
            return out
        chunks = []
        while True:
            try:
                data = self.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                data = b""
            if not data:
                self.closed = True
                break
            chunks.append(data)
        if not chunks:
            return out
        self._buf += b"".join(chunks)
        *lines, self._buf = self._buf.split(b"\n")
        for line in lines:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict):
                if msg.get("t") == "hello":
                    self.hello = msg
                elif msg.get("t") == "event" and msg.get("kind") == "halted":
                    self.halted = msg.get("why") or "?"
                out.append(msg)
        return out

    def wait(self, timeout):
        """Block until input arrives or timeout passes; returns the messages."""
        sel = selectors.DefaultSelector()
        try:
            sel.register(self.sock, selectors.EVENT_READ)
            sel.select(max(timeout, 0))
        finally:
            sel.close()
        return self.read()

    def close(self):
        self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass


# ---------------------------------------------------------------- the device process


class VirtualDevice:
    """The firmware under micropython behind a PtyRelay, with its world connection."""

    def __init__(self, exe, image, heapsize=DEFAULT_HEAPSIZE, board=BOARD):
        self.exe = exe
        self.image = Path(image)
        self.heapsize = heapsize
        self.board = board
        self.relay = None
        self.world = None
        self._listener = None
        self._tmp = None
        self.restarts = 0
        self.started_at = 0.0

    @property
    def port(self):
        return self.relay.port

    def argv(self):
        return [str(self.exe), "-X", "heapsize=" + self.heapsize, "-i", str(SIM_LAUNCH),
                str(self.image), "--board", self.board]

    def _listen(self):
        """A fresh world listener; returns the child's environment pointing at it."""
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.setblocking(False)
        env = dict(os.environ)
        env["TABLEMATE_WORLD"] = str(self._listener.getsockname()[1])
        return env

    def start(self):
        """Start the child; returns the serial path (the firmware is still booting)."""
        from host.pty_relay import PtyRelay

        env = self._listen()
        self._tmp = tempfile.TemporaryDirectory(prefix="tablemate-sim-")
        self.relay = PtyRelay(stderr_path=os.path.join(self._tmp.name, "stderr.log"))
        self.relay.start(self.argv(), env=env)
        self.started_at = time.monotonic()
        return self.relay.port

    def exited(self):
        """The firmware process's exit status once it has ended by itself, else None."""
        return None if self.relay is None else self.relay.proc.poll()

    def restart(self):
        """Reset the box: a new firmware process from the image behind the same serial port
        (what a soft reset or the end of a flash does to a real board)."""
        if self.world is not None:
            self.world.close()
        env = self._listen()
        self.relay.restart(self.argv(), env=env)
        self.restarts += 1
        self.started_at = time.monotonic()
        return self.connect_world()

    def revive(self, log=None):
        """After the world channel closed: restart the firmware if its process ended by itself
        (a flash, machine.soft_reset(), a crash). True if it runs again. A firmware that
        keeps dying within seconds of its start is left stopped, unless it ended with
        EXIT_RESTART: a restart the host asked for is never a crash."""
        try:  # the channel closes a moment before the process has gone
            status = self.relay.proc.wait(EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            return False  # still running (at its REPL): nothing to revive
        asked = status == EXIT_RESTART
        if not asked and time.monotonic() - self.started_at < CRASH_LOOP_S and self.restarts:
            if log:
                log("the virtual device exited again at once (status %s): left stopped%s"
                    % (status, self._why()))
            return False
        if log:
            log("the firmware restarts, as asked" if asked else
                "the virtual device exited (status %s): restarting it from its image" % status)
        self.restart()
        return True

    def stderr_tail(self, limit=2000):
        try:
            text = Path(self.relay.stderr_path).read_text(errors="replace")
        except OSError:
            return ""
        return text[-limit:].strip()

    def connect_world(self, timeout=BOOT_TIMEOUT_S):
        """Wait for the firmware to dial in and describe its board; returns the WorldConnection."""
        deadline = time.monotonic() + timeout
        sel = selectors.DefaultSelector()
        sel.register(self._listener, selectors.EVENT_READ)
        try:
            while True:
                if self.relay.proc.poll() is not None:
                    raise CliError("the virtual device exited during boot (status %s)%s"
                                   % (self.relay.proc.returncode, self._why()), 1)
                if "Traceback" in self.stderr_tail():
                    raise CliError("the firmware failed to start%s" % self._why(), 1)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CliError("the virtual device did not start within %.0f s%s"
                                   % (timeout, self._why()), 1)
                if sel.select(min(left, 0.1)):
                    sock, _ = self._listener.accept()
                    break
        finally:
            sel.close()
        self._listener.close()
        self._listener = None
        self.world = WorldConnection(sock)
        while self.world.hello is None:
            if self.world.closed or time.monotonic() > deadline:
                raise CliError("the virtual device hung up during boot%s" % self._why(), 1)
            self.world.unread.extend(self.world.wait(0.1))
        # the host's clock, as a sync would give a real box: records carry wall time
        self.world.send({"t": "time", "epoch": int(time.time())})
        return self.world

    def _why(self):
        tail = self.stderr_tail()
        return (": " + tail) if tail else ""

    def stop(self):
        """Ask the firmware to quit (it closes its journal and hangs up), then end the child."""
        if self.world is not None and not self.world.closed:
            self.world.read()
            if self.world.halted is None and self.world.send({"t": "quit"}):
                deadline = time.monotonic() + QUIT_TIMEOUT_S
                while not self.world.closed and time.monotonic() < deadline:
                    self.world.wait(deadline - time.monotonic())
            self.world.close()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self.relay is not None:
            self.relay.stop()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
