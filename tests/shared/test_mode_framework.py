"""What every mode gets from firmware/modes/base.py, seen through the Anomia mode: the end
confirmation, no records for a game never played, the hint row and its events, the nope."""

from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import MS, Box


def _events(box, kind):
    return [f for k, f in box.events if k == kind]


def test_ending_asks_first_and_any_other_key_plays_on():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)
        box.press(0, 10 * MS)
        box.run_to(500 * MS)
        for t, other in ((600, "mode"), (800, "back"), (1000, "P2")):
            box.mode_button(t * MS)
            assert box.screen()[0] == "END GAME?" and box.mode.status()["confirm_end"] is True
            assert box.screen()[-1] == "O:yes B:no M:no"
            if other == "mode":
                box.mode_button((t + 100) * MS)
            elif other == "back":
                box.back((t + 100) * MS)
            else:
                box.press(1, (t + 100) * MS)  # a player button says no, and presses nothing
            box.run_to((t + 150) * MS)
            assert box.screen()[0] == "SCORES" and box.records("game_end") == []
            assert box.mode.game.scores() == [1, 0, 0] and box.decisions()[-1]["event"] == "win"
        box.mode_button(1200 * MS)
        box.ok(1300 * MS)
        assert box.records("game_end")[0]["data"]["reason"] == "ended"
        assert _events(box, "game")[-1]["event"] == "end"


def test_a_game_never_played_records_nothing():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)
        for _ in range(7):
            box.ok(0)  # round the player counts, back to 4
        assert box.mode.players == 4
        assert box.records("game_start") == [] and box.records("game_end") == []
        assert [f["event"] for f in _events(box, "game")] == ["start"] * 8
        assert box.mode.status()["game"] is None
        box.mode.stop()  # leaving the mode before a face-off: still nothing
        assert box.records() == []
        box = box.reboot()
        box.press(2, 10 * MS)
        box.run_to(2000 * MS)  # the first face-off: the game starts to exist
        start, action = box.records()
        assert start["kind"] == "game_start" and start["data"]["game"] == start["seq"]
        assert action["data"]["game"] == start["seq"] == box.mode.status()["game"]


def test_the_hint_row_says_what_the_keys_do_on_every_screen():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4, lockout_ms=100)
        assert box.screen()[-1] == "O:5P B:menu M:-"
        box.press(1, 10 * MS)
        box.run_to(500 * MS)
        assert box.screen()[-1] == "O:- B:undo M:end"
        box.back(600 * MS)
        assert box.screen()[-1] == "O:- B:end M:end"  # nothing left to undo
        box.mode_button(700 * MS)
        assert box.screen()[-1] == "O:yes B:no M:no"
        box.ok(800 * MS)
        assert box.screen()[0] == "GAME OVER" and box.screen()[-1] == "O:new B:menu M:-"
        assert _events(box, "hints") == ["O:5P B:menu M:-", "O:- B:undo M:end", "O:- B:end M:end",
                                         "O:yes B:no M:no", "O:new B:menu M:-"]


def test_a_key_that_does_nothing_says_nope_and_changes_nothing():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)
        box.mode_button(10 * MS)  # nothing to end yet
        box.press(5, 20 * MS)  # an empty seat
        box.press(0, 100 * MS)
        box.run_to(500 * MS)
        box.ok(600 * MS)  # ok does nothing during a game of Anomia
        assert [f["key"] for f in _events(box, "nope")] == ["mode", "P6", "ok"]
        assert box.mode.game.scores() == [1, 0, 0] and box.mode.players == 3
        assert box.sound.playing or box.sound.buzzer is None


def test_options_are_checked_against_the_mode_settings_and_the_checks_are_not_kept():
    import sys

    from firmware import modes
    from tests.shared.compat import raises

    modes.unload(modes.loaded() - {"firmware.checks", "engine.games"})  # as on a box that never ran a mode
    before = set(sys.modules)
    with tmp_dir() as d:
        for options, words in (({"volume": 3}, "anomia has no option 'volume' (known: lockout_ms, players,"),
                               ({"players": 9}, "players must be 3..8, got 9"),
                               ({"lockout_ms": "x"}, "lockout_ms must be an int, got 'x'")):
            assert words in str(raises(ValueError, Box, d, "anomia", **options))
        box = Box(d, "anomia", players=5, tie_window_us=0)
        assert box.mode.players == 5 and box.mode.values["tie_window_us"] == 0
        kept = set(sys.modules) - before  # what the running game holds besides
        assert "firmware.checks" not in kept and "engine.games" not in kept
