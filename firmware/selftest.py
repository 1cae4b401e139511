"""The self-test a host drives over the selftest op (`tablemate doctor`): one part at a time.

    buttons   every edge is reported as a "button" event and shown on the screen, and
              changes nothing else (mode, ok and back do not move the menu)
    leds      one LED (or all) in one colour, at the build's brightness cap
    display   a test pattern: 8x8 checkerboard inside a frame on the screen's edge
    sound     a tone of the asked frequency on the piezo (0: silence), muted or not
    end       everything back as it was

While a part holds the LEDs or the screen the app's own drawing stops. The selftest op
(firmware/link_ops.py) loads this module only for a self-test, and it is dropped when the
test ends (no heap while a game runs; the app holds none of its code). A self-test no
request touched for IDLE_END_MS ends by itself: a host that went away leaves a usable box.
"""

import time

from firmware import modes
from firmware.board import button_name
from firmware.buttons import SEATS
from firmware.link_ops import SELFTEST_COLOURS
from firmware.sound import MAX_DUTY
from firmware.ticks import ticks_diff

IDLE_END_MS = 60000
CELL = 8  # the checkerboard's squares, in pixels
TONE_DUTY = MAX_DUTY // 2
RGB = {"red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255), "white": (255, 255, 255),
       "off": (0, 0, 0)}


def names_of(mask):
    out = []
    for bit in range(16):
        if mask & (1 << bit):
            out.append(button_name(bit))
    return out


def test_pattern(fb, width, height):
    """The display part's picture: lit squares where (column + row) of the cell is even,
    and a frame on the outermost pixels (a shifted or cut image shows at its edge)."""
    fb.fill(0)
    for cy in range(height // CELL):
        for cx in range(width // CELL):
            if (cx + cy) % 2 == 0:
                fb.fill_rect(cx * CELL, cy * CELL, CELL, CELL, 1)
    fb.rect(0, 0, width, height, 1)


def run(app, part, args, before):
    """The selftest op (firmware/link_ops.py) on the app: only from the menu, never over a
    game. The first part starts the self-test; before: the modules loaded before this
    one, dropped with it when it ends or when its first part is refused."""
    st = app.selftest
    if st is None and (app.mode is not None or part == "end"):
        modes.unload(before)  # nothing started
        if app.mode is None:
            return {}
        from firmware.protocol import BUSY, OpError

        raise OpError(BUSY, "%s is running: back to the menu first" % app.mode_name)
    if st is None:
        st = app.selftest = SelfTest(app, time.ticks_ms(), before)
    started = st.part is None
    try:
        fields = st.run(part, args, time.ticks_ms())
    except ValueError:
        if started:  # refused before it began: nothing changed
            app.selftest = None
            modes.unload(before)
        raise
    fields["part"] = part
    return fields


class SelfTest:
    def __init__(self, app, now_ms, before=None):
        self.app = app
        self.before = before  # the modules to keep when it ends (modes.unload)
        self.part = None
        self.last_ms = now_ms
        self.owns_leds = False  # the LEDs show the test, not the app (the screen is the test's throughout)
        self.pressed = None  # the last button pressed, for the screen
        self._redraw = False

    def run(self, part, args, now_ms):
        """One request: checks first (ValueError, nothing changed), then the part's work."""
        board = self.app.board
        count = board.profile["leds"]["count"]
        if part == "leds" and args["led"] is not None and args["led"] >= count:
            raise ValueError("led must be 0..%d on this board" % (count - 1))
        if part == "leds" and args["colour"] not in SELFTEST_COLOURS:
            raise ValueError("unknown colour %s" % args["colour"])
        self.last_ms = now_ms
        if self.part is None:
            self._take_screen()
        self.part = part
        return getattr(self, "_" + part)(args)

    def _take_screen(self):
        """No key hints while the test runs (the keys do nothing else): on the screen's
        bottom row and in the front-end's key line. The menu puts its own back at the end."""
        app = self.app
        if app.display is not None:
            app.display.set_hint(None)
        app.emit("hints", {"ok": "-", "back": "-", "mode": "-", "line": ""})

    def _buttons(self, args):
        app = self.app
        deb = app.debouncer
        if self.owns_leds:  # back to the menu's button test: each player's LED lights while held
            self.owns_leds = False
            app.leds.refresh()
        self._redraw = True
        buttons = [[bit, button_name(bit)] for bit in range(16) if app.board.buttons_mask() & (1 << bit)]
        return {
            "buttons": buttons,
            "down": names_of(app.board.ring.level),
            "stuck": names_of(deb.stuck | deb.held_at_boot),
        }

    def _leds(self, args):
        board = self.app.board
        prof = board.profile["leds"]
        cap = prof.get("brightness", 64)
        c = RGB[args["colour"]]
        rgb = (c[0] * cap // 255, c[1] * cap // 255, c[2] * cap // 255)
        pixels = board.pixels
        for i in range(prof["count"]):
            pixels[i] = rgb if args["led"] is None or args["led"] == i else (0, 0, 0)
        pixels.write()
        self.owns_leds = True
        return {"led": args["led"], "colour": args["colour"], "rgb": list(rgb), "count": prof["count"]}

    def _display(self, args):
        board = self.app.board
        display = self.app.display
        if display is None:
            return {"display": "missing" if "oled" in getattr(board, "missing", ()) else "none"}
        o = board.profile["oled"]
        display.picture(lambda fb: test_pattern(fb, o.get("width", 128), o.get("height", 64)))
        self._redraw = False
        return {"display": "drawn", "size": [o.get("width", 128), o.get("height", 64)]}

    def _sound(self, args):
        buzzer = self.app.board.buzzer
        if buzzer is None:
            return {"sound": "none"}
        self.app.sound.stop()
        if args["hz"]:
            buzzer.tone(args["hz"], TONE_DUTY)
        else:
            buzzer.off()
        return {"sound": "on" if args["hz"] else "off", "hz": args["hz"]}

    def _end(self, args):
        self.end(self.last_ms)
        return {}

    def on_button(self, bit, down):
        """A debounced edge: reported, and shown (a player's LED lights as in the menu's test)."""
        app = self.app
        app.emit("button", {"bit": bit, "name": button_name(bit), "down": down})
        if self.part == "buttons":
            if bit < SEATS and not self.owns_leds:
                app._button_test(bit, down)
            if down:
                self.pressed = button_name(bit)
                self._redraw = True

    def tick(self, now_ms):
        """From the app's LED task. True when the app's LEDs should tick (they are its own)."""
        if ticks_diff(now_ms, self.last_ms) >= IDLE_END_MS:
            self.end(now_ms)
            return True
        if self._redraw and self.part == "buttons":
            self._redraw = False
            display = self.app.display
            if display is not None:
                display.text(["press each", "button in turn", "", "last: %s" % (self.pressed or "-")],
                             title="SELF TEST")
        return not self.owns_leds

    def restore(self):
        """Outputs back to the app: silence, every LED rewritten at the next tick."""
        buzzer = self.app.board.buzzer
        if buzzer is not None:
            buzzer.off()
        self.app.leds.refresh()

    def end(self, now_ms):
        """Everything back as it was: outputs to the app, its menu on the screen, this code
        dropped."""
        app = self.app
        app.selftest = None
        self.restore()
        modes.unload(self.before)
        app._show_menu(now_ms)
