"""Serial protocol framing, shared by the firmware and the host tools (MicroPython and CPython).

One frame is one line of bytes:

    <json object> *<crc32 of the JSON bytes, 8 lowercase hex digits>\\n

Requests  {"id": int, "op": str, ...args}
Replies   {"id": same id, "ok": true, ...fields}
          {"id": same id or null, "ok": false, "error": {"code": str, "msg": str}}
Events    {"ev": str, ...fields}  unsolicited, sent by the device; clients skip them

Leading/trailing spaces, tabs and CR around a frame are ignored (so CRLF works);
a blank line is ignored. The device reads request lines of at most MAX_LINE bytes
(newline included); a longer line gets one too_long error and the device resyncs at
the next newline. docs/protocol.md is the full description.
"""

import json

try:
    from binascii import crc32 as _crc32
except ImportError:  # a build without binascii.crc32: same CRC-32, computed in Python
    _crc32 = None

PROTOCOL_VERSION = 1
MAX_LINE = 1024  # longest request line the device accepts, "\n" included
MAX_REPLY_LINE = 4096  # the device keeps its replies under this (a single record may exceed it)
MAX_ID = (1 << 30) - 1  # ids stay small ints on a 32-bit MCU

# Typed error codes
BAD_CRC = "bad_crc"  # missing or wrong " *crc" suffix
TOO_LONG = "too_long"  # line longer than MAX_LINE
BAD_JSON = "bad_json"  # not UTF-8, or not JSON
BAD_FRAME = "bad_frame"  # JSON but not an object, or a missing/bad id or op
UNKNOWN_OP = "unknown_op"
BAD_ARG = "bad_arg"  # missing, unknown or ill-typed argument, or a value the device refuses
BAD_VERSION = "bad_version"  # hello asked for a protocol version the device does not speak
BUSY = "busy"  # the device cannot do this right now
INTERNAL = "internal"  # an op failed unexpectedly; nothing is known to have changed
ERROR_CODES = (BAD_CRC, TOO_LONG, BAD_JSON, BAD_FRAME, UNKNOWN_OP, BAD_ARG, BAD_VERSION, BUSY, INTERNAL)

_SUFFIX_LEN = 10  # b" *" + 8 hex digits
_BLANK = b" \t\r"


class FrameError(ValueError):
    """A line that is not a valid frame; .code is one of ERROR_CODES."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


class OpError(Exception):
    """Raised by an op (or by the app behind it) to answer with a typed error.

    extra: optional dict of JSON-safe fields added to the reply's "error" object.
    """

    def __init__(self, code, msg, extra=None):
        super().__init__(msg)
        self.code = code
        self.msg = msg
        self.extra = extra


_table = None


def _soft_crc32(data, value=0):
    global _table
    if _table is None:
        _table = []
        for n in range(256):
            c = n
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            _table.append(c)
    c = value ^ 0xFFFFFFFF
    for b in data:
        c = _table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data, value=0):
    """CRC-32 (zlib/binascii polynomial) of bytes, as an unsigned int; value continues a running CRC."""
    if _crc32 is None:
        return _soft_crc32(data, value)
    return _crc32(data, value) & 0xFFFFFFFF


def is_id(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_ID


def frame_body(body):
    """Wrap JSON bytes into a frame line."""
    return body + b" *%08x\n" % crc32(body)


def encode(obj):
    """One frame line (bytes) for a JSON-safe dict."""
    return frame_body(json.dumps(obj, separators=(",", ":")).encode())


def encode_parts(obj, key, items):
    """A frame for obj plus key: [items], as a list of byte pieces that together are the line.

    items are JSON texts (bytes) encoded already. Sending the pieces one by one means a big
    reply never needs one big buffer: on a small, fragmented heap that is the difference
    between an answer and a MemoryError.
    """
    head = json.dumps(obj, separators=(",", ":")).encode()
    parts = [head[:-1] + (b',"' if len(head) > 2 else b'"') + key.encode() + b'":[']
    for i in range(len(items)):
        if i:
            parts.append(b",")
        parts.append(items[i])
    parts.append(b"]}")
    crc = 0
    for part in parts:
        crc = crc32(part, crc)
    parts.append(b" *%08x\n" % crc)
    return parts


def request(rid, op, args=None):
    obj = {"id": rid, "op": op}
    if args:
        for k in args:
            obj[k] = args[k]
    return encode(obj)


def ok_reply(rid, fields=None):
    obj = {"id": rid, "ok": True}
    if fields:
        for k in fields:
            obj[k] = fields[k]
    return obj


def error_reply(rid, code, msg, extra=None):
    err = {"code": code, "msg": msg}
    if extra:
        for k in extra:
            err[k] = extra[k]
    return {"id": rid, "ok": False, "error": err}


def event(name, fields=None):
    obj = {"ev": name}
    if fields:
        for k in fields:
            obj[k] = fields[k]
    return encode(obj)


def _is_hex8(field):
    for b in field:
        if not (0x30 <= b <= 0x39 or 0x61 <= b <= 0x66):  # lower case only: any bit flip shows
            return False
    return True


def split(line):
    """Check a line's CRC; returns the JSON bytes, or None for a blank line. Raises FrameError."""
    line = line.strip(_BLANK + b"\n")
    if not line:
        return None
    n = len(line)
    if n < _SUFFIX_LEN + 1 or line[n - 10:n - 8] != b" *" or not _is_hex8(line[n - 8:]):
        raise FrameError(BAD_CRC, "no ' *crc32' suffix")
    body = line[:n - 10]
    if int(line[n - 8:], 16) != crc32(body):
        raise FrameError(BAD_CRC, "crc mismatch")
    return body


def decode(line, max_len=MAX_LINE):
    """Parse one frame line into a dict, or None for a blank line. Raises FrameError."""
    if max_len and len(line) > max_len:
        raise FrameError(TOO_LONG, "frame longer than %d bytes" % max_len)
    body = split(line)
    if body is None:
        return None
    try:
        text = body.decode("utf-8")
    except Exception:  # UnicodeError on both runtimes
        raise FrameError(BAD_JSON, "not UTF-8")
    try:
        obj = json.loads(text)
    except Exception:  # ValueError, or RecursionError/RuntimeError on deep nesting
        raise FrameError(BAD_JSON, "not JSON")
    if not isinstance(obj, dict):
        raise FrameError(BAD_FRAME, "frame is not a JSON object")
    return obj


TOO_LONG_LINE = object()  # what LineSplitter yields in place of an overlong line


class LineSplitter:
    """Cuts a byte stream into lines of at most max_len bytes (newline included).

    An overlong line is dropped as it arrives (never held in memory) and reported once
    as TOO_LONG_LINE when its newline comes: the reader resyncs at the next line.
    The device feeds one byte at a time (push); the host feeds chunks (feed).
    """

    def __init__(self, max_len=MAX_LINE):
        self.max_len = max_len
        self.buf = bytearray(max_len)
        self.n = 0
        self.overflow = False

    def push(self, b):
        """Feed one byte (int). Returns None, a complete line (bytes, no newline) or TOO_LONG_LINE."""
        if b == 0x0A:
            n = self.n
            self.n = 0
            if self.overflow:
                self.overflow = False
                return TOO_LONG_LINE
            return bytes(self.buf[:n])
        if self.overflow:
            return None
        if self.n >= self.max_len - 1:  # no room left for the newline
            self.overflow = True
            return None
        self.buf[self.n] = b
        self.n += 1
        return None

    def feed(self, data):
        """Feed a chunk of bytes; returns the list of completed items (see push)."""
        out = []
        start = 0
        while True:
            i = data.find(b"\n", start)
            end = len(data) if i < 0 else i
            piece = data[start:end]
            if not self.overflow:
                room = self.max_len - 1 - self.n
                if len(piece) > room:
                    self.overflow = True
                else:
                    self.buf[self.n:self.n + len(piece)] = piece
                    self.n += len(piece)
            if i < 0:
                return out
            out.append(self.push(0x0A))
            start = i + 1

    def pending(self):
        """Bytes of the unfinished line so far."""
        return self.n + (1 if self.overflow else 0)
