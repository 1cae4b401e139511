"""The SH1106 on SPI (the MacroPad's OLED): the bytes it sends, page by page, at its column
offset, with D/C low for commands and high for data, each transfer inside a CS low."""

from firmware import sh1106 as S
from tests.shared.compat import IS_MICROPYTHON, raises, skip


class Bus:
    """SPI plus the D/C, CS and reset lines: every transfer as (dc, bytes), CS checked."""

    def __init__(self):
        self.levels = {"dc": None, "cs": 1, "reset": None}
        self.transfers = []
        self.resets = []  # the reset line's levels in order

    def line(self, name):
        def set_level(v):
            self.levels[name] = v
            if name == "reset":
                self.resets.append(v)

        return set_level

    def write(self, data):
        assert self.levels["cs"] == 0, "a transfer with CS high reaches no panel"
        self.transfers.append((self.levels["dc"], bytes(data)))


def _link(offset=2):
    bus = Bus()
    link = S.Sh1106Link(bus, bus.line("dc"), bus.line("cs"), bus.line("reset"), 128, 64, offset)
    return bus, link


def test_a_frame_goes_page_by_page_from_the_column_offset():
    bus, link = _link(2)
    frame = bytearray(1024)
    frame[0] = 0x81  # page 0, column 0
    frame[128 + 127] = 0x7E  # page 1, column 127
    link.write_frame(frame)
    assert len(bus.transfers) == 16
    for page in range(8):
        dc, cmd = bus.transfers[2 * page]
        assert dc == 0 and cmd == bytes((0xB0 | page, 0x02, 0x10)), (page, cmd)
        dc, data = bus.transfers[2 * page + 1]
        assert dc == 1 and data == bytes(frame[page * 128:(page + 1) * 128])
    assert bus.levels["cs"] == 1  # released after the last transfer


def test_the_offset_is_the_profiles():
    bus, link = _link(4)
    link.write_frame(bytearray(1024))
    assert bus.transfers[0][1] == bytes((0xB0, 0x04, 0x10))
    bus, link = _link(0)
    link.write_frame(bytearray(1024))
    assert bus.transfers[14][1] == bytes((0xB7, 0x00, 0x10))


def test_commands_share_the_ssd1306_codes():
    bus, link = _link()
    link.contrast(0x10)
    link.power(False)
    link.power(True)
    link.invert(True)
    assert bus.transfers == [(0, b"\x81\x10"), (0, b"\xae"), (0, b"\xaf"), (0, b"\xa7")]
    raises(ValueError, link.contrast, 256)
    raises(ValueError, S.init_sequence, 32)


def test_init_turns_on_the_dc_dc_converter_and_ends_lit():
    seq = S.init_sequence(64)
    assert seq[0] == 0xAE and seq[-1] == 0xAF
    assert b"\xad\x8b" in seq and b"\xa8\x3f" in seq
    assert 0x21 not in seq and 0x22 not in seq  # no SSD1306 column/page window


def test_the_panel_resets_initialises_and_shows_its_buffer():
    if not IS_MICROPYTHON:
        skip("framebuf is MicroPython's")
    bus = Bus()
    slept = []
    oled = S.SH1106(bus, bus.line("dc"), bus.line("cs"), bus.line("reset"), 128, 64, 2, slept.append)
    assert bus.resets == [1, 0, 1] and sum(slept) >= 10
    assert bus.transfers[0] == (0, S.init_sequence(64))
    assert [d for dc, d in bus.transfers[1:] if dc == 1] == [bytes(128)] * 8  # cleared panel
    bus.transfers = []
    oled.pixel(0, 0, 1)
    oled.pixel(127, 63, 1)
    oled.show()
    data = [d for dc, d in bus.transfers if dc == 1]
    assert data[0][0] == 0x01 and data[7][127] == 0x80
    assert sum(1 for page in data for b in page if b) == 2
