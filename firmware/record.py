"""Journal record format, shared by the firmware and the host tools (MicroPython and CPython).

One record is one line of bytes:

    <seq> <crc> <len> <payload>\\n

seq      decimal sequence number (>= 1), repeated inside the payload
crc      CRC-32 (binascii.crc32) of the payload, 8 lowercase hex digits
len      decimal byte length of the payload
payload  canonical JSON object {"d": data, "k": kind, "s": seq, "t": t}

The payload is canonical (sorted keys, no spaces, non-ASCII kept as UTF-8, only
the escapes JSON requires) so both runtimes produce the same bytes for the same
record and the host can recompute a CRC from a decoded record (record_crc).
Floats are refused for the same reason: their text differs between runtimes.

A torn line is always detected: a prefix has no final newline, and a line cut
so that it still ends in a newline has a wrong length or a wrong CRC. Because the
CRC covers the payload and the payload repeats seq, a flip in any field is caught.
"""

import binascii
import json

from engine.core import canonical

MAX_PAYLOAD = 2048  # bytes; records are small events, and the journal reads one line at a time
MAX_KIND = 32

class BadRecord(ValueError):
    """A line that is not an intact record; .reason says why."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def canonical_json(value):
    """The one JSON text for value (engine.core.canonical: sorted keys, compact) as UTF-8 bytes."""
    return canonical(value).encode("utf-8")


def _check_fields(seq, kind, data, t):
    if not _is_int(seq) or seq < 1:
        raise ValueError("seq must be an int >= 1, got %r" % (seq,))
    if not isinstance(kind, str) or not (1 <= len(kind) <= MAX_KIND):
        raise ValueError("kind must be a str of 1..%d chars, got %r" % (MAX_KIND, kind))
    if not isinstance(data, dict):
        raise ValueError("data must be a dict, got %r" % (data,))
    if t is not None and not _is_int(t):
        raise ValueError("t must be an int or None, got %r" % (t,))


def record_payload(seq, kind, data, t=None):
    """The payload bytes a record with these fields carries (what the CRC covers)."""
    _check_fields(seq, kind, data, t)
    return canonical_json({"d": data, "k": kind, "s": seq, "t": t})


def payload_crc(payload):
    return binascii.crc32(payload) & 0xFFFFFFFF


def record_crc(seq, kind, data, t=None):
    """CRC-32 of a record's payload: the host checks records received over serial with it."""
    return payload_crc(record_payload(seq, kind, data, t))


def encode_record(seq, kind, data, t=None):
    """One record line (bytes ending in b"\\n"); raises ValueError on bad fields or an oversize record."""
    payload = record_payload(seq, kind, data, t)
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("record payload is %d bytes, limit %d" % (len(payload), MAX_PAYLOAD))
    head = "%d %08x %d " % (seq, payload_crc(payload), len(payload))
    return head.encode() + payload + b"\n"


def _digits(field, name, max_len):
    if not field or len(field) > max_len:
        raise BadRecord("bad %s field" % name)
    for b in field:
        if b < 0x30 or b > 0x39:
            raise BadRecord("bad %s field" % name)
    if len(field) > 1 and field[0] == 0x30:
        raise BadRecord("bad %s field" % name)
    return int(field)


def _hex8(field):
    if len(field) != 8:
        raise BadRecord("bad crc field")
    for b in field:
        if not (0x30 <= b <= 0x39 or 0x61 <= b <= 0x66):
            raise BadRecord("bad crc field")
    return int(field, 16)


def split_line(line):
    """Check framing, length and CRC; returns (seq, payload) without parsing the JSON."""
    if not isinstance(line, (bytes, bytearray)):
        raise BadRecord("record line must be bytes")
    if not line.endswith(b"\n"):
        raise BadRecord("no line end (torn)")
    parts = line[:-1].split(b" ", 3)
    if len(parts) != 4:
        raise BadRecord("missing fields")
    seq = _digits(parts[0], "seq", 12)
    crc = _hex8(parts[1])
    length = _digits(parts[2], "len", 5)
    payload = parts[3]
    if length > MAX_PAYLOAD:
        raise BadRecord("length %d over limit" % length)
    if len(payload) != length:
        raise BadRecord("length mismatch (torn)")
    if payload_crc(payload) != crc:
        raise BadRecord("crc mismatch")
    if seq < 1:
        raise BadRecord("seq must be >= 1")
    return seq, payload


def decode_record(line):
    """Parse one record line into {"seq", "kind", "t", "data"}; raises BadRecord(reason)."""
    seq, payload = split_line(line)
    try:
        obj = json.loads(payload)
    except ValueError:
        raise BadRecord("payload is not JSON")
    if not isinstance(obj, dict) or len(obj) != 4:
        raise BadRecord("payload is not a record object")
    try:
        inner_seq = obj["s"]
        kind = obj["k"]
        t = obj["t"]
        data = obj["d"]
    except KeyError:
        raise BadRecord("payload is missing a field")
    if inner_seq != seq or not _is_int(inner_seq):
        raise BadRecord("seq mismatch")
    if not isinstance(kind, str) or not kind:
        raise BadRecord("bad kind")
    if t is not None and not _is_int(t):
        raise BadRecord("bad t")
    if not isinstance(data, dict):
        raise BadRecord("bad data")
    return {"seq": seq, "kind": kind, "t": t, "data": data}
