"""Scripted timing on the emulated Pico: `tablemate sim --board pico --players N --script FILE`.

The script is the unix box's (host/sim_script.py: the same file, checks, mode options and
output lines); what differs is the clock. The unix box's clock is the host's to set. The
emulated RP2040's runs by itself, at a fraction of real time, so each edge is set on its
button's GPIO at an exact virtual microsecond (rp2box/box.mjs's `at_us`, the idle level
from hardware/boards.json), sent a little ahead of the chip's clock. The firmware's own
capture stamps it as on a Pico (the PIO program, or the pin IRQs when config.json says
"capture": "irq") and the decisions come back as the serial link's event frames.

The script's first edge is played LEAD_US after the clock is read: the idle time before
it (nothing happens there) is not played; every gap from the first edge on is exact.
The run ends once every decision is out (settle_after): the last press plus the mode's
tie window and lockout (read from the running mode), or the last edge, plus SETTLE_US.
A pause with nothing left to decide is skipped (warp_us): the chip's clock cannot jump,
and a script's 20-minute pause would otherwise cost an hour of wall time.
"""

import time

from host.cli import CliError
from host.serial_client import DeviceClient, DeviceError, LinkError
from host.sim_script import PRINTED_KINDS, SCRIPT_MODE, emit_json

LEAD_US = 200_000  # from reading the clock to the first edge: the first window is sent by then,
# even when a loaded host stalls for a moment (a late edge is an error, never played late)
AHEAD_US = 1_000_000  # edges are sent at most this far ahead of the chip's clock
POLL_S = 0.1  # wall time between two readings of the clock
CLOCK_TIMEOUT_S = 30.0  # the longest the chip may take to answer a reading of its clock
LINK_TIMEOUT_S = 30.0  # a request over the serial link (the emulated chip is slow)
TIMED_KEYS = ("lockout_ms", "tie_window_us")  # the running mode's values the settle time needs
SETTLE_US = 100_000  # past the last lockout or edge: the input loop's poll and a debounced release
# A pause in which nothing is left to decide is skipped (rp2box's warp: the chip sleeps through
# it in steps of 2**28 us, every firmware task running between two) when it is longer than
# this; it lands WARP_LEAD_US before the next edge, which is then sent as usual.
WARP_MIN_US = 2_000_000
WARP_LEAD_US = AHEAD_US + LEAD_US
# The PIO capture's counter wraps every 2**22 us and does not run during a warp: a warp by
# whole periods of it keeps every stamp exact. The pin IRQs count nothing.
WARP_QUANTUM_US = {"pio": 1 << 22, "irq": 1}


class PicoClock:
    """The emulated chip's virtual clock over the world channel, and the edges set on it."""

    def __init__(self, world):
        self.world = world

    def _check(self, messages):
        for msg in messages:
            if msg.get("t") == "error":
                raise CliError("the emulated Pico refused: %s" % msg.get("msg"), 1)
        return messages

    def now_us(self):
        self.world.send({"t": "now"})
        deadline = time.monotonic() + CLOCK_TIMEOUT_S
        while True:
            if self.world.closed:
                raise CliError("the emulated Pico hung up during the script", 1)
            if time.monotonic() > deadline:
                raise CliError("the emulated Pico did not tell its clock within %.0f s" % CLOCK_TIMEOUT_S, 1)
            for msg in self._check(self.world.wait(deadline - time.monotonic())):
                if msg.get("t") == "now":
                    return msg["us"]

    def edge_at(self, us, bit, down):
        self.world.send({"t": "edge", "b": bit, "down": 1 if down else 0, "at_us": us})

    def warp(self, us):
        """Skip us of virtual time (the chip sleeps through it); returns once it is past."""
        target = self.now_us() + us
        self.world.send({"t": "warp", "us": us})
        deadline = time.monotonic() + CLOCK_TIMEOUT_S
        while self.now_us() < target:
            if time.monotonic() > deadline:
                raise CliError("the emulated Pico did not skip %d us in %.0f s" % (us, CLOCK_TIMEOUT_S), 1)
            time.sleep(POLL_S)


def start_mode(client, mode, options):
    """Start the script's mode; returns its timed values (lockout, tie window) as it runs them."""
    try:
        client.request("mode", name=mode, options=options)
    except DeviceError as e:
        raise CliError("the device cannot run the script: %s" % e.msg, 1)
    status = client.status()["status"].get("mode_status") or {}
    client.events.clear()  # the mode's start and hints: the script's events come after
    return {k: status[k] for k in TIMED_KEYS if k in status}


def settle_after(edges, timed):
    """Virtual us from the last edge until every decision is out: a decision is due at most a
    tie window after the last press and announced when its lockout ends (a mode without
    these values gets the longest the registry allows)."""
    last_down = max((t for t, _, down in edges if down), default=edges[0][0])
    lockout_us = timed.get("lockout_ms", 10000) * 1000
    due = last_down + timed.get("tie_window_us", 50000) + lockout_us
    return max(due - edges[-1][0], 0) + SETTLE_US


def take_events(client, out):
    """Print the events the link has brought in as the unix box prints them; CliError when the
    mode failed."""
    while client.events:
        frame = client.events.popleft()
        msg = {"kind": frame.get("ev")}
        msg.update((k, v) for k, v in frame.items() if k != "ev")
        if msg["kind"] in PRINTED_KINDS:
            out(msg)
        elif msg["kind"] == "error":  # the mode raised: the box left it
            raise CliError("the mode failed during the script: %s" % msg.get("msg"), 1)


def warp_us(edges, sent, base, now, timed, quantum):
    """How far the clock may skip before edges[sent] (0: not at all): only once everything
    sent before it is decided, and by whole quanta."""
    if sent == 0 or sent == len(edges):
        return 0
    quiet = base + edges[sent - 1][0] + settle_after(edges[:sent], timed)
    room = base + edges[sent][0] - WARP_LEAD_US - max(now, quiet)
    if now < quiet or room < WARP_MIN_US:
        return 0
    return room // quantum * quantum


def play(clock, client, edges, timed, out=emit_json, quantum=WARP_QUANTUM_US["pio"]):
    """Play edges [(t_us, player, down)] on a running emulated Pico (its clock, a DeviceClient
    on its serial port) in the mode it runs (timed: its lockout and tie window) until every
    decision is out; each printed event goes to out. A long pause is skipped by whole
    quanta of virtual time (warp_us)."""
    base = clock.now_us() + LEAD_US - edges[0][0]
    end = base + edges[-1][0] + settle_after(edges, timed)
    sent = 0
    while True:
        now = clock.now_us()
        while sent < len(edges) and base + edges[sent][0] < now + AHEAD_US:
            t_us, player, down = edges[sent]
            clock.edge_at(base + t_us, player - 1, down)
            sent += 1
        client.drain()
        take_events(client, out)
        if sent == len(edges) and now >= end:
            break
        skip = warp_us(edges, sent, base, now, timed, quantum)
        if skip:
            clock.warp(skip)
        else:
            time.sleep(POLL_S)
    client.status()  # its reply comes after every event the link sent before it
    take_events(client, out)


def run_script(device, edges, options, mode=SCRIPT_MODE):
    """`tablemate sim --board pico --script`: once the firmware answers, play the script; 0."""
    from host.rp2box import wait_hello

    try:
        wait_hello(device.port)
        with DeviceClient(device.port, timeout=LINK_TIMEOUT_S) as client:
            timed = start_mode(client, mode, options)
            capture = client.status()["status"]["capture"]
            play(PicoClock(device.world), client, edges, dict(options, **timed),
                 quantum=WARP_QUANTUM_US[capture])
            return 0
    except LinkError as e:
        raise CliError("the emulated Pico's serial link failed during the script: %s" % e, 1)
