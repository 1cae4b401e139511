"""The front-end's screen fits the terminal: the header, every LED, the OLED and the key line
stay visible at 80x24 (the blank lines and the events give way), no line is wider than the
terminal, and a terminal too small for them says so and names the size it needs."""

import base64
import re

import pytest
from rich.text import Text

from host import tui

LABELS = ["P%d" % i for i in range(1, 9)] + ["status"]


def _view():
    view = tui.DeviceView("/dev/pts/17")
    view.apply({"t": "hello", "board": "sim", "leds": LABELS, "oled": [128, 64]})
    view.apply({"t": "leds", "rgb": "0000ff" + "000000" * 7 + "00ff00"})
    fb = bytes((i * 7) & 0xFF for i in range(128 * 64 // 8))
    view.apply({"t": "oled", "w": 128, "h": 64, "fb": base64.b64encode(fb).decode(),
                "lines": ["ANOMIA 4P", "WINNER P2", "gap 4.512 ms", "", "", "", "", "O:next B:undo"]})
    view.apply({"t": "event", "kind": "hints", "ok": "next", "back": "undo", "mode": "end"})
    for n in range(7):
        view.apply({"t": "event", "kind": "decision", "event": "win", "winner": n % 4, "n": n})
    view.apply({"t": "event", "kind": "nope", "key": "ok"})
    return view


def _text(lines):
    return [ln.plain for ln in lines]


def _shows_the_box(text, width):
    assert text[0].startswith("tablemate virtual device") and "serial /dev/pts/17" in " ".join(text[:2])
    joined = "\n".join(text)
    for label in LABELS:
        assert re.search(r"\b%s (lit|off)\b" % label, joined), label
    for words in ("ANOMIA 4P", "WINNER P2", "O:next B:undo"):
        assert words in joined
    keys = " ".join(text[-3:])  # the last lines: the key line, wrapped on a narrow terminal
    for words in ("keys: 1-8 players", "o ok: next", "b back: undo", "m mode: end", "q quit"):
        assert words in keys, keys
    assert "ok does nothing now" in keys


@pytest.mark.parametrize("width, height", [(80, 24), (120, 40), (100, 30), (60, 26), (80, 19)])
def test_the_header_leds_oled_and_keys_fit_the_terminal(width, height):
    lines = tui.render(_view(), width, height)
    text = _text(lines)
    assert len(lines) <= height
    assert max(len(t) for t in text) <= width
    _shows_the_box(text, width)


def test_at_80x24_the_latest_events_fill_what_room_is_left():
    text = _text(tui.render(_view(), 80, 24))
    assert len(text) == 24 and '"n":6' in "\n".join(text)  # the latest decision is shown
    assert "⠀" not in "".join(text)  # no room for the OLED's picture: its text alone
    narrow = [ln for ln in _text(tui.render(_view(), 40, 30)) if '"event":"win"' in ln]
    assert narrow and all(len(ln) == 40 and ln.endswith("…") for ln in narrow)  # an event cut says so
    wide = _text(tui.render(_view(), 120, 40))
    assert any("┌" + "─" * 64 + "┐" in ln for ln in wide)  # a terminal with room shows the picture too


@pytest.mark.parametrize("width, height", [(80, 12), (70, 16), (30, 40)])
def test_a_terminal_too_small_is_told_the_size_it_needs(width, height):
    lines = tui.render(_view(), width, height) if width >= tui.MIN_COLUMNS else tui.too_small(_view(), width,
                                                                                                height)
    text = " ".join(_text(lines))
    assert len(lines) <= height and max(len(t) for t in _text(lines)) <= width
    said = r"the terminal is %dx%d: the virtual box needs at least (\d+)x(\d+)" % (width, height)
    m = re.search(said, text)
    assert m, text
    need_width, need_height = int(m.group(1)), int(m.group(2))
    assert need_width == max(width, tui.MIN_COLUMNS)
    # the size it names is enough, and one line less is not
    _shows_the_box(_text(tui.render(_view(), need_width, need_height)), need_width)
    assert "needs at least" in " ".join(_text(tui.render(_view(), need_width, need_height - 1)))


def test_wrap_breaks_at_spaces_within_the_width_and_keeps_the_styles():
    line = Text("keys: 1-8 players   o ok: next   b back: undo", tui.DIM)
    line.append(" ok does nothing", tui.BOLD)
    rows = tui.wrap(line, 20)
    assert all(r.cell_len <= 20 for r in rows) and len(rows) == 3
    assert " ".join(r.plain for r in rows).split() == line.plain.split()
    assert all(r.style == tui.DIM for r in rows)  # the key line's dim carries on to every row
    last = rows[-1]
    assert last.plain == "undo ok does nothing"
    assert [bool(last.get_style_at_offset(tui._MEASURE, i).bold) for i in (0, 5)] == [False, True]
    assert [r.plain for r in tui.wrap(Text("x" * 25), 10)] == ["x" * 10, "x" * 10, "x" * 5]
