"""The front-end's key line names what ok / back / mode do now (the box's hints event) and
says so when the last key did nothing (its nope event)."""

from host import rp2box
from host.tui import DeviceView, key_line, render


def test_the_key_line_follows_the_hints_and_names_a_key_that_did_nothing():
    view = DeviceView("/dev/pts/0")
    view.apply({"t": "event", "kind": "hints", "ok": "-", "back": "undo", "mode": "end",
                "line": "O:- B:undo M:end"})
    line = key_line(view)
    assert "o ok: -" in line and "b back: undo" in line and "m mode: end" in line
    assert not view.events  # a hint is shown in the key line, not as an event
    view.apply({"t": "event", "kind": "nope", "key": "ok"})
    assert "ok does nothing now" in key_line(view)
    view.apply({"t": "event", "kind": "decision", "event": "win", "winner": 1})
    assert "does nothing" not in key_line(view)


def test_without_hints_the_key_line_names_the_keys_and_no_question_marks():
    view = DeviceView("/dev/pts/0")
    line = str(key_line(view))
    assert "?" not in line and "o ok   b back   m mode   q quit" in line


def test_a_box_without_events_here_says_where_its_play_is_shown():
    """The emulated Pico's hello says its events are not on this channel: the events panel
    says where to look instead of staying empty; a box that sends events shows them."""
    view = DeviceView("/dev/pts/7")
    view.apply(rp2box.hello())
    text = "\n".join(str(line) for line in render(view, 100))
    assert "none here: the OLED and LEDs show the play" in text
    assert "tablemate status --port /dev/pts/7" in text
    unix = DeviceView("/dev/pts/8")
    unix.apply({"t": "hello", "board": "sim", "leds": [], "oled": None})
    assert "none here" not in "\n".join(str(line) for line in render(unix, 100))
