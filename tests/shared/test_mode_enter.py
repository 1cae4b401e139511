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
        box.mode_button(10 * MS)
        box.ok(15 * MS)  # the game ended: nothing may be entered
        assert box.mode.enter(["win", 1, 0], 20 * MS) == "no game is running: ok starts one"
        assert len(box.records("action")) == 1


def test_a_host_entered_tie_and_undo_move_the_buzzers_with_the_game():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4)
        assert box.mode.enter(["tie", 1, 3], 0) is None  # P2 and P4 tied, entered by a host
        box.press(0, at_us=100 * MS)  # P1 is not in the tie-breaker: nothing
        box.press(3, at_us=200 * MS)
        box.run_to(1500 * MS)
        assert [(e["winner"], e["tiebreak"]) for e in box.decisions()] == [(4, True)]
        assert box.mode.game.tiebreak is None and box.mode.game.scores() == [0, 0, 0, 1]
        assert box.mode.enter(["tie", 0, 2], 1600 * MS) is None
        assert box.mode.enter(["undo"], 1700 * MS) is None  # the host takes the tie back
        box.press(1, at_us=1800 * MS)  # everyone plays again, no tie-breaker pending
        box.run_to(3000 * MS)
        assert [(e["winner"], e["tiebreak"]) for e in box.decisions()][1:] == [(2, False)]
        assert box.mode.game.scores() == [0, 1, 0, 1]
