"""Board profiles (hardware/boards.json), the Board interface, and the Pico board on fake hardware.

The PIO program itself is tested in tests/host/test_pio_capture.py; here the Pico board
wires PioCapture / IrqCapture to the profile's pins and one EdgeRing.
"""

from firmware import board as B
from firmware import board_pico as BP
from firmware import board_profile as BF
from firmware.buttons import EdgeRing
from firmware.pio_capture import START_LAG_US, PioCapture
from firmware.ticks import ticks_add
from tests.shared.compat import IS_MICROPYTHON, raises, skip
from tests.shared.test_buttons import WordsSM, pio_word


def _doc():
    return BF.load_document()


def _err(doc, name="pico"):
    return str(raises(ValueError, BF.validate, doc, name))


# -- the shipped profiles --


def test_shipped_profiles_load():
    assert BF.profile_names() == ["macropad", "pico", "sim"]
    for name in ("macropad", "pico", "sim"):
        p = BF.load_profile(name)
        assert p["name"] == name
        assert p["players"]["count"] == 8
        assert p["controls"]["names"] == ["mode", "ok", "back"]
        assert p["leds"]["count"] == (12 if name == "macropad" else 9) and p["leds"]["status_index"] == 8
        assert p["oled"]["enabled"] in (True, False) and p["piezo"]["enabled"] in (True, False)
        assert p["capture"] in ("pio", "irq")


def test_pico_pins_are_sound():
    doc = _doc()
    p = BF.load_profile("pico")
    header = doc["headers"][p["header"]]
    pins = list(p["players"]["pins"])
    assert pins == list(range(pins[0], pins[0] + 8)), "one PIO `in pins, 8` must read all players"
    pins += [p["controls"]["pins"][c] for c in p["controls"]["names"]]
    pins += [p["leds"]["pin"], p["oled"]["sda"], p["oled"]["scl"], p["piezo"]["pin"]]
    assert len(set(pins)) == len(pins), "a pin is used twice"
    for pin in pins:
        assert pin in header["gpio"], pin
        assert str(pin) in header["physical"], pin
        assert str(pin) not in header["internal"], pin
    bus = header["i2c"][str(p["oled"]["i2c"])]
    assert p["oled"]["sda"] in bus["sda"] and p["oled"]["scl"] in bus["scl"]
    assert p["oled"]["address"] == 0x3C
    assert p["capture"] == "pio"


# -- bad files give clear errors --


def test_unknown_profile():
    msg = str(raises(ValueError, BF.load_profile, "arduino"))
    assert "unknown board profile" in msg and "pico" in msg and "sim" in msg


def test_duplicate_pin():
    doc = _doc()
    doc["profiles"]["pico"]["controls"]["pins"]["ok"] = 5
    msg = _err(doc)
    assert "GP5 used twice" in msg and "players.pins[3]" in msg and "controls.pins.ok" in msg
    doc = _doc()
    doc["profiles"]["pico"]["piezo"]["pin"] = doc["profiles"]["pico"]["leds"]["pin"]
    assert "used twice" in _err(doc)


def test_player_pins_must_be_consecutive_for_pio():
    doc = _doc()
    doc["profiles"]["pico"]["players"]["pins"] = [2, 3, 4, 5, 6, 7, 8, 13]
    assert "consecutive" in _err(doc)
    # the irq capture has no such need
    doc["profiles"]["pico"]["capture"] = "irq"
    assert BF.validate(doc, "pico")["players"]["pins"][7] == 13


def test_pins_must_exist_on_the_header():
    doc = _doc()
    doc["profiles"]["pico"]["piezo"]["pin"] = 25  # the on-board LED, not on the header
    assert "GP25 is not a usable pin" in _err(doc)
    doc = _doc()
    doc["profiles"]["pico"]["players"]["pins"] = list(range(16, 24))
    assert "not a usable pin" in _err(doc)


def test_i2c_pins_must_match_the_bus():
    doc = _doc()
    oled = doc["profiles"]["pico"]["oled"]
    oled["sda"], oled["scl"] = oled["scl"], oled["sda"]
    assert "cannot be SDA of I2C0" in _err(doc)
    doc = _doc()
    doc["profiles"]["pico"]["oled"]["i2c"] = 2
    assert "not an I2C bus" in _err(doc)
    # a disabled OLED's bus is not checked
    doc["profiles"]["pico"]["oled"]["enabled"] = False
    BF.validate(doc, "pico")


def test_other_bad_fields():
    cases = (
        (("players", "count"), 9, "players.count"),
        (("controls", "names"), ["mode", "start"], "unknown control button 'start'"),
        (("controls", "names"), ["ok", "ok"], "listed twice"),
        (("leds", "status_index"), 3, "also a player LED"),
        (("leds", "status_index"), 9, "leds.status_index"),
        (("leds", "color_order"), "RGBW", "color_order"),
        (("leds", "player_leds"), [0, 1, 2, 3, 4, 5, 6, 6], "given to two players"),
        (("oled", "address"), "0xZZ", "not a number"),
        (("oled", "address"), 0x80, "oled.address"),
        (("oled", "height"), 48, "128x64 or 128x32"),
    )
    for path, value, expected in cases:
        doc = _doc()
        doc["profiles"]["pico"][path[0]][path[1]] = value
        msg = _err(doc)
        assert expected in msg, (path, msg)
        assert msg.startswith("board profile 'pico': "), msg
    doc = _doc()
    doc["profiles"]["pico"]["capture"] = "poll"
    assert "capture must be one of pio/irq" in _err(doc)
    doc = _doc()
    doc["profiles"]["sim"]["capture"] = "pio"
    assert "needs a header" in _err(doc, "sim")
    doc = _doc()
    doc["profiles"]["pico"]["players"] = {"count": 6, "pins": [2, 3, 4, 5, 6, 7]}
    doc["profiles"]["pico"]["leds"]["player_leds"] = [0, 1, 2, 3, 4, 5]
    assert "samples 8 player pins, players.count is 6" in _err(doc)
    doc["profiles"]["pico"]["capture"] = "irq"
    assert BF.validate(doc, "pico")["players"]["count"] == 6
    doc = _doc()
    del doc["profiles"]["pico"]["controls"]["pins"]["back"]
    assert "no pin for 'back'" in _err(doc)


def test_bad_files():
    path = "/tmp/tablemate-test-boards.json"
    with open(path, "w") as f:
        f.write('{"profiles": {"pico": ')
    assert "not valid JSON" in str(raises(ValueError, BF.load_profile, "pico", path))
    with open(path, "w") as f:
        f.write("[1, 2]")
    assert "no 'profiles'" in str(raises(ValueError, BF.load_profile, "pico", path))
    assert "cannot read" in str(raises(ValueError, BF.load_profile, "pico", path + ".missing"))


def test_a_board_is_added_by_editing_the_json_only():
    import json

    doc = _doc()
    sim = dict(doc["profiles"]["sim"], title="a second virtual box with four seats")
    sim["players"] = {"count": 4}
    sim["leds"] = dict(sim["leds"], count=5, player_leds=[0, 1, 2, 3], status_index=4)
    doc["profiles"]["tabletop4"] = sim
    path = "/tmp/tablemate-test-boards4.json"
    with open(path, "w") as f:
        f.write(json.dumps(doc))
    profile = BF.load_profile("tabletop4", path)
    assert B.BACKENDS[profile["backend"]] == "unixbox.board_sim"
    if IS_MICROPYTHON:  # the sim board's OLED is a framebuf
        board = B.make_board("tabletop4", path, connect=False)
        assert board.name == "tabletop4" and board.n_buttons == 4
    doc["profiles"]["tabletop4"]["backend"] = "esp32"
    with open(path, "w") as f:
        f.write(json.dumps(doc))
    assert "backend must be one of rp2, unix" in str(raises(ValueError, B.make_board, "tabletop4", path))


def test_validation_does_not_change_the_document():
    doc = _doc()
    BF.validate(doc, "pico")
    assert doc == _doc()
    assert doc["profiles"]["pico"]["oled"]["address"] == "0x3C"


def test_overrides_merge_sections_and_pass_options_on():
    p = BF.load_profile("pico")
    prof, opts = BF.apply_overrides(p, {"oled": False, "piezo": {"pin": 22}, "capture": "irq", "world": 7})
    assert prof["oled"]["enabled"] is False and prof["oled"]["sda"] == 20
    assert prof["piezo"] == {"enabled": True, "pin": 22}
    assert prof["capture"] == "irq"
    assert opts == {"world": 7}
    assert p["oled"]["enabled"] is True  # the loaded profile is not touched
    raises(ValueError, BF.apply_overrides, p, {"oled": 3})
    raises(ValueError, B.make_board, "arduino")


# -- the Board interface --


class FakePixels:
    def __init__(self, n):
        self.n = n
        self.values = [None] * n

    def __setitem__(self, i, v):
        self.values[i] = v

    def write(self):
        pass


def test_board_attributes_and_driver_factories():
    p = BF.load_profile("sim")
    b = B.Board(p, FakePixels(9), None, None)
    assert isinstance(b.ring, EdgeRing)
    assert (b.name, b.n_buttons, b.oled, b.buzzer) == ("sim", 8, None, None)
    assert b.buttons_mask() == 0x7FF
    assert b.make_display() is None
    assert b.make_sound().play("click", 0) is False
    leds = b.make_leds(255)
    leds.set_colours([(255, 0, 0)])
    leds.lit(1, 0)
    leds.tick(0)
    assert b.pixels.values[0] == (255, 0, 0)
    a = b.now_us()
    assert isinstance(a, int)
    b.start_capture()
    assert b.capturing
    b.stop_capture()
    assert not b.capturing
    assert [B.button_name(i) for i in (0, 7, 8, 9, 10)] == ["P1", "P8", "mode", "ok", "back"]
    raises(ValueError, B.button_name, 11)


# -- fake machine/neopixel hardware --


class FakePin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, hw, pin_id, mode=None, pull=None, value=None):
        self.hw = hw
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self.out = value  # the level an output drives
        self.handler = None
        self.hard = None
        hw.pins[pin_id] = self

    def value(self):
        return (self.hw.levels >> self.id) & 1

    def __call__(self, level):
        self.out = level

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler
        self.trigger = trigger
        self.hard = hard


class FakeI2C:
    def __init__(self, bus, sda, scl, freq, present=(0x3C,)):
        self.bus, self.sda, self.scl, self.freq = bus, sda.id, scl.id, freq
        self.present = present
        self.transfers = []

    def scan(self):
        return list(self.present)

    def writevto(self, addr, vec):
        self.transfers.append((addr, b"".join(bytes(v) for v in vec)))


class FakeHardware:
    def __init__(self, oled_present=True):
        hw = self
        self.pins = {}
        self.levels = 0x3FFFFFFF  # every input high: all buttons up (pull-ups)
        self.us = 1000
        self.buses = []
        self.sm = WordsSM([])

        class Pin(FakePin):
            def __init__(self, pin_id, mode=None, pull=None, value=None):
                FakePin.__init__(self, hw, pin_id, mode, pull, value)

        self.Pin = Pin

        def I2C(bus, sda, scl, freq):
            i2c = FakeI2C(bus, sda, scl, freq, (0x3C,) if oled_present else ())
            hw.buses.append(i2c)
            return i2c

        self.I2C = I2C

        class SPI:
            """Each write with the level every output drove at that moment."""

            def __init__(self, bus, baudrate, sck, mosi):
                self.bus, self.baudrate, self.sck, self.mosi = bus, baudrate, sck.id, mosi.id
                self.transfers = []
                hw.spi = self

            def write(self, data):
                outs = {p.id: p.out for p in hw.pins.values() if p.mode == FakePin.OUT}
                self.transfers.append((outs, bytes(data)))

        self.SPI = SPI

        class PWM:
            def __init__(self, pin):
                self.pin = pin.id
                self.f = self.d = None
                hw.pwm = self

            def freq(self, f):
                self.f = f

            def duty_u16(self, d):
                self.d = d

        self.PWM = PWM

        class NeoPixel:
            ORDER = (1, 0, 2, 3)

            def __init__(self, pin, n):
                self.pin = pin.id
                self.n = n
                self.buf = bytearray(3 * n)
                hw.np = self

            def __setitem__(self, i, v):
                for k in range(3):
                    self.buf[3 * i + self.ORDER[k]] = v[k]

            def write(self):
                pass

        self.NeoPixel = NeoPixel

    def ticks_us(self):
        return self.us

    def pio_capture(self, first_pin, ring):
        self.first_pin = first_pin
        pins = [self.Pin(first_pin + i, FakePin.IN, FakePin.PULL_UP) for i in range(8)]
        return PioCapture(first_pin, ring, now=self.ticks_us, sm=self.sm, pins=pins)

    def press(self, pin, down):
        if down:
            self.levels &= ~(1 << pin)
        else:
            self.levels |= 1 << pin


def _pico(capture="pio", oled_present=True):
    hw = FakeHardware(oled_present)
    prof = BF.load_profile("pico")
    prof["capture"] = capture
    if not IS_MICROPYTHON:
        prof["oled"]["enabled"] = False  # the SSD1306 frame buffer needs MicroPython's framebuf
    b = BP.build(prof, hw=hw)
    return hw, b, b.ring


def test_a_spi_oled_is_checked_like_an_i2c_one():
    def bad(section, key, value):
        doc = _doc()
        doc["profiles"]["macropad"][section][key] = value
        return _err(doc, "macropad")

    assert "cannot be SCK of SPI1" in bad("oled", "sck", 28)
    assert "not an SPI bus" in bad("oled", "spi", 2)
    assert "oled.bus must be one of i2c/spi" in bad("oled", "bus", "uart")
    assert "oled.driver must be one of" in bad("oled", "driver", "sh1107")
    assert "oled.column_offset must be an int 0..4" in bad("oled", "column_offset", 5)
    assert "used twice" in bad("oled", "dc", 19)  # the NeoPixel line
    assert "piezo.enable_pin" in bad("piezo", "enable_pin", 16)
    assert "not a usable pin" in bad("oled", "reset", 25)


def test_macropad_board_drives_its_sh1106_and_switches_its_speaker_on():
    if not IS_MICROPYTHON:
        skip("the SH1106 frame buffer needs MicroPython's framebuf")
    from firmware import sh1106

    hw = FakeHardware()
    prof = BF.load_profile("macropad")
    board = BP.build(prof, hw=hw)
    o = prof["oled"]
    spi = hw.spi
    assert (spi.bus, spi.sck, spi.mosi) == (o["spi"], o["sck"], o["mosi"])
    outs, data = spi.transfers[0]
    assert data == sh1106.init_sequence(64) and outs[o["dc"]] == 0 and outs[o["cs"]] == 0
    assert outs[o["reset"]] == 1  # out of reset
    outs, data = spi.transfers[1]
    assert data == bytes((0xB0, 0xF & o["column_offset"], 0x10)) and outs[o["dc"]] == 0
    assert board.missing == [] and board.oled is not None
    assert hw.pins[prof["piezo"]["enable_pin"]].out == 1 and hw.pwm.pin == prof["piezo"]["pin"]
    # the keys: player i on its pin, through the PIO capture of 8 consecutive pins
    assert hw.first_pin == prof["players"]["pins"][0]
    for name, pin in prof["controls"]["pins"].items():
        hw.press(pin, True)
        assert board.read_mask() == 1 << B.CONTROL_BITS[name], name
        hw.press(pin, False)


def _entries(ring):
    out = [0, 0]
    got = []
    while ring.pop(out):
        got.append((out[0], out[1]))
    return got


def test_pico_board_builds_pins_from_the_profile():
    hw, b, ring = _pico()
    p = b.profile
    for c in ("mode", "ok", "back"):
        pin = hw.pins[p["controls"]["pins"][c]]
        assert pin.mode == FakePin.IN and pin.pull == FakePin.PULL_UP
    assert hw.np.pin == p["leds"]["pin"] and hw.np.n == p["leds"]["count"]
    assert hw.pwm.pin == p["piezo"]["pin"] and hw.pwm.d == 0
    b.buzzer.tone(880, 1000)
    assert (hw.pwm.f, hw.pwm.d) == (880, 1000)
    # LEDs land in the chain's GRB byte order
    leds = b.make_leds(255)
    leds.set_colours([(10, 20, 30)])
    leds.lit(1, 0)
    leds.tick(0)
    assert bytes(hw.np.buf[:3]) == bytes((20, 10, 30))
    assert b.now_us() == 1000
    hw.press(p["players"]["pins"][1], True)
    hw.press(p["controls"]["pins"]["ok"], True)
    assert b.read_mask() == (1 << 1) | (1 << B.OK_BIT)


class LibraryPixels:
    """neopixel.NeoPixel's storage as the library writes it (a loop over the bytes)."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, n):
        self.buf = bytearray(3 * n)

    def __setitem__(self, i, v):
        for k in range(3):
            self.buf[3 * i + self.ORDER[k]] = v[k]


def test_pixel_chain_stores_the_bytes_the_library_would():
    chain = BP.pixel_chain(LibraryPixels)
    for order in ("GRB", "RGB", "BRG"):
        ours, theirs = chain(3), LibraryPixels(3)
        ours.ORDER = theirs.ORDER = BP.pixel_order(order)
        for i, c in enumerate([(1, 2, 3), (250, 0, 7), (0, 128, 255)]):
            ours[i] = c
            theirs[i] = c
        assert ours.buf == theirs.buf and ours.buf != bytearray(9), order


class WrittenPixels(LibraryPixels):
    """The library's storage plus its write(): records the bytes each write sends."""

    def __init__(self, n):
        LibraryPixels.__init__(self, n)
        self.sent = []

    def write(self):
        self.sent.append(bytes(self.buf))


def test_pixel_chain_sends_a_frame_made_in_advance_as_it_is():
    chain = BP.pixel_chain(WrittenPixels)(3)
    chain.ORDER = BP.pixel_order("RGB")
    chain[0] = (9, 9, 9)  # what the chain's own buffer holds meanwhile
    frame = chain.frame([(1, 2, 3), (0, 0, 0), (4, 5, 6)])
    ref = LibraryPixels(3)
    ref.ORDER = chain.ORDER
    ref[0] = (1, 2, 3)
    ref[2] = (4, 5, 6)
    assert frame == ref.buf and bytes(chain.buf) == bytes((9, 9, 9, 0, 0, 0, 0, 0, 0))
    chain.show(frame)
    assert chain.sent == [bytes(ref.buf)]  # one write, of the frame
    assert bytes(chain.buf) == bytes((9, 9, 9, 0, 0, 0, 0, 0, 0))  # the buffer is the chain's again
    assert chain.frame([(7, 7, 7)]) == bytearray((7, 7, 7, 0, 0, 0, 0, 0, 0))  # the rest dark
    # with machine.bitstream at hand: the call the library's write() makes, on the frame
    calls = []
    chain = BP.pixel_chain(WrittenPixels, lambda *a: calls.append(a))(3)
    chain.pin, chain.timing = "GP16", (400, 850, 800, 450)  # as neopixel.NeoPixel keeps them
    chain.show(frame)
    assert calls == [("GP16", 0, (400, 850, 800, 450), frame)] and chain.sent == []


def test_pixel_order_for_other_chains():
    assert BP.pixel_order("GRB") == (1, 0, 2, 3)
    assert BP.pixel_order("RGB") == (0, 1, 2, 3)
    assert BP.pixel_order("BRG") == (1, 2, 0, 3)


def test_pico_oled_present_and_missing():
    if not IS_MICROPYTHON:
        skip("the SSD1306 frame buffer needs MicroPython's framebuf")
    hw, b, _ = _pico()
    o = b.profile["oled"]
    i2c = hw.buses[0]
    assert (i2c.bus, i2c.sda, i2c.scl, i2c.freq) == (o["i2c"], o["sda"], o["scl"], o["freq"])
    assert b.oled is not None and i2c.transfers[0][1][0] == 0x00
    assert b.make_display() is not None
    hw, b, _ = _pico(oled_present=False)
    assert b.oled is None and b.missing == ["oled"]


def test_pio_capture_for_players_and_irq_for_controls():
    hw, b, ring = _pico("pio")
    players = b.profile["players"]["pins"]
    mode = b.profile["controls"]["pins"]["mode"]
    assert hw.first_pin == players[0]
    hw.press(players[2], True)  # player 3 already down at start: the ring's level, no snapshot
    b.start_capture()
    assert ring.level == 0b100 and len(ring) == 0
    assert hw.sm.handler is not None
    assert hw.pins[players[0]].handler is None  # players come from the PIO, not pin IRQs
    ctrl = hw.pins[mode]
    assert ctrl.handler is not None and ctrl.hard is True
    # a PIO word: players 1 and 3 down, sampled 10 us before the drain at 5000 us
    t_start = ticks_add(1000, -START_LAG_US)
    hw.us = 5000
    hw.sm.words = [pio_word(0b101, -(5000 - 10 - t_start))]
    hw.sm.handler(hw.sm)
    # then the mode button, through its pin IRQ, merges into the same level
    hw.us = 5100
    hw.press(mode, True)
    ctrl.handler(ctrl)
    assert _entries(ring) == [(0b101, 4990), (0b101 | (1 << B.MODE_BIT), 5100)]
    b.stop_capture()
    assert ctrl.handler is None and hw.sm.handler is None and not b.capturing


def test_irq_capture_for_players_and_controls():
    hw, b, ring = _pico("irq")
    p = b.profile
    b.start_capture()
    for pin in p["players"]["pins"] + [p["controls"]["pins"][c] for c in p["controls"]["names"]]:
        assert hw.pins[pin].mode == FakePin.IN and hw.pins[pin].pull == FakePin.PULL_UP
        assert hw.pins[pin].handler is not None and hw.pins[pin].hard is True
    p4, back = hw.pins[p["players"]["pins"][3]], hw.pins[p["controls"]["pins"]["back"]]
    hw.us = 7000
    hw.press(p4.id, True)
    p4.handler(p4)
    hw.us = 7010
    hw.press(back.id, True)
    back.handler(back)
    back.handler(back)  # chatter with no level change: nothing new
    assert _entries(ring) == [(1 << 3, 7000), ((1 << 3) | (1 << B.BACK_BIT), 7010)]
    b.stop_capture()
    assert p4.handler is None
