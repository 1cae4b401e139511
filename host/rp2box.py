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
UF2_NAME = "micropython-v1.28.0-RPI_PICO.uf2"
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


def is_uf2(path):
    """True when the file starts with a whole UF2 block (its start and end marks)."""
    with open(path, "rb") as f:
        block = f.read(512)
    return len(block) == 512 and all(int.from_bytes(block[at:at + 4], "little") == magic
                                     for at, magic in UF2_MAGICS)


def find_uf2(path=None):
    """The firmware file: --firmware, then $TABLEMATE_PICO_UF2, then the one in rp2box/,
    then ../shared/rp2/ beside the checkout."""
    if path:
        candidates = [(Path(path), "--firmware")]
    elif os.environ.get(UF2_ENV):
        candidates = [(Path(os.environ[UF2_ENV]), "$" + UF2_ENV)]
    else:
        candidates = [(RP2BOX / UF2_NAME, None), (ROOT.parent / "shared" / "rp2" / UF2_NAME, None)]
    for p, named in candidates:
        if p.is_file():
            if not is_uf2(p):
                raise CliError("%s: not a UF2 file (%s): the emulated Pico boots MicroPython's "
                               "RPI_PICO .uf2" % (p, named or "the firmware found"), 1)
            return p.resolve()
    named = candidates[0][1]
    if named:
        raise CliError("%s: no such UF2 file (%s)" % (candidates[0][0], named), 1)
    raise CliError("no MicroPython UF2 for the emulated Pico: download the official RPI_PICO v1.28.0 "
                   "UF2 from micropython.org and pass it with --firmware or $%s" % UF2_ENV, 1)


def node_path():
    node = shutil.which("node")
    if node is None:
        raise CliError("the emulated Pico needs node (Debian: apt install nodejs npm)", 1)
    if not (RP2BOX / "node_modules" / "rp2040js").is_dir():
        raise CliError("rp2040js is not installed: run make (it runs npm ci in rp2box/)", 1)
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
