"""Serial framing: round trips, CRC, typed frame errors, line splitting with resync."""

from engine.rng import Rng
from firmware import protocol as P
from tests.shared.compat import raises


def frame_error(line, max_len=P.MAX_LINE):
    return raises(P.FrameError, P.decode, line, max_len).code


def test_crc32_matches_the_zlib_polynomial_with_or_without_binascii():
    assert P.crc32(b"hello") == 0x3610A686
    assert P.crc32(b"") == 0
    for data in (b"", b"a", b"123456789", bytes(range(256))):
        assert P._soft_crc32(data) == P.crc32(data)
    assert P.crc32(b"123456789") == 0xCBF43926  # the standard CRC-32 check value


def test_crc32_continues_a_running_value():
    data = b"123456789" * 7
    assert P.crc32(data[20:], P.crc32(data[:20])) == P.crc32(data)
    assert P._soft_crc32(data[5:], P._soft_crc32(data[:5])) == P.crc32(data)


def test_a_frame_in_pieces_is_the_same_frame():
    items = [P.encode({"n": i})[:-11] for i in range(3)]  # JSON texts: frames minus " *crc\n"
    parts = P.encode_parts({"id": 4, "ok": True}, "records", items)
    assert len(parts) > 4 and max(len(p) for p in parts) < 30
    assert P.decode(b"".join(parts)) == {"id": 4, "ok": True, "records": [{"n": 0}, {"n": 1}, {"n": 2}]}
    assert P.decode(b"".join(P.encode_parts({}, "k", []))) == {"k": []}


def test_frame_layout_is_json_space_star_crc_newline():
    line = P.encode({"op": "hello"})
    assert line == b'{"op":"hello"} *%08x\n' % P.crc32(b'{"op":"hello"}')
    assert P.frame_body(b"[]") == b"[] *%08x\n" % P.crc32(b"[]")


def test_round_trips():
    samples = [
        {"id": 0, "op": "hello"},
        {"id": P.MAX_ID, "op": "records", "cursor": 5, "limit": 10},
        {"id": 7, "ok": True, "text": "caf\u00e9 \u2603 \"quoted\" \\ \n tab\t",
         "nested": {"a": [1, [2, None]]}},
        {"ev": "press", "player": 3, "t": -12},
        {},
    ]
    for obj in samples:
        line = P.encode(obj)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        assert P.decode(line) == obj
        assert P.decode(line[:-1]) == obj  # without its newline
    assert P.decode(P.request(3, "ack", {"seq": 9})) == {"id": 3, "op": "ack", "seq": 9}
    assert P.decode(P.event("boot", {"n": 1})) == {"ev": "boot", "n": 1}
    assert P.ok_reply(4, {"x": 1}) == {"id": 4, "ok": True, "x": 1}
    err = P.error_reply(None, P.BAD_ARG, "no", {"key": "k"})
    assert err == {"id": None, "ok": False, "error": {"code": "bad_arg", "msg": "no", "key": "k"}}


def test_crc_detects_every_single_bit_flip():
    line = P.encode({"id": 12, "op": "settings_set", "changes": {"brightness": 9}})[:-1]
    for i in range(len(line)):
        for bit in range(8):
            bad = bytearray(line)
            bad[i] ^= 1 << bit
            if bad[i] == 0x0A:
                continue  # a newline would split the line: covered by the splitter tests
            assert frame_error(bytes(bad)) == P.BAD_CRC, (i, bit)


def test_missing_or_malformed_crc_suffix_is_bad_crc():
    body = b'{"id":1,"op":"hello"}'
    crc = b"%08x" % P.crc32(body)
    assert frame_error(body) == P.BAD_CRC
    assert frame_error(body + b" " + crc) == P.BAD_CRC
    assert frame_error(body + b"*" + crc) == P.BAD_CRC
    assert frame_error(body + b" *" + crc[:7]) == P.BAD_CRC
    assert frame_error(body + b" *" + crc[:7] + b"g") == P.BAD_CRC
    assert frame_error(body + b" *" + crc + b"0") == P.BAD_CRC
    assert frame_error(b"*") == P.BAD_CRC
    assert frame_error(b"\xff\xfe\x00garbage") == P.BAD_CRC
    assert crc != crc.upper() and frame_error(body + b" *" + crc.upper()) == P.BAD_CRC  # lower case only
    # tolerated: CRLF, a stray CR or spaces around the frame
    assert P.decode(body + b" *" + crc + b"\r\n")["op"] == "hello"
    assert P.decode(b"\r  " + body + b" *" + crc + b" \r")["op"] == "hello"


def test_blank_lines_are_not_frames():
    for line in (b"", b"\n", b"\r\n", b"  \t\r"):
        assert P.decode(line) is None


def test_good_crc_around_bad_content():
    cases = [
        (b"\xff\xfe{}", P.BAD_JSON),  # not UTF-8
        (b'{"id":1,"op":"\xc3("}', P.BAD_JSON),
        (b"{id:1}", P.BAD_JSON),
        (b'{"id":1', P.BAD_JSON),
        (b"[1,2]", P.BAD_FRAME),
        (b'"text"', P.BAD_FRAME),
        (b"123456789012345678901234567890", P.BAD_FRAME),
        (b"null", P.BAD_FRAME),
    ]
    for body, code in cases:
        assert frame_error(P.frame_body(body)) == code, body[:20]
    # nesting: a typed error at any depth (CPython's parser gives up at ~1000 levels, MicroPython's not)
    for depth in (10, 500, 1500):
        deep = P.frame_body(b"[" * depth + b"]" * depth)
        assert frame_error(deep, 0) in (P.BAD_JSON, P.BAD_FRAME)


def test_decode_refuses_overlong_lines():
    big = P.encode({"id": 1, "op": "x", "pad": "a" * P.MAX_LINE})
    assert frame_error(big) == P.TOO_LONG
    assert P.decode(big, max_len=0)["pad"] == "a" * P.MAX_LINE  # the host reads long replies


def test_is_id():
    for good in (0, 1, P.MAX_ID):
        assert P.is_id(good)
    for bad in (-1, P.MAX_ID + 1, 1 << 70, True, False, 1.0, "1", None, [1]):
        assert not P.is_id(bad), bad


def test_error_codes_are_distinct_strings():
    assert len(P.ERROR_CODES) == len(set(P.ERROR_CODES)) == 9
    for code in P.ERROR_CODES:
        assert isinstance(code, str) and code == code.lower()


def _push_all(splitter, data):
    out = []
    for b in data:
        item = splitter.push(b)
        if item is not None:
            out.append(item)
    return out


def test_splitter_cuts_lines_and_resyncs_after_an_overlong_one():
    s = P.LineSplitter(16)
    fits = b"x" * 15  # 15 bytes + newline = 16 = max_len
    over = b"y" * 16
    data = b"ab\n" + fits + b"\n" + over + b"\n\ncd\n" + b"z" * 100 + b"\nef\n"
    want = [b"ab", fits, P.TOO_LONG_LINE, b"", b"cd", P.TOO_LONG_LINE, b"ef"]
    assert _push_all(s, data) == want
    assert s.pending() == 0
    # an overlong line is reported once, when its newline arrives
    assert _push_all(s, b"q" * 40) == [] and s.pending() > 0
    assert _push_all(s, b"\n") == [P.TOO_LONG_LINE]


def test_splitter_feed_matches_push_for_any_chunking():
    rng = Rng(5)
    pieces = [b"ab\n", b"x" * 15, b"\n", b"y" * 30, b"\n", b"\n", b"cd", b"\n", b"tail"]
    data = b"".join(pieces)
    want = _push_all(P.LineSplitter(16), data)
    for _ in range(40):
        s = P.LineSplitter(16)
        got = []
        i = 0
        while i < len(data):
            n = 1 + rng.below(9)
            got.extend(s.feed(data[i:i + n]))
            i += n
        assert got == want
        assert s.pending() == 4  # b"tail" waits for its newline


def test_random_lines_never_escape_as_anything_but_frame_errors():
    rng = Rng(11)
    alphabet = b'{}[]":,0123456789 *abcdef\\\xff\xc3\x80nulltrue-'
    for _ in range(300):
        n = rng.below(60)
        line = bytes(alphabet[rng.below(len(alphabet))] for _ in range(n))
        if rng.below(2):
            line = P.frame_body(line)[:-1]
        try:
            obj = P.decode(line)
        except P.FrameError as e:
            assert e.code in P.ERROR_CODES
        else:
            assert obj is None or isinstance(obj, dict)
