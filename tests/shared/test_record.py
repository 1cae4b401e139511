"""Journal record lines: round trip, CRC coverage, torn lines, bad input."""

import binascii

from firmware.record import (
    MAX_PAYLOAD,
    BadRecord,
    canonical_json,
    decode_record,
    encode_record,
    payload_crc,
    record_crc,
    record_payload,
)
from tests.shared.compat import raises

SAMPLE_DATA = {"winner": 3, "ties": [1, 4], "note": 'a "quoted" \\ tab\there', "name": "Zo\u00eb", "ok": True,
               "none": None, "nested": {"b": [1, {"c": -7}], "a": ""}}


def test_round_trip():
    line = encode_record(17, "faceoff", SAMPLE_DATA, t=123456789)
    assert isinstance(line, bytes)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert line.startswith(b"17 ")
    rec = decode_record(line)
    assert rec == {"seq": 17, "kind": "faceoff", "t": 123456789, "data": SAMPLE_DATA}


def test_round_trip_without_time_and_empty_data():
    rec = decode_record(encode_record(1, "boot", {}))
    assert rec == {"seq": 1, "kind": "boot", "t": None, "data": {}}


def test_line_fields_match_the_payload():
    line = encode_record(5, "k", {"x": 1}, t=9)
    seq, crc, length, payload = line[:-1].split(b" ", 3)
    assert int(seq) == 5
    assert len(payload) == int(length)
    assert int(crc, 16) == binascii.crc32(payload) & 0xFFFFFFFF
    assert payload == b'{"d":{"x":1},"k":"k","s":5,"t":9}'


def test_record_crc_lets_the_host_check_a_decoded_record():
    line = encode_record(42, "score", SAMPLE_DATA, t=7)
    crc = int(line.split(b" ")[1], 16)
    rec = decode_record(line)
    assert record_crc(rec["seq"], rec["kind"], rec["data"], rec["t"]) == crc
    assert payload_crc(record_payload(42, "score", SAMPLE_DATA, 7)) == crc
    # any change in content changes the CRC
    assert record_crc(42, "score", SAMPLE_DATA, 8) != crc
    assert record_crc(43, "score", SAMPLE_DATA, 7) != crc


def test_canonical_json_is_key_order_independent():
    a = {"b": 1, "a": [True, None, "x"], "c": {"z": 0, "y": 1}}
    b = {"c": {"y": 1, "z": 0}, "a": [True, None, "x"], "b": 1}
    assert canonical_json(a) == canonical_json(b) == b'{"a":[true,null,"x"],"b":1,"c":{"y":1,"z":0}}'
    assert canonical_json("\x01\n\u00e9") == b'"\\u0001\\n\xc3\xa9"'


def test_every_single_bit_flip_is_caught():
    line = encode_record(300, "faceoff", {"winner": 2, "ms": 81234, "who": "P3"}, t=55)
    body = bytearray(line[:-1])  # the newline itself is checked by the torn-line tests
    flips = 0
    for i in range(len(body)):
        for bit in range(8):
            body[i] ^= 1 << bit
            bad = bytes(body) + b"\n"
            body[i] ^= 1 << bit
            try:
                rec = decode_record(bad)
            except BadRecord:
                flips += 1
                continue
            raise AssertionError("flip of bit %d in byte %d accepted: %r" % (bit, i, rec))
    assert flips == len(body) * 8


def test_truncated_lines_are_rejected():
    line = encode_record(9, "tie", {"players": [1, 2, 3]}, t=1)
    for cut in range(len(line)):
        e = raises(BadRecord, decode_record, line[:cut])
        assert e.reason
    # a cut that still ends in a newline (a newline byte inside the torn part)
    payload_end = len(line) - 1
    e = raises(BadRecord, decode_record, line[:payload_end - 3] + b"\n")
    assert "torn" in e.reason or "crc" in e.reason


def test_garbage_lines_are_rejected():
    for bad in (b"", b"\n", b"\xff\xff\xff\xff\n", b"1 2 3 4\n", b"01 00000000 2 {}\n",
                b"-1 00000000 2 {}\n", b"1 0000000G 2 {}\n", b"1 00000000 99999999 {}\n",
                b"\x00" * 40 + b"\n"):
        raises(BadRecord, decode_record, bad)


def test_well_framed_but_wrong_payloads_are_rejected():
    def framed(seq, payload):
        return b"%d %08x %d " % (seq, payload_crc(payload), len(payload)) + payload + b"\n"

    assert decode_record(framed(3, b'{"d":{},"k":"x","s":3,"t":null}'))["seq"] == 3
    for seq, payload in ((4, b'{"d":{},"k":"x","s":3,"t":null}'),  # seq mismatch
                         (3, b'{"d":[],"k":"x","s":3,"t":null}'),  # data not a dict
                         (3, b'{"d":{},"k":"","s":3,"t":null}'),  # empty kind
                         (3, b'{"d":{},"k":"x","s":3,"t":"now"}'),  # bad t
                         (3, b'{"d":{},"k":"x","s":3}'),  # missing field
                         (3, b'[1,2,3,4]'),
                         (3, b'{"d":{},"k":"x","s":3,"t":nul')):
        raises(BadRecord, decode_record, framed(seq, payload))


def test_bad_input_types_are_rejected():
    raises(BadRecord, decode_record, "1 00000000 2 {}\n")  # str, not bytes
    raises(BadRecord, decode_record, None)
    raises(ValueError, encode_record, 0, "k", {})
    raises(ValueError, encode_record, True, "k", {})
    raises(ValueError, encode_record, "1", "k", {})
    raises(ValueError, encode_record, 1, "", {})
    raises(ValueError, encode_record, 1, 5, {})
    raises(ValueError, encode_record, 1, "k" * 33, {})
    raises(ValueError, encode_record, 1, "k", [1, 2])
    raises(ValueError, encode_record, 1, "k", {"x": 1.5})  # floats differ between runtimes
    raises(ValueError, encode_record, 1, "k", {1: 2})
    raises(ValueError, encode_record, 1, "k", {"x": b"bytes"})
    raises(ValueError, encode_record, 1, "k", {}, t=1.0)
    raises(ValueError, encode_record, 1, "k", {}, t=False)


def test_oversize_record_is_refused():
    raises(ValueError, encode_record, 1, "k", {"x": "y" * MAX_PAYLOAD})
