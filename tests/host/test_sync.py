"""`tablemate sync`: the virtual device end to end (sync twice, a cut link), and the bad cases
against the real firmware link + journal run in-process behind a pty (fast and steerable)."""

import io
import os
import pty
import signal
import threading
import time
import tty

import pytest

from firmware import protocol as P
from firmware.journal import Journal
from firmware.link import Link
from firmware.settings import Settings
from host import db as dbmod
from host import virtual_device as simmod
from host.bench_host import SimProcess, add_games_to_image, game_records, new_image
from host.cli import main as cli_main
from host.progress import Progress
from host.replay import replay
from host.serial_client import DeviceClient, LinkError, open_port
from host.sync import sync_device

SIM_RECORDS = int(os.environ.get("TABLEMATE_SYNC_TEST_RECORDS", "90"))


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


def _stored(path, device_id=None):
    with dbmod.open_db(path, create=False) as s:
        return s.records(device_id)


def _same_records(stored, expected):
    got = [(r["seq"], r["kind"], r["t"], r["data"]) for r in stored]
    want = [(r["seq"], r["kind"], r["t"], r["data"]) for r in expected]
    return got == want


# ---------------------------------------------------------------- in-process device


class LinkBox:
    """The firmware's Link, Journal and Settings on CPython, answering on a pty.

    tamper(request, reply_line) may return another reply line (or None: say nothing).
    """

    def __init__(self, tmp_path, device_id="box-1", proto=P.PROTOCOL_VERSION):
        self.journal = Journal(str(tmp_path / "journal"))
        self.settings = Settings(str(tmp_path / "settings.json"))
        self.firmware_version = "test"
        self.board_name = "testbox"
        self.device_id = device_id
        self.proto = proto
        self.requests = []
        self.tamper = None
        self.epochs = []  # every time the host set the clock
        self.link = Link(self)
        master, slave = pty.openpty()
        tty.setraw(slave)
        self.master, self.slave = master, slave
        self.port = os.ttyname(slave)
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    # the ctx the link uses
    def status(self):
        st = {"board": self.board_name, "mode": "menu"}
        if self.device_id:
            st["device_id"] = self.device_id
        return st

    def set_time(self, epoch):
        self.epochs.append(epoch)

    def switch_mode(self, name):
        raise ValueError("no modes here")

    def _answer(self, line):
        try:
            req = P.decode(line)
        except P.FrameError:
            req = None
        self.requests.append(req)
        if req and req.get("op") == "hello" and self.proto != P.PROTOCOL_VERSION:
            return P.encode(P.error_reply(req["id"], P.BAD_VERSION, "device speaks protocol %d" % self.proto,
                                          {"proto": self.proto}))
        reply = self.link.handle_line(line)
        if self.tamper:
            reply = self.tamper(req, reply)
        return reply

    def _serve(self):
        splitter = P.LineSplitter(P.MAX_LINE)
        import select

        while not self._stop:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for item in splitter.feed(data):
                if item is P.TOO_LONG_LINE:
                    continue
                reply = self._answer(item)
                if reply:
                    os.write(self.master, reply)

    def close(self):
        self._stop = True
        self._thread.join()
        os.close(self.master)
        os.close(self.slave)
        self.journal.close()

    def fill(self, games=3, faceoffs=12):
        records = []
        for g in range(games):
            start = self.journal.last_seq + 1
            recs = game_records(100 + g, players=3 + g % 3, faceoffs=faceoffs, start_seq=start,
                                t0=1_700_000_000)
            for r in recs:
                assert self.journal.append(r["kind"], r["data"], r["t"]) == r["seq"]
            records.extend(recs)
        return records


@pytest.fixture
def box(tmp_path):
    b = LinkBox(tmp_path / "box")
    yield b
    b.close()


def _sync(port, db, *extra):
    return cli_main(["sync", "--port", port, "--db", str(db), "--timeout", "1"] + list(extra))


def test_sync_twice_stores_each_record_once_and_acks(box, tmp_path, capsys):
    records = box.fill()
    db = tmp_path / "games.sqlite3"
    assert _sync(box.port, db) == 0
    assert "synced %d new records from box-1" % len(records) in capsys.readouterr().out
    assert _same_records(_stored(db), records)
    assert box.journal.acked == records[-1]["seq"]
    assert len(box.epochs) == 1 and abs(box.epochs[0] - time.time()) < 60  # the sync set the clock
    before = _bytes(db)
    assert _sync(box.port, db) == 0
    assert "nothing new on box-1" in capsys.readouterr().out
    assert _bytes(db) == before  # a sync with nothing new writes nothing
    more = box.fill(games=1)
    assert _sync(box.port, db) == 0
    assert _same_records(_stored(db), records + more)
    with dbmod.open_db(db) as s:
        games = s.games()
        assert len(games) == 4 and all(g["ended"] for g in games)
        for g in games:
            replay(s.game_records(g["id"]))


def test_a_stalled_device_loses_nothing_and_the_next_sync_completes(box, tmp_path):
    records = box.fill(games=4, faceoffs=20)
    db = tmp_path / "games.sqlite3"
    pages = {"n": 0}

    def stall_after_three_pages(req, reply):
        if req and req.get("op") == "records":
            pages["n"] += 1
            if pages["n"] > 3:
                return None  # the line goes dead mid-transfer
        return reply

    box.tamper = stall_after_three_pages
    assert _sync(box.port, db) == 1
    partial = _stored(db)
    assert 0 < len(partial) < len(records)
    assert _same_records(partial, records[: len(partial)])  # a prefix, each page whole
    assert box.journal.acked <= partial[-1]["seq"]  # never acked beyond what is stored
    box.tamper = None
    assert _sync(box.port, db) == 0
    assert _same_records(_stored(db), records)
    assert box.journal.acked == records[-1]["seq"]


def test_an_ack_lost_after_the_commit_is_sent_by_the_next_sync(box, tmp_path):
    records = box.fill(games=1)
    db = tmp_path / "games.sqlite3"

    def drop_acks(req, reply):
        return None if req and req.get("op") == "ack" else reply

    box.tamper = drop_acks
    assert _sync(box.port, db) == 1  # the first page's ack reply never comes
    first_page = _stored(db)
    assert 0 < len(first_page) < len(records) and _same_records(first_page, records[:len(first_page)])
    box.tamper = None
    with DeviceClient(box.port) as dev:
        assert dev.status()["journal"]["acked"] in (0, first_page[-1]["seq"])
    assert _sync(box.port, db) == 0
    assert box.journal.acked == records[-1]["seq"]
    assert len(_stored(db)) == len(records)


def test_a_record_with_a_bad_crc_stops_the_sync_before_its_page_is_stored(box, tmp_path, capsys):
    records = box.fill(games=2)
    db = tmp_path / "games.sqlite3"
    pages = {"n": 0}

    def flip_a_digest_in_page_two(req, reply):
        if req and req.get("op") == "records":
            pages["n"] += 1
            if pages["n"] == 2:
                obj = P.decode(reply, 0)
                obj["records"][1]["data"]["digest"] = "0" * 64  # CRC no longer matches
                return P.encode(obj)
        return reply

    box.tamper = flip_a_digest_in_page_two
    assert _sync(box.port, db) == 1
    assert "wrong CRC" in capsys.readouterr().err
    stored = _stored(db)
    assert _same_records(stored, records[: len(stored)]) and 0 < len(stored) < len(records)
    assert box.journal.acked <= stored[-1]["seq"]
    box.tamper = None
    assert _sync(box.port, db) == 0
    assert _same_records(_stored(db), records)


def test_another_protocol_version_is_refused_and_nothing_is_written(tmp_path, capsys):
    b = LinkBox(tmp_path / "box", proto=2)
    try:
        b.fill(games=1)
        db = tmp_path / "games.sqlite3"
        assert _sync(b.port, db) == 1
        err = capsys.readouterr().err
        assert "protocol 2" in err and "update the host tools" in err
        assert not db.exists()
        assert b.journal.acked == 0
    finally:
        b.close()


def test_a_corrupt_database_is_refused_before_the_device_is_asked(box, tmp_path, capsys):
    box.fill(games=1)
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    before = _bytes(db)
    assert _sync(box.port, db) == 1
    assert "corrupt" in capsys.readouterr().err
    assert _bytes(db) == before
    assert box.requests == []  # the device was not even greeted
    assert box.journal.acked == 0


def test_a_reset_journal_is_reported_not_acked(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    first = LinkBox(tmp_path / "box-a")
    try:
        first.fill(games=2)
        assert _sync(first.port, db) == 0
    finally:
        first.close()
    again = LinkBox(tmp_path / "box-b")  # same id, a journal that starts over at seq 1
    try:
        again.fill(games=1)
        before = _bytes(db)
        assert _sync(again.port, db) == 1
        assert "journal was reset" in capsys.readouterr().err
        assert _bytes(db) == before and again.journal.acked == 0
    finally:
        again.close()


def test_missing_and_busy_ports(box, tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    assert _sync(str(tmp_path / "ttyNONE"), db) == 1
    assert "no such port" in capsys.readouterr().err
    holder = open_port(box.port)
    try:
        assert _sync(box.port, db) == 1
        assert "busy" in capsys.readouterr().err
    finally:
        holder.close()
    assert not db.exists()


def test_without_a_port_and_without_a_board(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("TABLEMATE_PORT", raising=False)
    monkeypatch.setattr("host.port_select.find_boards", lambda: [])
    assert cli_main(["sync", "--db", str(tmp_path / "g.sqlite3")]) == 2
    assert "no Raspberry Pi board found" in capsys.readouterr().err


def test_a_device_without_an_id_is_kept_under_its_board_name(tmp_path, capsys):
    b = LinkBox(tmp_path / "box", device_id=None)
    try:
        records = b.fill(games=1)
        db = tmp_path / "games.sqlite3"
        assert _sync(b.port, db) == 0
        assert "reports no device id" in capsys.readouterr().err
        assert _same_records(_stored(db, "testbox"), records)
    finally:
        b.close()


class _Stream(io.StringIO):
    def __init__(self, tty_):
        io.StringIO.__init__(self)
        self._tty = tty_

    def isatty(self):
        return self._tty


def test_progress_bar_only_on_a_tty_and_gone_when_done():
    quiet = _Stream(False)
    p = Progress(quiet)
    p.count("sync box: records", 5, 10)
    p.wait("waiting")
    p.done()
    assert quiet.getvalue() == ""
    loud = _Stream(True)
    p = Progress(loud)
    p.count("sync box: records", 5, 10)
    p.count("sync box: records", 10, 10)
    p.done()
    text = loud.getvalue()
    assert "sync box: records" in text and "5/10" in text and "10/10" in text and "━" in text
    assert text.endswith("\x1b[2K")  # erased: the command's closing line stands alone


# ---------------------------------------------------------------- the virtual device


def test_virtual_device_sync_twice(tmp_path, capsys):
    image = tmp_path / "sim.img"
    new_image(image)
    records = add_games_to_image(image, SIM_RECORDS)
    db = tmp_path / "games.sqlite3"
    with SimProcess(image) as sim:
        assert _sync(sim.port, db) == 0
        out = capsys.readouterr().out
        assert "synced" in out
        stored = _stored(db)
        _check_device_copy(stored, records)
        assert _sync(sim.port, db) == 0
        assert "nothing new" in capsys.readouterr().out
        assert _stored(db) == stored
        with DeviceClient(sim.port) as dev:
            journal = dev.status()["journal"]
        assert journal["acked"] == journal["last_seq"] == stored[-1]["seq"]
    with dbmod.open_db(db) as s:
        ended = [g for g in s.games() if g["ended"]]
        assert ended
        for g in ended:
            replay(s.game_records(g["id"]))


def _check_device_copy(stored, records):
    """stored = the generated records once each, plus the firmware's own boot records."""
    seqs = [r["seq"] for r in stored]
    assert seqs == sorted(set(seqs))
    generated = {r["seq"] for r in records}
    assert _same_records([r for r in stored if r["seq"] in generated], records)
    assert all(r["kind"] == "boot" for r in stored if r["seq"] not in generated)


def _start_device(image):
    device = simmod.VirtualDevice(simmod.micropython_path(), image)
    device.start()
    device.connect_world()
    deadline = time.monotonic() + 30
    while True:
        try:
            with DeviceClient(device.port, timeout=1.0):
                return device
        except LinkError:
            if time.monotonic() > deadline:
                device.stop()
                raise
            time.sleep(0.2)


class _CutAfter:
    """A store whose Nth page commit is followed by the serial line going dead."""

    def __init__(self, store, relay, pages, hangup):
        self.store, self.relay, self.pages, self.hangup = store, relay, pages, hangup

    def __getattr__(self, name):
        return getattr(self.store, name)

    def add_records(self, *args, **kwargs):
        n = self.store.add_records(*args, **kwargs)
        self.pages -= 1
        if self.pages == 0:
            self.relay.cut(hangup=self.hangup)
        return n


def test_virtual_device_cut_link_mid_sync(tmp_path):
    image = tmp_path / "sim.img"
    new_image(image)
    records = add_games_to_image(image, SIM_RECORDS)
    db = tmp_path / "games.sqlite3"
    device = _start_device(image)
    try:
        for pages, hangup in ((2, False), (3, True)):
            with dbmod.open_db(db) as store:
                before = store.count_records()
                with pytest.raises(LinkError):
                    with DeviceClient(device.port, timeout=1.0) as dev:
                        sync_device(dev, _CutAfter(store, device.relay, pages, hangup))
                after = store.count_records()
                assert after > before  # the committed pages stay
                (device_id,) = [d["device_id"] for d in store.devices()]
                cursor = store.cursor(device_id)
            device.relay.resume()  # a new pty after a hangup: device.port follows it
            with DeviceClient(device.port, timeout=2.0) as dev:
                assert dev.status()["journal"]["acked"] <= cursor
        with dbmod.open_db(db) as store, DeviceClient(device.port, timeout=2.0) as dev:
            res = sync_device(dev, store)
            assert res.added > 0
            stored = store.records()
            again = sync_device(dev, store)
            assert again.added == 0
            journal = dev.status()["journal"]
    finally:
        device.stop()
    _check_device_copy(stored, records)  # nothing lost, nothing twice
    assert journal["acked"] == journal["last_seq"] == stored[-1]["seq"]


BUTTON_SCRIPT = """\
# t_us player down|up: a tie, its tie-breaker won alone, a tie, its tie-breaker won by 50 ms
100000 1 down
100500 2 down
150000 1 up
150000 2 up
1200000 1 down
1250000 1 up
2400000 2 down
2400300 3 down
2450000 2 up
2450000 3 up
3600000 2 down
3650000 3 down
3700000 2 up
3700000 3 up
"""


def test_virtual_device_game_from_buttons_syncs_replays_and_counts(tmp_path, capsys):
    import subprocess
    import sys

    from host.device_files import ROOT
    from host.stats import collect

    image = tmp_path / "sim.img"
    script = tmp_path / "edges.txt"
    script.write_text(BUTTON_SCRIPT)
    argv = [sys.executable, "-m", "host.cli", "sim", "--headless", "--fresh", "--image", str(image),
            "--script", str(script), "--players", "3"]
    res = subprocess.run(argv, cwd=str(ROOT), capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    db = tmp_path / "games.sqlite3"
    with SimProcess(image) as sim:
        assert _sync(sim.port, db) == 0
    with dbmod.open_db(db) as s:
        (game,) = s.games()
        records = s.game_records(game["id"])
        stats = collect(s, [game["id"]])
    assert game["engine"] == "anomia_score" and game["actions"] == 4
    assert [r["data"]["action"] for r in records if r["kind"] == "action"] == [
        ["tie", 0, 1], ["win", 0, -1], ["tie", 1, 2], ["win", 1, 2]]
    capsys.readouterr()
    assert cli_main(["replay", str(game["id"]), "--db", str(db)]) == 0
    assert "every digest matches" in capsys.readouterr().out
    p1, p2, p3 = (stats[n] for n in ("P1", "P2", "P3"))
    assert (p1.won, p1.ties, p1.gaps_us) == (1, 1, [])
    assert (p2.won, p2.ties, p2.gaps_us) == (1, 2, [50000])
    assert (p3.won, p3.ties) == (0, 1)


def test_a_count_of_one_reads_in_the_singular(box, tmp_path, capsys):
    start = game_records(7, players=3, faceoffs=1)[0]  # one record: a game just started
    assert box.journal.append(start["kind"], start["data"], start["t"]) == 1
    assert _sync(box.port, tmp_path / "games.sqlite3") == 0
    out = capsys.readouterr().out
    assert "synced 1 new record from box-1" in out and "; 1 game in" in out, out


def test_ctrl_c_mid_sync_says_what_is_stored_and_the_next_sync_completes(box, tmp_path, capsys):
    import _thread

    records = box.fill(games=3, faceoffs=12)
    db = tmp_path / "games.sqlite3"
    pages = []

    def ctrl_c_on_the_third_page(req, reply):
        if req and req.get("op") == "records":
            pages.append(req)
            if len(pages) == 3:
                _thread.interrupt_main()  # what a Ctrl-C does while the host waits for this page
                return None
        return reply

    box.tamper = ctrl_c_on_the_third_page
    # Python's own Ctrl-C handler, whatever this process inherited: a run started in the
    # background (`make test &`) has SIGINT ignored, and interrupt_main() then does nothing
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert _sync(box.port, db) == 130
    finally:
        signal.signal(signal.SIGINT, old)
    out = capsys.readouterr()
    stored = _stored(db)
    assert len(stored) >= 2 * 3  # the two pages before the cut (the box sends a few records a page)
    last = stored[-1]["seq"]
    assert out.out == "" and out.err.count("\n") == 1 and "Traceback" not in out.err, out.err
    assert out.err.startswith("tablemate: sync interrupted: records up to seq %d from box-1 are stored in %s"
                              " (%d new records by this sync)" % (last, db, len(stored))), out.err
    assert "run `tablemate sync` again" in out.err
    assert _same_records(stored, records[:len(stored)])
    box.tamper = None
    assert _sync(box.port, db) == 0
    assert "synced %d new records" % (len(records) - len(stored)) in capsys.readouterr().out
    assert _same_records(_stored(db), records) and box.journal.acked == records[-1]["seq"]
