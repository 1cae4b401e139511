"""The sim board's world channel: JSON lines over TCP to the front-end (host/sim.py).

The virtual device has no pins; the "world" (the terminal UI, or a script) presses its
buttons and watches its LEDs, OLED and buzzer. The device connects to 127.0.0.1:PORT,
PORT taken from the environment variable TABLEMATE_WORLD.

front-end -> device
    {"t": "edge", "b": 0..10, "down": 1|0, "us": int}   a button edge at the front-end's
        own microsecond clock; the board keeps the gaps between edges exact. Edges sent in
        one write are all taken in before the firmware's next decision (buttons pressed
        together, at one us, are a tie)
    {"t": "mode", "name": str, "options": {...}}        switch mode (scripts)
    {"t": "sync", "id": int}                            answered once all input before it is handled
    {"t": "mark", "id": int}                            answered as soon as it is read: everything
        before it has been taken in (flow control: a script keeps a bounded backlog)
    {"t": "quit"}                                       stop the firmware
device -> front-end
    {"t": "hello", "board": str, "leds": [label], "buttons": [label], "oled": [w, h] | null}
    {"t": "leds", "rgb": "rrggbb..."}                   the whole strip, only when it changed
    {"t": "oled", "w": int, "h": int, "fb": base64, "lines": [str]}   MONO_VLSB frame buffer
    {"t": "tone", "f": hz, "duty": duty_u16}            f 0 = silence
    {"t": "event", "kind": str, ...}                    what the app or a mode decided
    {"t": "sync", "id": int} / {"t": "mark", "id": int} / {"t": "error", "msg": str}

The channel belongs to the sim only: nothing here runs on the Pico.
"""

import json
import os

ENV = "TABLEMATE_WORLD"
HOST = "127.0.0.1"
READ_SIZE = 1024  # bytes taken from the socket at once
MAX_LINE = 4096  # a message longer than this is not one of ours
MAX_PENDING = 64 * 1024  # bytes queued for a front-end that stopped reading; beyond: drop frames


class WorldError(OSError):
    pass


def port_from_env():
    """The world port from TABLEMATE_WORLD, or None when the variable is unset or empty."""
    value = os.getenv(ENV)
    if not value:
        return None
    try:
        port = int(value)
    except ValueError:
        raise WorldError("%s=%r is not a port number" % (ENV, value))
    if not 0 < port < 65536:
        raise WorldError("%s=%d is not a port number" % (ENV, port))
    return port


class World:
    """One connection to the front-end; handlers[t](msg) gets each message of type t."""

    def __init__(self, port, host=HOST):
        import socket

        sock = socket.socket()
        try:
            sock.connect(socket.getaddrinfo(host, port)[0][-1])
        except OSError as e:
            sock.close()
            raise WorldError("cannot reach the front-end at %s:%d (%s)" % (host, port, e))
        sock.setblocking(False)
        self._sock = sock
        self._out = b""
        self._handlers = {"mark": self._mark}
        self.closed = False
        self.dropped = 0  # messages dropped because the front-end stopped reading
        # Set by the board: True while the reader should wait (its edge ring is filling up),
        # so a fast front-end or script can never overrun the ring.
        self.busy = None

    def on(self, kind, handler):
        self._handlers[kind] = handler

    def send(self, msg):
        """Queue one message; written at once when the socket takes it, else by pump()."""
        if self.closed:
            return
        data = (json.dumps(msg) + "\n").encode()
        if len(self._out) > MAX_PENDING:
            self.dropped += 1
            return
        self._out += data
        self._flush()

    def _flush(self):
        while self._out:
            try:
                n = self._sock.send(self._out)
            except OSError as e:
                if e.args and e.args[0] == 11:  # EAGAIN: the front-end is behind, pump() retries
                    return
                self._close()
                return
            if not n:
                return
            self._out = self._out[n:]

    def _close(self):
        if not self.closed:
            self.closed = True
            self._out = b""
            try:
                self._sock.close()
            except OSError:
                pass

    def close(self):
        self._flush()
        self._close()

    def _mark(self, msg):
        self.send({"t": "mark", "id": msg.get("id")})

    def _dispatch(self, line):
        try:
            msg = json.loads(line)
        except ValueError:
            self.send({"t": "error", "msg": "not JSON: %r" % line[:60]})
            return
        if not isinstance(msg, dict):
            self.send({"t": "error", "msg": "not a JSON object"})
            return
        handler = self._handlers.get(msg.get("t"))
        if handler is None:
            self.send({"t": "error", "msg": "unknown message type %r" % (msg.get("t"),)})
            return
        try:
            handler(msg)
        except Exception as e:  # noqa: BLE001 - a bad message is answered, never fatal to the channel
            self.send({"t": "error", "msg": "%s: %s" % (msg.get("t"), e)})

    async def serve(self):
        """Read messages until the front-end goes away, then call handlers["closed"] if set."""
        import asyncio

        stream = asyncio.StreamReader(self._sock)
        rest = b""
        try:
            while not self.closed:
                data = await stream.read(READ_SIZE)
                if not data:
                    break
                lines = (rest + data).split(b"\n")
                rest = lines.pop()
                if len(rest) > MAX_LINE:
                    self.send({"t": "error", "msg": "a line longer than %d bytes: dropped" % MAX_LINE})
                    rest = b""
                # Every line of one read is handled before the firmware's other tasks run:
                # edges sent together (keys of one terminal read) reach the ring together,
                # before the arbiter decides anything.
                for line in lines:
                    busy = self.busy
                    while busy is not None and busy():
                        await asyncio.sleep_ms(1)
                    line = line.strip()
                    if line:
                        self._dispatch(line)
                # this frame keeps its variables while it waits for the next read: let go
                # of the last read's pieces (up to READ_SIZE bytes, one object per line)
                data = lines = line = None
        except OSError:
            pass
        self._close()
        handler = self._handlers.get("closed")
        if handler is not None:
            handler(None)

    async def pump(self):
        """Keep writing queued output when the socket was full."""
        import asyncio

        while not self.closed:
            if self._out:
                self._flush()
            await asyncio.sleep_ms(20)
