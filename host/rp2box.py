"""The emulated Pico: MicroPython's own rp2 build (the RPI_PICO UF2, unmodified) in the
rp2040js RP2040 emulator (rp2box/), with the firmware on its littlefs flash.

PicoDevice is a VirtualDevice whose child is `node rp2box/box.mjs` instead of the unix
port: the same pty for the serial protocol and mpremote, the same world channel for the
front-end (rp2box/board.mjs plays the board: buttons in; LEDs, OLED and piezo out).
prepare_pico_image() writes the flash image that `--fresh` starts from: the files
`tablemate flash` would copy, on a littlefs laid out as the rp2 port lays it out.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from host import paths
from host.cli import CliError
from host.device_files import ROOT
from host.virtual_device import VirtualDevice

RP2BOX = ROOT / "rp2box"
BOX_JS = RP2BOX / "box.mjs"
MAKE_FS = RP2BOX / "make_fs.py"
BOARDS_JSON = ROOT / "hardware" / "boards.json"
PROFILE = "pico"
UF2_ENV = "TABLEMATE_PICO_UF2"
# sys.implementation._mpy of MicroPython 1.28 on the RPI_PICO board: .mpy v6.3, armv6m.
PICO_MPY = 6 | 3 << 8 | 4 << 10
FLASH_SIZE = 2 * 1024 * 1024
PICO_IMAGE_FILENAME = "pico-flash.img"
CONFIG_FILE = "config.json"  # the box's own config (firmware/app.py): board, capture path
READY_TIMEOUT_S = 90.0  # chip start to hello, on a loaded 2-core machine at a fraction of real time


def default_image_path():
    return paths.data_dir() / PICO_IMAGE_FILENAME


UF2_MAGICS = ((0, 0x0A324655), (4, 0x9E5D5157), (508, 0x0AB16F30))  # a UF2 block's three marks
UF2_FAMILY_PRESENT = 0x2000  # flags: word 28 holds the family id
RP2040_FAMILY = 0xE48BFF56
# The MicroPython versions this project's emulated Pico is checked with (the firmware's
# build string carries the version and the board's name).
SUPPORTED_VERSIONS = ("1.28",)
PICO_BOARD_MARK = b"Raspberry Pi Pico with RP2040"
UF2_HELP = ("the official RPI_PICO UF2 from MicroPython's download page for the Raspberry Pi "
            "Pico (micropython.org/download/RPI_PICO/)")


def uf2_payload(path):
    """(the bytes the blocks write, in block order, or None when a block is malformed;
    the family ids the blocks name)."""
    data = Path(path).read_bytes()
    out, families = [], set()
    for off in range(0, len(data) - 511, 512):
        block = data[off:off + 512]
        if not all(int.from_bytes(block[at:at + 4], "little") == magic for at, magic in UF2_MAGICS):
            return None, families
        flags, size = int.from_bytes(block[8:12], "little"), int.from_bytes(block[16:20], "little")
        if flags & UF2_FAMILY_PRESENT:
            families.add(int.from_bytes(block[28:32], "little"))
        out.append(block[32:32 + min(size, 476)])
    return (b"".join(out) if out else None), families


def uf2_problem(path):
    """What is wrong with the file as the emulated Pico's firmware, in words, or None."""
    payload, families = uf2_payload(path)
    if payload is None:
        return "not a UF2 file"
    if families != {RP2040_FAMILY}:
        seen = ", ".join("0x%08x" % f for f in sorted(families))
        return "a UF2 for another chip (family %s), not the RP2040" % seen
    m = re.search(rb"MicroPython v(\d+\.\d+)\.\d+", payload)
    if m is None:
        return "an RP2040 UF2 but not MicroPython"
    if PICO_BOARD_MARK not in payload:
        return "MicroPython for another RP2040 board, not the RPI_PICO"
    version = m.group(1).decode()
    if version not in SUPPORTED_VERSIONS:
        return "MicroPython v%s; the emulated Pico is checked with v%s" % (
            version, ", v".join(SUPPORTED_VERSIONS))
    return None


def find_uf2(path=None):
    """The firmware file the user gives: --firmware, else $TABLEMATE_PICO_UF2."""
    if path:
        p, named = Path(path), "--firmware"
    elif os.environ.get(UF2_ENV):
        p, named = Path(os.environ[UF2_ENV]), "$" + UF2_ENV
    else:
        raise CliError("the emulated Pico boots MicroPython's own build: pass %s with --firmware "
                       "or $%s" % (UF2_HELP, UF2_ENV), 1)
    if not p.is_file():
        raise CliError("%s: no such UF2 file (%s)" % (p, named), 1)
    problem = uf2_problem(p)
    if problem:
        raise CliError("%s: %s (%s): the emulated Pico needs %s" % (p, problem, named, UF2_HELP), 1)
    return p.resolve()


def node_path():
    node = shutil.which("node")
    if node is None:
        raise CliError("the emulated Pico needs node (Debian: apt install nodejs npm)", 1)
    if not (RP2BOX / "node_modules" / "rp2040js").is_dir():
        raise CliError("rp2040js is not installed: run make pico (it runs npm ci in rp2box/)", 1)
    return node


def device_tree():
    """{device path: bytes}: what `tablemate flash` copies to a Pico, its manifest included."""
    from host import flash

    march = flash.compile_target(PICO_MPY)
    local = flash.build(march, backend="rp2")
    plan = flash.make_plan(local, {}, None, PICO_MPY, march)
    tree = dict(local)
    tree[flash.MANIFEST] = (json.dumps(plan.manifest, sort_keys=True, separators=(",", ":")) + "\n").encode()
    return tree


def config_files(capture=None):
    """{device path: bytes} of the box's config.json for a new image: the capture path when
    one is asked for (firmware/app.py reads it at boot), else nothing (the profile's)."""
    if capture is None:
        return {}
    return {CONFIG_FILE: (json.dumps({"board": PROFILE, "capture": capture}) + "\n").encode()}


def write_image(exe, image, extra=None):
    """A new flash image holding the firmware files and `extra` ({device path: bytes});
    replaces image once complete."""
    paths.ensure_parent(image)
    tree = device_tree()
    tree.update(extra or {})
    with tempfile.TemporaryDirectory(prefix="tablemate-pico-fs-") as tmp:
        for rel, data in tree.items():
            dest = Path(tmp) / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        res = subprocess.run([str(exe), "-X", "heapsize=8m", str(MAKE_FS), tmp, str(image)],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
    if res.returncode != 0:
        raise CliError("cannot write the flash image %s: %s" % (image, (res.stderr or res.stdout).strip()), 1)


def prepare_pico_image(exe, image, fresh, extra=None):
    """Write the image on first use or with --fresh (with `extra` files); otherwise check it
    is a flash image. True when it was written."""
    if fresh or not image.exists():
        write_image(exe, image, extra)
        return True
    if image.stat().st_size != FLASH_SIZE:
        raise CliError("%s is not a %d-byte Pico flash image (use --fresh to start a new one)"
                       % (image, FLASH_SIZE), 1)
    return False


def wait_hello(port, timeout=READY_TIMEOUT_S, idle=None):
    """The hello reply of the firmware on the emulated Pico once it answers (it boots for
    seconds of wall time); idle(seconds) is called between tries (default: sleep)."""
    from host import serial_client

    return serial_client.wait_hello(port, timeout, 0.5, idle)


def hello():
    """The world channel's hello for the pico profile (what the front-end draws); no device
    events come this way (the firmware has no world channel on a Pico)."""
    from firmware.board import layout

    with open(BOARDS_JSON) as f:
        profile = json.load(f)["profiles"][PROFILE]
    shown = layout(profile)
    o = profile["oled"]
    return {"t": "hello", "board": PROFILE, "leds": shown["leds"], "buttons": shown["buttons"],
            "oled": [o.get("width", 128), o.get("height", 64)] if o["enabled"] else None, "events": False}


class PicoDevice(VirtualDevice):
    """The emulated Pico behind a pty, with its world connection."""

    def __init__(self, image, uf2):
        VirtualDevice.__init__(self, None, image, board=PROFILE)
        self.uf2 = Path(uf2)
        self.node = node_path()

    def argv(self):
        return [self.node, str(BOX_JS), str(self.uf2), str(self.image), str(BOARDS_JSON), PROFILE]

    def _listen(self):
        env = VirtualDevice._listen(self)
        env["TABLEMATE_HELLO"] = json.dumps(hello())
        return env
