"""The game log: records built by its builders replay through their engine; older
records (before the format had a version) still replay; undo records rebuild the state."""

from engine import anomia, anomia_score, gamelog, gamelog_read
from engine.core import digest_of
from tests.shared.compat import raises

PLAYERS = [{"name": n, "colour": [1, 2, 3]} for n in ("Ana", "Ben", "Cleo")]


def _rec(seq, kind, data):
    return {"seq": seq, "kind": kind, "t": None, "data": data}


def scorekeeper_game():
    state = anomia_score.new_game(9, 3)
    recs = [_rec(1, gamelog.GAME_START, gamelog.start_data(1, "anomia", "anomia_score", 9, PLAYERS, {},
                                                           {"tie_window_us": 1000}, state))]
    for n, action in enumerate((["win", 0, 1], ["tie", 1, 2], ["undo"], ["win", 2, -1])):
        state.apply(action)
        data = gamelog.action_data(1, n, action, state, {"faceoff": {"gap_us": n}})
        recs.append(_rec(2 + n, gamelog.ACTION, data))
    state.apply(gamelog.END_ACTION)
    recs.append(_rec(6, gamelog.GAME_END, gamelog.end_data(1, 4, state, "ended")))
    return recs, state


def test_built_records_replay_to_the_same_state():
    recs, state = scorekeeper_game()
    assert recs[0]["data"]["v"] == gamelog.LOG_VERSION
    assert recs[0]["data"]["options"] == {} and recs[0]["data"]["settings"] == {"tie_window_us": 1000}
    assert recs[1]["data"]["faceoff"] == {"gap_us": 0}
    seen = []
    final = gamelog_read.replay(recs, after=lambda st, rec: seen.append(rec["seq"]))
    assert final.digest() == state.digest() and final.winners() == [0, 2]
    assert seen == [1, 2, 3, 4, 5]
    assert gamelog_read.settings_of(recs[0]["data"]) == {"tie_window_us": 1000}


def test_a_changed_record_is_named_by_its_seq():
    recs, _ = scorekeeper_game()
    recs[1]["data"]["action"] = ["win", 0, 2]  # legal, but not what was recorded
    e = raises(gamelog_read.ReplayMismatch, gamelog_read.replay, recs)
    assert e.seq == 2 and "digest" in e.detail
    recs, _ = scorekeeper_game()
    recs[0]["data"]["v"] = gamelog.LOG_VERSION + 1
    e = raises(gamelog_read.ReplayMismatch, gamelog_read.replay, recs)
    assert e.seq == 1 and "log format" in e.detail


def test_records_from_before_the_format_had_a_version_replay():
    # v 0: timings among the options, digests of states without their "version" field
    state = anomia_score.new_game(4, 3)

    def old_digest(st):
        d = st.to_dict()
        del d["version"]
        return digest_of(d)

    recs = [_rec(1, "game_start", {"game": 1, "name": "anomia", "engine": "anomia_score", "seed": 4,
                                   "players": PLAYERS, "options": {"tie_window_us": 1000, "lockout_ms": 800},
                                   "digest": old_digest(state)})]
    state.apply(["win", 1, 0])
    recs.append(_rec(2, "action", {"game": 1, "n": 0, "action": ["win", 1, 0], "digest": old_digest(state),
                                   "scores": state.scores(), "faceoff": {"gap_us": 5}}))
    state.apply(["end"])
    recs.append(_rec(3, "game_end", {"game": 1, "n": 1, "scores": state.scores(), "winners": [1],
                                     "digest": old_digest(state), "reason": "ended"}))
    assert gamelog_read.replay(recs).scores() == [0, 1, 0]
    assert gamelog_read.settings_of(recs[0]["data"]) == {"tie_window_us": 1000, "lockout_ms": 800}
    # a current record must carry the current digest
    recs[0]["data"]["v"] = gamelog.LOG_VERSION
    raises(gamelog_read.ReplayMismatch, gamelog_read.replay, recs)


def test_an_undo_record_takes_back_the_last_standing_action_of_an_engine_without_undo():
    state = anomia.new_game(3, 3)
    start = gamelog.start_data(10, "anomia", "anomia", 3, PLAYERS, {}, {}, state)
    recs = [_rec(10, gamelog.GAME_START, start)]
    history = []
    n = 0
    for _ in range(3):
        history.append(state.to_dict())
        action = state.legal_actions()[0]
        state.apply(action)
        recs.append(_rec(11 + n, gamelog.ACTION, gamelog.action_data(10, n, action, state)))
        n += 1
    state = anomia.from_dict(history[-1])
    recs.append(_rec(11 + n, gamelog.ACTION, gamelog.undo_data(10, n, 2, state)))
    assert gamelog_read.replay(recs).digest() == state.digest()
    recs[-1]["data"]["undo"] = 1  # not the last standing action
    e = raises(gamelog_read.ReplayMismatch, gamelog_read.replay, recs)
    assert e.seq == recs[-1]["seq"]
