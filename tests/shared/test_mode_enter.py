"""GameMode.enter: the one way an engine action gets into a running game, for a mode's buttons
and for a host's act op alike: the same checks, a one-line reason and nothing changed when
refused; recorded, kept and announced when applied (shown here on the Anomia mode)."""

from engine import gamelog_read
from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import MS, Box


def test_enter_applies_records_and_announces_an_action():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3)
        assert box.mode.enter(["win", 1, 0], 0) is None
        assert box.actions() == [["win", 1, 0]] and box.mode.game.scores() == [0, 1, 0]
        assert ("action", {"n": 0, "action": ["win", 1, 0]}) in box.events
        assert box.screen()[0] == "SCORES"
        assert gamelog_read.replay(box.records()).scores() == [0, 1, 0]
        assert box.reboot().mode.game.scores() == [0, 1, 0]  # kept like a button's action


def test_a_refused_entry_says_why_and_changes_nothing():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3)
        box.mode.enter(["win", 2, -1], 0)
        records, events = len(box.records()), len(box.events)
        why = box.mode.enter(["win", 7, 0], 0)
        assert isinstance(why, str) and why and "\n" not in why
        assert len(box.records()) == records and len(box.events) == events
        assert box.mode.game.scores() == [0, 0, 1]
        box.mode_button(10 * MS)  # the game ended: nothing may be entered
        assert box.mode.enter(["win", 1, 0], 20 * MS) == "no game is running: ok starts one"
        assert len(box.records("action")) == 1
