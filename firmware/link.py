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
MAX_EPOCH = 4294967295
MAX_NAME = 32
MAX_PATH = 200
MANIFEST_PIECE = 768  # bytes of .manifest.json per manifest reply
MAX_ACTION = 16  # items in an act op's action (engine actions are short lists)
MAX_DEPTH = 16  # deepest argument nesting accepted (records and settings go no deeper)
_PAGE_BUDGET = P.MAX_REPLY_LINE - 128  # room for the reply's own fields and the CRC suffix
_MISSING = object()
_CTRL_C = 0x03
_BURST = 256  # bytes read per wake before giving other tasks a turn
# built at import, while memory is fine: the reply when even an error reply cannot be built
_LAST_RESORT = P.encode(P.error_reply(None, P.INTERNAL, "could not build a reply"))

# The ops: name -> the arguments it accepts (besides id and op). Link.op_<name> answers it.
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
# selftest: its parts, the arguments each takes, the colours an LED is tested in
SELFTEST_ARGS = {"buttons": (), "leds": ("led", "colour"), "display": (), "sound": ("hz",), "end": ()}
SELFTEST_COLOURS = ("red", "green", "blue", "white", "off")
MIN_HZ = 50  # a PWM slice at 125 MHz goes no slower than about 8 Hz; a piezo says little below this
MAX_HZ = 20000


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
        handler = getattr(self, "op_" + op)
        try:
            for key in req:
                if key != "id" and key != "op" and key not in allowed:
                    raise P.OpError(P.BAD_ARG, "%s takes no argument '%s'" % (op, clean(key, 32)))
                if too_deep(req[key], MAX_DEPTH):
                    raise P.OpError(P.BAD_ARG, "'%s' is nested too deeply" % clean(key, 32))
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

    def op_settings_get(self, req):
        key = str_arg(req, "key", MAX_NAME, None)
        settings = self.ctx.settings
        if key is None:
            return {"settings": settings.all()}
        try:
            return {"key": key, "value": settings.get(key)}
        except (KeyError, ValueError):
            raise P.OpError(P.BAD_ARG, "unknown setting '%s'" % clean(key, 32), {"key": clean(key, 32)})

    def op_settings_set(self, req):
        changes = req.get("changes", _MISSING)
        if not isinstance(changes, dict):
            raise P.OpError(P.BAD_ARG, "'changes' must be an object of setting: value")
        settings = self.ctx.settings
        try:
            settings.update(changes)
        except (ValueError, TypeError) as e:
            key = getattr(e, "key", None)
            raise P.OpError(P.BAD_ARG, clean(e, 160), {"key": None if key is None else clean(key, 32)})
        return {"settings": settings.all()}

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

    def op_time_set(self, req):
        epoch = int_arg(req, "epoch", 0, MAX_EPOCH)
        try:
            self.ctx.set_time(epoch)
        except ValueError as e:
            raise P.OpError(P.BAD_ARG, clean(e, 120))
        return {"epoch": epoch}

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

    def op_act(self, req):
        action = req.get("action", _MISSING)
        if (not isinstance(action, list) or not 1 <= len(action) <= MAX_ACTION
                or not isinstance(action[0], str) or not 1 <= len(action[0]) <= MAX_NAME):
            raise P.OpError(P.BAD_ARG, "'action' must be an engine action: a list like [\"draw\"]"
                            " of at most %d items, its first a name" % MAX_ACTION)
        try:
            return self.ctx.act(action)
        except ValueError as e:
            raise P.OpError(P.BAD_ARG, clean(e, 160))

    def op_files(self, req):
        from firmware import files  # loaded only when a flash asks: no heap for it in play

        after = str_arg(req, "after", MAX_PATH, "")
        items, more = files.files_page(after, _PAGE_BUDGET - 200)
        block, free = files.free_room()
        fields = {"more": more, "platform": sys.platform, "cwd": _cwd(), "block": block, "free": free}
        return fields, "files", items

    def op_manifest(self, req):
        from firmware import files

        offset = int_arg(req, "offset", 0, MAX_SEQ, 0)
        # small pieces: the piece is held three times over (read, text, reply) on a heap that
        # may be fragmented, and JSON escapes may double it
        text, size = files.manifest_chunk(offset, MANIFEST_PIECE)
        return {"text": text, "size": size}


    def op_selftest(self, req):
        part = str_arg(req, "part", MAX_NAME)
        takes = SELFTEST_ARGS.get(part)
        if takes is None:
            raise P.OpError(P.BAD_ARG, "'part' must be one of buttons, leds, display, sound, end")
        for key in OPS["selftest"][1:]:
            if key in req and key not in takes:
                raise P.OpError(P.BAD_ARG, "selftest %s takes no argument '%s'" % (part, key))
        args = {}
        if part == "leds":
            args["led"] = int_arg(req, "led", 0, 255, None)
            args["colour"] = str_arg(req, "colour", MAX_NAME)
            if args["colour"] not in SELFTEST_COLOURS:
                raise P.OpError(P.BAD_ARG, "'colour' must be one of %s" % ", ".join(SELFTEST_COLOURS))
        elif part == "sound":
            args["hz"] = int_arg(req, "hz", 0, MAX_HZ)
            if 0 < args["hz"] < MIN_HZ:
                raise P.OpError(P.BAD_ARG, "'hz' must be 0 (silence) or %d..%d" % (MIN_HZ, MAX_HZ))
        try:
            return self.ctx.run_selftest(part, args)
        except ValueError as e:
            raise P.OpError(P.BAD_ARG, clean(e, 120))


def _cwd():
    import os

    return os.getcwd()


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
            burst += 1
            if burst >= _BURST or not poller.poll(0):
                break
            if rx.readinto(one) != 1:
                break
            b = one[0]
