"""Screen layouts (text lines and frame buffer pixels) and the SSD1306 bytes on the I2C bus."""

from firmware import ssd1306 as S
from firmware.display import Display
from firmware.oled import OledBase
from tests.shared.compat import IS_MICROPYTHON, raises, skip


class RecordingFb:
    """framebuf-like drawing target that records calls (runs on CPython too)."""

    def __init__(self):
        self.calls = []
        self.shows = 0

    def fill(self, c):
        self.calls = [("fill", c)]

    def fill_rect(self, x, y, w, h, c):
        self.calls.append(("fill_rect", x, y, w, h, c))

    def text(self, s, x, y, c):
        self.calls.append(("text", s, x, y, c))

    def show(self):
        self.shows += 1


def _texts(fb):
    return [c[1:] for c in fb.calls if c[0] == "text"]


def test_text_lines_are_kept_clipped_and_drawn_on_the_cell_grid():
    fb = RecordingFb()
    d = Display(fb)
    d.text(["hello", "a line that is far too long", 42])
    lines = d.get_lines()
    assert len(lines) == 8
    assert lines[:3] == ["hello", "a line that is f", "42"]
    assert lines[3:] == [""] * 5
    assert _texts(fb) == [("hello", 0, 0, 1), ("a line that is f", 0, 8, 1), ("42", 0, 16, 1)]
    assert fb.shows == 1
    # get_lines is a copy
    d.get_lines()[0] = "x"
    assert d.get_lines()[0] == "hello"


def test_title_bar_is_inverted_and_centred():
    fb = RecordingFb()
    d = Display(fb)
    d.text(["one"], title="ANOMIA")
    assert ("fill_rect", 0, 0, 128, 8, 1) in fb.calls
    assert ("text", "     ANOMIA", 0, 0, 0) in fb.calls
    assert d.get_lines()[:2] == ["     ANOMIA", "one"]
    # more lines than rows: the extra ones are dropped
    d.text(["r%d" % i for i in range(10)], title="T")
    assert d.get_lines()[-1] == "r6"


def test_scores_table_one_and_two_columns():
    fb = RecordingFb()
    d = Display(fb)
    d.scores([("Alice", 12), ("Bob", 3), ("Christopherson", 100)])
    assert d.kind == "scores"
    assert d.get_lines()[1:4] == ["Alice         12", "Bob            3", "Christophers 100"]
    eight = [("P%d" % i, i * 10) for i in range(1, 9)]
    d.scores(eight, title="ROUND 2")
    lines = d.get_lines()
    assert lines[0] == "    ROUND 2"
    assert lines[1] == "P1   10 P8   80"  # two 7-wide cells, a blank column between
    assert lines[7] == "P7   70"
    assert ("text", "P8   80", 64, 8, 1) in fb.calls


def test_menu_marks_and_scrolls_to_the_selection():
    fb = RecordingFb()
    d = Display(fb)
    items = ["Anomia", "Anastasia", "Anathema", "Settings"]
    d.menu(items, 1)
    assert d.get_lines()[1:5] == [" Anomia", ">Anastasia", " Anathema", " Settings"]
    assert ("fill_rect", 0, 16, 128, 8, 1) in fb.calls
    assert ("text", ">Anastasia", 0, 16, 0) in fb.calls
    many = ["item %d" % i for i in range(12)]
    d.menu(many, 9)
    lines = d.get_lines()
    assert lines[-1] == ">item 9" and lines[1] == " item 3"


def test_winner_screen_text():
    fb = RecordingFb()
    d = Display(fb)
    d.winner("Alice", "wins the card")
    lines = d.get_lines()
    assert lines[0] == "     WINNER"
    assert lines[3] == "     Alice"
    assert lines[7] == " wins the card"
    d.winner("Maximilian-Alexander")  # too long for big letters: normal size, clipped
    assert d.get_lines()[3] == "Maximilian-Alexa"
    d.clear()
    assert d.get_lines() == [""] * 8 and d.kind == "blank"


# -- real frame buffer pixels (MicroPython's framebuf) --


class FakeI2C:
    def __init__(self):
        self.transfers = []

    def writevto(self, addr, vec):
        self.transfers.append((addr, b"".join(bytes(v) for v in vec)))


def _oled():
    if not IS_MICROPYTHON:
        skip("framebuf is MicroPython's")
    return OledBase(128, 64)


def test_glyph_pixels_land_in_the_frame_buffer():
    oled = _oled()
    d = Display(oled)
    d.text(["A"], title="T")
    # title bar: lit background, the letter dark
    assert oled.pixel(0, 0) == 1 and oled.pixel(127, 7) == 1
    # "A" on row 1: the 8x8 font's apex is the middle of its top line, its left edge below
    assert oled.pixel(3, 8) == 1 and oled.pixel(0, 8) == 0
    assert oled.pixel(1, 12) == 1 and oled.pixel(0, 12) == 0
    assert oled.pixel(20, 20) == 0


def test_big_winner_letters_are_twice_the_size():
    oled = _oled()
    small = OledBase(128, 64)
    small.text("I", 0, 0, 1)
    d = Display(oled)
    d.winner("I")
    x0 = (128 - 16) // 2
    for y in range(8):
        for x in range(8):
            want = small.pixel(x, y)
            for dy in range(2):
                for dx in range(2):
                    assert oled.pixel(x0 + 2 * x + dx, 24 + 2 * y + dy) == want, (x, y)


# -- SSD1306 command bytes --

INIT_128X64 = bytes(
    (
        0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 0x3F, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80,
        0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xCF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF,
    )
)  # fmt: skip


def test_init_sequence_bytes():
    i2c = FakeI2C()
    link = S.Ssd1306Link(i2c, 0x3C)
    link.init_display()
    assert i2c.transfers == [(0x3C, b"\x00" + INIT_128X64)]
    short = S.init_sequence(128, 32)
    assert short[5:7] == b"\xa8\x1f" and short[10:12] == b"\xda\x02"
    ext = S.init_sequence(128, 64, external_vcc=True)
    assert ext[14:16] == b"\xd9\x22" and ext[18:20] == b"\x81\x9f" and ext[22:24] == b"\x8d\x10"
    raises(ValueError, S.init_sequence, 64, 48)


def test_frame_and_single_commands():
    i2c = FakeI2C()
    link = S.Ssd1306Link(i2c, 0x3D)
    frame = bytearray(1024)
    frame[0] = 0x81
    frame[1023] = 0x7E
    link.write_frame(frame)
    assert i2c.transfers[0] == (0x3D, bytes((0x00, 0x21, 0, 127, 0x22, 0, 7)))
    assert i2c.transfers[1] == (0x3D, b"\x40" + bytes(frame))
    i2c.transfers = []
    link.contrast(0x10)
    link.power(False)
    link.power(True)
    link.invert(True)
    link.invert(False)
    assert [t[1] for t in i2c.transfers] == [
        b"\x00\x81\x10", b"\x00\xae", b"\x00\xaf", b"\x00\xa7", b"\x00\xa6"
    ]  # fmt: skip
    raises(ValueError, link.contrast, 256)
    small = S.Ssd1306Link(FakeI2C(), width=128, height=32)
    small.write_frame(bytearray(512))
    assert small.i2c.transfers[0][1] == bytes((0x00, 0x21, 0, 127, 0x22, 0, 3))


def test_ssd1306_panel_initialises_and_shows_its_buffer():
    if not IS_MICROPYTHON:
        skip("framebuf is MicroPython's")
    i2c = FakeI2C()
    oled = S.SSD1306(i2c)
    assert i2c.transfers[0][1] == b"\x00" + INIT_128X64
    assert i2c.transfers[2][1] == b"\x40" + bytes(1024)  # cleared panel
    oled.pixel(0, 0, 1)  # page 0, column 0, bit 0
    oled.pixel(5, 9, 1)  # page 1, column 5, bit 1
    oled.show()
    data = i2c.transfers[-1][1]
    assert data[0] == 0x40 and data[1 + 0] == 0x01 and data[1 + 128 + 5] == 0x02
    assert sum(1 for b in data[1:] if b) == 2


def test_oled_base_show_is_a_hook():
    oled = _oled()

    class Sent(OledBase):
        def __init__(self):
            super().__init__(128, 32)
            self.frames = []

        def show(self):
            self.frames.append(bytes(self.buffer))

    s = Sent()
    Display(s, 128, 32).text(["hi"])
    assert len(s.frames) == 1 and len(s.frames[0]) == 512 and any(s.frames[0])
    assert oled.show() is None


def test_latin1_letters_are_drawn_as_their_ascii_base():
    from firmware.screen_text import screen_text

    fb = RecordingFb()
    d = Display(fb)
    d.scores([("Zo\xeb", 3), ("\xc6r\xf8", 12), ("Jos\xe9", 0)])
    assert d.get_lines()[1:4] == ["Zoe            3", "AEro          12", "Jose           0"]
    d.winner("Jos\xe9", "Fran\xe7ois next")
    assert d.get_lines()[3].strip() == "Jose" and d.get_lines()[7].strip() == "Francois next"
    drawn = "".join(t[0] for t in _texts(fb))
    assert drawn and all(" " <= c <= "~" for c in drawn)  # the font has nothing else
    assert screen_text("Stra\xdfe") == "Strasse" and screen_text("\u0141ukasz \u263a") == "?ukasz ?"
    assert screen_text("plain") == "plain"


def test_a_picture_is_one_frame_with_no_text():
    fb = RecordingFb()
    d = Display(fb)
    d.text(["old"])
    d.set_hint(None)
    shows = fb.shows
    d.picture(lambda target: target.fill_rect(0, 0, 8, 8, 1))
    assert fb.calls == [("fill", 0), ("fill_rect", 0, 0, 8, 8, 1)]  # cleared first, nothing over it
    assert d.get_lines() == [""] * 8 and d.kind == "picture" and fb.shows == shows + 1
    d.set_hint("O:- B:- M:-")  # a hint set later goes on the next frame's bottom row
    assert d.get_lines()[7] == "O:- B:- M:-"
