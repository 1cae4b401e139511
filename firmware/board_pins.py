"""A board profile's pins checked against its header (the GPIOs the board offers and its
I2C and SPI buses): each pin usable, none used twice, PIO capture on consecutive pins.
firmware/board_profile.py loads this only for a profile that names a header (a Pico);
the sim board has no pins, and the virtual box never compiles these checks.
"""

from firmware.board_profile import _fail, _int

PIO_PINS = 8  # the PIO capture samples 8 consecutive pins in one instruction
OLED_BUSES = ("i2c", "spi")
OLED_BUS_LINES = {"i2c": ("sda", "scl"), "spi": ("sck", "mosi")}  # each checked against the bus's table
SPI_CONTROL_LINES = ("cs", "dc", "reset")  # plain outputs, any GPIO


def check_pins(name, prof, header, n, names):
    gpio = header.get("gpio") or []
    used = {}

    def take(where, pin):
        _int(name, where, pin, 0, 63)
        if pin not in gpio:
            _fail(name, "%s: GP%d is not a usable pin on this board" % (where, pin))
        if pin in used:
            _fail(name, "GP%d used twice: %s and %s" % (pin, used[pin], where))
        used[pin] = where

    players = prof["players"]
    pins = players.get("pins")
    if not isinstance(pins, list) or len(pins) != n:
        _fail(name, "players.pins must list %d pins" % n)
    for i in range(n):
        take("players.pins[%d]" % i, pins[i])
    if prof["capture"] == "pio":
        if n != PIO_PINS:
            _fail(name, "capture 'pio' samples %d player pins, players.count is %d" % (PIO_PINS, n))
        for i in range(1, n):
            if pins[i] != pins[0] + i:
                _fail(
                    name,
                    "player pins must be consecutive GPIOs for PIO capture "
                    "(GP%d follows GP%d)" % (pins[i], pins[i - 1]),
                )
    cpins = prof["controls"].get("pins") or {}
    for c in names:
        if c not in cpins:
            _fail(name, "controls.pins has no pin for %r" % c)
        take("controls.pins.%s" % c, cpins[c])
    take("leds.pin", prof["leds"].get("pin"))
    oled = prof["oled"]
    if oled["enabled"]:
        kind = oled.get("bus", "i2c")
        if kind not in OLED_BUSES:
            _fail(name, "oled.bus must be one of %s, got %r" % ("/".join(OLED_BUSES), kind))
        bus = (header.get(kind) or {}).get(str(oled.get(kind)))
        if bus is None:
            _fail(name, "oled.%s %r is not an %s bus of this board" % (kind, oled.get(kind), kind.upper()))
        for role in OLED_BUS_LINES[kind]:
            take("oled.%s" % role, oled.get(role))
            if oled[role] not in bus[role]:
                _fail(name, "oled.%s GP%d cannot be %s of %s%s"
                      % (role, oled[role], role.upper(), kind.upper(), oled[kind]))
        if kind == "i2c" and "address" not in oled:
            _fail(name, "oled.address is missing")
        if kind == "spi":
            for role in SPI_CONTROL_LINES:
                take("oled.%s" % role, oled.get(role))
    if prof["piezo"]["enabled"]:
        take("piezo.pin", prof["piezo"].get("pin"))
        if "enable_pin" in prof["piezo"]:  # an amplifier switched on by a pin (the MacroPad's)
            take("piezo.enable_pin", prof["piezo"]["enable_pin"])
