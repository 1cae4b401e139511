"""The front-end's key line names what ok / back / mode do now (the box's hints event) and
says so when the last key did nothing (its nope event)."""

from host.tui import DeviceView, key_line


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
