"""Link (device op dispatcher) over real Settings and Journal files: ops, typed errors, no state change.

BoxCtx is also what the pty harness (tests/host/fuzz_frames.py) serves under micropython.
"""

import hashlib
import json

from engine.rng import Rng
from firmware import protocol as P
from firmware.journal import Journal
from firmware.link import MAX_DEPTH, Link, too_deep
from firmware.modes import names as mode_names
from firmware.record import canonical_json, record_crc
from firmware.settings import Settings
from tests.shared.compat import IS_MICROPYTHON
from tests.shared.test_journal import tmp_dir


class BoxCtx:
    """What the app hands Link: real Settings and Journal under dirpath, a mode and a clock offset."""

    firmware_version = "0.1.0-test"
    board_name = "testbox"

    def __init__(self, dirpath):
        self.settings = Settings(dirpath + "/settings.json")
        self.journal = Journal(dirpath + "/journal", segment_bytes=1024)
        self.mode = "menu"
        self.options = None
        self.epoch_offset = None
        self.busy = False
        self.broken = False
        self.acted = []  # actions the act op handed over
        self.game = None  # None: no game runs; else the reason to refuse, or "" to accept

    def act(self, action):
        if self.game is None:
            raise P.OpError(P.BUSY, "no game is running (menu)")
        if self.game:
            raise ValueError(self.game)
        self.acted.append(action)
        return {"n": len(self.acted), "over": False}

    def status(self):
        if self.broken:
            raise RuntimeError("sensor fell off")
        return {"mode": self.mode, "clock_set": self.epoch_offset is not None, "players":
                self.settings.get("anomia")["players"]}

    def set_time(self, epoch_s):
        if self.busy:
            raise P.OpError(P.BUSY, "a face-off is running")
        self.epoch_offset = epoch_s - 1000  # as if the ticks clock said 1000 s

    def switch_mode(self, name, options=None):
        if name != "menu" and name not in mode_names():
            raise ValueError("unknown mode %s" % name)
        players = (options or {}).get("players", self.settings.get("anomia")["players"])
        if players > 6:
            raise ValueError("a %d-player game is more than this test box seats" % players)
        self.mode = name
        self.options = options


def box_digest(ctx):
    """SHA-256 of everything a request could change (fed piece by piece: small heaps fragment)."""
    j = ctx.journal
    h = hashlib.sha256()
    h.update(canonical_json([ctx.settings.all(), j.stats(), ctx.mode, ctx.epoch_offset]))
    cursor = 0
    while True:
        page = j.records_since(cursor, 8)
        if not page:
            return h.digest()
        for rec in page:
            h.update(canonical_json(rec))
        cursor = page[-1]["seq"]


def fill(journal, n, pad=0):
    for _ in range(n):
        seq = journal.last_seq + 1
        journal.append("press", {"player": seq % 4, "pad": "x" * pad}, t=seq * 100)


def call(link, op, **args):
    line = link.handle_line(P.request(77, op, args)[:-1])
    reply = P.decode(line, 0)
    assert reply["id"] == 77
    return reply


def records_call(link, **args):
    """A records reply, checked and taken apart piece by piece (no multi-KB buffer on small heaps)."""
    return pieces_call(link, "records", lambda item: P.decode(P.frame_body(item), 0), **args)


def pieces_call(link, op, decode_item, **args):
    """The reply of an op sent in pieces (its list under the op's name), checked and taken apart
    piece by piece; each item through decode_item."""
    parts = link.handle(P.request(78, op, args)[:-1])
    head, tail, suffix = parts[0], parts[-2], parts[-1]
    opener = b',"' + op.encode() + b'":['
    assert head.endswith(opener) and tail == b"]}"
    crc = 0
    for part in parts[:-1]:
        crc = P.crc32(part, crc)
    assert suffix == b" *%08x\n" % crc
    reply = P.decode(P.frame_body(head[:-len(opener)] + b"}"), 0)
    assert reply["id"] == 78 and reply["ok"] is True
    items = parts[1:-2]
    assert items[1::2] == [b","] * (len(items) // 2)
    reply[op] = [decode_item(item) for item in items[0::2]]
    if not IS_MICROPYTHON:
        assert P.decode(b"".join(parts), 0) == reply
    reply["size"] = 0
    for part in parts:
        reply["size"] += len(part)
    return reply


def raw(link, body):
    """Send JSON bytes with a good CRC; returns the decoded reply."""
    return P.decode(link.handle_line(P.frame_body(body)), 0)


def error_of(reply):
    assert reply["ok"] is False, reply
    assert set(reply["error"]) >= {"code", "msg"} and isinstance(reply["error"]["msg"], str)
    return reply["error"]["code"]


def test_hello_reports_versions():
    with tmp_dir() as d:
        link = Link(BoxCtx(d))
        r = call(link, "hello", proto=P.PROTOCOL_VERSION)
        assert r["ok"] is True and r["proto"] == P.PROTOCOL_VERSION
        assert r["firmware"] == "0.1.0-test" and r["board"] == "testbox" and r["max_line"] == P.MAX_LINE
        if IS_MICROPYTHON:
            assert r["impl"] == "micropython" and r["micropython"].startswith("1.")
            assert isinstance(r["mpy"], int) and (r["mpy"] & 0xFF) == 6
        else:
            assert r["impl"] == "cpython" and r["micropython"] is None and r["mpy"] is None
        assert call(link, "hello")["ok"] is True  # proto is optional


def test_hello_with_another_protocol_version_is_refused():
    with tmp_dir() as d:
        r = call(Link(BoxCtx(d)), "hello", proto=P.PROTOCOL_VERSION + 1)
        assert error_of(r) == P.BAD_VERSION and r["error"]["proto"] == P.PROTOCOL_VERSION


def test_status_carries_app_journal_and_link_figures():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        fill(ctx.journal, 3)
        link = Link(ctx)
        link.handle_line(b"garbage")
        r = call(link, "status")
        assert r["status"] == {"mode": "menu", "clock_set": False, "players": 4}
        assert r["journal"]["last_seq"] == 3 and r["journal"]["acked"] == 0
        assert r["link"] == {"rx_ok": 0, "rx_errors": 1}
        assert call(link, "status")["link"]["rx_ok"] == 1


def test_frame_level_errors_reply_with_a_null_id():
    with tmp_dir() as d:
        link = Link(BoxCtx(d))
        cases = [
            (b"garbage", P.BAD_CRC),
            (b"\x00\x01\xff\xfe\x80", P.BAD_CRC),
            (b'{"id":1,"op":"hello"} *00000000', P.BAD_CRC),
            (P.frame_body(b"\xff{}")[:-1], P.BAD_JSON),
            (P.frame_body(b"{not json")[:-1], P.BAD_JSON),
            (P.frame_body(b"[1]")[:-1], P.BAD_FRAME),
            (P.frame_body(b"7")[:-1], P.BAD_FRAME),
        ]
        for line, code in cases:
            r = P.decode(link.handle_line(line), 0)
            assert r["id"] is None and error_of(r) == code, line
        r = P.decode(link.handle_too_long(), 0)
        assert r["id"] is None and error_of(r) == P.TOO_LONG
        assert link.handle_line(b"") is None and link.handle_line(b"\r") is None


def test_bad_ids_and_ops():
    with tmp_dir() as d:
        link = Link(BoxCtx(d))
        for body in (b'{"op":"hello"}', b'{"id":-1,"op":"hello"}', b'{"id":true,"op":"hello"}',
                     b'{"id":1.5,"op":"hello"}', b'{"id":"1","op":"hello"}', b'{"id":null,"op":"hello"}',
                     b'{"id":99999999999999999999999999,"op":"hello"}', b'{"id":[1],"op":"hello"}',
                     b'{"id":1e400,"op":"hello"}'):
            r = raw(link, body)
            assert r["id"] is None and error_of(r) == P.BAD_FRAME, body
        for body in (b'{"id":5}', b'{"id":5,"op":7}', b'{"id":5,"op":null}', b'{"id":5,"op":["hello"]}'):
            r = raw(link, body)
            assert r["id"] == 5 and error_of(r) == P.BAD_FRAME, body
        r = raw(link, b'{"id":6,"op":"format_flash"}')
        assert r["id"] == 6 and error_of(r) == P.UNKNOWN_OP and "format_flash" in r["error"]["msg"]
        r = raw(link, b'{"id":6,"op":"\\u0000\\ud800\xc3\xa9"}')
        assert error_of(r) == P.UNKNOWN_OP and r["error"]["msg"] == "unknown op '???'"


def test_bad_arguments():
    with tmp_dir() as d:
        link = Link(BoxCtx(d))
        huge = 1 << 80
        cases = [
            ("hello", {"proto": "1"}),
            ("hello", {"proto": huge}),
            ("status", {"verbose": True}),
            ("settings_get", {"key": 5}),
            ("settings_get", {"key": ""}),
            ("settings_get", {"key": "no_such_setting"}),
            ("settings_set", {}),
            ("settings_set", {"changes": [1, 2]}),
            ("settings_set", {"changes": {"brightness": "max"}}),
            ("settings_set", {"changes": {"brightness": huge}}),
            ("settings_set", {"changes": {"no_such": 1}}),
            ("records", {"cursor": -1}),
            ("records", {"cursor": 1.5}),
            ("records", {"limit": 0}),
            ("records", {"limit": huge}),
            ("records", {"cursor": None}),
            ("ack", {}),
            ("ack", {"seq": -3}),
            ("ack", {"seq": True}),
            ("ack", {"seq": 1}),  # beyond the last record
            ("time_set", {"epoch": -1}),
            ("time_set", {"epoch": "now"}),
            ("time_set", {"epoch": 1.7e9}),
            ("time_set", {"epoch": huge}),
            ("mode", {"name": 3}),
            ("mode", {"name": "x" * 33}),
            ("mode", {"name": "chess"}),
            ("mode", {}),
        ]
        for op, args in cases:
            assert error_of(call(link, op, **args)) == P.BAD_ARG, (op, args)
        r = call(link, "settings_set", changes={"brightness": 0})
        assert r["error"]["key"] == "brightness"


def test_nested_junk_is_refused_before_the_op_sees_it():
    with tmp_dir() as d:
        link = Link(BoxCtx(d))
        junk = 1
        for i in range(MAX_DEPTH + 1):
            junk = [junk] if i % 2 else {"k": junk}
        assert too_deep(junk, MAX_DEPTH) and not too_deep([[1], {"a": [2]}], MAX_DEPTH)
        r = call(link, "settings_set", changes={"anomia": {"players": 5}})
        assert r["ok"] is True
        for op, args in (("settings_set", {"changes": {"anomia": junk}}), ("mode", {"name": junk}),
                         ("records", {"cursor": junk})):
            assert error_of(call(link, op, **args)) == P.BAD_ARG
        deep = b'{"id":1,"op":"status","x":' + b"[" * 400 + b"]" * 400 + b"}"
        assert error_of(raw(link, deep)) in (P.BAD_ARG, P.BAD_JSON)


def test_bad_frames_change_nothing():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        fill(ctx.journal, 12)
        ctx.journal.ack(4)
        link = Link(ctx)
        before = box_digest(ctx)
        bad = [
            b"garbage", b"\xff" * 50, P.frame_body(b"[1]")[:-1],
            P.request(1, "settings_set", {"changes": {"brightness": 300}})[:-1],
            P.request(1, "settings_set", {"changes": {"brightness": 9, "players": 99}})[:-1],
            P.request(1, "settings_set", {"changes": {"roster": [{"name": "A", "colour": [1, 2]}]}})[:-1],
            P.request(1, "settings_set", {"changes": {"sound": False, "bogus": 1}})[:-1],
            P.request(1, "ack", {"seq": 13})[:-1],
            P.request(1, "ack", {"seq": -1})[:-1],
            P.request(1, "mode", {"name": "no_such_mode"})[:-1],
            P.request(1, "mode", {"name": "nope"})[:-1],
            P.request(1, "time_set", {"epoch": "soon"})[:-1],
            P.request(1, "records", {"cursor": 0, "limit": 5, "extra": 1})[:-1],
            P.request(1, "settings_set", {"changes": {"brightness": 9}})[:-2] + b"0",  # bad crc
        ]
        for line in bad:
            assert P.decode(link.handle_line(line), 0)["ok"] is False
        rng = Rng(3)
        for _ in range(200):
            line = bytes(rng.below(256) for _ in range(rng.below(80)))
            reply = link.handle_line(line)
            assert reply is None or P.decode(reply, 0)["ok"] is False
        assert box_digest(ctx) == before
        assert link.rx_ok == 0


def test_settings_get_and_set():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        link = Link(ctx)
        every = call(link, "settings_get")["settings"]
        assert every == ctx.settings.all() and every["brightness"] == 64
        assert call(link, "settings_get", key="anomia") == {
            "id": 77, "ok": True, "key": "anomia",
            "value": {"players": 4, "tie_window_us": 1000, "lockout_ms": 800}}
        assert error_of(call(link, "settings_get", key="lockout_ms")) == P.BAD_ARG  # a mode's: under its name
        r = call(link, "settings_set", changes={"brightness": 9, "sound": False})
        assert r["ok"] is True and r["settings"]["brightness"] == 9 and r["settings"]["sound"] is False
        assert Settings(d + "/settings.json").get("brightness") == 9  # written to the file


def test_records_pages_through_the_journal_with_crcs():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        fill(ctx.journal, 30)
        link = Link(ctx)
        seen = []
        cursor = 0
        pages = 0
        while True:
            r = records_call(link, cursor=cursor, limit=7)
            pages += 1
            for rec in r["records"]:
                assert rec["crc"] == "%08x" % record_crc(rec["seq"], rec["kind"], rec["data"], rec["t"])
                assert rec["t"] == rec["seq"] * 100 and rec["kind"] == "press"
                seen.append(rec["seq"])
            assert r["last_seq"] == 30 and r["acked"] == 0
            if not r["more"]:
                break
            assert r["next"] == seen[-1]
            cursor = r["next"]
        assert seen == list(range(1, 31)) and pages == 5
        r = records_call(link, cursor=30)
        assert r["records"] == [] and r["more"] is False and r["next"] == 30
        assert len(records_call(link)["records"]) == 30  # default cursor 0, limit 50


def test_records_page_is_cut_to_fit_a_reply_line():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        fill(ctx.journal, 20, pad=600)
        link = Link(ctx)
        parts = link.handle(P.request(1, "records", {"cursor": 0, "limit": 20})[:-1])
        assert max(len(p) for p in parts) < 700  # sent record by record: no big buffer on the device
        r = records_call(link, cursor=0, limit=20)
        assert r["size"] <= P.MAX_REPLY_LINE
        assert 1 <= len(r["records"]) < 20 and r["more"] is True
        assert r["next"] == r["records"][-1]["seq"]


def test_ack_moves_the_mark_and_never_back():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        fill(ctx.journal, 40, pad=40)
        link = Link(ctx)
        assert call(link, "ack", seq=25)["acked"] == 25
        assert call(link, "ack", seq=10)["acked"] == 25  # an old ack is harmless
        assert error_of(call(link, "ack", seq=41)) == P.BAD_ARG
        assert call(link, "status")["journal"]["acked"] == 25
        r = records_call(link, cursor=25, limit=100)
        assert [rec["seq"] for rec in r["records"]] == list(range(26, 41))
        # an ack deletes nothing: a second host database that is behind still gets every record
        assert records_call(link, cursor=0, limit=100)["records"][0]["seq"] == 1
        assert call(link, "ack", seq=40)["acked"] == 40


def test_time_set_and_mode():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        link = Link(ctx)
        assert call(link, "time_set", epoch=1700000000) == {"id": 77, "ok": True, "epoch": 1700000000}
        assert ctx.epoch_offset == 1700000000 - 1000
        assert call(link, "mode", name="anomia")["mode"] == "anomia" and ctx.mode == "anomia"
        assert ctx.options is None
        assert call(link, "mode", name="menu")["ok"] is True and ctx.mode == "menu"
        assert call(link, "mode", name="anomia", options={"players": 5})["ok"] is True
        assert ctx.mode == "anomia" and ctx.options == {"players": 5}
        call(link, "mode", name="menu")
        r = call(link, "mode", name="anomia", options={"players": 7})  # the box refuses them
        assert error_of(r) == P.BAD_ARG and "7-player" in r["error"]["msg"] and ctx.mode == "menu"
        r = call(link, "mode", name="anomia", options=[5])
        assert error_of(r) == P.BAD_ARG and "options" in r["error"]["msg"] and ctx.mode == "menu"
        r = call(link, "mode", name="anomia", players=5)  # options go in "options"
        assert error_of(r) == P.BAD_ARG and ctx.mode == "menu"


def test_app_refusals_and_failures_are_typed_and_survivable():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        link = Link(ctx)
        ctx.busy = True
        assert error_of(call(link, "time_set", epoch=5)) == P.BUSY and ctx.epoch_offset is None
        ctx.broken = True
        r = call(link, "status")
        assert error_of(r) == P.INTERNAL and "RuntimeError" in r["error"]["msg"]
        ctx.broken = False
        assert call(link, "status")["ok"] is True
        link._error = None  # even building the error reply fails: a fixed reply still goes out
        r = P.decode(link.handle_line(b"garbage"))
        assert r["id"] is None and error_of(r) == P.INTERNAL


class _Sink:
    def __init__(self):
        self.data = b""

    def write(self, b):
        self.data += b


def test_events_are_framed_and_go_out_once_serving():
    with tmp_dir() as d:
        link = Link(BoxCtx(d))
        link.notify("press", {"player": 2})  # nowhere to go yet: dropped
        link.tx = _Sink()
        link.notify("press", {"player": 2})
        assert P.decode(link.tx.data) == {"ev": "press", "player": 2}


def _hex_sha(data):
    return "".join("%02x" % b for b in hashlib.sha256(data).digest())


def test_files_and_manifest_ops_list_the_flashed_files_without_data():
    import os

    from firmware import files  # noqa: F401 - loaded before the chdir below (sys.path may be relative)
    from firmware.journal import makedirs

    with tmp_dir() as d:
        ctx = BoxCtx(d + "/data")  # the journal and settings live under data/, like a box's
        link = Link(ctx)
        made = {}
        for i in range(45):
            made["engine/m%02d.mpy" % i] = bytes([i]) * (i * 5)
        made["main.py"] = b"from firmware import app\n"
        made["firmware/deep/x.json"] = b"{}" * 700  # longer than a read chunk
        here = os.getcwd()
        os.chdir(d)
        try:
            for path, data in made.items():
                if "/" in path:
                    makedirs(path.rsplit("/", 1)[0])
                with open(path, "wb") as f:
                    f.write(data)
            # a manifest longer than one reply (a flash's names 64 files: some 6 KB), written
            # piece by piece: a small test heap has no room for it as one string
            want = hashlib.sha256()
            msize = 0
            with open(".manifest.json", "wb") as f:
                for i, p in enumerate(sorted(made)[:30]):
                    piece = ('%s"%s":"%s"' % ("," if i else '{"files":{', p, _hex_sha(made[p]))).encode()
                    f.write(piece)
                    want.update(piece)
                    msize += len(piece)
            made[".manifest.json"] = None
            listed = {}
            pages = 0
            after = None
            while True:
                args = {"after": after} if after else {}
                r = pieces_call(link, "files", json.loads, **args)
                assert r["free"] > 0 and r["block"] > 0 and r["cwd"] == os.getcwd()
                pages += 1
                for path, size, digest in r["files"]:
                    assert path not in listed
                    listed[path] = (size, digest)
                if not r["more"]:
                    break
                after = r["files"][-1][0]
            assert pages > 1  # more files than one reply holds: paged, in path order, none twice
            assert listed.pop(".manifest.json")[0] == msize
            del made[".manifest.json"]
            assert listed == {p: (len(b), _hex_sha(b)) for p, b in made.items()}  # data/ is not listed
            got = hashlib.sha256()
            offset = parts = 0
            while True:
                r = call(link, "manifest", offset=offset)
                assert r.get("size") == msize, r
                if not r["text"]:
                    break
                got.update(r["text"].encode())
                offset += len(r["text"])
                parts += 1
            assert parts > 1 and offset == msize and got.digest() == want.digest()
            assert call(link, "files", after="")["error"]["code"] == P.BAD_ARG
            os.remove(".manifest.json")
            assert call(link, "manifest") == {"id": 77, "ok": True, "text": "", "size": 0}
        finally:
            os.chdir(here)


def test_act_hands_a_well_formed_action_to_the_game_and_types_every_refusal():
    with tmp_dir() as d:
        ctx = BoxCtx(d)
        link = Link(ctx)
        for bad in ("draw", [], [3, 1], ["x" * 33], ["draw"] + [0] * 16, {"a": 1}, None):
            assert error_of(call(link, "act", action=bad)) == P.BAD_ARG
        assert error_of(call(link, "act")) == P.BAD_ARG
        assert error_of(call(link, "act", action=["draw"], extra=1)) == P.BAD_ARG
        assert ctx.acted == []
        assert error_of(call(link, "act", action=["draw"])) == P.BUSY
        ctx.game = "P2 has 3 gems: revealing a role costs 5"
        r = call(link, "act", action=["reveal", 2, 5])
        assert error_of(r) == P.BAD_ARG and r["error"]["msg"] == ctx.game and ctx.acted == []
        ctx.game = ""
        r = call(link, "act", action=["answer", 1, 7])
        assert r["ok"] is True and r["n"] == 1 and ctx.acted == [["answer", 1, 7]]
