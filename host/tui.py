"""Terminal front-end of the virtual device (drawn with rich; raw-mode stdin; works inside tmux).

Keys 1-8 press the player buttons, m / o / b the mode / ok / back buttons, q quits.
A terminal reports no key-up, so a key press sends a down edge and, RELEASE_S later,
the up edge; auto-repeat while a key is held keeps the button down.
The screen shows each LED in its colour with a text label ("P3 lit" / "P3 off"), the
OLED as text and as a picture (Braille: 2x4 pixels per character), the buzzer, the last
events and the serial path. rich measures, wraps, colours (in what the terminal says it
can show) and places the lines; the layout (what gives way on a small terminal) is ours.
"""

import collections
import io
import json
import os
import selectors
import signal
import sys
import termios
import time
import tty

from rich.color import Color
from rich.console import Console
from rich.control import Control
from rich.screen import Screen
from rich.style import Style
from rich.text import Text

from firmware.buttons import BACK_BIT, MODE_BIT, OK_BIT, SEATS
from host.cli import CliError
from host.words import count

RELEASE_S = 0.12
# the events panel of a box whose play reaches the host only over its serial port
NO_EVENTS = "  none here: the OLED and LEDs show the play, `tablemate status --port %s` the rest"
KEYS = dict([(str(p + 1), p) for p in range(SEATS)] + [("m", MODE_BIT), ("o", OK_BIT), ("b", BACK_BIT)])
QUIT_KEYS = ("q", "Q", "\x03", "\x04")  # q, Ctrl-C, Ctrl-D
EVENT_LINES = 5
LEDS_PER_ROW = 5
LED_CELL = 14  # columns per LED: swatch, label and room
MIN_COLUMNS = 40  # narrower, the LEDs and the OLED's text no longer fit beside their labels
# Braille cells are 2x4 dots: ((dx, dy), bit of U+2800 + bits) for each dot.
BRAILLE_DOTS = (((0, 0), 0x01), ((0, 1), 0x02), ((0, 2), 0x04), ((1, 0), 0x08),
                ((1, 1), 0x10), ((1, 2), 0x20), ((0, 3), 0x40), ((1, 3), 0x80))
DIM = Style(dim=True)
BOLD = Style(bold=True)
# Wrapping needs a console only for its measures; nothing is written to this one.
_MEASURE = Console(file=io.StringIO(), width=1000)


class DeviceView:
    """What the front-end knows of the device, updated from world messages."""

    def __init__(self, port):
        self.port = port
        self.board = "?"
        self.led_labels = []
        self.leds = []  # (r, g, b) per chain index
        self.oled_size = None
        self.oled_lines = []
        self.fb = None
        self.tone = 0
        self.events = collections.deque(maxlen=EVENT_LINES)
        self.errors = 0
        self.hung_up = False
        self.halted = None  # why the firmware stopped (Ctrl-C: it sits in the REPL)
        self.hints = None  # what ok / back / mode do now (the box's "hints" event)
        self.nope = None  # the key that did nothing, until the next event
        self.no_events = False  # the box says nothing of its play on this channel (an emulated Pico)

    def apply(self, msg):
        t = msg.get("t")
        if t == "hello":
            self.board = msg.get("board", "?")
            self.no_events = msg.get("events") is False
            self.led_labels = list(msg.get("leds") or [])
            self.leds = [(0, 0, 0)] * len(self.led_labels)
            size = msg.get("oled")
            self.oled_size = tuple(size) if size else None
        elif t == "leds":
            rgb = bytes.fromhex(msg.get("rgb", ""))
            self.leds = [tuple(rgb[i:i + 3]) for i in range(0, len(rgb) - 2, 3)]
        elif t == "oled":
            import base64

            self.oled_size = (msg.get("w", 128), msg.get("h", 64))
            self.fb = base64.b64decode(msg.get("fb", ""))
            self.oled_lines = list(msg.get("lines") or [])
        elif t == "tone":
            self.tone = msg.get("f", 0)
        elif t == "event":
            kind = msg.get("kind")
            self.nope = msg.get("key") if kind == "nope" else None
            if kind == "hints":
                self.hints = msg
                return  # shown in the key line, not as an event
            self.events.append({k: v for k, v in msg.items() if k != "t"})
            if kind == "halted":
                self.halted = msg.get("why") or "?"
            elif msg.get("kind") == "ready":
                self.halted = None
        elif t == "error":
            self.errors += 1
            self.events.append({"error": msg.get("msg")})

    def led_label(self, i):
        return self.led_labels[i] if i < len(self.led_labels) and self.led_labels[i] else "LED%d" % i


def _swatch(rgb):
    """Two block characters in the LED's hue, brightened (LEDs run dimmed), or a dark pair."""
    top = max(rgb)
    if top == 0:
        return Text("░░", DIM)
    r, g, b = (c * 255 // top for c in rgb)
    return Text("██", Style(color=Color.from_rgb(r, g, b)))


def led_cells(view):
    cells = []
    for i in range(len(view.leds)):
        lit = max(view.leds[i]) > 0
        label = "%s %s" % (view.led_label(i), "lit" if lit else "off")
        cells.append(Text.assemble(_swatch(view.leds[i]), " ", (label, BOLD if lit else "")))
    return cells


def fb_rows(fb, width, height):
    """The MONO_VLSB frame buffer as rows of Braille characters (2x4 pixels each)."""
    def px(x, y):
        if x >= width or y >= height:
            return 0
        return (fb[(y >> 3) * width + x] >> (y & 7)) & 1

    rows = []
    for y in range(0, height, 4):
        row = []
        for x in range(0, width, 2):
            bits = 0
            for (dx, dy), dot in BRAILLE_DOTS:
                if px(x + dx, y + dy):
                    bits |= dot
            row.append(chr(0x2800 + bits))
        rows.append("".join(row))
    return rows


def render(view, width=120, height=None):
    """The screen as rich Text lines, each within width columns, and
    within height lines when given: the blank lines and the events give way first; the
    header, the LEDs, the OLED and the keys are always shown, or a line says how big the
    terminal must be."""
    header, leds, buzzer, events, footer = _blocks(view, width)
    oled = oled_lines(view, width, picture=True)
    gap = [Text()]
    padded = events + gap * (EVENT_LINES + 1 - len(events))  # the events keep their place as they come
    full = header + gap + leds + gap + oled + gap + buzzer + gap + padded + gap + footer
    if height is None or len(full) <= height:
        return full
    # Too tall: no blank lines, the OLED as text alone if its picture does not fit, then as
    # many of the latest events as there is room for.
    for screen in (oled, oled_lines(view, width, picture=False)):
        blocks = [header, leds, screen, buzzer]
        room = height - sum(len(b) for b in blocks) - len(footer)
        if room >= 0:
            if room >= 2:
                blocks.append(events[:1] + events[1:][-(room - 1):])
                room -= len(blocks[-1])
            lines = []
            for block in blocks:  # what room is left separates the blocks, the top ones first
                lines += block + [Text()] * (room > 0)
                room -= 1
            return lines + footer
    return too_small(view, width, height)


def _blocks(view, width):
    """(header, LEDs, buzzer, events, footer) as lines within width columns."""
    header = wrap(Text.assemble(("tablemate virtual device", BOLD),
                                "   board %s   serial %s" % (view.board, view.port)), width)
    leds = [Text("LEDs")]
    cells = led_cells(view)
    per_row = max(1, min(LEDS_PER_ROW, (width - 2) // LED_CELL))
    for start in range(0, len(cells), per_row):
        row = Text("  ")
        for cell in cells[start:start + per_row]:
            row.append_text(cell)
            row.append(" " * (LED_CELL - cell.cell_len))
        row.rstrip()
        leds.append(row)
    buzzer = [Text("buzzer: " + ("%d Hz" % view.tone if view.tone else "silent"))]
    events = [Text("events" + ("  (%s)" % count(view.errors, "error") if view.errors else ""))]
    for ev in view.events:  # one line each; a cut one ends in an ellipsis
        line = Text("  " + json.dumps(ev, separators=(",", ":")))
        line.truncate(width, overflow="ellipsis")
        events.append(line)
    if view.no_events and not view.events:
        events += wrap(Text(NO_EVENTS % view.port, DIM), width)
    footer = []
    if view.hung_up:
        footer += wrap(Text.assemble(("the device hung up", BOLD), " - press q"), width)
    elif view.halted:
        said = ": the REPL has the serial port; machine.soft_reset() there restarts it"
        footer += wrap(Text.assemble(("firmware stopped (%s)" % view.halted, BOLD), said), width)
    footer += wrap(key_line(view), width)
    return header, leds, buzzer, events, footer


def too_small(view, width, height):
    """The screen of a terminal the box does not fit: its size, and the size it needs."""
    need_width = max(width, MIN_COLUMNS)
    header, leds, buzzer, _events, footer = _blocks(view, need_width)
    need = len(header + leds + oled_lines(view, need_width, picture=False) + buzzer + footer)
    text = ("the terminal is %dx%d: the virtual box needs at least %dx%d to show its LEDs, screen and keys"
            " - make the window larger (q quits)" % (width, height, need_width, need))
    return wrap(Text(text, BOLD), max(width, 1))[:max(height, 1)]


def oled_lines(view, width, picture):
    """The OLED as Text lines: its text, and beside it its picture when asked and there is room."""
    text_width = 18
    if view.oled_size is None:
        return [Text("OLED: none on this board")]
    w, h = view.oled_size
    pic = fb_rows(view.fb, w, h) if view.fb and len(view.fb) >= w * h // 8 else []
    show_pic = picture and pic and width >= len(pic[0]) + text_width + 8
    text_rows = max(h // 8, len(view.oled_lines))
    lines = ["OLED" + (" " * (len(pic[0]) + 1) if show_pic else "") + "  text"]
    left = []
    if show_pic:
        bar = "─" * len(pic[0])
        left = ["┌" + bar + "┐"] + ["│" + r + "│" for r in pic] + ["└" + bar + "┘"]
    right = ["┌" + "─" * 16 + "┐"]
    for i in range(text_rows):
        t = view.oled_lines[i] if i < len(view.oled_lines) else ""
        right.append("│" + t[:16].ljust(16) + "│")
    right.append("└" + "─" * 16 + "┘")
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else (" " * len(left[0]) if left else "")
        b = right[i] if i < len(right) else ""
        lines.append(a + ("  " if left else "") + b)
    return [Text(line) for line in lines]


def wrap(line, width):
    """A Text as lines of at most width columns, broken at a space where there is one (its
    styles kept on every line)."""
    lines = list(line.wrap(_MEASURE, width, overflow="fold")) or [Text()]
    for part in lines:
        part.rstrip()  # the space it broke at
    return lines


def key_line(view):
    """The keys and what ok / back / mode do now (as the box's hint row says), and a word
    when the last key did nothing."""
    if view.hints:
        h = view.hints
        line = Text("keys: 1-8 players   o ok: %s   b back: %s   m mode: %s   q quit" % (
            h.get("ok", "?"), h.get("back", "?"), h.get("mode", "?")), DIM)
    else:  # not known here: the OLED's hint row says it
        line = Text("keys: 1-8 players   o ok   b back   m mode   q quit", DIM)
    if view.nope:
        line.append("   ")
        line.append("%s does nothing now" % view.nope, BOLD)
    return line


class Tui:
    def __init__(self, device, fd_in, out, resized_fd=None):
        """resized_fd: readable when the terminal was resized (SIGWINCH), to draw anew."""
        self.device = device
        self.world = device.world
        self.fd_in = fd_in
        self.out = out
        self.resized_fd = resized_fd
        # Drawn as on a terminal whatever out is; in the colours the terminal says it shows
        # (COLORTERM, TERM, NO_COLOR), truecolour where it can.
        self.console = Console(file=out, force_terminal=True, highlight=False)
        self.view = DeviceView(device.port)
        if self.world.hello is not None:
            self.view.apply(self.world.hello)
        self.held = {}  # button -> monotonic time its up edge is due

    def size(self):
        try:
            return tuple(os.get_terminal_size(self.out.fileno()))
        except OSError:
            return (120, None)

    def draw(self):
        width, height = self.size()
        if width < MIN_COLUMNS and height is not None:
            lines = too_small(self.view, width, height)
        else:
            lines = render(self.view, width, height)
        console = self.console
        console.size = (width, height or len(lines))
        with console:  # one write: the cursor home, then every cell of the screen
            console.control(Control.home())
            console.print(Screen(*lines, application_mode=True), end="")  # raw mode: \n\r

    def keys(self, text):
        """Handle the keys of one read; False to quit. Keys that arrive in one read were
        pressed together: their buttons go down at the same microsecond (one edge message
        each, in one write), so the arbiter sees them as pressed at once."""
        pressed = []
        due = time.monotonic() + RELEASE_S
        going_on = True
        for ch in text:
            if ch in QUIT_KEYS:
                going_on = False
                break
            button = KEYS.get(ch.lower())
            if button is None:
                continue
            if button not in self.held and button not in pressed:
                pressed.append(button)
            self.held[button] = due
        if pressed:
            self.world.edges([(button, True) for button in pressed])
        return going_on

    def release_due(self):
        """Up edges of the keys whose release is due; keys pressed together let go together."""
        now = time.monotonic()
        released = [button for button, due in self.held.items() if due <= now]
        for button in released:
            del self.held[button]
        if released:
            self.world.edges([(button, False) for button in released])

    def loop(self):
        sel = selectors.DefaultSelector()
        sel.register(self.fd_in, selectors.EVENT_READ, "keys")
        sel.register(self.world.sock, selectors.EVENT_READ, "world")
        if self.resized_fd is not None:
            sel.register(self.resized_fd, selectors.EVENT_READ, "resized")
        self.draw()
        try:
            while True:
                timeout = 0.5
                if self.held:
                    timeout = max(0.0, min(self.held.values()) - time.monotonic())
                dirty = False
                for key, _ in sel.select(timeout):
                    if key.data == "resized":
                        os.read(self.resized_fd, 64)
                        dirty = True  # drawn anew at its new size
                    elif key.data == "keys":
                        data = os.read(self.fd_in, 64)
                        if not data:
                            return 0
                        if not self.keys(data.decode("latin-1")):
                            return 0
                    else:
                        for msg in self.world.read():
                            self.view.apply(msg)
                            dirty = True
                        if self.world.closed and not self.view.hung_up:
                            sel.unregister(self.world.sock)
                            dirty = True
                            if self.device.revive():  # e.g. after a flash: the box resets
                                self.world = self.device.world
                                self.view = DeviceView(self.device.port)
                                self.view.apply(self.world.hello)
                                self.held = {}
                                sel.register(self.world.sock, selectors.EVENT_READ, "world")
                            else:
                                self.view.hung_up = True
                self.release_due()
                if dirty:
                    self.draw()
        finally:
            sel.close()


def need_terminal(stdin):
    """CliError unless stdin (a file or a descriptor) is a terminal; returns its descriptor."""
    try:
        fd = stdin if isinstance(stdin, int) else stdin.fileno()
        if os.isatty(fd):
            return fd
    except (AttributeError, ValueError, OSError):
        pass  # no stdin at all, or a closed one
    raise CliError("the terminal UI needs a terminal on stdin (use --headless for scripts)")


def run(device, fd_in=None, out=None):
    """Run the terminal UI until q; the terminal is restored whatever happens."""
    fd_in = need_terminal(sys.stdin if fd_in is None else fd_in)
    out = sys.stdout if out is None else out
    saved = termios.tcgetattr(fd_in)
    resized, poke = os.pipe()
    os.set_blocking(poke, False)  # a burst of resizes fills the pipe: one pending redraw is enough
    previous = signal.signal(signal.SIGWINCH, lambda signum, frame: _poke(poke))
    tui = Tui(device, fd_in, out, resized)
    try:
        tty.setraw(fd_in)
        with tui.console.screen(hide_cursor=True):  # the alternate screen, the cursor hidden
            return tui.loop()
    finally:
        termios.tcsetattr(fd_in, termios.TCSADRAIN, saved)
        signal.signal(signal.SIGWINCH, previous)
        os.close(resized)
        os.close(poke)


def _poke(fd):
    try:
        os.write(fd, b"r")
    except BlockingIOError:
        pass  # a redraw is already pending
