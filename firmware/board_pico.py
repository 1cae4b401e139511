"""The rp2 boards (RP2040 / RP2350) built from a profile of hardware/boards.json ("pico",
"macropad"): button capture, the NeoPixel chain, the OLED (SSD1306 on I2C, or SH1106 on
SPI) and the PWM piezo (with its amplifier's enable pin where it has one).

Capture fills the board's EdgeRing with snapshots (mask of buttons down, 30-bit us tick):
- capture "pio": the player buttons through firmware.pio_capture.PioCapture (one PIO
  sample of the 8 consecutive player pins per microsecond, timestamps from the PIO's own
  counter); the control buttons through a pin-IRQ capture beside it.
- capture "irq": every button through firmware.buttons.IrqCapture.
Both write disjoint bit fields of the same ring (see docs/buttons-and-arbiter.md).

Hardware modules are reached only through PicoHardware, so tests build this board on
any runtime with fakes of the same shape.
"""

from firmware.board import CONTROL_BITS, Board
from firmware.buttons import IrqCapture
from firmware.sound import PwmBuzzer
from firmware.ssd1306 import SSD1306
from firmware.ticks import ticks_us

CAPTURE_SM = 0  # PIO0, state machine 0
# The PIO's and the pins' IRQs run within this of a press (the handler's own stamp comes
# 15-25 us after the edge on the emulated RP2040: tests/host/test_pico_box.py).
CAPTURE_LAG_US = 25


class PicoHardware:
    """The rp2 hardware: machine's Pin/I2C/PWM, neopixel, and the PIO capture."""

    def __init__(self):
        import machine
        import neopixel

        self.Pin = machine.Pin
        self.I2C = machine.I2C
        self.SPI = machine.SPI
        self.PWM = machine.PWM
        self.NeoPixel = pixel_chain(neopixel.NeoPixel, machine.bitstream)
        self.ticks_us = ticks_us

    def pio_capture(self, first_pin, ring):
        from firmware.pio_capture import PioCapture

        return PioCapture(first_pin, ring, sm_id=CAPTURE_SM)


def pixel_chain(neopixel_class, bitstream=None):
    """The neopixel class with a __setitem__ for 3-byte pixels that stores the three bytes
    itself: the library's loop over bpp costs ~80 us a pixel on the emulated RP2040, so a
    winner's Leds.tick took 1.48 ms with it and 1.08 ms without (the LEDs are the
    decision's first sign). And frames made in advance (frame, show): a decision's LEDs
    then take no Python per pixel at all. bitstream: machine.bitstream, which the
    library's write() calls on its buffer (None: show() goes through write())."""

    class PixelChain(neopixel_class):  # type: ignore[misc, valid-type]
        buf: bytearray  # the library's, set by its __init__

        def __setitem__(self, i, v):
            b = self.buf
            order = self.ORDER
            o = i * 3
            b[o + order[0]] = v[0]
            b[o + order[1]] = v[1]
            b[o + order[2]] = v[2]

        def frame(self, colours):
            """The chain's bytes for one (r, g, b) per LED from the first (the rest dark), made
            in advance for show()."""
            buf = self.buf
            self.buf = bytearray(len(buf))
            for i in range(len(colours)):
                self[i] = colours[i]
            out = self.buf
            self.buf = buf
            return out

        def show(self, frame):
            """Send a frame made by frame() with the library's one bitstream call: no Python
            per pixel (a decision's LEDs). The chain's buffer keeps what it held."""
            if bitstream is not None:
                bitstream(self.pin, 0, self.timing, frame)  # write() without its own frame
                return
            buf = self.buf
            self.buf = frame
            self.write()
            self.buf = buf

    return PixelChain


def pixel_order(color_order):
    """neopixel ORDER tuple: the byte position of R, G, B (and W) for a chain's colour order."""
    return (color_order.index("R"), color_order.index("G"), color_order.index("B"), 3)


class PicoBoard(Board):
    def __init__(self, profile, hw: "PicoHardware", ring=None):
        Pin = hw.Pin
        self.hw = hw
        self.missing = []  # optional parts enabled in the profile that did not answer

        leds = profile["leds"]
        pixels = hw.NeoPixel(Pin(leds["pin"], Pin.OUT), leds["count"])
        if leds.get("color_order", "GRB") != "GRB":
            pixels.ORDER = pixel_order(leds["color_order"])

        oled = None
        o = profile["oled"]
        if o["enabled"] and o.get("bus", "i2c") == "spi":
            from firmware.sh1106 import spi_oled  # only a board with one pays for its code

            oled = spi_oled(hw, o)
        elif o["enabled"]:
            i2c = hw.I2C(o["i2c"], sda=Pin(o["sda"]), scl=Pin(o["scl"]), freq=o.get("freq", 400000))
            if o["address"] in i2c.scan():
                oled = SSD1306(i2c, o["address"], o.get("width", 128), o.get("height", 64))
            else:
                self.missing.append("oled")  # optional: the box runs without it

        buzzer = None
        piezo = profile["piezo"]
        if piezo["enabled"]:
            if "enable_pin" in piezo:  # an amplifier in front of the speaker: on for good
                self.speaker_enable = Pin(piezo["enable_pin"], Pin.OUT, value=1)
            buzzer = PwmBuzzer(hw.PWM(Pin(piezo["pin"])))

        Board.__init__(self, profile, pixels, oled, buzzer, ring)

        # IrqCapture takes pins indexed by snapshot bit (None where another capture owns it).
        by_bit = [None] * (max(CONTROL_BITS.values()) + 1)  # type: list
        cpins = profile["controls"].get("pins", {})
        for c in self.control_names:
            by_bit[CONTROL_BITS[c]] = Pin(cpins[c], Pin.IN, Pin.PULL_UP)
        self.capture = profile["capture"]
        self.pio = None
        if self.capture == "pio":
            self.pio = hw.pio_capture(profile["players"]["pins"][0], self.ring)
        else:
            pins = profile["players"]["pins"]
            for i in range(self.n_buttons):
                by_bit[i] = Pin(pins[i], Pin.IN, Pin.PULL_UP)
        self.irq = IrqCapture(by_bit, self.ring, hw.ticks_us)
        self.capture_lag_us = CAPTURE_LAG_US
        # the clock itself, not a method around it: read at every input pass
        self.now_us = hw.ticks_us  # type: ignore[method-assign]

    def uid(self):
        import machine

        return "".join("%02x" % b for b in machine.unique_id())

    def read_mask(self):
        """Buttons down now, read from the pins (not from the ring)."""
        m = self.irq.read()
        if self.pio is not None:
            m |= self.pio.read()
        return m

    def start_capture(self):
        if self.capturing:
            return
        if self.pio is not None:
            self.pio.start()
        self.irq.start()
        self.capturing = True

    def stop_capture(self):
        self.irq.stop()
        if self.pio is not None:
            self.pio.stop()
        self.capturing = False


def build(profile, hw=None, ring=None):
    return PicoBoard(profile, hw if hw is not None else PicoHardware(), ring)
