"""Screen layouts in 8x8 text cells over any framebuf-like object (16 x 8 cells on 128x64).

The target needs fill(c), fill_rect(x, y, w, h, c), text(s, x, y, c) and, if it has one,
show(). Every layout also keeps the screen as plain text lines (get_lines()) so a front-end
or the serial link can show the OLED's content as text.

A hint (set_hint) takes the bottom row under every layout until it is changed: which key
does what on this screen ("O:- B:undo M:end"); the layouts then keep to the rows above it,
except text that needs every row (the hint comes back with the next layout).
"""

try:
    import framebuf
except ImportError:  # CPython with a drawing fake: big text falls back to normal text
    framebuf = None

from firmware.screen_text import screen_text

CELL = 8  # the framebuf font is 8x8 pixels (printable ASCII: other letters via screen_text)
BIG = 2  # scale of the winner line


class Display:
    def __init__(self, fb, width=128, height=64):
        self.fb = fb
        self.width = width
        self.height = height
        self.cols = width // CELL
        self.rows = height // CELL
        self.kind = "blank"
        self._lines = [""] * self.rows
        self._glyph_buf = None
        self._glyph = None
        self.hint = None
        self._hint_off = False  # this frame's text needs the hint's row too

    def set_hint(self, text):
        """The key hint on the bottom row (None: no hint row); redrawn at once if it changed."""
        if text == self.hint:
            return
        if self._hint_off:  # the text on screen uses that row: the next layout shows it
            self.hint = text
            return
        last = self.rows - 1
        self.fb.fill_rect(0, last * CELL, self.width, CELL, 0)
        self._lines[last] = ""
        self.hint = text
        self._finish()

    def free_rows(self):
        """Rows a layout may use: all of them, or all but the hint's."""
        return self.rows - 1 if self.hint and not self._hint_off else self.rows

    def get_lines(self):
        """The screen as text, one string per 8-pixel row (trailing spaces dropped)."""
        return list(self._lines)

    # -- drawing primitives in cell units --

    def _begin(self, kind):
        self.kind = kind
        self._hint_off = False
        self.fb.fill(0)
        for r in range(self.rows):
            self._lines[r] = ""

    def _finish(self):
        if self.hint and not self._hint_off:
            self._put(self.rows - 1, self.hint)
        show = getattr(self.fb, "show", None)
        if show is not None:
            show()

    def _clip(self, text):
        return screen_text(str(text))[: self.cols]

    def _put(self, row, text, col=0, inverted=False):
        """Text at a cell position; an inverted row is a lit bar with dark letters."""
        if not 0 <= row < self.rows:
            return
        text = self._clip(text)[: self.cols - col]
        if inverted:
            self.fb.fill_rect(0, row * CELL, self.width, CELL, 1)
        self.fb.text(text, col * CELL, row * CELL, 0 if inverted else 1)
        line = self._lines[row]
        if len(line) < col:
            line = line + " " * (col - len(line))
        line = line[:col] + text + line[col + len(text) :]
        self._lines[row] = line.rstrip()

    def _centred(self, text, width):
        text = screen_text(str(text))[:width]
        return " " * ((width - len(text)) // 2) + text

    def _title(self, title):
        self._put(0, self._centred(title, self.cols), 0, True)

    def _big(self, row, text):
        """Text at twice the size across rows row and row+1; too long for that -> normal size."""
        text = screen_text(str(text))
        big_cols = self.cols // BIG
        if len(text) > big_cols or framebuf is None:
            self._put(row, self._centred(text, self.cols))
            return
        x0 = (self.width - len(text) * CELL * BIG) // 2
        if self._glyph is None:
            self._glyph_buf = bytearray(CELL)
            self._glyph = framebuf.FrameBuffer(self._glyph_buf, CELL, CELL, framebuf.MONO_VLSB)
        g = self._glyph
        y0 = row * CELL
        for n in range(len(text)):
            g.fill(0)
            # a slice, not text[n]: MicroPython interns every character taken by index, for good
            g.text(text[n:n + 1], 0, 0, 1)
            for y in range(CELL):
                for x in range(CELL):
                    if g.pixel(x, y):
                        self.fb.fill_rect(x0 + (n * CELL + x) * BIG, y0 + y * BIG, BIG, BIG, 1)
        self._lines[row] = self._centred(text, self.cols).rstrip()

    # -- layouts --

    def clear(self):
        self._begin("blank")
        self._finish()

    def picture(self, draw):
        """A frame that draw(fb) paints (the self-test's pattern); no text on it."""
        self._begin("picture")
        draw(self.fb)
        self._finish()

    def text(self, lines, title=None):
        """Plain lines of text, under a title bar if one is given."""
        self._begin("text")
        # text that needs every row hides the hint (the front-end's key line still names the keys)
        self._hint_off = len(lines) + (title is not None) > self.free_rows()
        row = 0
        if title is not None:
            self._title(title)
            row = 1
        for line in lines:
            if row >= self.free_rows():
                break
            self._put(row, line)
            row += 1
        self._finish()

    def winner(self, name, detail="", title="WINNER"):
        """Title bar, the winner's name in big letters, an optional detail line below."""
        self._begin("winner")
        self._title(title)
        self._big(3, name)
        if detail:
            self._put(self.free_rows() - 1, self._centred(detail, self.cols))
        self._finish()

    def scores(self, table, title="SCORES", head=None):
        """(name, score) pairs under a title (and a head line if given): one per row, or two
        columns if they don't fit."""
        self._begin("scores")
        self._title(title)
        top = 1
        if head:
            self._put(1, head)
            top = 2
        free = self.free_rows() - top
        if len(table) <= free:
            for i in range(len(table)):
                self._put(top + i, self._score_cell(table[i], self.cols))
        else:
            half = self.cols // 2
            for i in range(min(len(table), 2 * free)):
                col = 0 if i < free else half
                self._put(top + i % free, self._score_cell(table[i], half - 1), col)
        self._finish()

    def _score_cell(self, entry, width):
        name, score = entry
        score = str(score)
        room = width - len(score) - 1
        name = screen_text(str(name))[: max(room, 0)]
        return name + " " * (width - len(name) - len(score)) + score

    def menu(self, items, selected, title="MENU"):
        """A scrolling list under a title; the selected item is marked '>' and inverted."""
        self._begin("menu")
        self._title(title)
        visible = self.free_rows() - 1
        first = 0
        if selected >= visible:
            first = selected - visible + 1
        for i in range(first, min(len(items), first + visible)):
            mark = ">" if i == selected else " "
            self._put(1 + i - first, mark + str(items[i]), 0, i == selected)
        self._finish()
