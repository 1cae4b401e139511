"""The buzzer scorekeeper engine: wins, ties and tie-breakers, undo, end, round trips."""

import gc
import json

from engine import anomia_score, core
from engine.core import BadState, IllegalAction
from engine.rng import Rng
from tests.shared.compat import IS_MICROPYTHON, raises


def test_win_adds_to_winner_pile_only():
    g = anomia_score.new_game(1, 4)
    g.apply(["win", 2, 0])
    g.apply(["win", 2, -1])
    g.apply(["win", 1, 2])
    assert g.scores() == [0, 1, 2, 0]
    assert g.winners() == []  # nobody has won before the end
    assert g.current_player() == core.SIMULTANEOUS
    g.apply(["end"])
    assert g.winners() == [2] and g.current_player() == core.TERMINAL


def test_tie_restricts_next_win_to_the_tied_pair():
    g = anomia_score.new_game(1, 5)
    g.apply(["tie", 1, 3])
    before = g.digest()
    e = raises(IllegalAction, g.apply, ["win", 0, 1])
    assert "tie-breaker" in str(e)
    raises(IllegalAction, g.apply, ["win", 1, 0])
    raises(IllegalAction, g.apply, ["tie", 0, 1])
    assert g.digest() == before
    assert [a for a in g.legal_actions() if a[0] == "tie"] == [["tie", 1, 3]]
    assert sorted(a for a in g.legal_actions() if a[0] == "win") == [
        ["win", 1, -1], ["win", 1, 3], ["win", 3, -1], ["win", 3, 1]]
    g.apply(["win", 3, 1])
    assert g.scores() == [0, 0, 0, 1, 0]
    g.apply(["win", 0, 4])  # free again after the tie-breaker


def test_three_way_tie_and_its_tiebreak():
    g = anomia_score.new_game(1, 6)
    raises(IllegalAction, g.apply, ["tie", 4, 2, 0])  # not ascending
    raises(IllegalAction, g.apply, ["tie", 2, 2])
    raises(IllegalAction, g.apply, ["tie", 3])
    g.apply(["tie", 0, 2, 4])
    raises(IllegalAction, g.apply, ["win", 2, 5])
    g.apply(["win", 4, 0])
    assert g.scores() == [0, 0, 0, 0, 1, 0]
    ties = [a for a in anomia_score.new_game(1, 4).legal_actions() if a[0] == "tie"]
    assert len(ties) == 11  # every subset of 4 players with 2 or more members


def test_a_tie_within_a_tiebreak_narrows_it_and_undo_restores_it():
    g = anomia_score.new_game(1, 5)
    g.apply(["tie", 0, 2, 4])
    raises(IllegalAction, g.apply, ["tie", 1, 2])
    g.apply(["tie", 2, 4])
    assert g.tiebreak == [2, 4]
    raises(IllegalAction, g.apply, ["win", 0, 2])
    g.apply(["undo"])
    assert g.tiebreak == [0, 2, 4]
    g.apply(["tie", 2, 4])
    g.apply(["win", 4, 2])
    assert g.tiebreak is None and g.scores() == [0, 0, 0, 0, 1]


def test_undo_reverts_win_and_restores_pending_tiebreak():
    g = anomia_score.new_game(1, 3)
    g.apply(["tie", 0, 2])
    g.apply(["win", 0, 2])
    g.apply(["undo"])
    assert g.scores() == [0, 0, 0]
    assert g.tiebreak == [0, 2]
    g.apply(["undo"])
    assert g.tiebreak is None
    raises(IllegalAction, g.apply, ["undo"])


def test_end_and_shared_winners():
    g = anomia_score.new_game(1, 3)
    g.apply(["win", 0, 1])
    g.apply(["win", 1, 0])
    g.apply(["end"])
    assert g.is_over()
    assert g.winners() == [0, 1]
    assert g.legal_actions() == []
    raises(IllegalAction, g.apply, ["win", 0, 1])


def test_bad_actions_rejected_state_unchanged():
    g = anomia_score.new_game(1, 4)
    d = g.digest()
    for bad in (None, [], ["win"], ["win", 4, 0], ["win", 1, 1], ["win", -1, 2], ["tie", 0, -1],
                ["win", True, 0], ["fly", 1, 2], ["end", 1], "win", ["undo"], ["tie", 0, 9]):
        raises(IllegalAction, g.apply, bad)
    assert g.digest() == d


def test_bad_setup_rejected():
    raises(ValueError, anomia_score.new_game, 1, 2)
    raises(ValueError, anomia_score.new_game, 1, 9)
    raises(ValueError, anomia_score.new_game, 1, 4, colour="red")
    raises(BadState, anomia_score.from_dict, {"game": "chess"})
    raises(BadState, anomia_score.from_dict, {"game": "anomia_score", "players": 3})


def test_random_play_round_trips_through_json():
    for seed in range(20):
        r = Rng(seed)
        g = anomia_score.new_game(seed, 3 + seed % 6)
        steps = 0
        while not g.is_over():
            if IS_MICROPYTHON:
                # 8 players have ~300 legal actions, each a small list: collect each step
                # so the 64-bit port's 192k test heap does not fragment
                gc.collect()
            acts = g.legal_actions()
            a = acts[r.below(len(acts))]
            g.apply(json.loads(json.dumps(a)))
            copy = anomia_score.from_dict(json.loads(json.dumps(g.to_dict())))
            assert copy.digest() == g.digest()
            assert sum(g.scores()) == g.faceoffs
            steps += 1
            assert steps < 2000


def _saved(**changes):
    g = anomia_score.new_game(1, 4)
    g.apply(["win", 1, 0])
    g.apply(["tie", 0, 2])
    d = json.loads(json.dumps(g.to_dict()))
    d.update(changes)
    return d


def test_from_dict_refuses_states_no_game_can_reach():
    assert anomia_score.from_dict(_saved()).digest() == anomia_score.from_dict(_saved()).digest()
    for bad in (
        {"players": 2}, {"players": 9}, {"players": True},
        {"tiebreak": [0, 9]}, {"tiebreak": [2, 0]}, {"tiebreak": [1]}, {"tiebreak": [0, 0]},
        {"over": "no"}, {"over": 0},
        {"piles": ["1", 2.7, 0, 0]}, {"piles": [0, 1, 0]}, {"piles": [0, -1, 0, 1]},
        {"piles": [0, True, 0, 0]},
        {"faceoffs": 5}, {"version": 99},
        {"history": [["win", 3, 0, 0]]},  # takes back a win P4 never had
        {"history": [["fly", 1, 0, 0]]}, {"history": [["win", 1, 1, 0]]}, {"history": [["tie", 2, 1, 0]]},
        {"history": [["win", 1, 0, 1]]},  # a one-player tie-breaker
    ):
        e = raises(BadState, anomia_score.from_dict, _saved(**bad))
        assert "anomia_score" in str(e), bad


def test_a_state_saved_before_states_had_a_version_still_loads():
    d = _saved()
    del d["version"]
    assert anomia_score.from_dict(d).scores() == [0, 1, 0, 0]
