"""Frame fuzzer for the serial protocol, usable against any port that speaks it
(the pty harness below, `tablemate sim --headless`, a real box).

    summary = run_fuzz(port_path, n=10000, seed=1)

generate(n, seed) makes n seeded lines, each of which must get exactly one error reply
and change nothing: random garbage and control bytes, binary and invalid UTF-8 with
a good CRC, truncated JSON, JSON that is not an object, bad ids and ops, unknown ops,
bad argument types and values (huge ints, floats, nested junk, unknown keys),
other protocol versions, valid state-changing requests with one flipped bit, and
overlong lines. No line contains 0x03 (Ctrl-C breaks the device to its REPL) or a
blank line (blank lines get no reply).

run_fuzz() sends them in order with a small window in flight and matches replies by
order (the device answers every line in turn), checking the error code and the id.

start_link_harness() runs the smallest device there is: micropython serving
firmware.link over real Settings/Journal files (tests.shared.test_link.BoxCtx) behind
a PtyRelay, plus a heartbeat task whose count shows the serial task never blocks.
"""

import collections
import json
import random
import time
from pathlib import Path

from firmware import protocol as P
from firmware.link import MAX_NAME, MAX_PAGE, MAX_SEQ, OPS
from firmware.link_ops import MAX_EPOCH, MAX_HZ, MAX_PATH
from host import serial_client
from host.pty_relay import PtyRelay
from host.serial_client import open_port

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"

Case = collections.namedtuple("Case", "kind line expect rid")  # expect: set of codes; rid: id to echo

ANY_ERROR = frozenset(P.ERROR_CODES)
_FORBIDDEN = (0x03, 0x0A)
_BLANK = b" \t\r"
# invalid values per real setting (certainly refused by firmware.settings)
_BAD_SETTINGS = {
    "brightness": [0, 256, -5, "x", 1.5, True, None, 10 ** 30, [64]],
    "players": [0, 99, "4", 4.0, False, {"n": 4}],
    "tie_window_us": [-1, 50001, "1000", 10 ** 40],
    "lockout_ms": [-1, 10001, 0.5],
    "sound": [0, 1, "yes", None, [True]],
    "debounce_ms": [0, 101, "25"],
    "mode": ["nope", 3, None, ""],
    "roster": [[], "abc", [{"name": "A", "colour": [1, 2]}] * 3, [{"name": "", "colour": [0, 0, 0]}] * 4],
    "automa_deck": [5, "deck", {"cards": []}],
}


def _body_frame(body):
    assert not any(b in body for b in _FORBIDDEN), body
    return P.frame_body(body)


def _dumps(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def _rand_text(r, max_len=12):
    pool = "abcXYZ09 _-\"\\/\u00e9\u2603\U0001f600\u0000\u001f\u007f\ud800\udfff"
    return "".join(r.choice(pool) for _ in range(r.randint(0, max_len)))


def _junk(r, depth=0):
    """A random JSON value of any type (no NaN/inf: CPython would write them as non-JSON)."""
    pick = r.randrange(11 if depth < 4 else 7)
    if pick == 0:
        return r.choice([0, -1, 1, 2 ** 31, 2 ** 63, -(10 ** r.randint(1, 60)), 10 ** r.randint(1, 80)])
    if pick == 1:
        return r.choice([0.5, -2.25, 1e300, -1e-300, 123456789.0])
    if pick in (2, 3):
        return _rand_text(r)
    if pick == 4:
        return r.choice([True, False])
    if pick == 5:
        return None
    if pick == 6:
        return ""
    if pick in (7, 8):
        return [_junk(r, depth + 1) for _ in range(r.randint(0, 4))]
    return {_rand_text(r, 6): _junk(r, depth + 1) for _ in range(r.randint(0, 4))}


def _not_int(r):
    v = _junk(r)
    while isinstance(v, int) and not isinstance(v, bool):
        v = _junk(r)
    return v


def _not_str(r):
    v = _junk(r)
    while isinstance(v, str):
        v = _junk(r)
    return v


def _not_dict(r):
    v = _junk(r)
    while isinstance(v, dict):
        v = _junk(r)
    return v


def _not_list(r):
    v = _junk(r)
    while isinstance(v, list):
        v = _junk(r)
    return v


def _nested(r):
    depth = r.randint(17, 60)
    v = r.randint(0, 9)
    for i in range(depth):
        v = [v] if i % 2 else {"k": v}
    return v


def _request(r, rid, op, args):
    obj = {"id": rid, "op": op}
    obj.update(args)
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=r.random() < 0.5)
    return text.encode("utf-8", "surrogatepass")  # lone surrogates go out as raw (invalid) UTF-8


def _rid(r):
    return r.randint(0, P.MAX_ID)


# ---- one generator per kind: each returns a Case


def _garbage(r):
    n = r.randint(1, 120)
    data = bytearray(r.randrange(256) for _ in range(n))
    for i, b in enumerate(data):
        if b in _FORBIDDEN:
            data[i] = 0x21
    if not bytes(data).strip(_BLANK):
        data[0] = 0x7E
    return Case("garbage", bytes(data) + b"\n", {P.BAD_CRC}, None)


def _control(r):
    pool = [b for b in list(range(0x20)) + [0x7F] + list(range(0x80, 0x100)) if b not in _FORBIDDEN]
    data = bytes(r.choice(pool) for _ in range(r.randint(1, 40)))
    return Case("control", b"\x00" + data + b"\n", {P.BAD_CRC}, None)


def _binary_crc(r):
    pool = [0x80, 0xC3, 0xFE, 0xED, 0x7B, 0x22, 0x41]
    body = bytes([0xFF]) + bytes(r.choice(pool) for _ in range(r.randint(0, 60)))
    return Case("binary_crc", _body_frame(body + b"}"), {P.BAD_JSON}, None)


def _truncated(r):
    rid = _rid(r)
    body = _request(r, rid, r.choice(list(OPS)), {"x": _junk(r)})
    cut = body[:r.randint(1, len(body) - 1)]
    if not cut.strip(_BLANK):
        cut = b"{"
    return Case("truncated", _body_frame(cut), {P.BAD_JSON}, None)


def _not_object(r):
    texts = [b"[]", b"[1,2,3]", b'"hello"', b"null", b"true", b"0", b"-12", b"1e400",
             b"1" * r.randint(20, 300), b"[" * 200 + b"]" * 200, _dumps([_junk(r)]), _dumps(_rand_text(r))]
    return Case("not_object", _body_frame(r.choice(texts)), {P.BAD_FRAME}, None)


def _bad_id(r):
    bad = r.choice([None, -1, -(2 ** 40), P.MAX_ID + 1, 2 ** 64, 1.0, "7", True, [1], {"id": 1}, 10 ** 70])
    obj = {"op": r.choice(list(OPS))}
    if r.random() < 0.9:
        obj["id"] = bad
    return Case("bad_id", _body_frame(_dumps(obj)), {P.BAD_FRAME}, None)


def _bad_op(r):
    rid = _rid(r)
    obj = {"id": rid}
    if r.random() < 0.8:
        obj["op"] = _not_str(r)
    return Case("bad_op", _body_frame(_dumps(obj)), {P.BAD_FRAME}, rid)


def _unknown_op(r):
    rid = _rid(r)
    op = _rand_text(r, 20)
    while op in OPS:
        op = _rand_text(r, 20)
    return Case("unknown_op", _body_frame(_request(r, rid, op, {})), {P.UNKNOWN_OP}, rid)


def _bad_args(r, op):
    if r.random() < 0.25:
        key = "zz_" + "".join(r.choice("abcdefgh") for _ in range(r.randint(1, 8)))
        return {key: _junk(r)}
    if op == "hello":
        return {"proto": _not_int(r)}
    if op == "status":
        return {r.choice(["verbose", "all", "x"]): _junk(r)}
    if op == "settings_get":
        return {"key": r.choice([_not_str(r), "", "k" * (MAX_NAME + 1), "zz_" + _rand_text(r, 8)])}
    if op == "settings_set":
        pick = r.randrange(4)
        if pick == 0:
            return {"changes": _not_dict(r)}
        if pick == 1:
            return {"changes": {"zz_" + _rand_text(r, 6): _junk(r), "brightness": 10}}
        if pick == 2:
            return {"changes": {"automa_deck": _nested(r)}}
        key = r.choice(list(_BAD_SETTINGS))
        changes = {key: r.choice(_BAD_SETTINGS[key])}
        if key != "sound" and r.random() < 0.5:
            changes["sound"] = False  # a good change next to a bad one: neither may happen
        return {"changes": changes}
    if op == "records":
        name = r.choice(["cursor", "limit"])
        bad = [_not_int(r), -1, -(10 ** 20)]
        bad += [MAX_SEQ + 1, 10 ** 30] if name == "cursor" else [0, MAX_PAGE + 1, 10 ** 30]
        return {name: r.choice(bad)}
    if op == "ack":
        return {"seq": r.choice([_not_int(r), -1, MAX_SEQ + 1, 2 ** 80])}
    if op == "time_set":
        return {"epoch": r.choice([_not_int(r), -1, MAX_EPOCH + 1, 10 ** 25])}
    if op == "mode":
        return {"name": r.choice([_not_str(r), "", "m" * (MAX_NAME + 1), _nested(r)])}
    if op == "act":
        return {"action": r.choice([_not_list(r), [], [3, 1], ["x" * (MAX_NAME + 1)], ["draw"] + [0] * 16])}
    if op == "selftest":
        return r.choice([{"part": r.choice([_not_str(r), "", "lamps", _nested(r)])},
                         {"part": "leds", "colour": r.choice([_not_str(r), "pink", ""])},
                         {"part": "leds", "colour": "red", "led": r.choice([_not_int(r), -1, 256])},
                         {"part": "sound", "hz": r.choice([_not_int(r), -1, 10, MAX_HZ + 1])},
                         {"part": "buttons", "hz": 440}])
    if op == "files":
        return {"after": r.choice([_not_str(r), "", "p" * (MAX_PATH + 1), _nested(r)])}
    if op == "manifest":
        return {"offset": r.choice([_not_int(r), -1, MAX_SEQ + 1, 10 ** 25])}
    raise AssertionError(op)


def _bad_arg(r):
    rid = _rid(r)
    op = r.choice(list(OPS))
    line = _body_frame(_request(r, rid, op, _bad_args(r, op)))
    if len(line) > P.MAX_LINE:
        return Case("too_long", line, {P.TOO_LONG}, None)
    return Case("bad_arg", line, {P.BAD_ARG}, rid)


def _bad_version(r):
    rid = _rid(r)
    proto = r.choice([0, P.PROTOCOL_VERSION + 1, r.randint(2, MAX_SEQ)])
    return Case("bad_version", _body_frame(_request(r, rid, "hello", {"proto": proto})), {P.BAD_VERSION}, rid)


# valid requests that would change the device: only ever sent damaged
_STATEFUL = [
    ("settings_set", {"changes": {"brightness": 7}}),
    ("settings_set", {"changes": {"sound": False, "players": 3}}),
    ("mode", {"name": "anomia"}),
    ("ack", {"seq": 1}),
    ("time_set", {"epoch": 1700000000}),
]


def _flipped(r):
    op, args = r.choice(_STATEFUL)
    line = bytearray(P.request(_rid(r), op, args)[:-1])
    pick = r.randrange(4)
    if pick == 0:
        line = line[:-r.randint(1, 9)]  # crc cut short
    elif pick == 1:
        line = line[:-10]  # no crc at all
    else:
        while True:
            i = r.randrange(len(line))
            flipped = line[i] ^ (1 << r.randrange(8))
            if flipped not in _FORBIDDEN:
                break
        line[i] = flipped
    if not bytes(line).strip(_BLANK):
        line = bytearray(b"{")
    return Case("flipped", bytes(line) + b"\n", {P.BAD_CRC}, None)


def _too_long(r):
    n = r.randint(P.MAX_LINE, 2 * P.MAX_LINE + 500)
    if r.random() < 0.5:
        pad = "p" * n
        line = P.request(_rid(r), "status", {"pad": pad})
    else:
        line = bytes(r.choice(b"{}[]\",:abc019 *\xff\x80") for _ in range(n)) + b"\n"
    return Case("too_long", line, {P.TOO_LONG}, None)


# kind -> weight
KINDS = (
    (_garbage, 12), (_control, 5), (_binary_crc, 8), (_truncated, 10), (_not_object, 8), (_bad_id, 8),
    (_bad_op, 6), (_unknown_op, 8), (_bad_arg, 22), (_bad_version, 3), (_flipped, 8), (_too_long, 2),
)


def generate(n, seed):
    """n Cases, the same for the same seed."""
    r = random.Random(seed)
    makers = [k for k, _ in KINDS]
    weights = [w for _, w in KINDS]
    out = []
    for _ in range(n):
        case = r.choices(makers, weights)[0](r)
        line = case.line
        assert line.endswith(b"\n") and line.count(b"\n") == 1 and b"\x03" not in line, case
        assert line[:-1].strip(_BLANK), case
        out.append(case)
    return out


def run_fuzz(port_path, n=10000, seed=1, window=16, timeout=10.0):
    """Send n fuzzed lines to port_path; returns a summary dict (see the keys below).

    The run passes when summary["unexpected"] == summary["missing"] == 0.
    """
    cases = generate(n, seed)
    ser = open_port(port_path, timeout=0.2)
    ser.reset_input_buffer()
    splitter = P.LineSplitter(64 * 1024)
    pending = collections.deque()
    by_code = collections.Counter()
    by_kind = collections.Counter()
    examples = []
    unexpected = noise = events = replies = sent = sent_bytes = 0
    t0 = last = time.monotonic()
    try:
        while replies < n:
            while sent < n and len(pending) < window:
                case = cases[sent]
                ser.write(case.line)
                sent_bytes += len(case.line)
                pending.append(case)
                sent += 1
            data = ser.read(max(1, ser.in_waiting))
            now = time.monotonic()
            if not data:
                if now - last > timeout:
                    break
                continue
            last = now
            for line in splitter.feed(data):
                try:
                    reply = P.decode(line, 0) if line is not P.TOO_LONG_LINE else None
                except P.FrameError:
                    reply = None
                if reply is None:
                    noise += 1
                    continue
                if "ev" in reply and "id" not in reply:
                    events += 1
                    continue
                if not pending:
                    noise += 1
                    continue
                case = pending.popleft()
                replies += 1
                err = reply.get("error") if reply.get("ok") is False else None
                code = err.get("code") if isinstance(err, dict) else None
                by_code[code or "ok"] += 1
                by_kind[case.kind] += 1
                if code not in case.expect or reply.get("id") != case.rid:
                    unexpected += 1
                    if len(examples) < 10:
                        examples.append({"kind": case.kind, "line": case.line[:120], "reply": reply})
    finally:
        ser.close()
    seconds = time.monotonic() - t0
    return {
        "n": n, "seed": seed, "sent": sent, "replies": replies, "missing": n - replies,
        "unexpected": unexpected, "examples": examples, "noise_lines": noise, "events": events,
        "by_code": dict(by_code), "by_kind": dict(by_kind), "bytes_sent": sent_bytes,
        "seconds": round(seconds, 3), "rate": round(replies / seconds, 1) if seconds else None,
    }


# ---- the minimal device to fuzz

HARNESS = """
import sys
sys.path.insert(0, %(root)r)
import asyncio
from firmware.link import Link, serve
from tests.shared.test_link import BoxCtx

beats = [0]


class HarnessCtx(BoxCtx):
    def status(self):
        d = BoxCtx.status(self)
        d["beats"] = beats[0]
        return d


async def heartbeat():
    while True:
        await asyncio.sleep_ms(5)
        beats[0] += 1


async def main(link):
    asyncio.create_task(heartbeat())
    await serve(link)


ctx = HarnessCtx(%(data)r)
while ctx.journal.last_seq < %(records)d:
    ctx.journal.append("press", {"player": ctx.journal.last_seq %% 4}, t=ctx.journal.last_seq)
try:
    asyncio.run(main(Link(ctx)))
except KeyboardInterrupt:
    pass
"""


# The rig compiles the test module's BoxCtx from source beside the link: at 192k that
# compile ran out of heap once the checkout's path was deep (the script then stopped silently
# and the port answered as a bare REPL). The link's own heap is measured by the soaks.
HARNESS_HEAP = "256k"


def start_link_harness(workdir, records=20, heap=HARNESS_HEAP):
    """Run the harness under micropython behind a PtyRelay; returns the started relay (stop() it)."""
    workdir = Path(workdir)
    data = workdir / "box"
    data.mkdir(parents=True, exist_ok=True)
    script = workdir / "harness.py"
    script.write_text(HARNESS % {"root": str(ROOT), "data": str(data), "records": records})
    relay = PtyRelay(link=str(workdir / "ttyBOX"), stderr_path=str(workdir / "device.log"))
    relay.start([str(MICROPYTHON), "-X", "heapsize=" + heap, "-i", script.name], cwd=str(workdir))
    return relay


def describe(summary):
    """One line for a test's output: how many frames, how fast, which error codes."""
    return "%d frames, %d bytes in %.2f s = %.0f frames/s, by code %s" % (
        summary["replies"], summary["bytes_sent"], summary["seconds"], summary["rate"], summary["by_code"])


def assert_all_typed_errors(summary, n):
    """Every one of n fuzzed frames got the typed error it deserved, and every code the
    generator aims at came up (busy and internal are for the unit tests)."""
    assert summary["missing"] == 0, summary
    assert summary["unexpected"] == 0, summary["examples"]
    assert summary["replies"] == n
    assert set(summary["by_code"]) == set(P.ERROR_CODES) - {P.BUSY, P.INTERNAL}


def wait_ready(port, timeout=30.0):
    """Wait until the device at port answers hello; returns its hello reply."""
    return serial_client.wait_hello(port, timeout)


if __name__ == "__main__":  # python tests/host/fuzz_frames.py PORT [N [SEED]]
    import sys

    argv = sys.argv[1:]
    result = run_fuzz(argv[0], int(argv[1]) if len(argv) > 1 else 10000, int(argv[2]) if len(argv) > 2 else 1)
    print(json.dumps(result, indent=2, default=repr))
    sys.exit(0 if result["unexpected"] == result["missing"] == 0 else 1)
