"""The emulated Pico for tests: one boot of MicroPython's own RPI_PICO build in rp2040js,
shared by a whole test module (a boot costs seconds of wall time on a loaded machine).

PicoBox wraps host.rp2box.PicoDevice: the serial pty (port), the world channel (world:
buttons in, LEDs/OLED/piezo out) and helpers that wait for conditions, never for time.
"""

import os
import shutil
import time

import pytest

from host import rp2box
from host.serial_client import DeviceClient
from host.virtual_device import micropython_path

# The host tools' link timeouts are for a Pico; the emulated one runs at 0.05-0.4x its speed.
TIMEOUT_SCALE = 15
READY_TIMEOUT_S = rp2box.READY_TIMEOUT_S


# The one line a run without the user's UF2 prints for each test it skips (make test's
# summary repeats it): the repository holds no MicroPython build.
NO_UF2 = ("emulated Pico not run: set TABLEMATE_PICO_UF2 to the official RPI_PICO v1.28 UF2 "
          "(micropython.org/download/RPI_PICO/)")


def require_node():
    """Skip unless the emulated Pico can boot here: node, rp2040js and the user's UF2."""
    if shutil.which("node") is None or not (rp2box.RP2BOX / "node_modules" / "rp2040js").is_dir():
        pytest.skip("the emulated Pico needs node and rp2box/node_modules (make installs them)")
    if not os.environ.get(rp2box.UF2_ENV):
        pytest.skip(NO_UF2)


class PicoBox:
    def __init__(self, image, fresh=True, capture=None):
        """capture: the capture path written into a fresh image's config.json (None: the
        profile's, PIO)."""
        require_node()
        self.image = image
        if fresh:
            rp2box.prepare_pico_image(micropython_path(), image, True, rp2box.config_files(capture))
        self.device = rp2box.PicoDevice(image, rp2box.find_uf2())
        self.started = time.monotonic()
        self.port = self.device.start()
        self.world = self.device.connect_world(READY_TIMEOUT_S)
        self.leds = None  # the strip as the world channel last reported it
        self.oled = None  # the last oled message
        self.messages = []
        self.hello = self.wait_hello()
        self.ready_s = time.monotonic() - self.started

    def pump(self, timeout=0.2):
        if self.world.closed:  # the box was stopped (another process may run its image now)
            time.sleep(timeout)
            return
        for msg in self.world.wait(timeout):
            self.messages.append(msg)
            if msg.get("t") == "leds":
                self.leds = msg["rgb"]
            elif msg.get("t") == "oled":
                self.oled = msg

    def wait_for(self, cond, timeout=60.0, what="condition"):
        deadline = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for %s (stderr: %s)"
                                     % (what, self.device.stderr_tail()))
            self.pump()

    def wait_hello(self):
        return rp2box.wait_hello(self.port, READY_TIMEOUT_S, self.pump)

    def ask(self, msg, timeout=60.0):
        """Send a world message and return the box's reply of the same type."""
        kind = msg["t"]
        self.messages = [m for m in self.messages if m.get("t") != kind]
        self.world.send(msg)
        found = []

        def answered():
            found.extend(m for m in self.messages if m.get("t") == kind)
            return bool(found)

        self.wait_for(answered, timeout, what="the box's %s reply" % kind)
        return found[-1]

    def now_us(self):
        """The emulated chip's virtual microsecond (ticks_us() there is this mod 2**30)."""
        return self.ask({"t": "now"})["us"]

    def flash_ops(self):
        """{"erase": E, "program": P, "log": the last 64 ops as [kind, flash offset, bytes]}:
        the flash erases and programs the chip made since the box started."""
        return self.ask({"t": "flash_ops"})

    def arm_cut(self, after_ops=1, applied=None, kind=None, block=None):
        """A power cut at the after_ops-th flash op from now (counting only erases or programs
        with kind, only ops inside the 4 KB block at flash offset block with block), once
        `applied` bytes of it reached the flash (None: all of it). cut_report() waits for it."""
        msg = {"t": "cut", "after_ops": after_ops}
        for key, value in (("applied", applied), ("kind", kind), ("block", block)):
            if value is not None:
                msg[key] = value
        self.messages = [m for m in self.messages if m.get("t") != "cut"]
        self.world.send(msg)

    def cut_report(self, timeout=60.0):
        """The box's report of the power cut armed last: {"us", "erase", "program", "op"},
        op: {"kind", "addr", "count", "applied"} of the flash op it stopped in."""
        found = []

        def cut():
            found.extend(m for m in self.messages if m.get("t") == "cut")
            return bool(found)

        self.wait_for(cut, timeout, what="the power cut")
        return found[-1]

    def power_on(self):
        """The chip starts again from its flash as the cut left it; returns its hello."""
        self.world.send({"t": "power_on"})
        self.hello = self.wait_hello()
        return self.hello

    def edges_at(self, edges):
        """[(virtual us, bit, down)]: the board's buttons at exactly those instants. An edge
        the box received after its instant (a loaded machine, too short a lead) is refused
        there, and raises here: a run with a press missing would measure something else."""
        for us, bit, down in edges:
            self.world.send({"t": "edge", "b": bit, "down": 1 if down else 0, "at_us": us})
        self.now_us()  # a round trip: the box has taken every edge before it answers
        wanted = {"edge at_us %d is in the past" % us for us, _, _ in edges}
        late = [m["msg"] for m in self.messages
                if m.get("t") == "error" and m["msg"].split(" (")[0] in wanted]
        if late:
            raise AssertionError("%d of %d edges reached the box too late: %s"
                                 % (len(late), len(edges), late[0]))

    def repl(self):
        """The board's raw REPL (stops the app, as mpremote does)."""
        from host.flash import RawRepl

        return RawRepl(self.port)

    def client(self, timeout=2.0):
        return DeviceClient(self.port, timeout=timeout)

    def led(self, index):
        """(r, g, b) of one LED as the board's data line showed it last."""
        h = self.leds[index * 6:index * 6 + 6]
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))

    def stop(self):
        if self.device is not None:
            self.device.stop()
            self.device = None
