"""The Board interface the app codes against, and make_board, which builds one from its profile.

make_board(name, **overrides) builds the board through the backend the profile names
("backend": "rp2" -> firmware.board_pico, "unix" -> unixbox.board_sim), imported only
when asked for, through its build(profile, **options) -> Board. The profile is read and
checked by firmware/board_profile.py (ValueError with a clear message on any mistake),
which is forgotten once the board is built: a running box does not hold it. A new board
of an existing kind is a new profile in hardware/boards.json and nothing else.

Button snapshots are masks of the buttons currently down: bit i = player i+1 (i 0..7),
bit 8 = mode, bit 9 = ok, bit 10 = back (the constants live in firmware.buttons).
"""

from firmware.buttons import BACK_BIT, MODE_BIT, OK_BIT, SEATS, EdgeRing
from firmware.ticks import ticks_us

CONTROL_BITS = {"mode": MODE_BIT, "ok": OK_BIT, "back": BACK_BIT}
CAPTURE_METHODS = ("pio", "irq")
# backend name -> module; unixbox/ exists only on a unix-port box (host/device_files.py)
BACKENDS = {"rp2": "firmware.board_pico", "unix": "unixbox.board_sim"}


def make_board(name, path=None, **overrides):
    from firmware import modes

    # the profile's reading and checking code is not needed again
    profile, options = modes.call_once("firmware.board_profile", "board_setup", name, path, overrides)
    backend = __import__(BACKENDS[profile["backend"]], None, None, ["build"])
    return backend.build(profile, **options)


# -- the board interface --


class Board:
    """What the app sees of a board. Backends fill in pixels/oled/buzzer and the capture."""

    def __init__(self, profile, pixels, oled=None, buzzer=None, ring=None):
        self.name = profile["name"]
        self.profile = profile
        self.n_buttons = profile["players"]["count"]
        self.control_names = list(profile["controls"].get("names", []))
        self.ring = ring if ring is not None else EdgeRing()
        self.pixels = pixels
        self.oled = oled
        self.buzzer = buzzer
        self.capturing = False
        # How long after its stamp a press may still be on its way into the ring (an IRQ's
        # latency): the app decides at now_us() less this, so that every press stamped up
        # to the time it decides at has been fed (the arbiter's contract).
        self.capture_lag_us = 0

    def start_capture(self):
        self.capturing = True

    def stop_capture(self):
        self.capturing = False

    def now_us(self):
        """Now in the capture's tick domain (30-bit microseconds, firmware.ticks)."""
        return ticks_us()

    def clock_moves(self):
        """True when now_us() advances by itself (False: a virtual clock that moves only
        when told, so the app cannot sleep until a time on it)."""
        return True

    def uid(self):
        """The board's own serial number as hex, where the hardware has one."""
        return None

    def buttons_mask(self):
        """Every button this board has, as a snapshot mask."""
        m = (1 << self.n_buttons) - 1
        for c in self.control_names:
            m |= 1 << CONTROL_BITS[c]
        return m

    # Drivers configured from the profile (the app may also build its own).

    def make_leds(self, brightness=None):
        from firmware.leds import Leds

        leds = self.profile["leds"]
        if brightness is None:
            brightness = leds.get("brightness", 64)
        return Leds(
            self.pixels,
            self.n_buttons,
            leds.get("status_index"),
            brightness,
            leds.get("player_leds"),
        )

    def make_display(self):
        if self.oled is None:
            return None
        from firmware.display import Display

        o = self.profile["oled"]
        return Display(self.oled, o.get("width", 128), o.get("height", 64))

    def make_sound(self, volume=50, enabled=True):
        from firmware.sound import Sound

        return Sound(self.buzzer, volume, enabled)


def layout(profile):
    """What a player sees of a profile, whatever its pins: the buttons as [[bit, name]] and
    the LED chain as one label per index ("P1".., "status", "" for an unused LED).

    Every box built for the same table shows the same layout; the sim board's hello is it.
    """
    n = profile["players"]["count"]
    buttons = [[bit, button_name(bit)] for bit in range(n)]
    for name in profile["controls"].get("names", []):
        buttons.append([CONTROL_BITS[name], name])
    leds = profile["leds"]
    labels = [""] * leds["count"]
    player_leds = leds.get("player_leds") or list(range(n))
    for p in range(len(player_leds)):
        labels[player_leds[p]] = "P%d" % (p + 1)
    if leds.get("status_index") is not None:
        labels[leds["status_index"]] = "status"
    return {"buttons": buttons, "leds": labels}


def button_name(bit):
    """'P1'..'P8', 'mode', 'ok', 'back' for a snapshot bit."""
    if 0 <= bit < SEATS:
        return "P%d" % (bit + 1)
    for k, v in CONTROL_BITS.items():
        if v == bit:
            return k
    raise ValueError("no button at bit %r" % (bit,))
