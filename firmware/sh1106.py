"""SH1106 128x64 OLED over SPI (the Adafruit MacroPad RP2040's), drawn through the same
frame buffer as the SSD1306 (firmware.oled.OledBase: MONO_VLSB, the page layout both
controllers share).

How it differs from the SSD1306, and why the driver is its own:
- 132 columns of RAM for a 128-pixel panel: the visible picture starts at a column
  offset (2 on the MacroPad; `oled.column_offset` in hardware/boards.json). Written at
  column 0, the image would sit 2 pixels to the left and lose its last 2 columns.
- no horizontal addressing mode (no 0x20/0x21/0x22 window): a frame is written page by
  page, each after its page address and start column.
- SPI with a D/C line (low: commands, high: data) instead of I2C control bytes, so there is
  no bus scan: a panel that is not there cannot be detected.
- its DC-DC converter (0xAD 0x8B) and pump voltage (0x30-0x33) replace the charge pump.
"""

from firmware.ssd1306 import DISPLAY_OFF, DISPLAY_ON, NORMAL_DISPLAY, SET_CONTRAST, PanelCommands, PanelOled

PAGE_ADDRESS = 0xB0  # | page 0..7
COLUMN_LOW = 0x00  # | low nibble of the start column
COLUMN_HIGH = 0x10  # | high nibble


def init_sequence(height=64):
    """Reset to a blank, lit panel (the MacroPad's panel: segment and COM scan remapped)."""
    if height != 64:
        raise ValueError("supported SH1106 panel: 128x64, got height %d" % height)
    return bytes(
        (
            DISPLAY_OFF,
            0xD5, 0x80,  # clock: divide by 1, default oscillator
            0xA8, 0x3F,  # multiplex 64
            0xD3, 0x00,  # display offset 0
            0x40,  # start line 0
            0xAD, 0x8B,  # DC-DC converter on
            0xA1,  # segment remap
            0xC8,  # COM scan remapped
            0xDA, 0x12,  # COM pins alternative
            SET_CONTRAST, 0xFF,
            0xD9, 0x1F,  # pre-charge 2 DCLKs / discharge 2 DCLKs
            0xDB, 0x20,  # VCOM deselect level
            0x33,  # pump voltage 9 V
            NORMAL_DISPLAY,
            0xA4,  # display follows RAM
            DISPLAY_ON,
        )
    )  # fmt: skip


class Sh1106Link(PanelCommands):
    """Commands and frame data to one controller on SPI: spi.write(bytes), dc/cs/reset pins
    called as pin(level) (machine.Pin or a fake)."""

    def __init__(self, spi, dc, cs, reset, width=128, height=64, column_offset=2):
        PanelCommands.__init__(self)
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.reset = reset
        self.width = width
        self.pages = height // 8
        self.column_offset = column_offset
        self._page_cmd = bytearray(3)  # preallocated: show() runs often

    def hard_reset(self, sleep_ms):
        self.cs(1)
        self.reset(1)
        sleep_ms(1)
        self.reset(0)
        sleep_ms(10)  # the datasheet asks for at least 10 us low; the MacroPad's RC needs longer
        self.reset(1)

    def _send(self, dc, data):
        self.cs(1)
        self.dc(dc)
        self.cs(0)
        self.spi.write(data)
        self.cs(1)

    def commands(self, seq):
        self._send(0, seq)

    def init_display(self, height=64):
        self.commands(init_sequence(height))

    def write_frame(self, buf):
        """The whole frame, page by page: page address and start column, then its bytes."""
        col = self.column_offset
        cmd = self._page_cmd
        cmd[1] = COLUMN_LOW | (col & 0x0F)
        cmd[2] = COLUMN_HIGH | (col >> 4)
        view = memoryview(buf)
        w = self.width
        for page in range(self.pages):
            cmd[0] = PAGE_ADDRESS | page
            self.commands(cmd)
            self._send(1, view[page * w:(page + 1) * w])


class SH1106(PanelOled):
    """The real panel: reset and initialised on construction; show() writes the buffer."""

    def __init__(self, spi, dc, cs, reset, width=128, height=64, column_offset=2, sleep_ms=None):
        super().__init__(width, height)
        if sleep_ms is None:
            import time

            sleep_ms = time.sleep_ms
        self.link = Sh1106Link(spi, dc, cs, reset, width, height, column_offset)
        self.link.hard_reset(sleep_ms)
        self.link.init_display(height)
        self.fill(0)
        self.show()


def spi_oled(hw, o):
    """An SH1106 on SPI (the MacroPad's panel). SPI has no acknowledge, so nothing can tell
    whether the panel is there: it is always taken as present."""
    Pin = hw.Pin
    spi = hw.SPI(o["spi"], baudrate=o.get("baudrate", 10000000), sck=Pin(o["sck"]), mosi=Pin(o["mosi"]))
    cs = Pin(o["cs"], Pin.OUT, value=1)
    dc = Pin(o["dc"], Pin.OUT, value=0)
    reset = Pin(o["reset"], Pin.OUT, value=1)
    return SH1106(spi, dc, cs, reset, o.get("width", 128), o.get("height", 64), o.get("column_offset", 0))
