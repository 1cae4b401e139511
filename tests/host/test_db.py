"""The SQLite store: schema, idempotent pages, derived games, and files it must refuse untouched."""

import os
import sqlite3
import subprocess
import sys

import pytest

from host import db as dbmod
from host.bench_host import game_records
from host.cli import main as cli_main


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


def _store(tmp_path, name="games.sqlite3"):
    return dbmod.open_db(tmp_path / name)


def test_new_database_has_marker_and_schema_version(tmp_path):
    path = tmp_path / "games.sqlite3"
    dbmod.open_db(path).close()
    conn = sqlite3.connect(str(path))
    assert conn.execute("PRAGMA application_id").fetchone()[0] == dbmod.APPLICATION_ID
    assert conn.execute("SELECT version FROM schema_version").fetchall() == [(dbmod.SCHEMA_VERSION,)]
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"records", "games", "devices", "schema_version", "meta"} <= tables
    conn.close()
    before = _bytes(path)
    dbmod.open_db(path).close()  # reopening an up-to-date store writes nothing
    assert _bytes(path) == before


def test_pages_are_idempotent_and_cursor_follows(tmp_path):
    recs = game_records(3, players=4, faceoffs=12)
    with _store(tmp_path) as s:
        assert s.cursor("box-1") == 0
        assert s.add_records("box-1", recs[:5], {"board": "sim"}) == 5
        assert s.cursor("box-1") == recs[4]["seq"]
        assert s.add_records("box-1", recs, None) == len(recs) - 5
        assert s.add_records("box-1", recs) == 0
        assert s.count_records() == len(recs)
        assert s.cursor("box-2") == 0
        # the same seqs from another device are other records
        assert s.add_records("box-2", recs[:3]) == 3
        assert s.count_records("box-1") == len(recs)
        assert [r["seq"] for r in s.records("box-1")] == [r["seq"] for r in recs]
        assert s.records("box-1")[3]["data"] == recs[3]["data"]


def test_conflicting_record_rolls_back_the_whole_page(tmp_path):
    recs = game_records(4, players=3, faceoffs=6)
    with _store(tmp_path) as s:
        s.add_records("box", recs[:3])
        changed = dict(recs[2], data=dict(recs[2]["data"], digest="0" * 64))
        with pytest.raises(dbmod.RecordConflict, match="record 3"):
            s.add_records("box", recs[3:6] + [changed])
        assert s.count_records() == 3  # the page's new records were not kept either
        assert s.games()[0]["actions"] == 2


def test_games_are_derived_from_start_action_end(tmp_path):
    recs = game_records(5, players=4, faceoffs=10, undo_every=4, t0=1_700_000_000)
    second = game_records(6, players=3, faceoffs=3, start_seq=recs[-1]["seq"] + 1, end=False)
    with _store(tmp_path) as s:
        # split across pages: the game row is completed by later pages
        s.add_records("box", recs[:4])
        g = s.games()[0]
        assert (g["ended"], g["actions"], g["scores"]) == (False, 3, None)
        s.add_records("box", recs[4:] + second)
        games = s.games()
        assert len(games) == 2
        g, h = games
        actions = [r for r in recs if r["kind"] == "action"]
        end = recs[-1]["data"]
        assert g["device_id"] == "box" and g["start_seq"] == 1 and g["engine"] == "anomia_score"
        assert g["actions"] == len(actions) and g["ended"]
        assert g["scores"] == end["scores"] and g["winners"] == end["winners"] and g["reason"] == "ended"
        assert g["start_t"] == 1_700_000_000 and g["end_t"] == recs[-1]["t"]
        assert [p["name"] for p in g["players"]] == ["Ana", "Ben", "Cleo", "Dev"]
        assert g["options"] == {}  # the scorekeeper takes no options; the timings are box settings
        assert h["start_seq"] == second[0]["seq"] and not h["ended"] and h["actions"] == 3
        assert [r["seq"] for r in s.game_records(h["id"])] == [r["seq"] for r in second]
        assert [r["seq"] for r in s.game_records(g["id"])] == [r["seq"] for r in recs]
        with pytest.raises(dbmod.UnknownGame):
            s.game(99)


def test_devices_are_registered_once(tmp_path):
    with _store(tmp_path) as s:
        s.register_device("box", {"board": "pico"})
        s.register_device("box", {"board": "changed"})
        assert s.device("box")["info"] == {"board": "pico"}
        s.add_records("box", game_records(1, faceoffs=1)[:1], {"board": "pico", "firmware": "0.2"})
        assert s.device("box")["info"]["firmware"] == "0.2"
        assert [d["device_id"] for d in s.devices()] == ["box"]
        assert s.device("other") is None


def _refused(path, exc_type, match):
    before = _bytes(path)
    with pytest.raises(exc_type, match=match):
        dbmod.open_db(path)
    assert _bytes(path) == before
    assert not os.path.exists(str(path) + "-journal")


def test_refuses_a_file_that_is_not_sqlite(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"shopping list: eggs, milk\n" * 20)
    _refused(path, dbmod.NotTablemateDatabase, "not an SQLite file")


def test_refuses_another_applications_database(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(str(path))
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount INTEGER)")
    conn.execute("INSERT INTO invoices VALUES (1, 100)")
    conn.commit()
    conn.close()
    _refused(path, dbmod.NotTablemateDatabase, "another application")


def test_refuses_a_newer_schema(tmp_path):
    path = tmp_path / "games.sqlite3"
    dbmod.open_db(path).close()
    conn = sqlite3.connect(str(path))
    conn.execute("INSERT INTO schema_version VALUES (?, 0)", (dbmod.SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    _refused(path, dbmod.NewerSchema, "newer tablemate")


def test_refuses_a_corrupt_database(tmp_path):
    path = tmp_path / "games.sqlite3"
    with dbmod.open_db(path) as s:
        s.add_records("box", game_records(1, faceoffs=150))
    data = bytearray(_bytes(path))
    assert len(data) > 5 * 4096
    data[4 * 4096:4 * 4096 + 64] = b"\xde\xad\xbe\xef" * 16  # a b-tree page header
    path.write_bytes(bytes(data))
    _refused(path, dbmod.CorruptDatabase, "corrupt")
    truncated = tmp_path / "cut.sqlite3"
    truncated.write_bytes(bytes(data[: len(data) // 2]))
    _refused(truncated, dbmod.CorruptDatabase, "corrupt")


def test_missing_database_is_not_created_for_reading(tmp_path):
    path = tmp_path / "none.sqlite3"
    with pytest.raises(dbmod.NoDatabase, match="tablemate sync"):
        dbmod.open_db(path, create=False)
    assert not path.exists()


def test_a_db_in_a_folder_that_does_not_exist_is_an_error_and_creates_nothing(tmp_path, capsys):
    missing = tmp_path / "nonexistent" / "deeper"
    db = str(missing / "g.db")
    for argv in (["sync", "--port", str(tmp_path / "ttyNONE"), "--db", db], ["games", "--db", db, "list"],
                 ["games", "list", "--db", db], ["games", "show", "1", "--db", db],
                 ["games", "export", "1", "--db", db], ["replay", "1", "--db", db], ["stats", "--db", db]):
        assert cli_main(argv) == 1, argv
        err = capsys.readouterr().err
        assert "folder %s does not exist" % missing in err and err.count("\n") == 1, (argv, err)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(dbmod.NoFolder):
        dbmod.open_db(missing / "g.db")
    assert list(tmp_path.iterdir()) == []


def test_a_schema_1_database_gets_the_gaps_table_and_keeps_its_records(tmp_path):
    path = tmp_path / "games.sqlite3"
    recs = game_records(5, players=3, faceoffs=4)
    with dbmod.open_db(path) as s:
        s.add_records("box", recs)
    conn = sqlite3.connect(str(path))
    conn.execute("DROP TABLE gaps")
    conn.execute("DELETE FROM schema_version")
    conn.execute("INSERT INTO schema_version VALUES (1, 0)")
    conn.commit()
    conn.close()
    with dbmod.open_db(path, create=False) as s:
        assert s.gaps() == [] and len(s.records()) == len(recs)
        assert not s.games()[0]["incomplete"]
    conn = sqlite3.connect(str(path))
    assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == dbmod.SCHEMA_VERSION
    conn.close()


def test_cli_reports_a_bad_database_in_one_line(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"not a database at all")
    for argv in (["games", "list"], ["stats"], ["replay", "1"]):
        assert cli_main(argv + ["--db", str(path)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("tablemate: error: ") and "not a tablemate database" in err
        assert err.count("\n") == 1
    assert path.read_bytes() == b"not a database at all"


def test_busy_database_gives_a_typed_error(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    dbmod.open_db(path).close()
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT_S", 0.1)
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(dbmod.DatabaseBusy, match="in use"):
            with dbmod.open_db(path) as s:
                s.add_records("box", game_records(1, faceoffs=1))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


_KILLED_WRITER = r"""
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size = 1")  # spill to the file mid-transaction: a hot journal
conn.execute("BEGIN IMMEDIATE")
for i in range(3000):
    conn.execute("INSERT INTO records (device_id, seq, kind, t, data, crc, synced_at)"
                 " VALUES ('box', ?, 'x', NULL, ?, 0, 0)", (100000 + i, "{}" + "x" * 200))
os._exit(0)  # killed before COMMIT
"""


def test_interrupted_commit_is_rolled_back_on_open(tmp_path):
    path = tmp_path / "games.sqlite3"
    recs = game_records(2, faceoffs=5)
    with dbmod.open_db(path) as s:
        s.add_records("box", recs)
    subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(path)], check=True)
    assert os.path.getsize(str(path) + "-journal") > 0
    with dbmod.open_db(path) as s:
        assert s.count_records() == len(recs)
        assert s.cursor("box") == recs[-1]["seq"]
