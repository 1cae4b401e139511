"""SSD1306 128x64 / 128x32 OLED over I2C, drawn through a framebuf.FrameBuffer.

Two layers:
- Ssd1306Link speaks the controller's command set over an I2C-like object (writevto). It needs
  no framebuf, so its bytes are checked on every runtime.
- SSD1306 is the frame buffer every OLED draws into (firmware.oled.OledBase) sent to the
  panel by show().
"""

from firmware.oled import OledBase

DEFAULT_ADDRESS = 0x3C

# I2C control byte (Co bit 7 = 0: the rest of the transfer is one stream; D/C# bit 6).
CONTROL_COMMANDS = b"\x00"
CONTROL_DATA = b"\x40"

# Command set (SSD1306 datasheet, section 9 command table).
SET_CONTRAST = 0x81  # + level 0..255
DISPLAY_FOLLOW_RAM = 0xA4
NORMAL_DISPLAY = 0xA6  # 0xA7 inverts
DISPLAY_OFF = 0xAE
DISPLAY_ON = 0xAF
MEMORY_MODE = 0x20  # + 0 horizontal addressing
COLUMN_RANGE = 0x21  # + start, end
PAGE_RANGE = 0x22  # + start, end
START_LINE_0 = 0x40
SEGMENT_REMAP = 0xA1  # column 127 drives SEG0: picture not mirrored on common modules
MULTIPLEX = 0xA8  # + height - 1
COM_SCAN_REMAPPED = 0xC8  # scan COM[N-1] -> COM0: picture not upside down
DISPLAY_OFFSET = 0xD3  # + 0
COM_PINS = 0xDA  # + 0x12 (alternative, 64 rows) or 0x02 (sequential, 32 rows)
CLOCK_DIV = 0xD5  # + 0x80 (reset oscillator frequency, divide by 1)
PRECHARGE = 0xD9  # + 0xF1 with the internal charge pump, 0x22 with external VCC
VCOMH_LEVEL = 0xDB  # + 0x30 (~0.83 x VCC)
CHARGE_PUMP = 0x8D  # + 0x14 on (internal), 0x10 off (external VCC)


def init_sequence(width=128, height=64, external_vcc=False):
    """The command bytes that take the controller from reset to a blank, lit panel."""
    if width != 128 or height not in (32, 64):
        raise ValueError("supported panels: 128x64 and 128x32, got %dx%d" % (width, height))
    return bytes(
        (
            DISPLAY_OFF,
            MEMORY_MODE, 0x00,
            START_LINE_0,
            SEGMENT_REMAP,
            MULTIPLEX, height - 1,
            COM_SCAN_REMAPPED,
            DISPLAY_OFFSET, 0x00,
            COM_PINS, 0x12 if height == 64 else 0x02,
            CLOCK_DIV, 0x80,
            PRECHARGE, 0x22 if external_vcc else 0xF1,
            VCOMH_LEVEL, 0x30,
            SET_CONTRAST, 0x9F if external_vcc else 0xCF,
            DISPLAY_FOLLOW_RAM,
            NORMAL_DISPLAY,
            CHARGE_PUMP, 0x10 if external_vcc else 0x14,
            DISPLAY_ON,
        )
    )  # fmt: skip


class PanelCommands:
    """What the SSD1306 and the SH1106 (firmware/sh1106.py) share: contrast, power and invert
    have the same codes on both. A subclass supplies commands(seq), its way onto the bus."""

    def __init__(self):
        self._one = bytearray(1)  # preallocated: no heap churn per command
        self._two = bytearray(2)

    def command(self, cmd):
        self._one[0] = cmd
        self.commands(self._one)

    def command2(self, cmd, arg):
        self._two[0] = cmd
        self._two[1] = arg
        self.commands(self._two)

    def contrast(self, level):
        if not 0 <= level <= 255:
            raise ValueError("contrast must be 0..255")
        self.command2(SET_CONTRAST, level)

    def power(self, on):
        self.command(DISPLAY_ON if on else DISPLAY_OFF)

    def invert(self, on):
        self.command(NORMAL_DISPLAY | (1 if on else 0))


class Ssd1306Link(PanelCommands):
    """Commands and frame data to one controller on an I2C bus (machine.I2C or a fake)."""

    def __init__(self, i2c, address=DEFAULT_ADDRESS, width=128, height=64, external_vcc=False):
        PanelCommands.__init__(self)
        self.i2c = i2c
        self.address = address
        self.width = width
        self.height = height
        self.external_vcc = external_vcc
        # Preallocated transfers: show() runs often and should not churn the heap.
        self._window = bytearray((COLUMN_RANGE, 0, width - 1, PAGE_RANGE, 0, height // 8 - 1))
        self._cmd_vec = [CONTROL_COMMANDS, None]
        self._data_vec = [CONTROL_DATA, None]

    def commands(self, seq):
        self._cmd_vec[1] = seq
        self.i2c.writevto(self.address, self._cmd_vec)

    def init_display(self):
        self.commands(init_sequence(self.width, self.height, self.external_vcc))

    def write_frame(self, buf):
        """The whole frame: set the column/page window, then one data stream of buf."""
        self.commands(self._window)
        self._data_vec[1] = buf
        self.i2c.writevto(self.address, self._data_vec)


class PanelOled(OledBase):
    """A real panel behind self.link (an Ssd1306Link, an Sh1106Link): show() sends the buffer."""

    def show(self):
        self.link.write_frame(self.buffer)

    def contrast(self, level):
        self.link.contrast(level)

    def power(self, on):
        self.link.power(on)

    def invert(self, on):
        self.link.invert(on)


class SSD1306(PanelOled):
    """The real panel: initialised on construction, show() copies the buffer over I2C."""

    def __init__(self, i2c, address=DEFAULT_ADDRESS, width=128, height=64, external_vcc=False):
        super().__init__(width, height)
        self.link = Ssd1306Link(i2c, address, width, height, external_vcc)
        self.link.init_display()
        self.fill(0)
        self.show()
