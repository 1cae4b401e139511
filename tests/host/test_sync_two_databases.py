"""Sync never loses or hides a record: two databases syncing alternately from one box while
games are played, acknowledgement order against a failing commit, and a forced prune that
shows up as a reported gap (and an incomplete game), never as a silent one or a mismatch.

The box is the firmware's Link and Journal in-process behind a pty (tests/host/test_sync.py's
LinkBox) on a small modelled flash, so a full box and its pruning take seconds.
"""

import pytest

from firmware.journal import Journal
from host import db as dbmod
from host.cli import main as cli_main
from host.serial_client import DeviceClient
from host.sync import sync_device
from tests.host.test_sync import LinkBox

TOTAL_RECORDS = 2000
CAPACITY = 160 * 1024  # the modelled filesystem: about 600 game records before pruning starts
RESERVE = 48 * 1024
FLOOR = 8 * 1024
SEGMENT = 2048


class ModelFlash:
    """free() of a filesystem of CAPACITY bytes holding only this journal's files."""

    def __init__(self, box_dir):
        self.dir = box_dir

    def __call__(self):
        return CAPACITY - sum(p.stat().st_size for p in self.dir.iterdir())


def small_box(tmp_path):
    box = LinkBox(tmp_path / "box")
    box.journal.close()
    jdir = tmp_path / "box" / "journal"
    box.journal = Journal(str(jdir), segment_bytes=SEGMENT, reserve=RESERVE, floor=FLOOR,
                          free=ModelFlash(jdir))
    return box


def held(box):
    """The seqs the box holds now."""
    return [r["seq"] for r in box.journal.iter_since(0)]


def db_state(path):
    with dbmod.open_db(path, create=False) as s:
        return {r["seq"] for r in s.records()}, s.gaps()


def covered(seqs, gaps):
    out = set(seqs)
    for _dev, a, b in gaps:
        out.update(range(a, b + 1))
    return out


def sync_into(box, path):
    with dbmod.open_db(path) as store, DeviceClient(box.port, timeout=2.0) as dev:
        return sync_device(dev, store)


def test_two_databases_sync_alternately_and_a_forced_prune_is_a_reported_gap(tmp_path, capsys):
    box = small_box(tmp_path)
    a, b = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    try:
        round_no = 0
        b_gaps = []
        while box.journal.last_seq < TOTAL_RECORDS:
            round_no += 1
            box.fill(games=1, faceoffs=8 + round_no % 13)  # games are played between syncs
            before = held(box)
            # a syncs every round; b every other round, but from round 20 not until the box,
            # needing room, has pruned records (acked by a) that b never got: a forced prune
            b_away = round_no >= 20 and not b_gaps and before[0] <= max(db_state(b)[0]) + 1
            targets = [a] if (round_no % 2 or b_away) else [a, b]
            if round_no % 4 == 0:
                targets.reverse()
            for path in targets:
                res = sync_into(box, path)
                seqs, gaps = db_state(path)
                # every record the box held at the start of this sync is in this database
                assert set(before) <= seqs, (path.name, round_no)
                # every seq up to its cursor is stored or a stored gap: nothing hidden
                assert covered(seqs, gaps) == set(range(1, max(seqs) + 1))
                # a gap is only ever what the box no longer held
                assert all(last < before[0] for _first, last in res.gaps)
                if path == b:
                    b_gaps.extend(res.gaps)
        assert box.journal.last_seq >= TOTAL_RECORDS
        assert box.journal.pruned > 0  # the box did prune on need
        # both end with every record the box still holds
        final = held(box)
        for path in (a, b):
            sync_into(box, path)
            seqs, gaps = db_state(path)
            assert set(final) <= seqs
            assert covered(seqs, gaps) == set(range(1, box.journal.last_seq + 1))
        seqs_a, gaps_a = db_state(a)
        assert gaps_a == [] and seqs_a == set(range(1, box.journal.last_seq + 1))  # a never fell behind
        seqs_b, gaps_b = db_state(b)
        assert b_gaps and [g[1:] for g in gaps_b] == b_gaps  # the forced prune: reported and stored
        assert not seqs_b & covered((), gaps_b)

        # the CLI says so in one line; the games it cut are incomplete, never a mismatch
        c = tmp_path / "c.sqlite3"
        assert cli_main(["sync", "--port", box.port, "--db", str(c), "--timeout", "2"]) == 0
        out = capsys.readouterr().out
        first = final[0]
        assert "missing on box-1: seqs 1-%d (%d records) were pruned on the box" % (first - 1, first - 1) \
            in out and out.count("missing on") == 1
        with dbmod.open_db(c) as s:
            assert s.gaps() == [("box-1", 1, first - 1)]
        with dbmod.open_db(b) as s:
            cut = [g for g in s.games() if g["incomplete"]]
            whole = [g for g in s.games() if not g["incomplete"]]
        assert cut and whole
        assert cli_main(["games", "list", "--db", str(b)]) == 0
        listing = capsys.readouterr().out
        assert "MISMATCH" not in listing
        for g in cut:
            line = [ln for ln in listing.splitlines() if ln.split()[:1] == [str(g["id"])]][0]
            assert "incomplete" in line
            assert cli_main(["replay", str(g["id"]), "--db", str(b)]) == 3
            out = capsys.readouterr().out
            assert "incomplete" in out and "MISMATCH" not in out
            assert cli_main(["games", "show", str(g["id"]), "--db", str(b)]) == 0
            out = capsys.readouterr().out
            assert "the game is incomplete" in out and "None" not in out
        assert cli_main(["replay", str(whole[-1]["id"]), "--db", str(b)]) == 0
    finally:
        box.close()


class FailingCommit:
    """A store whose Nth page commit fails (a full disk, a locked file)."""

    def __init__(self, store, fail_at):
        self.store, self.fail_at, self.calls = store, fail_at, 0

    def __getattr__(self, name):
        return getattr(self.store, name)

    def add_records(self, *args, **kwargs):
        self.calls += 1
        if self.calls == self.fail_at:
            raise dbmod.DatabaseError(self.store.path, "disk I/O error")
        return self.store.add_records(*args, **kwargs)


def test_an_ack_follows_every_committed_page_and_never_a_failed_one(tmp_path):
    box = LinkBox(tmp_path / "box")
    try:
        records = box.fill(games=4, faceoffs=20)
        db = tmp_path / "games.sqlite3"
        acks = []
        real = box.tamper

        def watch(req, reply):
            if req and req.get("op") == "ack":
                acks.append(req["seq"])
            return reply if real is None else real(req, reply)

        box.tamper = watch
        with dbmod.open_db(db) as store, DeviceClient(box.port, timeout=2.0) as dev:
            with pytest.raises(dbmod.DatabaseError, match="disk I/O"):
                sync_device(dev, FailingCommit(store, 4))
        seqs, _ = db_state(db)
        assert len(acks) == 3  # one per committed page
        assert box.journal.acked == acks[-1] == max(seqs)
        # no acknowledged record is missing from the database
        assert set(range(1, box.journal.acked + 1)) <= seqs
        with dbmod.open_db(db) as store, DeviceClient(box.port, timeout=2.0) as dev:
            sync_device(dev, store)
        seqs, _ = db_state(db)
        assert seqs == {r["seq"] for r in records} and box.journal.acked == records[-1]["seq"]
    finally:
        box.close()
