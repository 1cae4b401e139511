"""The Anomia buzzer mode as specs on the mode harness (real context, virtual clock):
presses at these µs give these decisions, records (that replay through the scorekeeper),
screens and LEDs; undo, end, players on the box, storage trouble, power cuts."""

from engine import gamelog, gamelog_read
from firmware.modes.anomia import gap_text
from firmware.settings import Settings
from tests.shared.compat import raises, tmp_dir
from tests.shared.mode_harness import MS, Box


def replay(records, game=None):
    """Rebuild one game from its records as the host does (engine.gamelog_read): every digest must match."""
    starts = [r for r in records if r["kind"] == gamelog.GAME_START]
    game = starts[-1]["seq"] if game is None else game
    return gamelog_read.replay([r for r in records if r["seq"] == game or r["data"].get("game") == game])


def test_win_is_recorded_after_the_lockout_with_ranks_and_loser():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4, tie_window_us=1000, lockout_ms=800)
        assert box.screen()[0] == "ANOMIA 4P" and box.lit() == [0, 1, 2, 3]
        box.press(2, 10 * MS)
        box.press(0, 14 * MS)
        box.run_to(12 * MS)  # decided: P3 wins, but the lockout still runs
        assert box.lit() == [2] and box.screen()[0] == "WINNER"
        assert "P3" in box.screen() and "by 4.0 ms" in box.screen()
        assert box.decisions() == []
        box.press(3, 300 * MS)  # ranked 3rd during the lockout
        box.run_to(900 * MS)
        assert box.decisions() == [{"event": "win", "winner": 3, "gap_us": 4000, "tiebreak": False,
                                    "scores": [0, 0, 1, 0]}]
        rec = box.records("action")
        assert len(rec) == 1
        data = rec[0]["data"]
        assert data["action"] == ["win", 2, 0]  # the 2nd presser lost a card
        assert [p[0] for p in data["faceoff"]["presses"]] == [2, 0, 3]
        assert [p[2] for p in data["faceoff"]["presses"]] == [1, 2, 3]
        assert data["faceoff"]["gap_us"] == 4000 and data["v"] == gamelog.LOG_VERSION
        start = box.records("game_start")[0]["data"]
        assert start["options"] == {} and start["settings"] == {"tie_window_us": 1000, "lockout_ms": 800}
        assert replay(box.records()).scores() == [0, 0, 1, 0]


def test_tie_then_tiebreak_only_the_tied_players_count():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=5, tie_window_us=1000, lockout_ms=500)
        box.press(1, 10 * MS)
        box.press(4, 10 * MS + 400)
        box.run_to(600 * MS)
        assert box.decisions()[0]["event"] == "tie" and box.decisions()[0]["players"] == [2, 5]
        box.run_to(2200 * MS)  # the decision screen gives way to the scores, tie-breaker named
        assert box.screen()[0] == "TB P2 P5"
        box.press(0, 2300 * MS)  # not in the tie-breaker
        box.press(4, 2310 * MS)
        box.run_to(3500 * MS)
        win = box.decisions()[1]
        assert win["winner"] == 5 and win["tiebreak"] is True and win["scores"] == [0, 0, 0, 0, 1]
        assert box.actions() == [["tie", 1, 4], ["win", 4, -1]]
        replay(box.records())


def test_back_undoes_decisions_and_back_with_nothing_left_asks_to_end():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3)
        assert box.back(5 * MS) is False and box.in_menu  # nothing played: back is the menu
        box.in_menu = False
        box.press(0, 10 * MS)
        box.run_to(20 * MS)
        assert box.back(30 * MS) is True  # the decision in its lockout is recorded, then undone
        assert box.mode.game.scores() == [0, 0, 0] and box.screen()[0] == "SCORES"
        assert box.actions() == [["win", 0, -1], ["undo"]]
        assert box.decisions()[-1] == {"event": "undo", "scores": [0, 0, 0]}
        replay(box.records())
        # nothing left to undo: leaving would end a recorded game, so the box asks first
        assert box.back(40 * MS) is True and not box.in_menu and box.screen()[0] == "END GAME?"
        box.back(50 * MS)  # any key but ok: play on
        assert box.screen()[0] == "SCORES" and box.records("game_end") == []
        # the face-off is open again: a new press decides it
        box.press(1, 2000 * MS)
        box.run_to(4000 * MS)
        assert box.mode.game.scores() == [0, 1, 0]


def test_undo_goes_back_more_than_one_decision_and_into_a_tiebreak():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)
        box.press(0, 10 * MS)
        box.press(2, 10 * MS + 300)  # a tie
        box.run_to(500 * MS)
        box.press(2, 600 * MS)  # P3 wins the tie-breaker
        box.run_to(1000 * MS)
        assert box.mode.game.scores() == [0, 0, 1]
        assert box.back(1100 * MS) and box.mode.game.tiebreak == [0, 2]
        box.press(1, 1200 * MS)  # the tie-breaker is back: P2 is not in it
        box.press(0, 1210 * MS)
        box.run_to(1600 * MS)
        assert box.decisions()[-1]["winner"] == 1 and box.mode.game.scores() == [1, 0, 0]
        assert box.back(1700 * MS) and box.back(1800 * MS) and box.mode.game.tiebreak is None
        replay(box.records())


def test_cascading_faceoffs_each_recorded():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4, lockout_ms=300)
        t = 0
        for winner in (0, 1, 2, 3, 0, 0):
            t += 400 * MS
            box.press(winner, t)
        box.run_to(t + 400 * MS)
        assert box.mode.game.scores() == [3, 1, 1, 1]
        assert len(box.decisions()) == 6
        assert replay(box.records()).scores() == [3, 1, 1, 1]


def test_mode_button_ends_the_game_and_ok_starts_a_new_one():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)
        box.press(1, 10 * MS)
        box.run_to(500 * MS)
        box.mode_button(600 * MS)
        assert box.screen()[0] == "END GAME?" and box.records("game_end") == []
        box.ok(650 * MS)  # confirmed
        end = box.records("game_end")
        assert end[-1]["data"]["winners"] == [1] and end[-1]["data"]["reason"] == "ended"
        assert box.screen()[:2] == ["GAME OVER", "won: P2"] and box.lit() == [1]
        assert replay(box.records()).winners() == [1]
        box.press(2, 700 * MS)  # ignored once the game is over
        assert box.mode.game.scores() == [0, 1, 0]
        old = box.mode.session.game_id
        box.ok(800 * MS)
        assert box.mode.session.game_id is None and box.mode.game.scores() == [0, 0, 0]
        box.press(0, 900 * MS)
        box.run_to(1500 * MS)
        assert box.mode.session.game_id > old
        starts = box.records("game_start")
        assert [s["seq"] for s in starts] == [s["data"]["game"] for s in starts]


def play_and_end(box, winners):
    """Each winner presses alone in turn, then mode and ok end the game; the time after."""
    t = 0
    for winner in winners:
        t += 300 * MS
        box.press(winner, t)
    box.run_to(t + 300 * MS)
    box.mode_button(t + 400 * MS)
    box.ok(t + 500 * MS)
    return t + 500 * MS


def test_game_over_names_the_winners_shows_every_count_and_lights_only_the_winners():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4, lockout_ms=100)
        t = play_and_end(box, (1, 3, 0, 3, 1))  # P2 and P4 tie for the most cards
        screen = box.screen()
        assert screen[:2] == ["GAME OVER", "won: P2 P4"]
        assert [row.split() for row in screen[2:6]] == [["P1", "1"], ["*P2", "2"], ["P3", "0"], ["*P4", "2"]]
        assert box.lit() == [1, 3]
        box.run_to(t + 5000 * MS)
        assert box.lit() == [1, 3]  # steady: the winners stay lit, together


def test_game_over_of_eight_players_shows_all_eight_counts_above_the_hint():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=8, lockout_ms=100)
        play_and_end(box, (6,))
        screen = box.screen()
        assert screen[1] == "won: P7" and screen[-1] == "O:new B:menu M:-"
        cells = " ".join(screen[2:-1]).split()
        assert [cells[i] for i in range(0, 16, 2)] == ["P1", "P6", "P2", "*P7", "P3", "P8", "P4", "P5"]
        assert [int(cells[i]) for i in range(1, 16, 2)] == [0, 0, 0, 1, 0, 0, 0, 0]
        assert box.lit() == [6]


class Buzzer:
    """A buzzer that keeps the last tone."""

    freq = None

    def tone(self, freq_hz, duty_u16):
        self.freq = freq_hz

    def off(self):
        pass


def test_during_a_tiebreak_only_the_tied_players_are_lit_and_others_get_nope():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4, lockout_ms=100)
        box.sound.buzzer = Buzzer()
        box.press(0, 10 * MS)
        box.press(2, 10 * MS + 300)  # a tie: P1 and P3
        box.run_to(500 * MS)
        assert box.mode.game.tiebreak == [0, 2] and box.lit() == [0, 2]
        n_records = len(box.records())
        box.press(1, 600 * MS)  # not in the tie-breaker
        assert [f for k, f in box.events if k == "nope"] == [{"key": "P2"}]
        assert box.sound.buzzer.freq == 262  # the nope's short low tone
        box.run_to(2000 * MS)
        assert len(box.records()) == n_records and len(box.decisions()) == 1
        assert box.mode.game.tiebreak == [0, 2] and box.lit() == [0, 2]
        box.press(2, 2100 * MS)  # P3 wins the tie-breaker: everyone is armed again
        box.run_to(2500 * MS)
        assert box.decisions()[-1]["winner"] == 3 and box.lit() == [0, 1, 2, 3]
        box.press(1, 2600 * MS)  # P2 plays again
        box.run_to(3000 * MS)
        assert box.decisions()[-1]["winner"] == 2 and len([k for k, f in box.events if k == "nope"]) == 1
        assert box.back(3100 * MS) and box.back(3200 * MS)  # undo twice: back in the tie-breaker
        assert box.mode.game.tiebreak == [0, 2] and box.lit() == [0, 2]


def test_ok_before_the_first_faceoff_cycles_players_and_keeps_the_setting():
    with tmp_dir() as d:
        box = Box(d, "anomia")
        assert box.mode.players == 4
        box.ok(0)
        assert box.mode.players == 5 and box.settings.get("anomia")["players"] == 5
        assert Settings(d + "/settings.json").get("anomia")["players"] == 5
        # a game never played leaves no record and no end event
        assert box.records("game_start") == [] and box.records("game_end") == []
        assert [f["event"] for k, f in box.events if k == "game"] == ["start", "start"]
        for _ in range(3):
            box.ok(0)
        assert box.mode.players == 8
        box.ok(0)
        assert box.mode.players == 3  # round to the entry's smallest count


def test_presses_beyond_the_player_count_are_ignored():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3)
        box.press(6, 10 * MS)
        box.run_to(2000 * MS)
        assert box.decisions() == []


def test_a_button_stuck_or_held_at_boot_does_not_count():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)
        box.debounced.stuck = 0b001
        box.press(0, 10 * MS)
        box.press(1, 12 * MS)
        box.run_to(500 * MS)
        assert [e["winner"] for e in box.decisions()] == [2]


def test_storage_failure_is_reported_and_play_goes_on():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)

        def full(kind, data, t=None):
            raise OSError(28)

        box.journal.append = full
        box.press(0, 10 * MS)
        box.run_to(500 * MS)
        assert box.mode.game.scores() == [1, 0, 0]
        assert "not stored" in box.mode.status()["storage_error"]
        assert any(k == "storage_error" for k, f in box.events)
        assert box.leds._err_halves > 0  # the status LED blinks the error


def test_bad_options_are_refused():
    with tmp_dir() as d:
        for options in ({"players": 2}, {"players": 9}, {"tie_window_us": -1}, {"lockout_ms": True},
                        {"colour": "red"}):
            e = raises(ValueError, Box, d, "anomia", **options)
            assert list(options)[0] in str(e)


def test_gap_text():
    assert gap_text(None) == "alone"
    assert gap_text(12345) == "by 12.3 ms"
    assert gap_text(999) == "by 0.9 ms"


def test_status_names_the_game_and_the_settings_in_force():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)
        box.press(0, 10 * MS)
        box.run_to(500 * MS)
        st = box.mode.status()
        assert st["game"] == box.mode.session.game_id and st["scores"] == [1, 0, 0] and st["actions"] == 1
        assert st["players"] == 3 and st["names"] == ["P1", "P2", "P3"] and st["lockout_ms"] == 100
        assert st["tiebreak"] is None and st["decisions"] == 1 and st["over"] is False


def test_a_game_in_progress_survives_a_power_cut():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4, lockout_ms=100)
        box.press(1, 10 * MS)
        box.run_to(500 * MS)
        box.press(3, 600 * MS)
        box.run_to(1000 * MS)
        game_id = box.mode.session.game_id
        box2 = box.reboot()  # no options: the box boots back into the mode
        assert box2.mode.session.game_id == game_id and box2.mode.game.scores() == [0, 1, 0, 1]
        assert ("game", {"event": "resume", "game": game_id, "players": 4, "scores": [0, 1, 0, 1]}) \
            in box2.events
        assert box2.screen()[0] == "RESUMED"
        box2.press(0, 50 * MS)
        box2.run_to(500 * MS)
        assert box2.mode.game.scores() == [1, 1, 0, 1]
        records = box2.records()
        assert [r["kind"] for r in records].count("game_start") == 1
        assert [r["data"]["n"] for r in records if r["kind"] == "action"] == [0, 1, 2]
        assert replay(records).scores() == [1, 1, 0, 1]


def test_a_pending_tiebreak_is_resumed_for_the_tied_players_only():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4, lockout_ms=100)
        box.press(0, 10 * MS)
        box.press(2, 10 * MS + 300)
        box.run_to(500 * MS)
        assert box.mode.game.tiebreak == [0, 2]
        box2 = box.reboot()
        assert box2.lit() == [0, 2]  # resumed: only the tied players are lit
        box2.press(1, 10 * MS)  # not in the tie-breaker
        box2.press(2, 20 * MS)
        box2.run_to(500 * MS)
        assert box2.decisions()[-1]["winner"] == 3 and box2.decisions()[-1]["tiebreak"] is True
        assert box2.mode.game.scores() == [0, 0, 1, 0]
        replay(box2.records())


def test_suspend_records_a_decision_still_in_its_lockout():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=800)
        box.press(2, 10 * MS)
        box.run_to(20 * MS)  # decided, lockout running
        assert box.records("action") == []
        box.mode.suspend()
        assert box.actions() == [["win", 2, -1]]
        assert box.reboot().mode.game.scores() == [0, 0, 1]


def test_explicit_other_options_close_the_kept_game_and_start_anew():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=4, lockout_ms=100)
        box.press(1, 10 * MS)
        box.run_to(500 * MS)
        old = box.mode.session.game_id
        box2 = box.reboot(players=5)
        assert box2.mode.session.game_id != old and box2.mode.players == 5
        assert box2.mode.game.scores() == [0] * 5
        ends = box2.records("game_end")
        assert len(ends) == 1 and ends[0]["data"]["game"] == old and ends[0]["data"]["reason"] == "abandoned"
        assert replay(box2.records(), old).is_over()


def test_an_ended_game_is_not_resumed_and_a_damaged_kept_file_is_reported():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=100)
        box.press(0, 0)
        box.run_to(500 * MS)
        box.mode_button(600 * MS)
        box.ok(700 * MS)  # ended
        box2 = box.reboot()
        assert box2.mode.session.game_id is None and box2.mode.game.scores() == [0, 0, 0, 0]
        box2.press(1, 0)
        box2.run_to(2000 * MS)
        second = box2.mode.session.game_id
        assert second > box.records("game_end")[-1]["seq"]
        box2.journal.close()
        with open(d + "/anomia_game.json", "w") as f:
            f.write("{not json")
        box3 = box2.reboot()
        assert box3.mode.game.scores() == [0, 0, 0, 0] and box3.mode.session.game_id != second
        assert "unreadable" in box3.mode.status()["storage_error"]


def test_a_game_kept_by_the_firmware_before_the_session_resumes():
    # the kept file of the buzzer mode as the earlier firmware wrote it: timings at the top
    import json

    from engine import anomia_score

    with tmp_dir() as d:
        Box(d, "anomia").journal.close()  # a box with a journal and one game started
        state = anomia_score.new_game(7, 4)
        state.apply(["win", 1, 0])
        kept = {"game": 1, "n": 1, "tie_window_us": 1000, "lockout_ms": 800, "state": state.to_dict()}
        del kept["state"]["version"]
        with open(d + "/anomia_game.json", "w") as f:
            f.write(json.dumps(kept))
        box = Box(d, "anomia")
        assert box.mode.session.game_id == 1 and box.mode.game.scores() == [0, 1, 0, 0]
        assert box.mode.values == {"tie_window_us": 1000, "lockout_ms": 800}



def test_a_lockout_longer_than_the_winner_screen_still_shows_the_count_it_ends_with():
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3, lockout_ms=3000)
        box.press(0, 10 * MS)
        box.run_to(12 * MS)
        assert box.screen()[0] == "WINNER"
        box.run_to(2000 * MS)  # the winner screen has given way; the lockout still runs
        assert box.screen()[0] == "SCORES" and box.decisions() == []
        box.run_to(3500 * MS)  # the lockout is over: the win counts, and the screen says so
        assert box.mode.game.scores() == [1, 0, 0]
        assert box.screen()[0] == "SCORES" and box.screen()[1].split() == ["P1", "1"]
