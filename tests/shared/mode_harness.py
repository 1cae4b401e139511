"""Run a game mode as a spec: "presses at these µs -> these events, records and screens".

A Box holds the mode with the real firmware.context.Context over real parts: the
journal and settings in a temporary folder, the LED driver over a recording strip, the
display over a recording frame buffer, the sound driver without a buzzer, and a virtual
clock the spec moves. Buttons go in as the app hands them over (after the debouncer):
press(seat, at_us) is a down and, hold_us later, an up; an unused back returns to the
menu as on the box. run_to(t_us) lets the input task run at that time.

    box = Box(path, "anomia", players=4, lockout_ms=800)
    box.press(2, at_us=10000); box.press(0, at_us=14000)
    box.run_to(900000)
    assert box.decisions() == [{"event": "win", "winner": 3, ...}]
    assert box.screen()[0] == "SCORES" and box.lit() == [0, 1, 2, 3]
"""

import gc

from firmware import modes
from firmware.app_parts import Input
from firmware.buttons import BACK_BIT, MODE_BIT, OK_BIT, SEATS
from firmware.context import Context
from firmware.display import Display
from firmware.journal import Journal
from firmware.leds import Leds
from firmware.settings import Settings
from firmware.sound import Sound
from tests.shared.box_parts import Debounced, Screen, Strip, VirtualClock  # noqa: F401 - the specs import them from here too

MS = 1000


class Box:
    def __init__(self, path, mode, **options):
        self.path = path
        self.name = mode
        self.settings = Settings(path + "/settings.json")
        self.journal = Journal(path + "/journal")
        self.strip = Strip(SEATS)
        self.leds = Leds(self.strip, SEATS)
        self.display = Display(Screen())
        self.sound = Sound(None)
        self.clock = VirtualClock()
        self.debounced = Debounced()
        self.input = Input(self.debounced, SEATS)
        self.events = []
        self.hints = None
        self.in_menu = False
        self.ctx = Context(mode, self.input, self.leds, self.display, self.sound, self.clock, self.journal,
                           self.settings, self._emit, path)
        gc.collect()  # a mode's first import compiles its source: room in one piece
        self.mode = modes.load(mode)(self.ctx, options)
        self.mode.start(self.clock.now_ms())

    def _emit(self, kind, fields=None):
        if kind == "hints":  # one per change of screen: kept as its line, small on a test heap
            self.hints = (fields["ok"], fields["back"], fields["mode"])  # the latest, as a front-end keeps it
            fields = fields["line"]
        self.events.append((kind, fields))

    # ---- input

    def _at(self, t_us):
        if t_us > self.clock.us:
            self.clock.us = t_us

    def button(self, bit, down, at_us):
        """One debounced edge, as the app hands it to the mode; False if back left the mode."""
        self._at(at_us)
        used = self.mode.on_button(bit, down, at_us)
        if not used and down and bit == BACK_BIT:
            self.in_menu = True
        return used

    def press(self, seat, at_us, hold_us=50 * MS):
        self.button(seat, 1, at_us)
        self.button(seat, 0, at_us + hold_us)

    def back(self, at_us):
        return self.button(BACK_BIT, 1, at_us)

    def mode_button(self, at_us):
        return self.button(MODE_BIT, 1, at_us)

    def ok(self, at_us):
        return self.button(OK_BIT, 1, at_us)

    def run_to(self, t_us):
        """The input task at t_us: its clock reading, then the mode's tick."""
        self._at(t_us)
        self.input.at_us = t_us
        self.mode.tick(self.clock.now_ms())

    # ---- what came out

    def decisions(self):
        return [f for k, f in self.events if k == "decision"]

    def records(self, kind=None):
        recs = self.journal.records_since(0, 1000)
        return recs if kind is None else [r for r in recs if r["kind"] == kind]

    def actions(self):
        return [r["data"].get("action") for r in self.records("action")]

    def screen(self):
        """The OLED's text rows, each stripped of its centring."""
        return [line.strip() for line in self.display.get_lines()]

    def lit(self):
        """Seats whose LED shows a colour right now."""
        self.leds.tick(self.clock.now_ms())
        return [p for p in range(SEATS) if self.strip[p] != (0, 0, 0)]

    def reboot(self, **options):
        """A power cut and a new start on the same storage (nothing was stopped cleanly).
        This box is gone afterwards, as the RAM of a box that lost power."""
        self.journal.close()
        self.mode = self.ctx = self.leds = self.display = self.settings = None
        gc.collect()  # a small test heap holds one box's game, not two
        return Box(self.path, self.name, **options)
