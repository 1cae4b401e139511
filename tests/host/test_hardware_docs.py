"""hardware/boards.json is the one pin map: everything that shows or uses pins must agree.

- the generated views (hardware/README.md tables, docs/hardware.md figures, the wiring
  SVG) are current, and byte-identical when generated again;
- the Pico board the firmware builds uses the pins the docs show, bit for bit, and so does
  the emulated Pico's board model (rp2box/board.mjs, driven by tests/host/rp2box_pins.mjs);
- the sim board shows the same layout as the Pico box;
- the BOM (hardware/bom.csv) buys parts for the box the pin map describes;
- no other file lists pins of its own.

After changing boards.json or bom.csv: make hardware.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware import board_pico
from firmware.board import layout, make_board
from firmware.board_profile import load_document, load_profile, validate
from host import bom, hardware_docs, pinmap, wiring_svg
from tests.shared.test_board import FakeHardware

ROOT = Path(__file__).resolve().parents[2]


def _doc():
    return load_document(str(ROOT / "hardware" / "boards.json"))


# -- the generated views --


def test_generated_views_are_current():
    assert hardware_docs.stale() == [], "out of date; run: make hardware"


def test_a_changed_pin_reaches_every_view():
    doc = _doc()
    doc["profiles"]["pico"]["piezo"]["pin"] = 22
    want = hardware_docs.expected(doc)
    assert (
        "| Piezo | GP22 | 29 | piezo + via 100 R; piezo - to GND | PWM slice 3 A |"
        in want[hardware_docs.README]
    )
    now = (ROOT / hardware_docs.README).read_text()
    assert "| Piezo | GP22 |" not in now
    # the diagram moves the piezo to header pin 29's row and colours that pin as the piezo's
    svg = want[hardware_docs.SVG]
    assert svg != (ROOT / hardware_docs.SVG).read_text()
    y29 = wiring_svg.y_of(29)
    assert '<circle cx="%d" cy="%d" r="10" class="f-pz"/>' % (wiring_svg.edge(1) - 16, y29) in svg
    assert (
        '<circle cx="%d" cy="%d" r="10" class="f-pz"/>' % (wiring_svg.edge(1) - 16, wiring_svg.y_of(24))
        not in svg
    )


def test_the_macropad_table_follows_its_profile():
    doc = _doc()
    pins = doc["profiles"]["macropad"]["controls"]["pins"]
    pins["ok"], pins["back"] = pins["back"], pins["ok"]
    doc["profiles"]["macropad"]["leds"]["status_index"] = 11
    want = hardware_docs.expected(doc)[hardware_docs.README]
    assert "| KEY10 | GP10 | Ok button | pressed = low; bit 9 |" in want
    assert "P8 under KEY8, status under KEY12." in want
    now = (ROOT / hardware_docs.README).read_text()
    assert "| KEY12 | GP12 | Ok button | pressed = low; bit 9 |" in now and "status under KEY9." in now


def test_a_longer_led_chain_changes_the_figures_and_the_diagram():
    doc = _doc()
    doc["profiles"]["pico"]["leds"]["count"] = 12
    fig = "\n".join(hardware_docs.led_figures(doc))
    assert "| Interrupts off per refresh | 360.0 µs |" in fig  # 12 x 24 x 1.25
    assert "| Data line busy per refresh | 640.0 µs |" in fig
    svg = wiring_svg.render(doc)
    assert ">LED 11<" in svg and ">LED 12<" not in svg
    assert ">(unused)<" in svg  # LEDs 9..11 show nothing


def test_led_figures_follow_the_datasheet_arithmetic():
    fig = "\n".join(hardware_docs.led_figures(_doc()))
    assert "| Bits per refresh | 216 |" in fig
    assert "| Interrupts off per refresh | 270.0 µs |" in fig  # 9 x 24 x 1.25
    assert "| Chain current, all white, default cap 64/255 | 145 mA |" in fig  # 9 x (60 x 64/255 + 1)
    assert "| Highest cap within 450 mA | 208 |" in fig  # 9 x (60 x 208/255 + 1) = 449.5


def _copy_sources(dst):
    for rel in ("hardware/boards.json", "hardware/bom.csv", hardware_docs.README, hardware_docs.GUIDE):
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, dst / rel)


def _generate(root, hashseed):
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
    code = (
        "import sys; from pathlib import Path; from host import hardware_docs; "
        "hardware_docs.write(root=Path(sys.argv[1]))"
    )
    subprocess.run([sys.executable, "-c", code, str(root)], cwd=ROOT, env=env, check=True)
    return {rel: (root / rel).read_bytes() for rel in hardware_docs.expected(root=root)}


def test_make_hardware_is_byte_identical_on_rerun(tmp_path):
    """Two runs in fresh interpreters with different hash seeds write the same bytes."""
    a, b = tmp_path / "a", tmp_path / "b"
    _copy_sources(a)
    _copy_sources(b)
    first = _generate(a, 1)
    again = _generate(a, 2)
    other = _generate(b, 3)
    assert first == again == other
    assert first[hardware_docs.SVG] == (ROOT / hardware_docs.SVG).read_bytes()


def test_the_svg_is_well_formed_and_plain():
    text = (ROOT / hardware_docs.SVG).read_text()
    root = ET.fromstring(text.encode())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert not re.search(r"\d\.\d{3,}", text), "no long floats: coordinates are integers"
    assert not re.search(r"20\d\d-\d\d-\d\d", text), "no dates"
    # every connection of the profile is on the drawing
    for label in (
        "Player 1",
        "Player 8",
        "Mode",
        "Ok",
        "Back",
        "74AHCT125",
        "SSD1306 OLED",
        "Piezo (passive)",
    ):
        assert ">%s" % label in text, label


def test_make_hardware_reports_a_bom_that_does_not_fit(tmp_path):
    _copy_sources(tmp_path)
    csv = tmp_path / "hardware" / "bom.csv"
    csv.write_text(csv.read_text().replace(",9,led,", ",8,led,"))
    with pytest.raises(bom.BomError, match=r"quantity 8 is not a multiple of the 9 led"):
        hardware_docs.expected(root=tmp_path)


# -- the firmware, the sim and the docs read the same pins --


def test_the_pico_board_uses_the_pins_the_docs_show():
    """Press each wire the pin table names: the firmware's board sees exactly that button."""
    doc = _doc()
    hw = FakeHardware(oled_present=False)
    board = board_pico.build(load_profile("pico", doc=doc), hw=hw)
    rows = {}
    for r in pinmap.connections(doc, "pico"):
        rows.setdefault(r["role"], []).append(r)
    buttons = rows["player"] + rows["control"]
    assert len(buttons) == 11
    for r in buttons:
        hw.press(r["gpio"], True)
        assert board.read_mask() == 1 << r["bit"], r["label"]
        hw.press(r["gpio"], False)
        assert hw.pins[r["gpio"]].pull == hw.Pin.PULL_UP, r["label"]
    assert hw.np.pin == rows["led_data"][0]["gpio"]
    assert hw.np.n == rows["led_data"][0]["count"]
    assert hw.pwm.pin == rows["piezo"][0]["gpio"]
    bus = hw.buses[0]
    assert (bus.bus, bus.sda, bus.scl) == (
        rows["oled_sda"][0]["i2c"],
        rows["oled_sda"][0]["gpio"],
        rows["oled_scl"][0]["gpio"],
    )
    used = {r["gpio"] for rs in rows.values() for r in rs if "gpio" in r}
    assert set(hw.pins) == used - {rows["led_data"][0]["gpio"], rows["piezo"][0]["gpio"]} | {
        rows["led_data"][0]["gpio"],
        rows["piezo"][0]["gpio"],
        rows["oled_sda"][0]["gpio"],
        rows["oled_scl"][0]["gpio"],
    }, "the firmware touches a pin the docs do not show"


def test_the_macropad_board_uses_the_pins_pinmap_shows():
    """The off-the-shelf build: each key the pin table names is that button on the board the
    firmware builds, and the LED line, speaker and its amplifier's enable are where it says
    (its SH1106 on SPI is checked under MicroPython: tests/shared/test_board.py)."""
    doc = _doc()
    hw = FakeHardware()
    prof = load_profile("macropad", doc=doc)
    prof["oled"]["enabled"] = False  # its frame buffer needs MicroPython's framebuf
    board = board_pico.build(prof, hw=hw)
    rows = {}
    for r in pinmap.connections(doc, "macropad"):
        rows.setdefault(r["role"], []).append(r)
    buttons = rows["player"] + rows["control"]
    assert [r["place"] for r in buttons] == ["KEY%d" % k for k in (1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 10)]
    for r in buttons:
        hw.press(r["gpio"], True)
        assert board.read_mask() == 1 << r["bit"], r["label"]
        hw.press(r["gpio"], False)
    assert (hw.np.pin, hw.np.n) == (rows["led_data"][0]["gpio"], 12)
    assert hw.pwm.pin == rows["piezo"][0]["gpio"]
    assert hw.pins[rows["piezo_enable"][0]["gpio"]].out == 1
    assert [r["place"] for r in rows["oled_cs"] + rows["oled_dc"] + rows["oled_reset"]] == [
        "OLED_CS", "OLED_DC", "OLED_RESET"]
    assert layout(prof)["leds"] == ["P%d" % p for p in range(1, 9)] + ["status", "", "", ""]


def rp2box_pins(boards_json, profile):
    """What the emulated Pico's board model (rp2box/board.mjs) does with a profile, found by
    driving it around a stand-in chip (tests/host/rp2box_pins.mjs)."""
    if shutil.which("node") is None:
        pytest.skip("the emulated Pico's board model needs node")
    probe = ROOT / "tests" / "host" / "rp2box_pins.mjs"
    out = subprocess.run(["node", str(probe), str(boards_json), profile], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def expected_model(doc, profile):
    """The same facts from host.pinmap, the docs' source."""
    want = {"buttons": {}, "active_low": True}
    for r in pinmap.connections(doc, profile):
        if r["role"] in ("player", "control"):
            want["buttons"][str(r["bit"])] = r["gpio"]
            want["active_low"] = r["active"] == "low"
        elif r["role"] == "led_data":
            want.update(led_data=r["gpio"], led_count=r["count"], color_order=r["color_order"])
        elif r["role"] in ("oled_sda", "oled_scl"):
            want.setdefault("oled", {"i2c": r["i2c"], "address": r["address"]})[r["role"][5:]] = r["gpio"]
        elif r["role"] == "piezo":
            want["piezo_pwm"] = r["pwm"]
    return want


def test_the_emulated_pico_wires_the_pins_the_docs_show():
    """rp2box/board.mjs reads boards.json itself (JavaScript): each button it presses, the LED
    line it decodes, the I2C bus of its OLED and the PWM slice of its piezo are the pin table's."""
    from host import rp2box

    doc = _doc()
    assert rp2box_pins(rp2box.BOARDS_JSON, rp2box.PROFILE) == expected_model(doc, rp2box.PROFILE)


def test_a_changed_pin_map_moves_the_emulated_pico(tmp_path):
    doc = _doc()
    prof = doc["profiles"]["pico"]
    prof["controls"]["pins"]["ok"], prof["controls"]["pins"]["back"] = (
        prof["controls"]["pins"]["back"], prof["controls"]["pins"]["ok"])
    prof["piezo"]["pin"] = 22
    prof["leds"]["count"] = 12
    prof["leds"]["color_order"] = "RGB"
    path = tmp_path / "boards.json"
    path.write_text(json.dumps(doc))
    got = rp2box_pins(path, "pico")
    assert got == expected_model(doc, "pico")
    assert got != expected_model(_doc(), "pico")


def test_the_pin_table_names_the_header_pins_of_boards_json():
    doc = _doc()
    header = doc["headers"]["pico"]
    for r in pinmap.connections(doc, "pico"):
        if "gpio" in r:
            assert header["physical"][str(r["gpio"])] == r["pin"]
    names = pinmap.header_pins(header)
    assert sorted(names) == list(range(1, 41))
    assert names[40] == ("VBUS", "power") and names[3] == ("GND", "gnd") and names[30] == ("RUN", "other")


def test_a_header_with_an_unnamed_pin_is_refused():
    header = _doc()["headers"]["pico"]
    del header["other"]["RUN"]
    with pytest.raises(ValueError, match=r"not named: \[30\]"):
        pinmap.header_pins(header)
    header = _doc()["headers"]["pico"]
    header["other"]["RUN"] = 29
    with pytest.raises(ValueError, match="header pin 29 is both"):
        pinmap.header_pins(header)


def test_the_sim_board_shows_the_pico_box():
    """The unix box reads the sim profile; a player must see the same box as the Pico."""
    doc = _doc()
    pico, sim = validate(doc, "pico"), validate(doc, "sim")
    assert layout(sim) == layout(pico)
    for key in ("count",):
        assert sim["players"][key] == pico["players"][key]
    assert sim["controls"]["names"] == pico["controls"]["names"]
    for key in ("count", "player_leds", "status_index", "brightness"):
        assert sim["leds"][key] == pico["leds"][key], key
    for part in ("oled", "piezo"):
        assert sim[part]["enabled"] == pico[part]["enabled"], part
    assert (sim["oled"]["width"], sim["oled"]["height"]) == (pico["oled"]["width"], pico["oled"]["height"])
    # and what the sim board really announces to its front-end is that layout
    # (its OLED frame buffer needs MicroPython's framebuf: left out on CPython)
    hello = make_board("sim", oled=False, connect=False).describe()
    assert (hello["leds"], hello["buttons"]) == (layout(pico)["leds"], layout(pico)["buttons"])


def test_a_sim_that_drifts_from_the_pico_is_caught():
    doc = _doc()
    doc["profiles"]["sim"]["leds"]["player_leds"] = [1, 0, 2, 3, 4, 5, 6, 7]
    assert layout(validate(doc, "sim")) != layout(validate(doc, "pico"))


def test_pinmap_json_for_other_tools():
    out = subprocess.run(
        [sys.executable, "-m", "host.pinmap", "pico"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    prof = load_profile("pico")
    players = [c["gpio"] for c in data["connections"] if c["role"] == "player"]
    assert players == prof["players"]["pins"]
    assert data["header"]["40"] == "VBUS" and data["capture"] == "pio"
    bad = subprocess.run(
        [sys.executable, "-m", "host.pinmap", "nosuch"], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "unknown board profile 'nosuch'" in bad.stderr and not bad.stdout


# -- the BOM --


def test_the_bom_fits_the_pin_map():
    rows = bom.load()
    prof = load_profile("pico")
    assert bom.check_against(rows, prof) == []
    by_per = {}
    for r in rows:
        by_per.setdefault(r["per"], []).append(r)
    assert {"player", "led", "control", "box"} <= set(by_per)
    parts = " ".join(r["part"].lower() for r in rows)
    for needed in (
        "arcade",
        "ws2812b",
        "3.5 mm stereo jack",
        "cable 3.5 mm",
        "push button",
        "ssd1306",
        "piezo",
    ):
        assert needed in parts, needed


def test_a_box_with_fewer_players_needs_a_new_bom():
    doc = _doc()
    doc["profiles"]["pico"]["capture"] = "irq"
    doc["profiles"]["pico"]["players"]["count"] = 6
    doc["profiles"]["pico"]["players"]["pins"] = doc["profiles"]["pico"]["players"]["pins"][:6]
    doc["profiles"]["pico"]["leds"]["player_leds"] = [0, 1, 2, 3, 4, 5]
    problems = bom.check_against(bom.load(), validate(doc, "pico"))
    assert problems and all("player(s)" in p for p in problems)
    assert any("Arcade push button" in p for p in problems)


def test_the_bom_table_is_the_csv():
    table = hardware_docs.block_lines((ROOT / hardware_docs.README).read_text(), "bom", "hardware/bom.csv")
    rows = bom.load()
    body = [line for line in table[2:] if not line.startswith("| |")]
    assert len(body) == len(rows)
    for line, r in zip(body, rows, strict=True):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[:3] == [str(r["quantity"]), r["part"], r["example_part_number"]]
    assert table[-1] == "| | **Total, approximate** | | | **%.2f** | |" % bom.total(rows)


BAD_CSV = [
    ("part,quantity\n", "the header must be"),
    (",".join(bom.COLUMNS) + "\nA,Thing,0,box,X,1.00,\n", "line 2: quantity must be a whole number >= 1"),
    (",".join(bom.COLUMNS) + "\nA,Thing,two,box,X,1.00,\n", "line 2: quantity must be"),
    (
        ",".join(bom.COLUMNS) + "\nA,Thing,1,seat,X,1.00,\n",
        "line 2: per must be one of box/player/led/control",
    ),
    (",".join(bom.COLUMNS) + "\nA,Thing,1,box,X,1.5,\n", "line 2: unit_price_usd must be like 1.50"),
    (",".join(bom.COLUMNS) + "\nA,Thing,1,box,X,-1.00,\n", "unit_price_usd must be like"),
    (",".join(bom.COLUMNS) + "\nA,Thing,1,box,,1.00,\n", "line 2: example_part_number is empty"),
    (",".join(bom.COLUMNS) + "\nA,Thing,1,box,X,1.00\n", "line 2: 6 fields, want 7"),
    (",".join(bom.COLUMNS) + "\n", "has no parts"),
]


@pytest.mark.parametrize("text,message", BAD_CSV)
def test_a_broken_bom_is_refused_with_its_line(text, message):
    with pytest.raises(bom.BomError, match=re.escape(message)):
        bom.parse(text)


# -- no file lists pins of its own --

# Pin numbers written down: "GP16", "GPIO 16", Pin(16), or a pin-like name given a number
# (led_pin = 16, "sda": 20, PLAYER_PINS = [2, ...]), in any language.
# A plural name given a single number is a count (N_PINS = 8), not a pin.
PIN_LITERAL = re.compile(
    r"\bGP\d+\b|\bGPIO ?\d+\b|\bPin\(\s*\d+"
    r"|(?i:\b\w*pins\w*[\"']?\s*[:=]\s*[\[(]\s*\d)"
    r"|(?i:\b\w*(?:pin|sda|scl|gpio)\b[\"']?\s*[:=]\s*\d)"
)
# Files allowed to hold such literals, and why they are not a second pin map.
NOT_A_PIN_MAP = {
    "firmware/pio_capture.py": "PIO instruction fields (the jmp condition 'pin', ...), not board pins",
    "tests/host/pio_emulator.py": "the emulated state machine's own pin registers",
    "tests/shared/test_board.py": "the validator's tests feed it deliberately wrong pins",
    "tests/host/test_hardware_docs.py": "this file's own mutations of the pin map",
}
# The pin map itself, and outputs generated from it (checked above against a fresh copy).
SOURCES = {"hardware/boards.json", hardware_docs.SVG}


def _tracked_text_files():
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    for rel in sorted(set(out.stdout.split())):
        path = ROOT / rel
        if rel in SOURCES or not path.is_file():
            continue
        try:
            yield rel, path.read_text()
        except UnicodeDecodeError:
            continue  # binary


def _without_generated_blocks(text):
    keep, inside = [], False
    for line in text.splitlines():
        if line.startswith("<!-- BEGIN ") and "(generated from" in line:
            inside = True
        elif line.startswith("<!-- END "):
            inside = False
        elif not inside:
            keep.append(line)
    return keep


def pin_literals(text):
    """(line number, line) of every line outside generated blocks that writes a pin down."""
    return [
        (n, line) for n, line in enumerate(_without_generated_blocks(text), 1) if PIN_LITERAL.search(line)
    ]


def test_no_file_lists_pins_of_its_own():
    """Any file that lists pins is generated from boards.json (make hardware) or reads it
    (firmware.board, host.pinmap, `python -m host.pinmap` for other languages)."""
    found = {}
    for rel, text in _tracked_text_files():
        hits = pin_literals(text)
        if hits:
            found[rel] = hits
    strays = {rel: hits[:3] for rel, hits in found.items() if rel not in NOT_A_PIN_MAP}
    assert not strays, (
        "these files write pin numbers down; read them from hardware/boards.json "
        "(host.pinmap / firmware.board) or generate them (make hardware): %r" % strays
    )
    stale = sorted(set(NOT_A_PIN_MAP) - set(found))
    assert not stale, "NOT_A_PIN_MAP lists files without pin literals; remove: %s" % stale


def test_the_pin_literal_scan_catches_the_usual_spellings():
    caught = [
        "| Piezo | GP18 | 24 |",
        "connect the LED data to GPIO 16",
        "np = neopixel.NeoPixel(machine.Pin(16), 9)",
        "PLAYER_PINS = [2, 3, 4, 5, 6, 7, 8, 9]",
        "const ledPin = 16;",
        '{"sda": 20, "scl": 21}',
        "first_pin=2",
    ]
    for line in caught:
        assert pin_literals(line), line
    passed = [
        "pins = profile['players']['pins']",
        "Pin(p['leds']['pin'], Pin.OUT)",
        "the pin map lives in boards.json",
        "<!-- BEGIN x (generated from hardware/boards.json by make hardware) -->\n| GP2 |\n<!-- END x -->",
    ]
    for text in passed:
        assert not pin_literals(text), text
