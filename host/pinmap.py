"""The pin map as connections: what is wired to which GPIO and header pin.

Read from hardware/boards.json through firmware.board, so the host sees exactly the
profile the device validates. Everything on the host that shows or models pins takes
them from here: the generated tables in hardware/README.md, the wiring diagram, the BOM
check, board models. Tools in other languages take the same data as JSON:

    python -m host.pinmap [PROFILE]        (default: pico)
"""

import json
import sys

from firmware.board import CONTROL_BITS, layout
from firmware.board_profile import load_document, validate

OLED_SPI_LINES = ("sck", "mosi", "cs", "dc", "reset")
POWER_ROLES = (
    ("led_power", "LED power", "VBUS"),
    ("logic_power", "Logic power", "3V3_OUT"),
)


def header_pins(header):
    """{physical pin: (label, kind)} for every pin of a header; kind: gpio, gnd, power, other.

    Raises ValueError unless each pin 1..pin_count is named exactly once.
    """
    named = {}

    def put(pin, label, kind):
        if pin in named:
            raise ValueError("header pin %d is both %s and %s" % (pin, named[pin][0], label))
        named[pin] = (label, kind)

    for gp, pin in header["physical"].items():
        put(pin, "GP%s" % gp, "gpio")
    for name, pin in header["power"].items():
        for p in pin if isinstance(pin, list) else [pin]:
            put(p, name, "gnd" if name == "GND" else "power")
    for name, pin in header.get("other", {}).items():
        put(pin, name, "other")
    count = header["pin_count"]
    missing = [p for p in range(1, count + 1) if p not in named]
    extra = [p for p in named if not 1 <= p <= count]
    if missing or extra:
        raise ValueError("header pins not named: %s; outside 1..%d: %s" % (missing, count, extra))
    return named


def pwm_channel(gpio):
    """The rp2 PWM slice and channel of a GPIO, as '1 A'."""
    return "%d %s" % ((gpio >> 1) & 7, "B" if gpio & 1 else "A")


def connections(doc, name="pico"):
    """The profile's wiring as rows (dicts) in the order a builder wires them.

    Every row has role and label; signal rows add gpio and pin (physical; None on a board
    without a header, the MacroPad) and place (the board's own name for that GPIO, where
    boards.json gives one), power rows net and pins. A profile without a header (the sim)
    has none.
    """
    prof = validate(doc, name)
    if prof["header"] is None:
        return []
    header = doc["headers"][prof["header"]]

    def row(role, label, gpio, **extra):
        extra.update(role=role, label=label, gpio=gpio, pin=header.get("physical", {}).get(str(gpio)))
        if str(gpio) in header.get("labels", {}):
            extra["place"] = header["labels"][str(gpio)]
        return extra

    players = prof["players"]
    rows = [
        row("player", "Player %d button" % (i + 1), gp, bit=i, pull=players["pull"], active=players["active"])
        for i, gp in enumerate(players["pins"])
    ]
    controls = prof["controls"]
    for c in controls["names"]:
        rows.append(row("control", "%s button" % c.capitalize(), controls["pins"][c], bit=CONTROL_BITS[c],
                        pull=controls["pull"], active=controls["active"]))  # fmt: skip
    leds = prof["leds"]
    rows.append(
        row("led_data", "LED chain data", leds["pin"], count=leds["count"], color_order=leds["color_order"])
    )
    oled = prof["oled"]
    if oled["enabled"] and oled.get("bus", "i2c") == "spi":
        for r in OLED_SPI_LINES:
            rows.append(row("oled_" + r, "OLED " + r.upper(), oled[r], spi=oled["spi"],
                            driver=oled["driver"]))
    elif oled["enabled"]:
        for r in ("sda", "scl"):
            rows.append(
                row("oled_" + r, "OLED " + r.upper(), oled[r], i2c=oled["i2c"], address=oled["address"])
            )
    piezo = prof["piezo"]
    if piezo["enabled"]:
        gp = piezo["pin"]
        rows.append(row("piezo", "Piezo", gp, pwm=pwm_channel(gp)))
        if "enable_pin" in piezo:
            rows.append(row("piezo_enable", "Speaker amplifier enable", piezo["enable_pin"], level="high"))
    if "power" not in header:  # power is the board's own business (the MacroPad's USB-C)
        return rows
    power = header["power"]
    for role, label, net in POWER_ROLES:
        rows.append({"role": role, "label": label, "net": net, "pins": [power[net]]})
    rows.append({"role": "ground", "label": "Ground", "net": "GND", "pins": list(power["GND"])})
    return rows


def describe(doc, name="pico"):
    """Everything a board model needs, JSON-safe: connections, layout and header pins."""
    prof = validate(doc, name)
    out = {"profile": name, "capture": prof["capture"], "connections": connections(doc, name)}
    out.update(layout(prof))
    out["oled_size"] = (
        [prof["oled"].get("width", 128), prof["oled"].get("height", 64)] if prof["oled"]["enabled"] else None
    )
    if prof["header"] is not None and "physical" in doc["headers"][prof["header"]]:
        pins = header_pins(doc["headers"][prof["header"]])
        out["header"] = {str(p): pins[p][0] for p in sorted(pins)}
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) > 1 or any(a.startswith("-") for a in argv):
        print("usage: python -m host.pinmap [PROFILE]   (the profile's pin map as JSON)", file=sys.stderr)
        return 2
    try:
        data = describe(load_document(), argv[0] if argv else "pico")
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    print(json.dumps(data, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
