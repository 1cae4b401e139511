"""`tablemate sim`: the virtual device (host/virtual_device.py) with a front-end.

Front-ends: the terminal UI (default, host/tui.py), --headless (scripts and tests), and
--script (timed button edges in, one JSON line per decision event out: host/sim_script.py).
The first line on stdout is always `serial: PATH`.
"""

import contextlib
import os
import re
import selectors
import signal
import sys
import tempfile
from pathlib import Path

from firmware.board import CAPTURE_METHODS
from host import paths, pico_script, rp2box
from host.cli import CliError
from host.sim_script import SCRIPT_MODE, emit_json, parse_script, run_script, script_options
from host.virtual_device import (
    DEFAULT_HEAPSIZE,
    ImageLock,
    VirtualDevice,
    micropython_path,
    prepare_image,
)


class Stopped(Exception):
    """SIGTERM / SIGHUP: leave through the normal cleanup."""


# ---------------------------------------------------------------- arguments


def add_parser(subparsers):
    p = subparsers.add_parser("sim", help="run the virtual device (firmware on the MicroPython unix port)",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("--board", choices=("sim", "pico"), default="sim",
                   help="sim: the firmware on the MicroPython unix port (default); pico: on MicroPython's "
                   "own RPI_PICO build in an emulated RP2040 (rp2040js, needs node)")
    p.add_argument("--firmware", type=Path, help="with --board pico: the MicroPython RPI_PICO UF2 "
                   "(default: $%s; the official download for the Raspberry Pi Pico)" % rp2box.UF2_ENV)
    p.add_argument("--capture", choices=CAPTURE_METHODS, help="with --board pico: the button capture path "
                   "(default pio: the PIO program; irq: the pin IRQs), kept in the box's config.json; it is "
                   "written with a new image (a script's own box, --fresh or the first start)")
    p.add_argument("--image", type=Path, help="littlefs2 image file (default: %s; with --board pico: %s, "
                   "the Pico's whole 2 MB flash)"
                   % (paths.default_sim_image_path(), rp2box.default_image_path()))
    p.add_argument("--fresh", action="store_true",
                   help="recreate the image: format it and install the firmware")
    p.add_argument("--update", action="store_true",
                   help="copy the current firmware into the image, keeping its data")
    p.add_argument("--heapsize", default=DEFAULT_HEAPSIZE, help="MicroPython heap (default %(default)s)")
    p.add_argument("--headless", action="store_true", help="no front-end: print the serial path and wait")
    p.add_argument("--events", action="store_true", help="with --headless: print device events as JSON lines")
    p.add_argument("--mode", default=None, help="with --script: the mode the script plays (default %s)"
                   % SCRIPT_MODE)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="with --script: a mode option, e.g. lockout_ms=500 (repeatable)")
    p.add_argument("--players", type=int, help="with --script: players in the game")
    p.add_argument("--script", type=Path, help="timed edges '<t_us> <player> <down|up>': feed them, "
                   "print one JSON line per decision, exit (on a fresh temporary box unless --image)")
    p.add_argument("--tie-window-us", type=int, help="with --script: tie window in microseconds")
    p.set_defaults(func=run)
    return p


def check_heapsize(text):
    if not re.fullmatch(r"[1-9][0-9]*[kKmM]?", text or ""):
        raise CliError("--heapsize must look like 192k, 1m or 65536, got %r" % (text,))
    return text


def checked_image(image):
    """The image path made absolute; a folder is refused before its lock file is made beside it."""
    image = image.expanduser().resolve()
    if image.is_dir():
        raise CliError("--image %s is a folder: give the image file (e.g. %s)" % (image, image / "flash.img"))
    return image


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


def _raise_stopped(signum, frame):
    raise Stopped()


def run(args):
    heapsize = check_heapsize(args.heapsize)
    script = options = None
    if args.script is not None or args.players is not None or args.tie_window_us is not None \
            or args.mode is not None or args.option:
        options = script_options(args)
        script = parse_script(args.script, args.players)
    if script is None and not args.headless:
        from host import tui

        tui.need_terminal(sys.stdin)  # before the image is made or touched: this run could not use it
    exe = micropython_path()
    if args.board == "pico":
        return _run_pico(args, exe, script, options)
    if args.firmware is not None or args.capture is not None:
        raise CliError("--firmware and --capture are for --board pico")
    with _image(args, script, paths.default_sim_image_path(), "flash.img") as (image, scratch):
        with ImageLock(image):
            prepare_image(exe, heapsize, image, args.fresh or scratch, args.update)
            return _run_device(args, exe, image, heapsize, script, options)


@contextlib.contextmanager
def _image(args, script, default, filename):
    """(the image a run uses, whether it is a scratch one): --image, else a script's own new
    box (its games never land in the user's image; removed after), else the default."""
    if script is not None and not args.image:
        with tempfile.TemporaryDirectory(prefix="tablemate-script-") as tmp:
            yield Path(tmp) / filename, True
        return
    yield checked_image(Path(args.image) if args.image else default), False


def _run_pico(args, exe, script, options):
    """The emulated Pico on its flash image (made on first use or with --fresh; a script
    gets a new one of its own unless --image names one)."""
    if args.update:
        raise CliError("--update is for --board sim: on the Pico box use tablemate flash")
    with _image(args, script, rp2box.default_image_path(), rp2box.PICO_IMAGE_FILENAME) as (image, scratch):
        with ImageLock(image):
            new = args.fresh or scratch or not image.exists()
            if args.capture is not None and not new:
                raise CliError("--capture is written with a new image: add --fresh to start %s again (its "
                               "data goes), or set \"capture\" in the box's %s" % (image, rp2box.CONFIG_FILE))
            # after the image's own checks, which a careless command gets first; before the image is written
            uf2 = rp2box.find_uf2(args.firmware)
            rp2box.prepare_pico_image(exe, image, new, rp2box.config_files(args.capture))
            return _run(args, rp2box.PicoDevice(image, uf2), script, options, pico_script.run_script)


def _run_device(args, exe, image, heapsize, script, options):
    """Run the device on a prepared image until the front-end, the script or a signal ends it."""
    return _run(args, VirtualDevice(exe, image, heapsize), script, options)


def _run(args, device, script, options, play_script=run_script):
    old = {s: signal.signal(s, _raise_stopped) for s in (signal.SIGTERM, signal.SIGHUP)}
    old[signal.SIGINT] = signal.getsignal(signal.SIGINT)
    try:
        port = device.start()
        sys.stdout.write("serial: %s\n" % port)
        sys.stdout.flush()
        device.connect_world()
        if script is not None:
            return play_script(device, script, options, args.mode or SCRIPT_MODE)
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
