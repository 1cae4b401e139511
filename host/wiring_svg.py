"""The wiring diagram of a board profile as SVG, drawn from the pin map (host.pinmap).

The Pico's header sits in the middle, pin 1 top left as seen from above with the USB plug
at the top. Each connection is drawn at the row of its header pin, on that pin's side:
player buttons with their input network and remote-buzzer jack, control buttons, the LED
data line through the level shifter, the OLED, the piezo, the power nets. The LED chain
runs along the bottom in chain order; a detail shows one player input network.

The output depends on the pin map alone: integer coordinates, a fixed order, no dates,
so rendering the same boards.json twice gives the same bytes.
"""

from xml.sax.saxutils import escape

from firmware.board import layout
from firmware.board_profile import validate
from host import pinmap

PITCH = 44  # between header rows
BOARD_TOP = 150
BOARD_LEFT = 620
BOARD_WIDTH = 320
FIRST_ROW = BOARD_TOP + 70
ROWS = 20
STRIP_TOP = FIRST_ROW + ROWS * PITCH + 110  # the LED chain
LED_W, LED_H, LED_PITCH = 120, 70, 150
DETAIL_TOP = STRIP_TOP + 190
WIDTH = 1560
HEIGHT = DETAIL_TOP + 300

STYLE = """
text { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 13px; fill: #222; }
.title { font-size: 24px; font-weight: bold; }
.sub { font-size: 13px; fill: #555; }
.small { font-size: 11px; fill: #444; }
.pinno { font-size: 10px; fill: #fff; font-weight: bold; }
.pinlabel { font-size: 12px; fill: #f4f4f4; }
.used { font-weight: bold; fill: #fff; }
.head { font-size: 15px; font-weight: bold; }
.board { fill: #2f7d4f; stroke: #1b4d30; stroke-width: 2; }
.usb { fill: #c8c8c8; stroke: #777; stroke-width: 2; }
.part { fill: #fff; stroke: #333; stroke-width: 1.5; }
.chip { fill: #333; stroke: #111; stroke-width: 1.5; }
.chiptext { fill: #fff; font-size: 12px; }
.box { fill: #f7f7f2; stroke: #999; stroke-width: 1; }
.w { fill: none; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
.btn { stroke: #1f5fbf; } .led { stroke: #2e8b57; } .i2c { stroke: #7b3fa0; }
.pz { stroke: #b35900; } .v5 { stroke: #d01c1c; } .v3 { stroke: #e08a00; } .gnd { stroke: #222; }
.f-btn { fill: #1f5fbf; } .f-led { fill: #2e8b57; } .f-i2c { fill: #7b3fa0; }
.f-pz { fill: #b35900; } .f-v5 { fill: #d01c1c; } .f-v3 { fill: #e08a00; } .f-gnd { fill: #222; }
.f-free { fill: #9aa59d; } .f-other { fill: #5d6b62; }
""".strip()

ROLE_CLASS = {
    "player": "btn",
    "control": "btn",
    "led_data": "led",
    "oled_sda": "i2c",
    "oled_scl": "i2c",
    "piezo": "pz",
    "led_power": "v5",
    "logic_power": "v3",
    "ground": "gnd",
}
NET_CLASS = {"VBUS": "v5", "3V3_OUT": "v3", "GND": "gnd"}
NET_NAME = {"VBUS": "+5V", "3V3_OUT": "3V3"}


class Canvas:
    def __init__(self):
        self.parts = []

    def add(self, s):
        self.parts.append(s)

    def line(self, cls, *xy):
        pts = " ".join("%d,%d" % (xy[i], xy[i + 1]) for i in range(0, len(xy), 2))
        self.add('<polyline class="w %s" points="%s"/>' % (cls, pts))

    def rect(self, x, y, w, h, cls, rx=0):
        self.add('<rect x="%d" y="%d" width="%d" height="%d" rx="%d" class="%s"/>' % (x, y, w, h, rx, cls))

    def circle(self, x, y, r, cls):
        self.add('<circle cx="%d" cy="%d" r="%d" class="%s"/>' % (x, y, r, cls))

    def text(self, x, y, s, cls=None, anchor="start"):
        c = ' class="%s"' % cls if cls else ""
        a = ' text-anchor="%s"' % anchor if anchor != "start" else ""
        self.add('<text x="%d" y="%d"%s%s>%s</text>' % (x, y, c, a, escape(s)))

    def svg(self):
        head = '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">' % (
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT,
        )
        body = ["<style>", STYLE, "</style>", '<rect width="100%" height="100%" fill="#fff"/>']
        return (
            "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', head] + body + self.parts + ["</svg>"])
            + "\n"
        )


# -- symbols; d is the direction away from the board: -1 left, +1 right --


def dot(c, x, y, cls):
    c.circle(x, y, 4, "f-" + cls)


def ground(c, x, y):
    """A ground symbol hanging below (x, y)."""
    c.line("gnd", x, y, x, y + 8)
    for i, half in enumerate((9, 6, 3)):
        c.line("gnd", x - half, y + 8 + 3 * i, x + half, y + 8 + 3 * i)


def flag(c, x, y, net, d=1):
    """A net label (+5V, 3V3) touching (x, y), pointing away along d."""
    cls = NET_CLASS[net]
    name = NET_NAME[net]
    w = 12 + 9 * len(name)
    x0 = x if d > 0 else x - w
    c.rect(x0, y - 10, w, 20, "f-" + cls, 4)
    c.text(x0 + w // 2, y + 5, name, "used", "middle")


def resistor_h(c, x1, x2, y, cls, label):
    mid = (x1 + x2) // 2
    c.line(cls, x1, y, mid - 18, y)
    c.line(cls, mid + 18, y, x2, y)
    c.rect(mid - 18, y - 6, 36, 12, "part")
    c.text(mid, y - 10, label, "small", "middle")


def resistor_v(c, x, y1, y2, cls, label, d=1):
    mid = (y1 + y2) // 2
    c.line(cls, x, y1, x, mid - 16)
    c.line(cls, x, mid + 16, x, y2)
    c.rect(x - 6, mid - 16, 12, 32, "part")
    c.text(x + 10 * d, mid + 4, label, "small", "start" if d > 0 else "end")


def capacitor_v(c, x, y1, y2, cls, label, d=1):
    mid = (y1 + y2) // 2
    c.line(cls, x, y1, x, mid - 4)
    c.line(cls, x, mid + 4, x, y2)
    c.line(cls, x - 10, mid - 4, x + 10, mid - 4)
    c.line(cls, x - 10, mid + 4, x + 10, mid + 4)
    c.text(x + 14 * d, mid + 4, label, "small", "start" if d > 0 else "end")


def diode_v(c, x, y1, y2, label, d=1):
    """A bidirectional ESD diode between y1 (signal) and y2 (ground)."""
    mid = (y1 + y2) // 2
    c.line("gnd", x, y1, x, y2)
    c.add('<polygon points="%d,%d %d,%d %d,%d" class="part"/>' % (x - 7, mid - 10, x + 7, mid - 10, x, mid))
    c.add('<polygon points="%d,%d %d,%d %d,%d" class="part"/>' % (x - 7, mid + 10, x + 7, mid + 10, x, mid))
    c.line("gnd", x - 8, mid, x + 8, mid)
    c.text(x + 14 * d, mid + 4, label, "small", "start" if d > 0 else "end")


def button_h(c, x1, x2, y, cls):
    """A normally open push button between x1 and x2 (x1 < x2)."""
    c.line(cls, x1, y, x1 + 10, y)
    c.line(cls, x2 - 10, y, x2, y)
    c.circle(x1 + 12, y, 3, "part")
    c.circle(x2 - 12, y, 3, "part")
    c.line(cls, x1 + 8, y - 9, x2 - 8, y - 9)
    mid = (x1 + x2) // 2
    c.line(cls, mid, y - 9, mid, y - 17)
    c.line(cls, mid - 6, y - 17, mid + 6, y - 17)


def jack_h(c, x1, x2, y):
    """A 3.5 mm jack between x1 (sleeve) and x2 (tip)."""
    mid = (x1 + x2) // 2
    c.line("btn", mid + 14, y, x2, y)
    c.line("gnd", x1, y, mid - 14, y)
    c.rect(mid - 14, y - 8, 28, 16, "part", 3)
    c.text(mid, y + 4, "jack", "small", "middle")
    c.text(mid + 17, y - 4, "T", "small")
    c.text(mid - 17, y - 4, "S", "small", "end")


# -- the board --


def row_of(pin):
    return pin - 1 if pin <= ROWS else 2 * ROWS - pin


def side_of(pin):
    return -1 if pin <= ROWS else 1


def y_of(pin):
    return FIRST_ROW + row_of(pin) * PITCH


def edge(d):
    return BOARD_LEFT if d < 0 else BOARD_LEFT + BOARD_WIDTH


def draw_board(c, header, used, title):
    pins = pinmap.header_pins(header)
    bottom = FIRST_ROW + (ROWS - 1) * PITCH + 74
    c.rect(BOARD_LEFT, BOARD_TOP, BOARD_WIDTH, bottom - BOARD_TOP, "board", 10)
    mid = BOARD_LEFT + BOARD_WIDTH // 2
    c.rect(mid - 40, BOARD_TOP - 22, 80, 40, "usb", 4)
    c.text(mid, BOARD_TOP + 38, "USB", "pinlabel", "middle")
    c.text(mid, bottom - 26, title, "pinlabel", "middle")
    c.text(mid, bottom - 10, "seen from above", "pinlabel", "middle")
    for pin in sorted(pins):
        label, kind = pins[pin]
        d = side_of(pin)
        y = y_of(pin)
        x = edge(d) - 16 * d
        cls = used.get(pin)
        fill = "f-" + cls if cls else {"gnd": "f-gnd", "gpio": "f-free"}.get(kind, "f-other")
        c.circle(x, y, 10, fill)
        c.text(x, y + 4, str(pin), "pinno", "middle")
        c.text(x - 18 * d, y + 4, label, "pinlabel used" if cls else "pinlabel", "end" if d > 0 else "start")


# -- the parts around it --


def draw_buttons(c, rows, ground_pins):
    """Player and control buttons, per side, with a ground bus wired to one GND pin."""
    for d in (-1, 1):
        mine = [r for r in rows if side_of(r["pin"]) == d]
        if not mine:
            continue
        e = edge(d)
        bus = e + 330 * d
        for r in mine:
            y = y_of(r["pin"])
            if r["role"] == "player":
                # pin -> input network A -> node; node -> button -> bus; node -> jack tip, sleeve -> bus
                box = e + 70 * d
                c.line("btn", e, y, box - 26 * d, y)
                c.rect(min(box - 26 * d, box + 26 * d), y - 11, 52, 22, "box", 4)
                c.text(box, y + 4, "net A", "small", "middle")
                node = e + 150 * d
                c.line("btn", box + 26 * d, y, node, y)
                dot(c, node, y, "btn")
                button_h(c, min(node, node + 110 * d), max(node, node + 110 * d), y, "btn")
                c.line("gnd", node + 110 * d, y, bus, y)
                c.line("btn", node, y, node, y + 20)
                jack_h(c, min(node + 30 * d, bus), max(node + 30 * d, bus), y + 20)
                c.line("btn", node, y + 20, node + 30 * d, y + 20)
                dot(c, bus, y + 20, "gnd")
            else:
                c.line("btn", e, y, e + 150 * d, y)
                button_h(c, min(e + 150 * d, e + 260 * d), max(e + 150 * d, e + 260 * d), y, "btn")
                c.line("gnd", e + 260 * d, y, bus, y)
            dot(c, bus, y, "gnd")
            c.text(
                bus + 14 * d, y + 5, r["label"].replace(" button", ""), "head", "start" if d > 0 else "end"
            )
            c.text(bus + 14 * d, y + 21, "bit %d" % r["bit"], "small", "start" if d > 0 else "end")
        ys = [y_of(r["pin"]) for r in mine]
        top, low = min(ys), max(ys) + (20 if mine[-1]["role"] == "player" else 0)
        # the bus meets the nearest GND pin of this side
        gnd = min(
            (p for p in ground_pins if side_of(p) == d), key=lambda p: (abs(y_of(p) - top), p), default=None
        )
        if gnd is not None:
            gy = y_of(gnd)
            c.line("gnd", e, gy, bus, gy)
            dot(c, bus, gy, "gnd")
            top, low = min(top, gy), max(low, gy)
        c.line("gnd", bus, top, bus, low)
        c.text(bus, top - 12, "GND bus", "small", "middle")


def draw_piezo(c, r):
    d = side_of(r["pin"])
    e = edge(d)
    y = y_of(r["pin"])
    resistor_h(c, min(e, e + 120 * d), max(e, e + 120 * d), y, "pz", "100 \u03a9")
    x = e + 120 * d
    c.line("pz", x, y, x + 20 * d, y)
    px = x + 20 * d + (18 if d > 0 else -18)
    c.circle(px, y, 16, "part")
    c.text(px, y + 4, "PZ", "small", "middle")
    c.line("gnd", px + 16 * d, y, px + 40 * d, y)
    ground(c, px + 40 * d, y)
    c.text(px + 54 * d, y - 2, "Piezo (passive)", "head", "start" if d > 0 else "end")
    c.text(px + 54 * d, y + 14, "PWM slice %s" % r["pwm"], "small", "start" if d > 0 else "end")


def draw_oled(c, sda, scl):
    """The module's four pins on its left: GND and VCC above the I2C pair."""
    d = side_of(sda["pin"])
    e = edge(d)
    ys = {"SDA": y_of(sda["pin"]), "SCL": y_of(scl["pin"])}
    first = min(ys.values())
    ys["VCC"] = first - PITCH // 2
    ys["GND"] = first - PITCH
    top, bottom = ys["GND"] - 40, max(ys.values()) + 34
    x0 = e + 220 * d
    w = 170
    left = x0 if d > 0 else x0 - w
    c.rect(left, top, w, bottom - top, "part", 6)
    c.text(left + w // 2, top + 24, "SSD1306 OLED", "head", "middle")
    c.text(left + w // 2, bottom - 10, "I2C%d at 0x%02X" % (sda["i2c"], sda["address"]), "small", "middle")
    for name in ("GND", "VCC", "SCL", "SDA"):
        y = ys[name]
        c.text(x0 + 8 * d, y + 4, name, "small", "start" if d > 0 else "end")
        c.circle(x0, y, 3, "part")
    for name in ("SCL", "SDA"):
        c.line("i2c", e, ys[name], x0, ys[name])
    stub = x0 - 40 * d
    c.line("gnd", x0, ys["GND"], stub, ys["GND"])
    ground(c, stub, ys["GND"])
    c.line("v3", x0, ys["VCC"], stub + 10 * d, ys["VCC"])
    flag(c, stub + 10 * d, ys["VCC"], "3V3_OUT", -d)


def draw_led_data(c, r, chain):
    """Data pin -> 74AHCT125 -> 330 ohm -> the chain along the bottom, LED 0 first."""
    d = side_of(r["pin"])
    e = edge(d)
    y = y_of(r["pin"])
    chip = e + 40 * d
    cw = 150
    left = chip if d > 0 else chip - cw
    c.line("led", e, y, chip, y)
    c.rect(left, y - 22, cw, 44, "chip", 4)
    c.text(left + cw // 2, y - 4, "74AHCT125", "chiptext", "middle")
    c.text(left + cw // 2, y + 13, "1OE (1) to GND", "chiptext", "middle")
    # the DIP-14 pin numbers a builder solders: 1A in = 2, 1Y out = 3, VCC = 14, GND = 7
    inside, outside = (left + 4, left + cw - 4) if d > 0 else (left + cw - 4, left + 4)
    c.text(inside, y - 6, "2", "chiptext", "start" if d > 0 else "end")
    c.text(outside, y - 6, "3", "chiptext", "end" if d > 0 else "start")
    c.line("v5", left + 20, y - 22, left + 20, y - 40)
    c.text(left + 26, y - 28, "14", "small")
    flag(c, left + 20, y - 50, "VBUS", 1)
    c.line("gnd", left + cw - 20, y + 22, left + cw - 20, y + 30)
    c.text(left + cw - 26, y + 36, "7", "small", "end")
    ground(c, left + cw - 20, y + 30)
    out = chip + cw * d
    run = out + 150 * d
    feed = STRIP_TOP - 34
    first = strip_x(0) - 30
    din = STRIP_TOP + LED_H // 2
    c.line("led", out, y, run, y, run, feed, first, feed)
    resistor_v(c, first, feed, din, "led", "330 \u03a9", -1)
    c.line("led", first, din, first + 30, din)
    c.text(run - 8 * d, feed - 8, "to DIN of LED 0 (5 V level)", "small", "end" if d > 0 else "start")
    draw_chain(c, chain)


def strip_x(i):
    return 150 + i * LED_PITCH


def draw_chain(c, labels):
    y = STRIP_TOP
    c.text(strip_x(0), y - 56, "LED chain (WS2812B, DIN \u2192 DOUT), in chain order", "head")
    rail5, railg = y + LED_H + 26, y + LED_H + 50
    last = strip_x(len(labels) - 1) + LED_W
    for i, label in enumerate(labels):
        x = strip_x(i)
        c.rect(x, y, LED_W, LED_H, "part", 6)
        c.text(x + LED_W // 2, y + 22, "LED %d" % i, "head", "middle")
        shown = "status" if label == "status" else ("Player %s" % label[1:] if label else "(unused)")
        c.text(x + LED_W // 2, y + 60, shown, None, "middle")
        c.text(x + 4, y + LED_H // 2 + 4, "DIN", "small")
        c.text(x + LED_W - 4, y + LED_H // 2 + 4, "DOUT", "small", "end")
        if i + 1 < len(labels):
            c.line("led", x + LED_W, y + LED_H // 2, strip_x(i + 1), y + LED_H // 2)
        c.line("v5", x + 30, y + LED_H, x + 30, rail5)
        c.line("gnd", x + LED_W - 30, y + LED_H, x + LED_W - 30, railg)
        dot(c, x + 30, rail5, "v5")
        dot(c, x + LED_W - 30, railg, "gnd")
    start = strip_x(0) - 60
    c.line("v5", start, rail5, last, rail5)
    c.line("gnd", start, railg, last, railg)
    flag(c, start, rail5, "VBUS", -1)
    ground(c, start - 20, railg)
    c.line("gnd", start - 20, railg, start, railg)
    capacitor_v(c, start + 30, rail5, railg, "v5", "", 1)
    c.text(start + 44, railg + 20, "1000 \u00b5F across +5V/GND at LED 0", "small")


def draw_power(c, rows):
    for r in rows:
        if "net" not in r:
            continue
        if r["role"] == "ground":
            for pin in r["pins"]:
                d = side_of(pin)
                e = edge(d)
                y = y_of(pin)
                c.line("gnd", e, y, e + 14 * d, y)
                ground(c, e + 14 * d, y)
            continue
        net = r["net"]
        for pin in r["pins"]:
            d = side_of(pin)
            e = edge(d)
            y = y_of(pin)
            c.line(NET_CLASS[net], e, y, e + 40 * d, y)
            flag(c, e + 40 * d, y, net, d)
            what = "LED chain, 74AHCT125" if net == "VBUS" else "OLED, player pull-ups"
            c.text(e + (100 if d > 0 else -100), y + 5, what, "small", "start" if d > 0 else "end")


def draw_detail(c):
    """Detail A: one player's input network (the same for every seat)."""
    x, y = 60, DETAIL_TOP
    c.rect(x, y, 700, 270, "box", 8)
    c.text(x + 16, y + 26, "net A: one per player input, the same for every seat", "head")
    ny = y + 140
    tip, gpio = x + 200, x + 420
    c.text(x + 16, ny + 5, "button + jack tip", None)
    c.line("btn", x + 150, ny, tip, ny)
    dot(c, tip, ny, "btn")
    resistor_v(c, tip, ny - 80, ny, "v3", "10 k\u03a9 pull-up", -1)
    flag(c, tip, ny - 90, "3V3_OUT", 1)
    resistor_h(c, tip, gpio, ny, "btn", "1 k\u03a9")
    dot(c, gpio, ny, "btn")
    c.line("btn", gpio, ny, gpio + 120, ny)
    c.text(gpio + 126, ny + 5, "to the GPIO", None)
    diode_v(c, tip, ny, ny + 70, "ESD diode", -1)
    ground(c, tip, ny + 70)
    capacitor_v(c, gpio, ny, ny + 70, "btn", "1 nF", 1)
    ground(c, gpio, ny + 70)
    c.text(
        x + 16,
        y + 252,
        "1 k\u03a9 \u00d7 1 nF = 1 \u00b5s: the same delay on every seat; firmware debounces",
        "small",
    )


def draw_legend(c):
    x, y = 800, DETAIL_TOP
    c.rect(x, y, 700, 270, "box", 8)
    c.text(x + 16, y + 26, "Key", "head")
    keys = (
        ("btn", "buttons (active low, pull-up)"),
        ("led", "LED data"),
        ("i2c", "I2C to the OLED"),
        ("pz", "piezo (PWM)"),
        ("v5", "+5V from VBUS"),
        ("v3", "3V3 from 3V3_OUT"),
        ("gnd", "GND: every ground symbol goes to any GND pin"),
    )
    for i, (cls, what) in enumerate(keys):
        yy = y + 54 + 24 * i
        c.line(cls, x + 20, yy, x + 60, yy)
        c.text(x + 72, yy + 5, what)
    c.text(
        x + 16, y + 252, "Jack: T = tip (input), S = sleeve (GND), ring unused. Grey pins are free.", "small"
    )


def render(doc, name="pico"):
    prof = validate(doc, name)
    header = doc["headers"][prof["header"]]
    rows = pinmap.connections(doc, name)
    used = {}
    for r in rows:
        for pin in r.get("pins", [r.get("pin")]):
            used[pin] = ROLE_CLASS[r["role"]]
    c = Canvas()
    c.text(40, 52, "tablemate wiring: profile \u201c%s\u201d" % name, "title")
    c.text(40, 76, prof.get("title", ""), "sub")
    c.text(
        40,
        96,
        "Generated from hardware/boards.json by make hardware. Pins are the Pico's header pins.",
        "sub",
    )
    draw_board(c, header, used, header.get("title", "").split(",")[0].split(" (")[0])
    by_role = {}
    for r in rows:
        by_role.setdefault(r["role"], []).append(r)
    draw_power(c, rows)
    draw_buttons(c, by_role.get("player", []) + by_role.get("control", []), header["power"]["GND"])
    if "piezo" in by_role:
        draw_piezo(c, by_role["piezo"][0])
    if "oled_sda" in by_role:
        draw_oled(c, by_role["oled_sda"][0], by_role["oled_scl"][0])
    draw_led_data(c, by_role["led_data"][0], layout(prof)["leds"])
    draw_detail(c)
    draw_legend(c)
    return c.svg()
