"""The Anomia buzzer mode against a stand-in app with real storage: decisions, records that
replay through the scorekeeper engine, ranks, undo, end of game, players on the box."""

from engine import anomia_score
from firmware.buttons import BACK_BIT, MODE_BIT, OK_BIT
from firmware.journal import Journal
from firmware.modes.anomia import Mode, gap_text
from firmware.settings import Settings
from tests.shared.compat import raises, tmp_dir

MS = 1000


class Recorder:
    """Stands in for LEDs, sound and display: remembers every call."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        def call(*args, **kwargs):
            self.calls.append((name,) + args)

        return call


class FakeDebouncer:
    def ignored(self):
        return 0


class FakeApp:
    def __init__(self, path):
        self.settings = Settings(path + "/settings.json")
        self.journal = Journal(path + "/journal")
        self.leds = Recorder()
        self.sound = Recorder()
        self.display = Recorder()
        self.debouncer = FakeDebouncer()
        self.events = []
        self.input_now_us = 0
        self.data_dir = path

    def emit(self, kind, fields=None):
        self.events.append((kind, fields))

    def epoch(self):
        return None

    def now_ms(self):
        return 0

    def decisions(self):
        return [f for k, f in self.events if k == "decision"]

    def records(self):
        return self.journal.records_since(0, 1000)


def start(path, **options):
    app = FakeApp(path)
    mode = Mode(app, options)
    mode.start(0)
    return app, mode


def press(mode, player, t_us, hold_us=50 * MS):
    mode.on_button(player, 1, t_us)
    mode.on_button(player, 0, t_us + hold_us)


def advance(app, mode, t_us):
    app.input_now_us = t_us
    mode.tick(0)


def replay(records):
    """Rebuild the game from its records as the host does; every digest must match."""
    start_rec = [r for r in records if r["kind"] == "game_start"][-1]["data"]
    game = anomia_score.new_game(start_rec["seed"], len(start_rec["players"]), **{})
    assert game.digest() == start_rec["digest"]
    for r in records:
        if r["data"].get("game") != start_rec["game"]:
            continue
        if r["kind"] == "action":
            game.apply(r["data"]["action"])
            assert game.digest() == r["data"]["digest"], r
        elif r["kind"] == "game_end":  # the end is applied by the record itself
            game.apply(["end"])
            assert game.digest() == r["data"]["digest"], r
            assert game.scores() == r["data"]["scores"]
    return game


def test_win_is_recorded_after_the_lockout_with_ranks_and_loser():
    with tmp_dir() as d:
        app, mode = start(d, players=4, tie_window_us=1000, lockout_ms=800)
        press(mode, 2, 10 * MS)
        press(mode, 0, 14 * MS)
        advance(app, mode, 12 * MS)  # decided: P3 wins, but the lockout still runs
        assert [c[0] for c in app.leds.calls][-1] == "winner"
        assert app.decisions() == []
        press(mode, 3, 300 * MS)  # ranked 3rd during the lockout
        advance(app, mode, 900 * MS)
        ev = app.decisions()
        assert ev == [{"event": "win", "winner": 3, "gap_us": 4000, "tiebreak": False,
                       "scores": [0, 0, 1, 0]}]
        rec = [r for r in app.records() if r["kind"] == "action"]
        assert len(rec) == 1
        data = rec[0]["data"]
        assert data["action"] == ["win", 2, 0]  # the 2nd presser lost a card
        assert [p[0] for p in data["faceoff"]["presses"]] == [2, 0, 3]
        assert [p[2] for p in data["faceoff"]["presses"]] == [1, 2, 3]
        assert data["faceoff"]["gap_us"] == 4000
        assert replay(app.records()).scores() == [0, 0, 1, 0]


def test_tie_then_tiebreak_only_the_tied_players_count():
    with tmp_dir() as d:
        app, mode = start(d, players=5, tie_window_us=1000, lockout_ms=500)
        press(mode, 1, 10 * MS)
        press(mode, 4, 10 * MS + 400)
        advance(app, mode, 600 * MS)
        assert app.decisions()[0]["event"] == "tie"
        assert app.decisions()[0]["players"] == [2, 5]
        press(mode, 0, 700 * MS)  # not in the tie-breaker
        press(mode, 4, 710 * MS)
        advance(app, mode, 1500 * MS)
        win = app.decisions()[1]
        assert win["winner"] == 5 and win["tiebreak"] is True
        assert win["scores"] == [0, 0, 0, 0, 1]
        actions = [r["data"]["action"] for r in app.records() if r["kind"] == "action"]
        assert actions == [["tie", 1, 4], ["win", 4, -1]]
        replay(app.records())


def test_back_undoes_the_last_decision_and_back_with_nothing_leaves():
    with tmp_dir() as d:
        app, mode = start(d, players=3)
        press(mode, 0, 10 * MS)
        advance(app, mode, 20 * MS)
        assert mode.on_button(BACK_BIT, 1, 30 * MS) is True
        assert mode.game.scores() == [0, 0, 0]
        actions = [r["data"]["action"] for r in app.records() if r["kind"] == "action"]
        assert actions == [["win", 0, -1], ["undo"]]
        assert app.decisions()[-1] == {"event": "undo", "scores": [0, 0, 0]}
        replay(app.records())
        assert mode.on_button(BACK_BIT, 1, 40 * MS) is False  # nothing left: the app goes to the menu
        # the face-off is open again: a new press decides it
        press(mode, 1, 2000 * MS)
        advance(app, mode, 4000 * MS)
        assert mode.game.scores() == [0, 1, 0]


def test_cascading_faceoffs_each_recorded():
    with tmp_dir() as d:
        app, mode = start(d, players=4, lockout_ms=300)
        t = 0
        for winner in (0, 1, 2, 3, 0, 0):
            t += 400 * MS
            press(mode, winner, t)
        advance(app, mode, t + 400 * MS)
        assert mode.game.scores() == [3, 1, 1, 1]
        assert len(app.decisions()) == 6
        assert replay(app.records()).scores() == [3, 1, 1, 1]


def test_mode_button_ends_the_game_and_ok_starts_a_new_one():
    with tmp_dir() as d:
        app, mode = start(d, players=3, lockout_ms=100)
        press(mode, 1, 10 * MS)
        advance(app, mode, 500 * MS)
        mode.on_button(MODE_BIT, 1, 600 * MS)
        end = [r for r in app.records() if r["kind"] == "game_end"]
        assert end[-1]["data"]["winners"] == [1] and end[-1]["data"]["reason"] == "ended"
        assert replay(app.records()).winners() == [1]
        press(mode, 2, 700 * MS)  # ignored once the game is over
        assert mode.game.scores() == [0, 1, 0]
        old = mode.game_id
        mode.on_button(OK_BIT, 1, 800 * MS)
        assert mode.game_id != old and mode.game.scores() == [0, 0, 0]
        starts = [r for r in app.records() if r["kind"] == "game_start"]
        assert [s["seq"] for s in starts] == [s["data"]["game"] for s in starts]


def test_ok_before_the_first_faceoff_cycles_players_and_keeps_the_setting():
    with tmp_dir() as d:
        app, mode = start(d)
        assert mode.players == 4
        mode.on_button(OK_BIT, 1, 0)
        assert mode.players == 5 and app.settings.get("players") == 5
        assert Settings(d + "/settings.json").get("players") == 5
        ends = [r for r in app.records() if r["kind"] == "game_end"]
        assert [e["data"]["reason"] for e in ends] == ["players_changed"]
        first = [r for r in app.records() if r["data"].get("game") == ends[0]["data"]["game"]]
        assert replay(first).is_over()


def test_presses_beyond_the_player_count_are_ignored():
    with tmp_dir() as d:
        app, mode = start(d, players=3)
        press(mode, 6, 10 * MS)
        advance(app, mode, 2000 * MS)
        assert app.decisions() == []


def test_storage_failure_is_reported_and_play_goes_on():
    with tmp_dir() as d:
        app, mode = start(d, players=3, lockout_ms=100)

        def full(kind, data, t=None):
            raise OSError(28)

        app.journal.append = full
        press(mode, 0, 10 * MS)
        advance(app, mode, 500 * MS)
        assert mode.game.scores() == [1, 0, 0]
        assert "not stored" in mode.status()["storage_error"]
        assert any(k == "storage_error" for k, f in app.events)
        assert any(c[0] == "error" for c in app.leds.calls)


def test_bad_options_are_refused():
    with tmp_dir() as d:
        app = FakeApp(d)
        raises(ValueError, Mode, app, {"players": 2})
        raises(ValueError, Mode, app, {"tie_window_us": -1})
        raises(ValueError, Mode, app, {"lockout_ms": True})


def test_gap_text():
    assert gap_text(None) == "alone"
    assert gap_text(12345) == "by 12.3 ms"
    assert gap_text(999) == "by 0.9 ms"


def reboot(d, **options):
    """A power cut and a new start on the same storage (nothing was stopped cleanly)."""
    return start(d, **options)


def test_a_game_in_progress_survives_a_power_cut():
    with tmp_dir() as d:
        app, mode = start(d, players=4, lockout_ms=100)
        press(mode, 1, 10 * MS)
        advance(app, mode, 500 * MS)
        press(mode, 3, 600 * MS)
        advance(app, mode, 1000 * MS)
        game_id = mode.game_id
        app.journal.close()
        app2, mode2 = reboot(d)  # no options: the box boots back into the mode
        assert mode2.game_id == game_id and mode2.game.scores() == [0, 1, 0, 1]
        assert ("game", {"event": "resume", "game": game_id, "players": 4, "scores": [0, 1, 0, 1]}) \
            in app2.events
        press(mode2, 0, 50 * MS)
        advance(app2, mode2, 500 * MS)
        assert mode2.game.scores() == [1, 1, 0, 1]
        records = app2.records()
        assert [r["kind"] for r in records].count("game_start") == 1
        assert [r["data"]["n"] for r in records if r["kind"] == "action"] == [0, 1, 2]
        assert replay(records).scores() == [1, 1, 0, 1]


def test_a_pending_tiebreak_is_resumed_for_the_tied_players_only():
    with tmp_dir() as d:
        app, mode = start(d, players=4, lockout_ms=100)
        press(mode, 0, 10 * MS)
        press(mode, 2, 10 * MS + 300)
        advance(app, mode, 500 * MS)
        assert mode.game.tiebreak == [0, 2]
        app.journal.close()
        app2, mode2 = reboot(d)
        press(mode2, 1, 10 * MS)  # not in the tie-breaker
        press(mode2, 2, 20 * MS)
        advance(app2, mode2, 500 * MS)
        assert app2.decisions()[-1]["winner"] == 3 and app2.decisions()[-1]["tiebreak"] is True
        assert mode2.game.scores() == [0, 0, 1, 0]
        replay(app2.records())


def test_suspend_records_a_decision_still_in_its_lockout():
    with tmp_dir() as d:
        app, mode = start(d, players=3, lockout_ms=800)
        press(mode, 2, 10 * MS)
        advance(app, mode, 20 * MS)  # decided, lockout running
        assert [r for r in app.records() if r["kind"] == "action"] == []
        mode.suspend()
        assert [r["data"]["action"] for r in app.records() if r["kind"] == "action"] == [["win", 2, -1]]
        app.journal.close()
        _, mode2 = reboot(d)
        assert mode2.game.scores() == [0, 0, 1]


def test_explicit_other_options_close_the_kept_game_and_start_anew():
    with tmp_dir() as d:
        app, mode = start(d, players=4, lockout_ms=100)
        press(mode, 1, 10 * MS)
        advance(app, mode, 500 * MS)
        old = mode.game_id
        app.journal.close()
        app2, mode2 = reboot(d, players=5)
        assert mode2.game_id != old and mode2.players == 5 and mode2.game.scores() == [0] * 5
        ends = [r for r in app2.records() if r["kind"] == "game_end"]
        assert len(ends) == 1 and ends[0]["data"]["game"] == old and ends[0]["data"]["reason"] == "abandoned"
        first = [r for r in app2.records() if r["data"].get("game") == old]
        assert replay(first).is_over()


def test_an_ended_game_is_not_resumed_and_a_damaged_kept_file_is_reported():
    with tmp_dir() as d:
        app, mode = start(d, players=3, lockout_ms=100)
        mode.on_button(MODE_BIT, 1, 0)  # ended
        old = mode.game_id
        app.journal.close()
        app2, mode2 = reboot(d)
        assert mode2.game_id != old
        app2.journal.close()
        with open(d + "/anomia_game.json", "w") as f:
            f.write("{not json")
        app3, mode3 = reboot(d)
        assert mode3.game_id != mode2.game_id
        assert "unreadable" in mode3.status()["storage_error"]
