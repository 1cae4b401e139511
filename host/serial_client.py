"""Host side of the serial protocol: a pyserial client for a tablemate box or the virtual device.

    with DeviceClient("/dev/ttyACM0") as dev:   # opens, flushes stale input, says hello
        print(dev.info["firmware"], dev.status())

One request is in flight at a time. Replies are matched by id; event frames are kept
in .events; lines that are not frames (a REPL banner, debug prints) are skipped and
counted. An error reply with a null id is taken as the answer to the request just
sent (input is drained before each request, so it cannot be a stale one).
Every failure is a LinkError subclass whose message is one clear line.

Timeouts are for a real board. $TABLEMATE_TIMEOUT_SCALE multiplies them all: the emulated
Pico (`tablemate sim --board pico`) runs at a fraction of a Pico's speed, and a loaded
machine slows it further (10 is a good value there).
"""

import collections
import errno
import os
import time

import serial

from firmware import protocol as P
from firmware.record import record_crc

BAUD = 115200  # ignored by USB CDC and ptys, but pyserial wants one
MAX_REPLY = 64 * 1024  # longest line the client accepts from the device
TIMEOUT_SCALE_ENV = "TABLEMATE_TIMEOUT_SCALE"


def timeout_scale():
    """The factor from $TABLEMATE_TIMEOUT_SCALE (1 when unset; a bad value is an error)."""
    text = os.environ.get(TIMEOUT_SCALE_ENV, "")
    if not text:
        return 1.0
    try:
        scale = float(text)
    except ValueError:
        scale = 0.0
    if not 1 <= scale <= 1000:
        raise LinkError("%s=%r must be a number from 1 to 1000" % (TIMEOUT_SCALE_ENV, text))
    return scale


class LinkError(Exception):
    """Any failure talking to the device."""


class PortError(LinkError):
    """The port cannot be opened or went away."""


class NotADevice(LinkError):
    """Something is on the port, but it does not answer like a tablemate box."""


class ProtocolMismatch(LinkError):
    """The device speaks another protocol version."""


class DeviceTimeout(LinkError):
    """No reply in time."""


class CorruptRecord(LinkError):
    """A record's CRC does not match its fields."""

    def __init__(self, seq):
        LinkError.__init__(self, "record %s arrived with a wrong CRC" % (seq,))
        self.seq = seq


class DeviceError(LinkError):
    """The device answered with a typed error."""

    def __init__(self, code, msg, error=None):
        LinkError.__init__(self, "device refused: %s (%s)" % (msg, code))
        self.code = code
        self.msg = msg
        self.error = error or {"code": code, "msg": msg}


def open_port(port, timeout=0.1):
    """pyserial Serial for port, opened exclusively; PortError with a clear reason if it cannot be."""
    try:
        return serial.Serial(port, BAUD, timeout=timeout, write_timeout=5, exclusive=True)
    except serial.SerialException as e:
        code = getattr(e, "errno", None)
        if code == errno.ENOENT:
            raise PortError("no such port: %s" % port)
        if code in (errno.EACCES, errno.EPERM):
            raise PortError("permission denied on %s (on Linux: join the dialout group)" % port)
        if code in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY):
            raise PortError("%s is busy: another program has it open" % port)
        if "configure" in str(e) or code == errno.ENOTTY:
            raise PortError("%s is not a serial port" % port)
        raise PortError("cannot open %s: %s" % (port, e))


# MicroPython's native-code architectures, as numbered in an .mpy header (py/persistentcode.h)
MPY_ARCHS = ("none", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
             "xtensa", "xtensawin", "rv32imc", "rv64imc")


def mpy_info(mpy):
    """Decode hello's "mpy" (sys.implementation._mpy) -> (version, sub-version, arch name), or None."""
    if not isinstance(mpy, int) or isinstance(mpy, bool):
        return None
    arch = mpy >> 10
    return mpy & 0xFF, (mpy >> 8) & 3, MPY_ARCHS[arch] if arch < len(MPY_ARCHS) else "arch%d" % arch


def verify_record(rec):
    """True if the record's "crc" matches its fields (firmware.record.record_crc)."""
    try:
        want = "%08x" % record_crc(rec["seq"], rec["kind"], rec["data"], rec["t"])
    except (KeyError, TypeError, ValueError):
        return False
    return rec.get("crc") == want


class DeviceClient:
    def __init__(self, port, timeout=2.0, hello=True):
        self.port = port
        self.scale = timeout_scale()
        self.timeout = timeout * self.scale
        self.do_hello = hello
        self.ser = None
        self.info = None  # the hello reply
        self.events = collections.deque(maxlen=256)
        self.noise_lines = 0  # lines that were not frames
        self.corrupt_lines = 0  # frames with a bad CRC
        self.noise_sample = b""
        self.echoes = 0  # requests that came back as they were sent (a REPL echoes its input)
        self._splitter = P.LineSplitter(MAX_REPLY)
        self._lines = collections.deque()
        self._next_id = 1
        self._bad_before = 0

    # ---- connection

    def open(self):
        self.ser = open_port(self.port)
        self.ser.reset_input_buffer()
        if self.do_hello:
            self.info = self.hello()
        return self

    def close(self):
        if self.ser is not None:
            self.ser.close()
            self.ser = None

    def __enter__(self):
        try:
            return self.open()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc):
        self.close()
        return False

    # ---- frames

    def send_line(self, line):
        try:
            self.ser.write(line)
            self.ser.flush()
        except (serial.SerialException, OSError) as e:
            raise PortError("lost %s: %s" % (self.port, e))

    def _fill(self, wait):
        """Read what is there (waiting up to wait seconds for the first byte) into self._lines."""
        try:
            self.ser.timeout = max(wait, 0)
            data = self.ser.read(1)
            if data:
                waiting = self.ser.in_waiting
                if waiting:
                    data += self.ser.read(waiting)
        except (serial.SerialException, OSError) as e:
            raise PortError("lost %s: %s" % (self.port, e))
        if data:
            self._lines.extend(self._splitter.feed(data))

    def _next_frame(self, deadline):
        """The next frame dict from the device, or None at the deadline. Skips what is not a frame."""
        while True:
            while self._lines:
                line = self._lines.popleft()
                if line is P.TOO_LONG_LINE:
                    self._noise(b"<overlong line>")
                    continue
                try:
                    obj = P.decode(line, 0)
                except P.FrameError as e:
                    if e.code == P.BAD_CRC and line.rstrip()[-10:-8] == b" *":
                        self.corrupt_lines += 1
                    else:
                        self._noise(line)
                    continue
                if obj is None:
                    continue
                if "ev" in obj and "id" not in obj:
                    self.events.append(obj)
                    continue
                if "op" in obj:  # our own request echoed back: a REPL, not the firmware, is listening
                    self.echoes += 1
                    continue
                return obj
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._fill(min(left, 0.5))

    def _noise(self, line):
        self.noise_lines += 1
        if not self.noise_sample:
            self.noise_sample = bytes(line[:40])

    def drain(self):
        """Consume whatever the device already sent (stale replies, events)."""
        self._fill(0)
        deadline = time.monotonic()
        while self._next_frame(deadline) is not None:
            pass

    def wait_events(self, timeout):
        """Wait up to timeout seconds for event frames (a person pressing buttons needs no
        request); returns how many are in .events. Stray replies are dropped."""
        deadline = time.monotonic() + timeout
        while not self.events:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self._fill(min(left, 0.5))
            while self._next_frame(time.monotonic()) is not None:
                pass
        return len(self.events)

    def request(self, op, timeout=None, **args):
        """Send one request; returns the reply dict. Raises DeviceError on an error reply."""
        if self.ser is None:
            raise PortError("%s is not open" % self.port)
        self.drain()
        self._bad_before = self.noise_lines + self.corrupt_lines
        self.noise_sample = b""
        rid = self._next_id
        self._next_id = 1 if rid >= P.MAX_ID else rid + 1
        self.send_line(P.request(rid, op, args))
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout * self.scale)
        while True:
            reply = self._next_frame(deadline)
            if reply is None:
                raise self._timeout_error(op)
            if reply.get("id") == rid or (reply.get("id") is None and reply.get("ok") is False):
                break
        if reply.get("ok") is True:
            return reply
        err = reply.get("error")
        if not isinstance(err, dict):
            raise NotADevice("%s sent a malformed error reply" % self.port)
        code = err.get("code")
        if code == P.BAD_VERSION:
            raise self._mismatch(err.get("proto"))
        raise DeviceError(code, str(err.get("msg")), err)

    def _timeout_error(self, op):
        bad = self.noise_lines + self.corrupt_lines - self._bad_before
        if self.echoes:
            return NotADevice("%s is at its MicroPython REPL, the tablemate firmware is stopped: reset the "
                              "box (`mpremote connect %s resume exec \"import machine; "
                              "machine.soft_reset()\"`, or replug it)" % (self.port, self.port))
        if op == "hello":
            if bad:
                return NotADevice("%s answered, but not like a tablemate box (%d lines that are not "
                                  "frames, first: %r)" % (self.port, bad, self.noise_sample))
            return NotADevice("no reply from %s within %.1f s: is a tablemate box running there?"
                              % (self.port, self.timeout))
        return DeviceTimeout("no reply from %s to '%s' within %.1f s%s" % (
            self.port, op, self.timeout, " (%d garbled lines)" % bad if bad else ""))

    # ---- ops

    def hello(self):
        reply = self.request("hello", proto=P.PROTOCOL_VERSION)
        if reply.get("proto") != P.PROTOCOL_VERSION:
            raise self._mismatch(reply.get("proto"))
        return reply

    def _mismatch(self, proto):
        newer = isinstance(proto, int) and proto > P.PROTOCOL_VERSION
        return ProtocolMismatch("%s speaks protocol %s; this tablemate speaks %d: update the %s"
                                % (self.port, proto, P.PROTOCOL_VERSION,
                                   "host tools" if newer else "firmware (tablemate flash)"))

    def status(self):
        """{"status": app status, "journal": journal stats, "link": link counters}."""
        reply = self.request("status")
        return {"status": reply["status"], "journal": reply["journal"], "link": reply.get("link")}

    def settings_get(self, key=None):
        if key is None:
            return self.request("settings_get")["settings"]
        return self.request("settings_get", key=key)["value"]

    def settings_set(self, changes):
        """Apply all changes or none; returns every setting afterwards."""
        return self.request("settings_set", changes=changes)["settings"]

    def records(self, cursor=0, limit=50, verify=True):
        """One page: {"records", "next", "more", "last_seq", "acked"}; CorruptRecord on a CRC mismatch."""
        reply = self.request("records", cursor=cursor, limit=limit)
        if verify:
            for rec in reply["records"]:
                if not verify_record(rec):
                    raise CorruptRecord(rec.get("seq"))
        return reply

    def ack(self, seq):
        return self.request("ack", seq=seq)["acked"]

    def time_set(self, epoch=None):
        if epoch is None:
            epoch = int(time.time())
        return self.request("time_set", epoch=epoch)["epoch"]

    def mode(self, name):
        return self.request("mode", name=name)["mode"]

    def act(self, action):
        """Apply one engine action to the running game, checked as a button entry is: the reply
        (n, over, scores, digest); DeviceError (bad_arg with the reason, busy without a game)."""
        return self.request("act", action=list(action))


def wait_hello(port, timeout, pause=0.05, idle=None):
    """The hello reply of the firmware on port once it answers (a box that is booting, or
    restarting after a flash); the last LinkError when timeout seconds pass first.
    idle(seconds) is called between tries (default: sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with DeviceClient(port, timeout=0.5) as dev:
                return dev.info
        except LinkError:
            if time.monotonic() > deadline:
                raise
            (idle or time.sleep)(pause)
