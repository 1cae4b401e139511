"""Device side of the serial protocol: the op dispatcher (Link) and the asyncio serial task (serve).

Link.handle_line(line) turns one request line into one reply line. It never raises:
every bad frame or bad argument becomes a typed error reply, and an op either
completes or changes nothing. serve() feeds it from stdin (USB CDC on the Pico,
the pty on the virtual device) without blocking the other asyncio tasks.

The app hands Link a ctx with: firmware_version, board_name, settings
(firmware.settings.Settings), journal (firmware.journal.Journal), status() -> dict,
set_time(epoch_s), switch_mode(name, options) (ValueError if unknown, unavailable or
refused).
A ctx method may raise protocol.OpError(protocol.BUSY, "...") to refuse for now.
"""

import json
import sys

from firmware import protocol as P
from firmware.record import record_crc

DEFAULT_PAGE = 50
MAX_PAGE = 1000
MAX_SEQ = 2147483647
MAX_NAME = 32
MAX_DEPTH = 16  # deepest argument nesting accepted (records and settings go no deeper)
_PAGE_BUDGET = P.MAX_REPLY_LINE - 128  # room for the reply's own fields and the CRC suffix
_MISSING = object()
_CTRL_C = 0x03
_BURST = 256  # bytes read per wake before giving other tasks a turn
# built at import, while memory is fine: the reply when even an error reply cannot be built
_LAST_RESORT = P.encode(P.error_reply(None, P.INTERNAL, "could not build a reply"))

# The ops: name -> the arguments it accepts (besides id and op). Link.op_<name> answers it,
# or, for the ops a box answers now and then, firmware/link_ops.py's <name>(link, req).
OPS = {
    "hello": ("proto",),
    "status": (),
    "settings_get": ("key",),
    "settings_set": ("changes",),
    "records": ("cursor", "limit"),
    "ack": ("seq",),
    "time_set": ("epoch",),
    "mode": ("name", "options"),
    "act": ("action",),
    "files": ("after",),
    "manifest": ("offset",),
    "selftest": ("part", "led", "colour", "hz"),
}


def clean(text, limit=80):
    """Printable-ASCII copy of text for error messages (requests may carry any code points)."""
    out = []
    for c in str(text)[:limit]:
        out.append(c if " " <= c <= "~" else "?")
    return "".join(out)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def int_arg(req, name, lo, hi, default=_MISSING):
    v = req.get(name, _MISSING)
    if v is _MISSING:
        if default is _MISSING:
            raise P.OpError(P.BAD_ARG, "missing argument '%s'" % name)
        return default
    if not _is_int(v) or v < lo or v > hi:
        raise P.OpError(P.BAD_ARG, "'%s' must be an int in %d..%d" % (name, lo, hi))
    return v


def str_arg(req, name, max_len, default=_MISSING):
    v = req.get(name, _MISSING)
    if v is _MISSING:
        if default is _MISSING:
            raise P.OpError(P.BAD_ARG, "missing argument '%s'" % name)
        return default
    if not isinstance(v, str) or not (1 <= len(v) <= max_len):
        raise P.OpError(P.BAD_ARG, "'%s' must be a string of 1..%d chars" % (name, max_len))
    return v


def too_deep(value, limit):
    """True if value nests lists/dicts more than limit levels (checked without recursion)."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            if depth >= limit:
                return True
            for item in v:
                stack.append((item, depth + 1))
    return False


def wire_record(rec):
    """A journal record as sent: its fields plus the storage CRC (firmware.record.record_crc) in hex."""
    return {
        "seq": rec["seq"],
        "kind": rec["kind"],
        "t": rec["t"],
        "data": rec["data"],
        "crc": "%08x" % record_crc(rec["seq"], rec["kind"], rec["data"], rec["t"]),
    }


def implementation_info():
    """MicroPython (or CPython) version and the .mpy version this runtime loads."""
    impl = sys.implementation
    v = impl.version
    text = "%d.%d.%d" % (v[0], v[1], v[2])
    if len(v) > 3 and v[3]:
        text += "-" + v[3]
    return {
        "impl": impl.name,
        "micropython": text if impl.name == "micropython" else None,
        "mpy": getattr(impl, "_mpy", None),
    }


class Link:
    def __init__(self, ctx):
        self.ctx = ctx
        self.tx = None  # set by serve(): where replies and events go
        self.rx_ok = 0
        self.rx_errors = 0

    # ---- lines in, lines out

    def handle_line(self, line):
        """One request line (bytes, newline optional) -> one reply line (bytes), or None for a blank line."""
        parts = self.handle(line)
        return None if parts is None else b"".join(parts)

    def handle(self, line):
        """Like handle_line, but the reply comes as a list of byte pieces (see protocol.encode_parts)."""
        try:
            return self._handle(line)
        except Exception:  # noqa: BLE001 - e.g. MemoryError while building an error reply
            self.rx_errors += 1
            return [_LAST_RESORT]

    def _handle(self, line):
        try:
            req = P.decode(line)
        except P.FrameError as e:
            return [self._error(None, e.code, e.msg)]
        if req is None:
            return None
        rid = req.get("id", _MISSING)
        if not P.is_id(rid):
            return [self._error(None, P.BAD_FRAME, "'id' must be an int in 0..%d" % P.MAX_ID)]
        op = req.get("op", _MISSING)
        if not isinstance(op, str):
            return [self._error(rid, P.BAD_FRAME, "'op' must be a string")]
        allowed = OPS.get(op)
        if allowed is None:
            return [self._error(rid, P.UNKNOWN_OP, "unknown op '%s'" % clean(op, 32))]
        handler = getattr(self, "op_" + op, None)
        try:
            for key in req:
                if key != "id" and key != "op" and key not in allowed:
                    raise P.OpError(P.BAD_ARG, "%s takes no argument '%s'" % (op, clean(key, 32)))
                if too_deep(req[key], MAX_DEPTH):
                    raise P.OpError(P.BAD_ARG, "'%s' is nested too deeply" % clean(key, 32))
            if handler is None:  # loaded at its first use: the ops a box answers now and then
                from firmware import link_ops

                result = getattr(link_ops, op)(self, req)
            else:
                result = handler(req)
            if isinstance(result, tuple):  # (fields, key, encoded items): a reply sent in pieces
                parts = P.encode_parts(P.ok_reply(rid, result[0]), result[1], result[2])
            else:
                parts = [P.encode(P.ok_reply(rid, result))]
        except P.OpError as e:
            return [self._error(rid, e.code, clean(e.msg, 160), e.extra)]
        except Exception as e:  # noqa: BLE001 - the device must answer, whatever went wrong
            return [self._error(rid, P.INTERNAL, "%s: %s" % (type(e).__name__, clean(e, 120)))]
        self.rx_ok += 1
        return parts

    def handle_too_long(self):
        """The reply to a line that went over protocol.MAX_LINE (its bytes were dropped)."""
        return self._error(None, P.TOO_LONG, "frame longer than %d bytes" % P.MAX_LINE)

    def _error(self, rid, code, msg, extra=None):
        self.rx_errors += 1
        return P.encode(P.error_reply(rid, code, msg, extra))

    def write(self, line):
        if line and self.tx is not None:
            try:
                self.tx.write(line)
            except OSError:
                pass  # host gone: nothing to tell it

    def notify(self, name, fields=None):
        """Send an unsolicited event frame (call from a task, not from an interrupt)."""
        self.write(P.event(name, fields))

    # ---- ops: each takes the request dict, returns the reply's fields or raises OpError

    def op_hello(self, req):
        proto = int_arg(req, "proto", 0, MAX_SEQ, P.PROTOCOL_VERSION)
        if proto != P.PROTOCOL_VERSION:
            raise P.OpError(P.BAD_VERSION, "device speaks protocol %d, not %d" % (P.PROTOCOL_VERSION, proto),
                            {"proto": P.PROTOCOL_VERSION})
        fields = implementation_info()
        fields["proto"] = P.PROTOCOL_VERSION
        fields["firmware"] = self.ctx.firmware_version
        fields["board"] = self.ctx.board_name
        fields["device_id"] = getattr(self.ctx, "device_id", None)
        fields["max_line"] = P.MAX_LINE
        return fields

    def op_status(self, req):
        return {
            "status": self.ctx.status(),
            "journal": self.ctx.journal.stats(),
            "link": {"rx_ok": self.rx_ok, "rx_errors": self.rx_errors},
        }

    def op_records(self, req):
        cursor = int_arg(req, "cursor", 0, MAX_SEQ, 0)
        limit = int_arg(req, "limit", 1, MAX_PAGE, DEFAULT_PAGE)
        journal = self.ctx.journal
        items = []  # each record's JSON, sent as its own piece
        size = 0
        last = cursor
        # One record decoded at a time, stopping as soon as the page is full: a large limit
        # costs no memory beyond the page itself.
        for rec in journal.iter_since(cursor):
            item = json.dumps(wire_record(rec), separators=(",", ":")).encode()
            if items and size + len(item) + 1 > _PAGE_BUDGET:
                break
            items.append(item)
            size += len(item) + 1
            last = rec["seq"]
            if len(items) >= limit:
                break
        fields = {
            "next": last,
            "more": bool(items) and last < journal.last_seq,
            "last_seq": journal.last_seq,
            "acked": journal.acked,
        }
        return fields, "records", items

    def op_ack(self, req):
        seq = int_arg(req, "seq", 0, MAX_SEQ)
        journal = self.ctx.journal
        try:
            journal.ack(seq)
        except ValueError as e:
            raise P.OpError(P.BAD_ARG, clean(e, 120))
        return {"acked": journal.acked}

    def op_mode(self, req):
        name = str_arg(req, "name", MAX_NAME)
        options = req.get("options", None)
        if options is not None and not isinstance(options, dict):
            raise P.OpError(P.BAD_ARG, "'options' must be an object of option: value")
        try:
            self.ctx.switch_mode(name, options)
        except ValueError as e:
            raise P.OpError(P.BAD_ARG, clean(e, 120), {"name": clean(name, 32)})
        return {"mode": name}

async def serve(link, rx=None, tx=None):
    """Answer requests from rx (default sys.stdin.buffer) on tx (default sys.stdout.buffer).

    MicroPython only. Waits for input through asyncio (so other tasks run), then drains
    what is already buffered one byte at a time: on the Pico a read of n > 1 bytes blocks
    until all n arrive, so single bytes are the portable unit. Byte 0x03 (Ctrl-C) raises
    KeyboardInterrupt, so mpremote can always break in to the REPL (the Pico's USB stack
    usually raises it first). Returns at end of input.
    """
    import asyncio
    import select

    if rx is None:
        rx = sys.stdin.buffer
    if tx is None:
        tx = sys.stdout.buffer
    link.tx = tx
    stream = asyncio.StreamReader(rx)
    poller = select.poll()
    poller.register(rx, select.POLLIN)
    splitter = P.LineSplitter(P.MAX_LINE)
    one = bytearray(1)
    while True:
        first = await stream.read(1)
        if not first:
            return
        b = first[0]
        burst = 0
        while True:
            if b == _CTRL_C:
                raise KeyboardInterrupt
            item = splitter.push(b)
            if item is P.TOO_LONG_LINE:
                link.write(link.handle_too_long())
            elif item is not None:
                parts = link.handle(item)
                if parts is not None:
                    for part in parts:
                        link.write(part)
                # this task keeps its variables while it waits for the next byte: let go of
                # the request and its reply (a records page is kilobytes)
                item = parts = part = None
            burst += 1
            if burst >= _BURST or not poller.poll(0):
                break
            if rx.readinto(one) != 1:
                break
            b = one[0]
