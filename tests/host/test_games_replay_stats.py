"""games / replay / stats on a store built from records made with the real engine and firmware.record."""

import csv
import io
import json
import statistics

import pytest

from engine import anomia, anomia_score, gamelog, games
from engine.core import digest_of
from firmware.record import decode_record, encode_record
from host import db as dbmod
from host import replay as replay_mod
from host import stats as stats_mod
from host.bench_host import game_records
from host.cli import main as cli_main

T0 = 1_700_000_000


def _through_the_wire_format(records):
    # Exactly what the journal stores and the device sends back.
    return [decode_record(encode_record(r["seq"], r["kind"], r["data"], r["t"])) for r in records]


def _tampered(records, seq, **changes):
    out = []
    for r in records:
        if r["seq"] == seq:
            r = dict(r, data=dict(r["data"], **changes))
        out.append(r)
    return out


@pytest.fixture()
def store_path(tmp_path):
    path = tmp_path / "games.sqlite3"
    first = game_records(11, players=4, faceoffs=25, undo_every=6, t0=T0)
    second = game_records(12, players=3, faceoffs=15, start_seq=first[-1]["seq"] + 1, t0=T0 + 600,
                          names=["Cleo", "Ana", "Zed"])
    with dbmod.open_db(path) as s:
        s.add_records("box-1", _through_the_wire_format(first + second), {"board": "sim"})
    return path


def _run(capsys, *argv):
    status = cli_main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_games_list_and_show(store_path, capsys):
    status, out, _ = _run(capsys, "games", "list", "--db", str(store_path))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["ID", "STARTED", "GAME"]
    assert len(lines) == 3 and lines[1].split()[0] == "1@1" and "anomia" in lines[1] and "ended" in lines[1]
    second = lines[2].split()[0]
    assert second == "32@1"  # the box's own game number (its game_start's seq) on box 1
    status, out, _ = _run(capsys, "games", "--db", str(store_path), "show", second)
    assert status == 0
    assert out.startswith("game 32@1: anomia")
    assert "players  P1 Cleo, P2 Ana, P3 Zed" in out
    assert "winners  P3 Zed" in out and "scores P1 3, P2 5, P3 7; ended" in out  # the game_end record
    assert out.count("\n") > 15  # one line per record
    status, _, err = _run(capsys, "games", "show", "9", "--db", str(store_path))
    assert status == 2 and "no game 9" in err


def test_export_json_and_csv(store_path, tmp_path, capsys):
    with dbmod.open_db(store_path) as s:
        recs = s.game_records("1@1")
    status, out, _ = _run(capsys, "games", "export", "1@1", "--format", "json", "--db", str(store_path))
    assert status == 0
    doc = json.loads(out)
    assert doc["game"]["id"] == "1@1" and doc["game"]["engine"] == "anomia_score"
    assert "row" not in doc["game"]  # the database's own numbering stays inside
    assert [r["seq"] for r in doc["records"]] == [r["seq"] for r in recs]
    assert doc["records"][1]["data"] == recs[1]["data"]

    target = tmp_path / "game1.csv"
    status, out, _ = _run(capsys, "games", "export", "1", "--format", "csv", "-o", str(target),
                          "--db", str(store_path))
    assert status == 0 and out == ""
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert len(rows) == len(recs)
    assert rows[0]["kind"] == "game_start" and rows[-1]["kind"] == "game_end"
    for row, rec in zip(rows, recs, strict=True):
        assert int(row["seq"]) == rec["seq"]
        fo = rec["data"].get("faceoff")
        if fo:
            assert row["action"] == _in_words(rec["data"]["action"])
            assert row["gap_us"] == ("" if fo["gap_us"] is None else str(fo["gap_us"]))
            # players as people number them: P1 is the engine's player 0
            assert json.loads(row["presses"]) == [["P%d" % (p + 1), t, rank] for p, t, rank in fo["presses"]]
            assert row["tie"] == ("true" if fo["tie"] else "false")
    assert json.loads(rows[-1]["scores"]) == recs[-1]["data"]["scores"]
    assert rows[-1]["winners"] == " ".join("P%d" % (w + 1) for w in recs[-1]["data"]["winners"])
    assert "P0" not in target.read_text()


def _in_words(action):
    if action == ["undo"]:
        return "undo"
    if action[0] == "tie":
        return "tie " + " ".join("P%d" % (p + 1) for p in action[1:])
    if action[2] < 0:
        return "P%d alone" % (action[1] + 1)
    return "P%d beats P%d" % (action[1] + 1, action[2] + 1)


def test_replay_passes_on_intact_games(store_path, capsys):
    for gid in ("1@1", "32"):
        status, out, _ = _run(capsys, "replay", gid, "--db", str(store_path))
        assert status == 0, out
        assert "every digest matches" in out


def test_replay_names_the_first_tampered_record(tmp_path, capsys):
    recs = game_records(21, players=4, faceoffs=12, t0=T0)
    bad_seq = recs[6]["seq"]
    recs = _tampered(recs, bad_seq, digest="ab" * 32)
    recs = _tampered(recs, recs[9]["seq"], digest="cd" * 32)  # a later one is not reported
    path = tmp_path / "games.sqlite3"
    with dbmod.open_db(path) as s:
        s.add_records("box", recs)
    status, out, _ = _run(capsys, "replay", "1", "--db", str(path))
    assert status == 1
    assert "MISMATCH at record seq %d" % bad_seq in out and "n=5" in out
    assert "seq %d" % recs[9]["seq"] not in out


def test_replay_mismatches_of_every_kind():
    recs = game_records(22, players=3, faceoffs=8)
    state = replay_mod.replay(recs)
    assert state.scores() == recs[-1]["data"]["scores"]
    cases = [
        (_tampered(recs, 1, digest="0" * 64), 1, "setup digest"),
        (_tampered(recs, 1, seed=23), 1, "setup digest"),
        (_tampered(recs, 1, engine="no_such_engine"), 1, "no engine"),
        (_tampered(recs, 4, action=["win", 7, 0]), 4, "illegal"),
        (_tampered(recs, 5, n=6), 5, "n=6 where n=3"),
        ([r for r in recs if r["seq"] != 3], 4, "n=2 where n=1"),
        (_tampered(recs, recs[-1]["seq"], scores=[9, 9, 9]), recs[-1]["seq"], "scores"),
        (recs[1:], 2, "no game_start"),
    ]
    for records, seq, text in cases:
        with pytest.raises(replay_mod.ReplayMismatch) as e:
            replay_mod.replay(records)
        assert e.value.seq == seq, (text, str(e.value))
        assert text in str(e.value)


def test_replay_accepts_both_ways_of_ending_a_game():
    # the box applies ["end"] without an action record; an explicit end action is fine too
    for explicit in (False, True):
        recs = game_records(23, players=4, faceoffs=6, end_action=explicit)
        state = replay_mod.replay(recs)
        assert state.is_over() and state.digest() == recs[-1]["data"]["digest"]
    # an abandoned game (the player count changed): no end applied, no winners recorded
    recs = game_records(24, players=3, faceoffs=5, end=False)
    state = replay_mod.replay(recs)
    recs.append({"seq": recs[-1]["seq"] + 1, "kind": "game_end", "t": None,
                 "data": {"game": 1, "scores": state.scores(), "winners": [], "digest": state.digest(),
                          "reason": "players_changed", "n": 5}})
    assert not replay_mod.replay(recs).is_over()
    # a game_end whose n does not follow the last action: an action record is missing
    recs = game_records(25, players=3, faceoffs=5)
    with pytest.raises(replay_mod.ReplayMismatch, match="n=5 but 4 actions"):
        replay_mod.replay([r for r in recs if r["seq"] != recs[-2]["seq"]])


def test_replay_of_a_record_written_before_the_log_had_a_version():
    # A v0 game_start: box settings rode along in options, beside the engine's own.
    state = anomia.new_game(5, 3, deck="red")
    recs = [{"seq": 40, "kind": "game_start", "t": None,
             "data": {"game": 40, "name": "anomia", "engine": "anomia", "seed": 5,
                      "players": [{"name": n, "colour": [1, 2, 3]} for n in "ABC"],
                      "options": {"deck": "red", "tie_window_us": 1000}, "digest": state.digest()}}]
    for n in range(30):
        if state.is_over():
            break
        action = state.legal_actions()[0]
        state.apply(action)
        recs.append({"seq": 41 + n, "kind": "action", "t": None,
                     "data": {"game": 40, "n": n, "action": action, "digest": state.digest()}})
    assert replay_mod.replay(recs).digest() == state.digest()
    wrong_deck = _tampered(recs, 40, options={"deck": "blue"})
    with pytest.raises(replay_mod.ReplayMismatch, match="setup digest"):
        replay_mod.replay(wrong_deck)


def test_engines_come_from_the_registry_only():
    assert games.get_game("anomia_score") is anomia_score
    assert games.get_game("anomia") is anomia
    for bad in ("core", "../host", "os", None, "rng", "gamelog"):
        with pytest.raises(ValueError):
            games.get_game(bad)


def _expected_stats(games):
    """Independent tally: walk each game's actions with an explicit undo stack."""
    won, ties, gaps = {}, {}, {}
    for recs in games:
        names = [p["name"] for p in recs[0]["data"]["players"]]
        stack = []
        for r in recs:
            a = r["data"].get("action")
            if r["kind"] != "action":
                continue
            if a[0] == "undo":
                stack.pop()
            elif a[0] in ("win", "tie"):
                stack.append((a, r["data"]["faceoff"]))
        for a, fo in stack:
            if a[0] == "win":
                won[names[a[1]]] = won.get(names[a[1]], 0) + 1
                if fo["gap_us"] is not None:
                    gaps.setdefault(names[a[1]], []).append(fo["gap_us"])
            else:
                for p in a[1:]:
                    ties[names[p]] = ties.get(names[p], 0) + 1
    return won, ties, gaps


def test_stats_numbers_are_right(store_path):
    with dbmod.open_db(store_path) as s:
        ids = [g["id"] for g in s.games()]
        games = [s.game_records(gid) for gid in ids]
        stats = stats_mod.collect(s, ids)
        only_second = stats_mod.collect(s, ids[1:])
    won, ties, gaps = _expected_stats(games)
    assert list(stats) == ["Ana", "Ben", "Cleo", "Dev", "Zed"]
    assert any(r["data"].get("action") == ["undo"] for r in games[0])
    assert sum(ties.values()) > 0 and sum(won.values()) > 10
    for name, ps in stats.items():
        assert ps.won == won.get(name, 0), name
        assert ps.ties == ties.get(name, 0), name
        assert sorted(ps.gaps_us) == sorted(gaps.get(name, [])), name
        if ps.gaps_us:
            assert ps.median_gap_us() == statistics.median(gaps[name])
        assert sum(ps.distribution()) == len(ps.gaps_us)
    assert list(only_second) == ["Cleo", "Ana", "Zed"]
    # the ranks and piles agree with the engine's own count of wins
    final_scores = games[1][-1]["data"]["scores"]
    assert [only_second[n].won for n in ("Cleo", "Ana", "Zed")] == final_scores


def test_distribution_buckets():
    assert stats_mod.distribution([0, 999, 1000, 4999, 5000, 499_999, 500_000, 10_000_000]) == [
        2, 1, 1, 1, 0, 0, 0, 0, 1, 2]
    assert stats_mod.bucket_labels()[:3] == ["<1", "1-2", "2-5"] and stats_mod.bucket_labels()[-1] == "500+"


def test_stats_command_prints_ms_and_writes_a_png(store_path, tmp_path, capsys):
    png = tmp_path / "plots" / "stats.png"
    png.parent.mkdir()
    status, out, _ = _run(capsys, "stats", "--db", str(store_path), "--game", "1", "--plot", str(png))
    assert status == 0
    with dbmod.open_db(store_path) as s:
        ana = stats_mod.collect(s, ["1@1"])["Ana"]
    line = next(ln for ln in out.splitlines() if ln.startswith("Ana "))
    assert line.split()[3:5] == [str(ana.won), str(ana.ties)]  # after GAMES and WON
    assert "%.3f ms" % (ana.median_gap_us() / 1000.0) in line
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    assert "plot written" in out


def test_score_curve_follows_the_engine():
    recs = game_records(31, players=3, faceoffs=10, undo_every=3)
    curve = stats_mod.score_curve(recs)
    assert curve[0] == [0, 0, 0]
    assert curve[-1] == recs[-1]["data"]["scores"]
    assert len(curve) == 1 + sum(1 for r in recs if r["kind"] == "action")


def test_stats_on_an_empty_store_and_a_bad_plot_path(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    dbmod.open_db(path).close()
    status, out, _ = _run(capsys, "stats", "--db", str(path))
    assert status == 0 and "no games stored" in out
    with dbmod.open_db(path) as s:
        s.add_records("box", game_records(3, faceoffs=4))
    status, _, err = _run(capsys, "stats", "--db", str(path), "--plot", str(tmp_path / "no" / "dir.png"))
    assert status == 1 and "cannot write" in err


def test_digest_of_records_is_the_engine_digest():
    # The records carry the engine's canonical digest, not some other hash.
    recs = game_records(41, players=3, faceoffs=2)
    state = anomia_score.new_game(41, 3)
    assert recs[0]["data"]["digest"] == digest_of(state.to_dict())


def test_a_game_of_another_mode_is_read_in_its_own_terms_never_as_faceoffs(tmp_path, capsys):
    # A ledger-style game whose actions happen to be called "win": not a face-off.
    state = anomia.new_game(8, 3)
    names = [{"name": n, "colour": [1, 2, 3]} for n in ("Ana", "Ben", "Cleo")]
    recs = [{"seq": 1, "kind": "game_start", "t": None,
             "data": gamelog.start_data(1, "ledger", "anomia", 8, names, {}, {}, state)}]
    n = 0
    while not state.is_over():
        action = state.legal_actions()[0]
        state.apply(action)
        recs.append({"seq": 2 + n, "kind": "action", "t": None,
                     "data": gamelog.action_data(1, n, action, state, {"faceoff": {"gap_us": 5}})})
        n += 1
    recs.append({"seq": 2 + n, "kind": "game_end", "t": None,
                 "data": gamelog.end_data(1, n, state, "ended")})
    assert any(r["data"].get("action", [None])[0] == "win" for r in recs[1:-1])
    path = tmp_path / "ledger.sqlite3"
    with dbmod.open_db(path) as s:
        s.add_records("box-2", _through_the_wire_format(recs), {"board": "sim"})
        stats = stats_mod.collect(s, [1])
    assert [ps.won for ps in stats.values()] == [0, 0, 0] and all(not ps.gaps_us for ps in stats.values())
    assert [ps.games for ps in stats.values()] == [1, 1, 1]
    assert sum(ps.games_won for ps in stats.values()) == len(state.winners())
    status, out, _ = _run(capsys, "games", "show", "1", "--db", str(path))
    assert status == 0 and "gap" not in out
    status, out, _ = _run(capsys, "games", "export", "1", "--format", "csv", "--db", str(path))
    assert status == 0 and out.splitlines()[0] == "seq,kind,t,n,action,digest,scores,winners,reason,detail"
    status, out, _ = _run(capsys, "stats", "--db", str(path))
    assert status == 0 and "0 face-offs won" in out


def test_a_game_with_a_gap_is_incomplete_in_list_show_replay_and_stats_never_a_mismatch(tmp_path, capsys):
    recs = _through_the_wire_format(game_records(21, players=4, faceoffs=20, t0=T0))
    after = _through_the_wire_format(game_records(22, players=3, faceoffs=6, start_seq=recs[-1]["seq"] + 1,
                                                  t0=T0 + 900))
    path = tmp_path / "games.sqlite3"
    held = recs[:8] + recs[12:] + after  # seqs 9-12 were pruned on the box before this database synced
    with dbmod.open_db(path) as s:
        s.add_records("box-1", held[:8], {"board": "sim"})
        s.add_records("box-1", held[8:], {"board": "sim"}, gaps=[(9, 12)])
    status, out, _ = _run(capsys, "games", "list", "--db", str(path))
    assert status == 0 and "MISMATCH" not in out
    rows = {ln.split()[0]: ln for ln in out.splitlines()[1:]}
    assert "incomplete" in rows["1@1"] and "incomplete" not in rows["%d@1" % after[0]["seq"]]
    status, out, _ = _run(capsys, "games", "show", "1", "--db", str(path))
    assert status == 0 and "missing  seqs 9-12: pruned on the box" in out
    status, out, _ = _run(capsys, "replay", "1", "--db", str(path))
    assert status == replay_mod.EXIT_INCOMPLETE and "MISMATCH" not in out
    assert "game 1@1: incomplete, seqs 9-12" in out and "the 7 actions before them replay" in out
    assert _run(capsys, "replay", str(after[0]["seq"]), "--db", str(path))[0] == 0
    status, out, err = _run(capsys, "stats", "--db", str(path), "--plot", str(tmp_path / "s.png"))
    assert status == 0 and (tmp_path / "s.png").exists(), err  # the curve comes from the whole game
