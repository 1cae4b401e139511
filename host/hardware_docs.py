"""Everything generated from hardware/boards.json and hardware/bom.csv: the tables in
hardware/README.md, the figures in docs/hardware.md and the wiring diagram SVG.

    python -m host.hardware_docs            rewrite what is out of date (make hardware)
    python -m host.hardware_docs --check    list what is out of date, exit 1 if anything is

Generated Markdown sits between `<!-- BEGIN name (generated ...) -->` and `<!-- END name -->`
lines; the rest of each file is written by hand and left alone.
"""

import sys
from pathlib import Path

from firmware.board import layout
from firmware.board_profile import load_document, validate
from host import bom, pinmap, wiring_svg

ROOT = Path(__file__).resolve().parent.parent
README = "hardware/README.md"
GUIDE = "docs/hardware.md"
SVG = "hardware/wiring-pico.svg"
PROFILE = "pico"

# WS2812B figures (WS2812B-V5 datasheet): 800 kHz data, so 1.25 us per bit; the chain
# latches after the line stays low for >= 280 us; each colour channel draws up to ~20 mA at
# full duty and each LED ~1 mA for its driver. MicroPython's neopixel module sends the bits
# through machine.bitstream, which keeps interrupts off for exactly the bits.
NS_PER_BIT = 1250
BITS_PER_LED = 24
LATCH_US = 280
CHANNEL_MA = 20
IDLE_MA = 1
LED_BUDGET_MA = 450  # what a 500 mA USB port leaves for the LEDs beside the Pico and the OLED


def _begin(name, source):
    return "<!-- BEGIN %s (generated from %s by make hardware) -->" % (name, source)


def _end(name):
    return "<!-- END %s -->" % name


def _table(head, rows):
    out = ["| %s |" % " | ".join(head), "|%s|" % "|".join("---" for _ in head)]
    return out + ["| %s |" % " | ".join(r) for r in rows]


# -- hardware/README.md --

CONNECT = {
    "player": ("via the input network to the button and the jack tip", "pull-up, pressed = low; bit %(bit)d"),
    "control": ("button, other leg to GND", "pull-up, pressed = low; bit %(bit)d"),
    "led_data": (
        "74AHCT125 input; its output via 330 R to DIN of LED 0",
        "%(count)d x WS2812B, %(color_order)s",
    ),
    "oled_sda": ("SDA of the SSD1306 module", "I2C%(i2c)d, address 0x%(address)02X"),
    "oled_scl": ("SCL of the SSD1306 module", "I2C%(i2c)d, address 0x%(address)02X"),
    "piezo": ("piezo + via 100 R; piezo - to GND", "PWM slice %(pwm)s"),
    "led_power": ("+5 V of the LED chain and the 74AHCT125", "USB 5 V"),
    "logic_power": ("VCC of the OLED, the player pull-ups", "3.3 V"),
    "ground": ("buttons, jack sleeves, LEDs, OLED, piezo", "any GND pin"),
}


def wiring_rows(doc, root=ROOT, name=PROFILE):
    rows = []
    for c in pinmap.connections(doc, name):
        connect, note = CONNECT[c["role"]]
        if "gpio" in c:
            where = ("GP%d" % c["gpio"], str(c["pin"]))
        else:
            where = (c["net"], ", ".join(str(p) for p in c["pins"]))
        rows.append((c["label"],) + where + (connect, note % c))
    return _table(("Signal", "GPIO", "Pico pin", "Connect to", "Notes"), rows)


def led_rows(doc, root=ROOT, name=PROFILE):
    labels = layout(validate(doc, name))["leds"]
    shown = {"status": "status"}
    rows = [
        (str(i), shown.get(t) or ("Player %s" % t[1:] if t else "(unused)")) for i, t in enumerate(labels)
    ]
    return _table(("Chain index", "Shows"), rows)


MACROPAD = "macropad"
MACROPAD_NOTES = {
    "player": "pressed = low; bit %(bit)d",
    "control": "pressed = low; bit %(bit)d",
    "led_data": "%(count)d NeoPixels, %(color_order)s, one under each key in key order",
    "oled_sck": "SH1106 on SPI%(spi)d",
    "oled_mosi": "SH1106 on SPI%(spi)d",
    "oled_cs": "SH1106 chip select",
    "oled_dc": "SH1106 data/command",
    "oled_reset": "SH1106 reset",
    "piezo": "PWM slice %(pwm)s",
    "piezo_enable": "driven high at boot: the speaker's amplifier on",
}


def macropad_rows(doc, root=ROOT, name=MACROPAD):
    """The MacroPad build: what each of the board's own parts does in tablemate."""
    rows = []
    for c in pinmap.connections(doc, name):
        rows.append((c["place"], "GP%d" % c["gpio"], c["label"], MACROPAD_NOTES[c["role"]] % c))
    labels = layout(validate(doc, name))["leds"]
    lit = ", ".join("%s under KEY%d" % (t, i + 1) for i, t in enumerate(labels) if t)
    return _table(("Board part", "GPIO", "In tablemate", "Notes"), rows) + ["", "Key lights: %s." % lit]


def bom_rows(doc, root=ROOT, name=PROFILE):
    rows = bom.load(root / "hardware" / "bom.csv")
    problems = bom.check_against(rows, validate(doc, name))
    if problems:
        raise bom.BomError("hardware/bom.csv does not fit boards.json: " + "; ".join(problems))
    return bom.markdown(rows)


# -- docs/hardware.md --


def _us(ns):
    return "%d.%d \u00b5s" % (ns // 1000, ns % 1000 // 100)


def led_figures(doc, root=ROOT, name=PROFILE):
    leds = validate(doc, name)["leds"]
    n, cap = leds["count"], leds.get("brightness", 64)
    bits = n * BITS_PER_LED
    off_ns = bits * NS_PER_BIT

    def chain_ma(c):
        return n * (3 * CHANNEL_MA * c / 255 + IDLE_MA)

    best = max(c for c in range(256) if chain_ma(c) <= LED_BUDGET_MA)
    rows = [
        ("LEDs in the chain", str(n), "`leds.count` in boards.json"),
        ("Bits per refresh", str(bits), "%d bits per LED x %d" % (BITS_PER_LED, n)),
        ("Interrupts off per refresh", _us(off_ns), "%d bits x 1.25 \u00b5s (`machine.bitstream`)" % bits),
        (
            "Latch (reset) after the bits",
            "\u2265 %d \u00b5s" % LATCH_US,
            "line held low; interrupts are on again",
        ),
        (
            "Data line busy per refresh",
            _us(off_ns + LATCH_US * 1000),
            "bits + latch: the shortest refresh period",
        ),
        (
            "Chain current, all white, default cap %d/255" % cap,
            "%d mA" % round(chain_ma(cap)),
            "%d x (3 x %d mA x %d/255 + %d mA)" % (n, CHANNEL_MA, cap, IDLE_MA),
        ),
        (
            "Chain current, all white, cap 255",
            "%d mA" % round(chain_ma(255)),
            "the `brightness` setting's maximum",
        ),
        ("Highest cap within %d mA" % LED_BUDGET_MA, str(best), "what a 500 mA USB port leaves for the LEDs"),
    ]
    return _table(("Figure", "Value", "From"), rows)


BLOCKS = {
    README: {
        "wiring pico": (wiring_rows, "hardware/boards.json"),
        "leds pico": (led_rows, "hardware/boards.json"),
        "bom": (bom_rows, "hardware/bom.csv"),
        "keys macropad": (macropad_rows, "hardware/boards.json"),
    },
    GUIDE: {"led figures pico": (led_figures, "hardware/boards.json")},
}


def block_lines(text, name, source):
    """The lines between a block's markers; ValueError unless each marker is there once."""
    lines = text.splitlines()
    begin, end = _begin(name, source), _end(name)
    if lines.count(begin) != 1 or lines.count(end) != 1:
        raise ValueError("needs one line %r and one %r" % (begin, end))
    return lines[lines.index(begin) + 1 : lines.index(end)]


def rewrite(text, blocks, doc, root=ROOT):
    """text with every generated block replaced by its current content."""
    lines = text.splitlines()
    for name, (make, source) in blocks.items():
        block_lines("\n".join(lines), name, source)
        a, b = lines.index(_begin(name, source)), lines.index(_end(name))
        lines = lines[: a + 1] + make(doc, root) + lines[b:]
    return "\n".join(lines) + "\n"


def expected(doc=None, root=ROOT):
    """{relative path: full text it should have}."""
    doc = doc if doc is not None else load_document(str(root / "hardware" / "boards.json"))
    out = {}
    for rel, blocks in BLOCKS.items():
        out[rel] = rewrite((root / rel).read_bytes().decode(), blocks, doc, root)
    out[SVG] = wiring_svg.render(doc, PROFILE)
    return out


def stale(doc=None, root=ROOT):
    """Relative paths whose content differs from what the sources give."""
    want = expected(doc, root)
    return [rel for rel, text in want.items() if not _same(root / rel, text)]


def _same(path, text):
    return path.exists() and path.read_bytes() == text.encode()


def write(doc=None, root=ROOT):
    """Rewrite the stale files; returns their paths."""
    want = expected(doc, root)
    changed = []
    for rel, text in want.items():
        path = root / rel
        if not _same(path, text):
            path.write_bytes(text.encode())
            changed.append(rel)
    return changed


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv not in ([], ["--check"]):
        print("usage: python -m host.hardware_docs [--check]", file=sys.stderr)
        return 2
    try:
        if argv == ["--check"]:
            old = stale()
            for rel in old:
                print("out of date: %s (run: make hardware)" % rel)
            return 1 if old else 0
        changed = write()
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    print("\n".join("wrote %s" % rel for rel in changed) or "hardware docs are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
