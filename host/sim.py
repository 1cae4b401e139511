"""`tablemate sim`: the virtual device, the firmware on the MicroPython unix port.

The firmware runs from a littlefs2 image (firmware/sim_launch.py) behind a pty that
speaks the serial protocol and takes `mpremote connect PATH resume ...`. Its buttons,
LEDs, OLED and piezo travel over the world channel (firmware/world.py), a TCP socket
this process listens on. The first line on stdout is always `serial: PATH`.

Front-ends: the terminal UI (default, host/tui.py), --headless (scripts and tests), and
--script (timed button edges in, one JSON line per decision event out).
"""

import json
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from host import paths
from host.cli import CliError
from host.device_files import ROOT, device_files

SIM_LAUNCH = ROOT / "firmware" / "sim_launch.py"
BOARD = "sim"
# The unix port is a 64-bit build: every object and pointer is twice its size on the
# Pico's 32-bit RP2040, so the firmware that fits a Pico's ~190 KB needs about twice that here.
DEFAULT_HEAPSIZE = "320k"
INSTALL_HEAPSIZE = "8m"  # the installer builds the whole image in RAM
BOOT_TIMEOUT_S = 20.0  # from start to the firmware's world connection
QUIT_TIMEOUT_S = 3.0  # for the firmware to close its journal and hang up after "quit"
SYNC_TIMEOUT_S = 10.0
EXIT_GRACE_S = 2.0  # how long a firmware whose world channel closed gets to exit
CRASH_LOOP_S = 3.0  # a firmware that exits this soon after a restart is not restarted again
SETTLE_MARGIN_US = 200000  # past the last lockout: debounce releases and the final DONE
EXIT_BAD_IMAGE = 3  # sim_launch.py's status for an image it cannot use
SCRIPT_MODE = "anomia"
DECISION_KIND = "decision"
CONTROL_BUTTONS = {"mode": 8, "ok": 9, "back": 10}


class Stopped(Exception):
    """SIGTERM / SIGHUP: leave through the normal cleanup."""


# ---------------------------------------------------------------- arguments


def add_parser(subparsers):
    p = subparsers.add_parser("sim", help="run the virtual device (firmware on the MicroPython unix port)",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("--image", type=Path, help="littlefs2 image file (default: %s)"
                   % paths.default_sim_image_path())
    p.add_argument("--fresh", action="store_true",
                   help="recreate the image: format it and install the firmware")
    p.add_argument("--update", action="store_true",
                   help="copy the current firmware into the image, keeping its data")
    p.add_argument("--heapsize", default=DEFAULT_HEAPSIZE, help="MicroPython heap (default %(default)s)")
    p.add_argument("--headless", action="store_true", help="no front-end: print the serial path and wait")
    p.add_argument("--events", action="store_true", help="with --headless: print device events as JSON lines")
    p.add_argument("--players", type=int, help="with --script: players in the buzzer round")
    p.add_argument("--script", type=Path, help="timed edges '<t_us> <player> <down|up>': feed them, "
                   "print one JSON line per decision, exit (on a fresh temporary box unless --image)")
    p.add_argument("--tie-window-us", type=int, help="with --script: tie window in microseconds")
    p.set_defaults(func=run)
    return p


def check_heapsize(text):
    if not re.fullmatch(r"[1-9][0-9]*[kKmM]?", text or ""):
        raise CliError("--heapsize must look like 192k, 1m or 65536, got %r" % (text,))
    return text


def micropython_path():
    exe = Path(sys.executable).parent / "micropython"
    if not exe.exists():
        raise CliError("no micropython next to %s: install the project (make) first" % sys.executable, 1)
    return exe


# ---------------------------------------------------------------- the script seam


def parse_script(path, players):
    """[(t_us, player 1..players, down bool)] from a script file; CliError naming the line on any mistake.

    Lines: `<t_us> <player> <down|up>`; blank lines and `#` comments are skipped. Times
    never go back, a player is pressed before released, and not pressed twice.
    """
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeError) as e:
        raise CliError("cannot read script %s: %s" % (path, e))
    edges = []
    held = set()
    last_t = 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = "script %s line %d" % (path, n)
        fields = line.split()
        if len(fields) != 3:
            raise CliError("%s: expected '<t_us> <player> <down|up>', got %r" % (where, raw.strip()))
        t_text, p_text, what = fields
        if not t_text.isdigit():
            raise CliError("%s: time %r is not a whole number of microseconds" % (where, t_text))
        t = int(t_text)
        if t < last_t:
            raise CliError("%s: time %d goes back (previous edge at %d)" % (where, t, last_t))
        if not p_text.isdigit() or not 1 <= int(p_text) <= players:
            raise CliError("%s: player %r is not 1..%d" % (where, p_text, players))
        player = int(p_text)
        if what not in ("down", "up"):
            raise CliError("%s: %r is neither down nor up" % (where, what))
        down = what == "down"
        if down and player in held:
            raise CliError("%s: player %d pressed again without a release" % (where, player))
        if not down and player not in held:
            raise CliError("%s: player %d released without a press" % (where, player))
        (held.add if down else held.discard)(player)
        edges.append((t, player, down))
        last_t = t
    if not edges:
        raise CliError("script %s has no edges" % path)
    return edges


def script_options(args):
    """The mode options for a script run, checked like the device's own settings."""
    from firmware import settings as device_settings

    if args.players is None or args.script is None:
        raise CliError("--players and --script go together")
    lo, hi = device_settings.ROSTER_MIN, device_settings.ROSTER_MAX
    if not lo <= args.players <= hi:
        raise CliError("--players must be %d..%d, got %d" % (lo, hi, args.players))
    options = {"players": args.players}
    if args.tie_window_us is not None:
        why = device_settings.SCHEMA["tie_window_us"][0](args.tie_window_us)
        if why:
            raise CliError("--tie-window-us %s" % why)
        options["tie_window_us"] = args.tie_window_us
    return options


# ---------------------------------------------------------------- the image


def manifest():
    """What sim_launch.py --install reads: 'SRC_REL DEVICE_PATH' per line."""
    lines = []
    for src, dest in device_files(ROOT):
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
        self._buf = b""
        self.closed = False
        self.hello = None  # the board's description, once it arrived
        self.unread = []  # messages that came with the hello, kept for the front-end
        self.halted = None  # why the firmware stopped (after Ctrl-C it sits in the REPL)

    def fileno(self):
        return self.sock.fileno()

    def send(self, msg):
        if self.closed:
            return False
        data = (json.dumps(msg, separators=(",", ":")) + "\n").encode()
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
        if us is None:
            us = time.monotonic_ns() // 1000
        return self.send({"t": "edge", "b": button, "down": 1 if down else 0, "us": us})

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
        keeps dying within seconds of its start is left stopped."""
        try:  # the channel closes a moment before the process has gone
            status = self.relay.proc.wait(EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            return False  # still running (at its REPL): nothing to revive
        if time.monotonic() - self.started_at < CRASH_LOOP_S and self.restarts:
            if log:
                log("the virtual device exited again at once (status %s): left stopped%s"
                    % (status, self._why()))
            return False
        if log:
            log("the virtual device exited (status %s): restarting it from its image" % status)
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


# ---------------------------------------------------------------- front-ends


def run_headless(device, print_events, stdin=None):
    """Wait for SIGINT/SIGTERM, stdin EOF or the device hanging up."""
    stdin = sys.stdin if stdin is None else stdin
    sel = selectors.DefaultSelector()
    sel.register(device.world.sock, selectors.EVENT_READ, "world")
    try:
        sel.register(stdin, selectors.EVENT_READ, "stdin")
    except (ValueError, OSError, PermissionError):
        pass  # stdin closed or not selectable (a file): nothing to watch there
    try:
        while True:
            for key, _ in sel.select(1.0):
                if key.data == "stdin":
                    if not os.read(stdin.fileno(), 4096):
                        return 0
                else:
                    for msg in device.world.read():
                        if print_events and msg.get("t") == "event":
                            emit_json(msg)
                    if device.world.closed:
                        sel.unregister(device.world.sock)
                        if not device.revive(log=_log):
                            return 0
                        sel.register(device.world.sock, selectors.EVENT_READ, "world")
    finally:
        sel.close()


def _log(text):
    sys.stderr.write("tablemate sim: %s\n" % text)
    sys.stderr.flush()


def emit_json(msg):
    out = {k: v for k, v in msg.items() if k != "t"}
    sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def settle_us(options):
    """How far past the last edge the clock must run for every decision and release to land."""
    lockout_us = options.get("lockout_ms", 10000) * 1000
    return lockout_us + options.get("tie_window_us", 50000) + SETTLE_MARGIN_US


def run_script(device, edges, options):
    """Feed timed edges on the script's own clock, print each decision event; 0 when the device
    answered all."""
    world = device.world

    def handle(messages):
        for msg in messages:
            t = msg.get("t")
            if t == "event" and msg.get("kind") == DECISION_KIND:
                emit_json(msg)
            elif t == "error":
                raise CliError("the device refused: %s" % msg.get("msg"), 1)

    world.send({"t": "mode", "name": SCRIPT_MODE, "options": options})
    deadline = time.monotonic() + SYNC_TIMEOUT_S
    started = False
    while not started:
        if world.closed or time.monotonic() > deadline:
            raise CliError("the device did not start mode %r" % SCRIPT_MODE, 1)
        for msg in world.wait(deadline - time.monotonic()):
            if msg.get("t") == "event" and msg.get("kind") == "mode" and msg.get("name") == SCRIPT_MODE:
                started = True
            elif msg.get("t") == "error":
                raise CliError("the device cannot run the script: %s" % msg.get("msg"), 1)
            else:
                handle([msg])
    # Virtual time: the device's clock is the script's clock, set just before each edge,
    # so the script runs as fast as the link allows and every decision falls due at
    # exactly the stamp where it would on a real box.
    last = 0
    for t_us, player, down in edges:
        world.send({"t": "clock", "us": t_us})
        world.edge(player - 1, down, t_us)
        last = t_us
        handle(world.read())
    world.send({"t": "clock", "us": last + settle_us(options)})
    world.send({"t": "sync", "id": 1})
    deadline = time.monotonic() + SYNC_TIMEOUT_S
    while True:
        if world.closed:
            raise CliError("the device hung up before answering the script", 1)
        if time.monotonic() > deadline:
            raise CliError("the device did not settle within %.0f s after the script" % SYNC_TIMEOUT_S, 1)
        messages = world.wait(deadline - time.monotonic())
        synced = [m for m in messages if m.get("t") == "sync" and m.get("id") == 1]
        handle(messages)
        if synced:
            return 0


def _raise_stopped(signum, frame):
    raise Stopped()


def run(args):
    heapsize = check_heapsize(args.heapsize)
    script = None
    if args.script is not None or args.players is not None or args.tie_window_us is not None:
        options = script_options(args)
        script = parse_script(args.script, args.players)
    exe = micropython_path()
    scratch = None
    if script is not None and not args.image:
        # A script gets a fresh box of its own: its games never land in the user's image.
        scratch = tempfile.TemporaryDirectory(prefix="tablemate-script-")
        image = Path(scratch.name) / "flash.img"
    else:
        image = Path(args.image) if args.image else paths.default_sim_image_path()
    image = image.expanduser().resolve()
    try:
        prepare_image(exe, heapsize, image, args.fresh or scratch is not None, args.update)
        return _run_device(args, exe, image, heapsize, script, options if script else None)
    finally:
        if scratch is not None:
            scratch.cleanup()


def _run_device(args, exe, image, heapsize, script, options):
    """Run the device on a prepared image until the front-end, the script or a signal ends it."""
    old = {s: signal.signal(s, _raise_stopped) for s in (signal.SIGTERM, signal.SIGHUP)}
    old[signal.SIGINT] = signal.getsignal(signal.SIGINT)
    device = VirtualDevice(exe, image, heapsize)
    try:
        port = device.start()
        sys.stdout.write("serial: %s\n" % port)
        sys.stdout.flush()
        device.connect_world()
        if script is not None:
            return run_script(device, script, options)
        if args.headless:
            return run_headless(device, args.events)
        from host import tui

        return tui.run(device)
    except (KeyboardInterrupt, Stopped):
        return 0
    finally:
        for s in old:  # a second Ctrl-C must not cut the cleanup short and leave the child behind
            signal.signal(s, signal.SIG_IGN)
        try:
            device.stop()
        finally:
            for s, handler in old.items():
                signal.signal(s, handler)
