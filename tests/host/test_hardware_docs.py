"""hardware/README.md's wiring tables must say exactly what hardware/boards.json says.

The tables are generated from boards.json; after changing a pin, refresh them with
    .venv/bin/python tests/host/test_hardware_docs.py --write
"""

import sys
from pathlib import Path

from firmware.board import CONTROL_BITS, load_document, validate

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "hardware" / "README.md"
TABLES = ("wiring pico", "leds pico")


def _begin(name):
    return "<!-- BEGIN %s (generated from hardware/boards.json) -->" % name


def _end(name):
    return "<!-- END %s -->" % name


def wiring_rows(doc, name="pico"):
    prof = validate(doc, name)
    header = doc["headers"][prof["header"]]

    def at(gp):
        return "GP%d" % gp, str(header["physical"][str(gp)])

    button = "button, other leg to GND"
    pulled = "pull-up, pressed = low; bit %d"
    rows = []
    for i, gp in enumerate(prof["players"]["pins"]):
        rows.append(("Player %d button" % (i + 1), *at(gp), button, pulled % i))
    for c in prof["controls"]["names"]:
        gp = prof["controls"]["pins"][c]
        rows.append(("%s button" % c.capitalize(), *at(gp), button, pulled % CONTROL_BITS[c]))
    leds = prof["leds"]
    rows.append(
        ("LED chain data", *at(leds["pin"]), "level shifter in; its out via 330 R to DIN of LED 0",
         "%d x WS2812, %s" % (leds["count"], leds["color_order"]))
    )  # fmt: skip
    oled = prof["oled"]
    if oled["enabled"]:
        bus = "I2C%d, address 0x%02X" % (oled["i2c"], oled["address"])
        rows.append(("OLED SDA", *at(oled["sda"]), "SDA of the SSD1306 module", bus))
        rows.append(("OLED SCL", *at(oled["scl"]), "SCL of the SSD1306 module", bus))
    if prof["piezo"]["enabled"]:
        rows.append(("Piezo", *at(prof["piezo"]["pin"]), "piezo + via 100 R; piezo - to GND", "PWM tones"))
    power = header["power"]
    grounds = ", ".join(str(p) for p in power["GND"])
    led_power = "+5 V of the LED chain and the level shifter"
    rows.append(("LED power", "VBUS", str(power["VBUS"]), led_power, "USB 5 V"))
    rows.append(("Logic power", "3V3_OUT", str(power["3V3_OUT"]), "VCC of the OLED module", "3.3 V"))
    rows.append(("Ground", "GND", grounds, "all buttons, LEDs, OLED, piezo", "any GND pin"))
    return ["| Signal | GPIO | Pico pin | Connect to | Notes |", "|---|---|---|---|---|"] + [
        "| %s |" % " | ".join(r) for r in rows
    ]


def led_rows(doc, name="pico"):
    leds = validate(doc, name)["leds"]
    role = ["(unused)"] * leds["count"]
    for p, i in enumerate(leds["player_leds"]):
        role[i] = "Player %d" % (p + 1)
    if leds.get("status_index") is not None:
        role[leds["status_index"]] = "status"
    return ["| Chain index | Shows |", "|---|---|"] + ["| %d | %s |" % (i, r) for i, r in enumerate(role)]


def generated(doc):
    return {"wiring pico": wiring_rows(doc), "leds pico": led_rows(doc)}


def tables_in(text, name):
    lines = text.splitlines()
    begin, end = _begin(name), _end(name)
    assert lines.count(begin) == 1 and lines.count(end) == 1, "README needs one %r ... %r" % (begin, end)
    return lines[lines.index(begin) + 1 : lines.index(end)]


def rewrite(text, doc):
    out = text
    for name, rows in generated(doc).items():
        lines = out.splitlines()
        a, b = lines.index(_begin(name)), lines.index(_end(name))
        out = "\n".join(lines[: a + 1] + rows + lines[b:]) + "\n"
    return out


def test_readme_wiring_tables_match_boards_json():
    text = README.read_text()
    want = generated(load_document())
    for name in TABLES:
        assert tables_in(text, name) == want[name], (
            "hardware/README.md table %r is out of date; run: "
            ".venv/bin/python tests/host/test_hardware_docs.py --write" % name
        )


def test_a_changed_pin_is_caught(tmp_path):
    doc = load_document()
    doc["profiles"]["pico"]["piezo"]["pin"] = 22
    stale = README.read_text()
    assert tables_in(stale, "wiring pico") != wiring_rows(doc)
    fixed = rewrite(stale, doc)
    assert tables_in(fixed, "wiring pico") == wiring_rows(doc)
    assert "| Piezo | GP22 | 29 |" in fixed


def test_every_pin_of_the_profile_is_in_the_table():
    prof = validate(load_document(), "pico")
    table = "\n".join(tables_in(README.read_text(), "wiring pico"))
    pins = prof["players"]["pins"] + list(prof["controls"]["pins"].values())
    pins += [prof["leds"]["pin"], prof["oled"]["sda"], prof["oled"]["scl"], prof["piezo"]["pin"]]
    for gp in pins:
        assert "| GP%d |" % gp in table


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        README.write_text(rewrite(README.read_text(), load_document()))
    else:
        for name, rows in generated(load_document()).items():
            print("\n".join([_begin(name)] + rows + [_end(name)]))
