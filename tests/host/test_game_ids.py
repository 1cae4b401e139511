"""One id per game, the same on the box and in every command (host/game_ids.py); players
numbered P1... in what people read; an open game's scores so far in `games list`."""

import re

from firmware.record import decode_record, encode_record
from host import db as dbmod
from host.bench_host import game_records
from host.cli import main as cli_main
from tests.host.test_sim_boot import Sim


def _run(capsys, *argv):
    status = cli_main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def _wire(records):
    return [decode_record(encode_record(r["seq"], r["kind"], r["data"], r["t"])) for r in records]


def test_the_box_status_and_every_command_use_one_id(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    with Sim(tmp_path / "box.img", "--fresh") as sim:
        sim.wait_ready()
        with sim.client() as dev:
            dev.request("mode", name="anomia", options={"players": 3})
            dev.act(["win", 1, 0])
            dev.act(["tie", 0, 2])
            device_id = dev.info["device_id"]
            box_game = dev.status()["status"]["mode_status"]["game"]
        status, out, err = _run(capsys, "status", "--port", sim.port)
        assert status == 0, err
        game_id = "%d@%s" % (box_game, device_id.rsplit("-", 1)[1])
        assert "  game      %s, 2 actions\n" % game_id in out
        assert "  scores    P1 0, P2 1, P3 0\n" in out  # the box's player 0 is P1
        assert "  tiebreak  P1 P3\n" in out
        assert _run(capsys, "sync", "--port", sim.port, "--db", db)[0] == 0
    status, out, _ = _run(capsys, "games", "list", "--db", db)
    row = out.splitlines()[1]
    assert row.split()[0] == game_id and " open " in row
    assert row.endswith("P1 0, P2 1, P3 0")  # an open game's scores so far
    status, out, _ = _run(capsys, "games", "show", game_id, "--db", db)
    assert status == 0 and out.startswith("game %s: anomia" % game_id)
    assert "P2 beats P1" in out and "tie P1 P3" in out and "so far   P1 0, P2 1, P3 0" in out
    status, out, _ = _run(capsys, "replay", game_id, "--db", db)
    assert status == 0 and out.startswith("game %s: anomia_score" % game_id)
    status, out, _ = _run(capsys, "stats", "--game", game_id, "--db", db)
    assert status == 0 and "1 face-off won" in out
    status, out, _ = _run(capsys, "games", "export", str(box_game), "--format", "json", "--db", db)
    assert status == 0 and '"id": "%s"' % game_id in out  # the box's number alone: this database has one box


def test_two_boxes_never_share_an_id_and_careless_ids_get_one_line(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    with dbmod.open_db(db) as s:
        s.add_records("sim-aaaa0001", _wire(game_records(1, players=3, faceoffs=3)), {"board": "sim"})
        s.add_records("e6614c311b7a5d2f-bbbb0002", _wire(game_records(2, players=4, faceoffs=5)),
                      {"board": "pico"})
    status, out, _ = _run(capsys, "games", "list", "--db", db)
    assert [ln.split()[0] for ln in out.splitlines()[1:]] == ["1@aaaa0001", "1@bbbb0002"]
    status, out, err = _run(capsys, "replay", "1", "--db", db)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "game 1 is on more than one box" in err and "1@sim-aaaa0001" in err
    for typed in ("1@bbbb0002", "1@e6614c311b7a5d2f-bbbb0002", " 1@BBBB0002 "):
        status, out, _ = _run(capsys, "replay", typed, "--db", db)
        assert status == 0 and out.startswith("game 1@bbbb0002: anomia_score, 4 players"), out
    for typed, says in (("P0", "'P0' is not a game id"), ("0", "'0' is not a game id"),
                        ("-1", "'-1' is not a game id"), ("1@cccc0003", "no game 1@cccc0003"),
                        ("7", "no game 7"), ("", "'' is not a game id")):
        for argv in (("games", "show", typed), ("games", "export", typed), ("replay", typed),
                     ("stats", "--game", typed)):
            status, out, err = _run(capsys, *argv, "--db", db)
            assert status == 2 and out == "" and err.count("\n") == 1, (argv, err)
            assert err.startswith("tablemate: error: ") and says in err, (argv, err)


def _ended(records, reason):
    end = dict(records[-1], data=dict(records[-1]["data"], reason=reason))
    return records[:-1] + [end]


def test_games_list_columns_stay_aligned_whatever_the_status(tmp_path, capsys):
    first = game_records(3, players=3, faceoffs=4, names=["Zoë", "José", "Ann"])
    changed = _ended(game_records(4, players=4, faceoffs=2, start_seq=first[-1]["seq"] + 1),
                     "players_changed")
    solo = game_records(5, players=3, faceoffs=3, start_seq=changed[-1]["seq"] + 1)
    solo[0] = dict(solo[0], data=dict(solo[0]["data"], name="a_mode_with_a_long_name"))
    pruned = game_records(6, players=3, faceoffs=6, start_seq=solo[-1]["seq"] + 1)
    still_open = game_records(7, players=5, faceoffs=12, undo_every=4, start_seq=pruned[-1]["seq"] + 1,
                              end=False)
    db = tmp_path / "games.sqlite3"
    with dbmod.open_db(db) as s:
        s.add_records("sim-0a1b2c3d", _wire(first + changed + solo + pruned[:3]), {"board": "sim"})
        gap = (pruned[3]["seq"], pruned[4]["seq"])
        s.add_records("sim-0a1b2c3d", _wire(pruned[5:] + still_open), {"board": "sim"}, gaps=[gap])
    status, out, _ = _run(capsys, "games", "list", "--db", db)
    lines = out.splitlines()
    head = lines[0]
    at = {word: head.index(word) for word in ("GAME", "STATUS", "SCORES")}
    expected = [("ended", "P1 Zoë %d, P2 José %d, P3 Ann %d" % tuple(first[-1]["data"]["scores"])),
                ("players_changed", None), ("ended", None), ("incomplete", None),
                ("open", ", ".join("P%d %s %d" % (i + 1, p["name"], s) for i, (p, s) in enumerate(
                    zip(still_open[0]["data"]["players"], still_open[-1]["data"]["scores"], strict=True))))]
    assert len(lines) == 1 + len(expected)
    for line, (status_text, scores) in zip(lines[1:], expected, strict=True):
        assert line[at["STATUS"]:].split()[0] == status_text, out
        assert line[at["GAME"] - 2:at["GAME"]] == "  ", out
        assert re.match(r"P1 ", line[at["SCORES"]:]) or line[at["SCORES"]:] == "-", out
        if scores:
            assert line[at["SCORES"]:] == scores, out
    assert "a_mode_with_a_long_name" in lines[3]


def test_status_numbers_the_players_of_every_mode():
    from host.status import format_status

    info = {"firmware": "0.1.0", "board": "sim", "proto": 1, "impl": "cpython", "device_id": "sim-0a1b2c3d"}

    def status(mode_status):
        return format_status("/dev/pts/9", info, {"journal": {}, "status": {"mode_status": mode_status}})

    text = status({"game": 5, "actions": 3, "over": False, "players": 4,
                   "names": ["Zo\u00eb", "P2", "P3", "P4"], "scores": [0, 1, 0, 0], "frame": ["ask", 0]})
    assert "  game      5@0a1b2c3d, 3 actions\n" in text
    assert "  scores    P1 Zo\u00eb 0, P2 1, P3 0, P4 0\n" in text  # the name as it was written
    assert '"frame": "ask P1"' in text
    text = status({"game": None, "actions": 0, "players": 3, "pick": [0, 2], "partners": False})
    assert "  game      none recorded yet, 3 players" in text and '"pick": "P1 P3"' in text
    assert '"pick": "P2+P4"' in status({"game": 9, "actions": 1, "players": 4, "pick": [1], "partners": True})
