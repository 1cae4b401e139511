"""The sim board: the "sim" profile of hardware/boards.json over the world channel.

Buttons arrive as edges from the front-end (unixbox/world.py) and go into the same
EdgeRing the Pico's capture fills, so everything after the ring is the Pico's code.
The LED chain, the OLED frame buffer and the piezo are sent to the front-end, each only
when it changed. Without a front-end (TABLEMATE_WORLD unset) the board still runs: its
outputs go nowhere and tests push edges straight into the ring.

Edge times: the front-end stamps each edge with its own microsecond clock. The first
edge of a connection fixes the offset to this board's ticks_us(), and every edge goes
into the ring at its own stamp plus that offset: the gaps between edges are exactly
the ones the front-end (or a script) chose, whatever the socket's delays.

Virtual time: a {"t": "clock", "us": T} message (same stamp domain as edges) switches the
board's now_us() from its own clock to T, advanced only by later clock messages. A script
can then replay hours of face-offs in seconds, and every decision is made at exactly the
stamp where it falls due, however the messages were batched on the way.

A real box's clock passes through every tick of a pause, and the firmware looks at it
every few ms. Its ticks wrap at 2**30 us and ticks_diff only tells apart times less than
half that (~9 minutes) apart. So a clock message further ahead than CLOCK_STEP_US is not
a jump: now_us() walks there in steps of at most CLOCK_STEP_US, one per reading (the
input task reads it once per pass), and the world channel reads nothing more until the
walk is done. T is compared with the last clock message's T as a plain int (a script's
own time never wraps): T smaller is refused.
"""

from firmware.board import Board, layout
from firmware.oled import OledBase
from firmware.ticks import TICKS_MASK, ticks_add, ticks_diff, ticks_us

OFF = (0, 0, 0)
RING_HIGH_WATER = 16  # world edges wait while more snapshots than this are unread
CLOCK_STEP_US = 1 << 28  # a quarter of the ticks period: well inside ticks_diff's reach


class WorldPixels:
    """A neopixel-like chain: pixels[i] = (r, g, b), write() sends the strip when it changed."""

    def __init__(self, n, world):
        self.n = n
        self.world = world
        self._px = [OFF] * n
        self._sent = None
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        self._px[i] = (colour[0], colour[1], colour[2])

    def __getitem__(self, i):
        return self._px[i]

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def hex(self):
        return "".join("%02x%02x%02x" % c for c in self._px)

    def write(self):
        text = self.hex()
        if text == self._sent:
            return
        self._sent = text
        self.writes += 1
        if self.world is not None:
            self.world.send({"t": "leds", "rgb": text})


class WorldOled(OledBase):
    """The OLED frame buffer; show() sends it (and the display's text lines) when it changed."""

    def __init__(self, world, width=128, height=64):
        super().__init__(width, height)
        self.world = world
        self.text_source = None  # a firmware.display.Display drawing here, for its text lines
        self._sent = None
        self.shows = 0

    def show(self):
        if self._sent is not None and self._sent == self.buffer:
            return
        self._sent = bytes(self.buffer)
        self.shows += 1
        if self.world is None:
            return
        import binascii

        lines = self.text_source.get_lines() if self.text_source is not None else []
        self.world.send({
            "t": "oled",
            "w": self.width,
            "h": self.height,
            "fb": binascii.b2a_base64(self.buffer, False).decode(),
            "lines": lines,
        })


class WorldBuzzer:
    """A piezo whose tones go to the front-end."""

    def __init__(self, world):
        self.world = world
        self.freq = 0

    def tone(self, freq_hz, duty_u16):
        self.freq = freq_hz
        if self.world is not None:
            self.world.send({"t": "tone", "f": freq_hz, "duty": duty_u16})

    def off(self):
        if self.freq:
            self.freq = 0
            if self.world is not None:
                self.world.send({"t": "tone", "f": 0, "duty": 0})


class SimBoard(Board):
    def __init__(self, profile, world=None):
        leds = profile["leds"]
        oled = None
        o = profile["oled"]
        if o["enabled"]:
            oled = WorldOled(world, o.get("width", 128), o.get("height", 64))
        buzzer = WorldBuzzer(world) if profile["piezo"]["enabled"] else None
        Board.__init__(self, profile, WorldPixels(leds["count"], world), oled, buzzer)
        self.world = world
        self.mask = 0  # buttons down now, as the front-end reported them
        self.edges = 0
        self.ignored_edges = 0  # edges that changed nothing (a repeated down, an up of a released button)
        self._offset = None
        self._vnow = None  # the virtual clock's tick, once a clock message arrived
        self._vstamp = None  # the last clock message's us
        self._vleft = 0  # us the virtual clock still has to walk to reach _vstamp
        # Edges stamped with the same us arrive one message at a time: only the us before
        # the clock's is complete.
        self.capture_lag_us = 1
        if world is not None:
            world.on("edge", self.on_edge)
            world.on("clock", self.on_clock)
            world.busy = self.busy
            world.send(self.describe())

    def describe(self):
        """The hello message: what the front-end should draw."""
        shown = layout(self.profile)
        o = self.oled
        return {
            "t": "hello",
            "board": self.name,
            "leds": shown["leds"],
            "buttons": shown["buttons"],
            "oled": None if o is None else [o.width, o.height],
        }

    def make_display(self):
        display = Board.make_display(self)
        if display is not None:
            self.oled.text_source = display
        return display

    def now_us(self):
        if self._vnow is not None:
            left = self._vleft
            if left:  # one step of a long pause per reading (see the module docstring)
                step = CLOCK_STEP_US if left > CLOCK_STEP_US else left
                self._vnow = ticks_add(self._vnow, step)
                self._vleft = left - step
            return self._vnow
        return ticks_us()  # the 30-bit domain of the ring's ticks

    def clock_moves(self):
        return self._vnow is None

    def busy(self):
        """True while the world channel must not read on: the ring is filling up, or the
        virtual clock is still walking through a pause."""
        return self._vleft > 0 or len(self.ring) > RING_HIGH_WATER

    def on_clock(self, msg):
        stamp = msg.get("us")
        if not isinstance(stamp, int) or isinstance(stamp, bool) or stamp < 0:
            raise ValueError("clock needs an int us >= 0")
        last = self._vstamp
        if last is not None and stamp < last:
            raise ValueError("the clock cannot go back")
        self._vstamp = stamp
        if last is None or stamp - last <= CLOCK_STEP_US:
            self._vnow = self.tick_for(stamp)
        else:
            self._vleft = stamp - last

    def tick_for(self, stamp_us):
        """The ring tick of a front-end stamp (see the module docstring)."""
        stamp = stamp_us & TICKS_MASK
        if self._offset is None:
            self._offset = ticks_diff(ticks_us(), stamp)
        return ticks_add(stamp, self._offset)

    def on_edge(self, msg):
        bit = msg["b"]
        down = msg["down"]
        stamp = msg["us"]
        if not isinstance(bit, int) or bit < 0 or not (self.buttons_mask() >> bit) & 1:
            raise ValueError("no button %r on this board" % (bit,))
        if down not in (0, 1) or not isinstance(stamp, int):
            raise ValueError("edge needs down 0|1 and an int us")
        self.press(bit, down, self.tick_for(stamp))

    def press(self, bit, down, tick):
        """Apply one edge at ring tick `tick` (also the entry point for tests without a world)."""
        mask = self.mask | (1 << bit) if down else self.mask & ~(1 << bit)
        if mask == self.mask:
            self.ignored_edges += 1
            return False
        self.mask = mask
        self.edges += 1
        if self.capturing:
            self.ring.push(mask, tick)
        return True

    def close(self):
        if self.world is not None:
            self.world.close()


def build(profile, world=None, connect=True):
    """The sim Board; connects to the front-end named by TABLEMATE_WORLD unless given one."""
    if world is None and connect:
        from unixbox.world import World, port_from_env

        port = port_from_env()
        if port is not None:
            world = World(port)
    return SimBoard(profile, world)
