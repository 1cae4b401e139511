"""The firmware's PIO capture run on the emulated Pico's REPL (MicroPython's own rp2 build
in rp2040js, tests/host/pico_box.py): buttons set at exact virtual microseconds, the
board's own code on them, what it saw read back. For tests/host/test_pico_box.py and
the "rp2040 emulated" rows of host/bench_pico.py.

- faceoffs_without_allocation: capture edge -> debouncer -> arbiter -> decision under
  micropython.heap_lock (tests/shared/compat.assert_alloc_free), the ticks just before
  the 2**30 wrap, where a sum of two ticks leaves a 32-bit port's small ints;
- late_drain_storm: one button chatters while nothing drains the RX FIFO, another is
  pressed and held; what the ring holds once the drain resumes;
- drain_cost / edge_by_edge: what the drain costs, how close edges may come.
"""

import ast
from contextlib import contextmanager
from pathlib import Path

from firmware.ticks import TICKS_MASK, ticks_diff
from tests.host.bisection import smallest_passing

ROOT = Path(__file__).resolve().parents[2]
# From reading the chip's clock to the first edge: the REPL's next exec must start before.
LEAD_US = 500_000


@contextmanager
def capture_session(box, setup=""):
    """The board's raw REPL with the capture of test_pico_box.CAPTURE_SETUP running (its
    IRQ draining into `ring`) and `setup` run after it; the app restarted at the end."""
    from tests.host.test_pico_box import CAPTURE_SETUP

    repl = box.repl()
    try:
        repl.exec(CAPTURE_SETUP + setup)
        yield repl
        repl.restart("rp2", "/")  # the app again, for what runs after
    finally:
        repl.close()


def read_ring(repl):
    """Stop the capture and take the ring's snapshots: [(mask, tick)]."""
    from tests.host.test_pico_box import CAPTURE_READ

    text = repl.exec(CAPTURE_READ).decode()
    return [tuple(int(v) for v in line.split()) for line in text.split("\n") if line.strip()]


def wait_past(box, us):
    box.wait_for(lambda: box.now_us() > us, what="virtual time %d us" % us)


# ---- edge to decision, allocation-free

# The sources sent to the board as they are: the no-allocation check the unix-port tests
# use, and their input chain (snapshots -> Debouncer -> Arbiter).
BOARD_SOURCES = ("tests/shared/compat.py", "tests/shared/input_chain.py")
WRAP_AT = TICKS_MASK + 1 - 400  # each face-off's first press: 400 us before ticks wrap
RUN_US = 100_000  # a face-off's run, from its first press
FACEOFF_EVERY_US = 250_000
WINDOW_US = 1000
DEBOUNCE_US = 25_000
LOCKOUT_US = 40_000
# (us after the first press, bit, down): P2 presses and bounces, the tie window closes after
# the wrap, P6 and P4 are ranked in the lockout; all three release, P2 bouncing again.
FACEOFF = [(0, 1, True), (150, 1, False), (400, 1, True), (1500, 5, True), (1800, 3, True),
           (20_000, 1, False), (20_100, 1, True), (20_300, 1, False), (21_000, 5, False),
           (22_000, 3, False)]

ALLOC_RUN = """
from firmware.board_pico import CAPTURE_LAG_US
from firmware.ticks import ticks_add, ticks_us
SHIFT = 0
def now():  # the chip's ticks moved by SHIFT: each face-off crosses the wrap
    return ticks_add(ticks_us(), SHIFT)
cap.stop()
rp2.PIO(0).remove_program()
cap = PioCapture(2, ring, sm_id=CAPTURE_SM, now=now)
STARTS = %r
chains = []
def make():
    global SHIFT
    i = len(chains)
    SHIFT = ticks_add(%d, -STARTS[i])
    chain = Chain(8, %d, %d, %d)
    chains.append(chain)
    cap.start()
    end = ticks_add(%d, %d)
    return lambda: chain.pump(ring, now, end, CAPTURE_LAG_US)
assert_alloc_free(make)
cap.stop()
for c in chains:
    a = c.arb
    print(repr((c.results, a.winner, a.gap_us, [a.ranked[i] for i in range(a.n_ranked)], a.first_tick,
                c.deb.overflows, ring.overflows, c.deb.is_down(1))))
"""


def faceoffs_without_allocation(box):
    """Two face-offs through the real PIO, the capture's IRQ drain, the debouncer and the
    arbiter to their decisions, each across the tick wrap: the first counted with
    gc.mem_alloc() (this build has no mem_total), the second under heap_lock. Returns per
    face-off (results, winner, gap_us, ranked, first_tick, debouncer and ring overflows,
    P2 still down); the board raises (CliError) on any allocation."""
    chain_code = "".join((ROOT / p).read_text() for p in BOARD_SOURCES)
    with capture_session(box, chain_code) as repl:
        t0 = box.now_us() + LEAD_US
        starts = [t0 + i * FACEOFF_EVERY_US for i in range(2)]
        box.edges_at([(s + dt, bit, down) for s in starts for dt, bit, down in FACEOFF])
        text = repl.exec(ALLOC_RUN % ([s & TICKS_MASK for s in starts], WRAP_AT, WINDOW_US, DEBOUNCE_US,
                                      LOCKOUT_US, WRAP_AT, RUN_US)).decode()
    return [ast.literal_eval(line) for line in text.split("\n") if line.strip()]


# ---- a bounce storm while nothing drains

STORM_EDGES = 30
STORM_EVERY_US = 3  # the PIO samples every 1 us: every chatter edge is a change
HELD_AT_US = 37  # P2 pressed during the storm, between two chatter edges
STORM_US = STORM_EVERY_US * (STORM_EDGES - 1)
RELEASE_AFTER_US = 5000  # P2 let go this long after the drain resumed

HOLD_CODE = """
import machine, time
from firmware.ticks import ticks_add, ticks_diff, ticks_us
def until(t):
    wait = ticks_diff(t, ticks_us())
    if wait > 3000:
        time.sleep_us(wait - 2000)
    on_time = ticks_diff(t, ticks_us()) > 0
    while ticks_diff(t, ticks_us()) > 0:
        pass
    return on_time
def hold(start, end):  # interrupts off, as a NeoPixel write holds them: no IRQ drains
    on_time = until(start)
    s = machine.disable_irq()
    while ticks_diff(end, ticks_us()) > 0:
        pass
    machine.enable_irq(s)
    return on_time
def late(start, end):  # a capture without IRQ drained only at end
    on_time = until(start)
    until(end)
    cap.drain()
    until(ticks_add(end, 5))
    cap.drain()
    return on_time
"""


def storm_edges(s, release):
    """P1 chatters STORM_EDGES edges from s (and ends up), P2 is pressed during it and
    held until release."""
    edges = [(s + i * STORM_EVERY_US, 0, i % 2 == 0) for i in range(STORM_EDGES)]
    return sorted(edges + [(s + HELD_AT_US, 1, True), (release, 1, False)])


def late_drain_storm(box, delays_us, irq=True):
    """One storm per delay: the drain held off from before the storm until delay_us after
    it, by interrupts off (irq) or by a capture nobody drains until then. Returns per delay
    (on_time, snapshots [(mask, us after the storm's start)], the drain's resumption and
    P2's release, both in us after the storm's start)."""
    out = []
    with capture_session(box, HOLD_CODE) as repl:
        for delay in delays_us:
            repl.exec("cap.start(use_irq=%s)\ncap.drain()" % irq)
            s = box.now_us() + LEAD_US
            resume = STORM_US + delay
            release = resume + RELEASE_AFTER_US
            edges = storm_edges(s, s + release)
            box.edges_at(edges)
            call = "hold" if irq else "late"
            on_time = repl.exec("print(%s(%d, %d))" % (call, (s - 200) & TICKS_MASK,
                                                       (s + resume) & TICKS_MASK)).strip()
            wait_past(box, s + release + 1000)
            if not irq:
                repl.exec("cap.drain()")  # the release
            snaps = [(m, ticks_diff(t, s & TICKS_MASK)) for m, t in read_ring(repl)]
            out.append((on_time == b"True", snaps, resume, release))
    return out


# How far a stamp may sit from its edge here: where the capture's start read the clock
# moves every stamp by a few us (the stamps themselves are checked in test_pico_box).
STAMP_SLACK_US = 3


def held_press_kept(snaps, resume, release):
    """True when the storm's ring ends as the buttons did: P2 down from its press until
    it is let go (stamped no earlier than pressed, no later than soon after the drain
    resumed), then nobody; every chatter snapshot inside the storm's time."""
    slack = STAMP_SLACK_US
    if len(snaps) < 2 or snaps[-1][0] != 0 or abs(snaps[-1][1] - release) > slack:
        return False
    mask, held = snaps[-2]
    if mask != 0b10 or not HELD_AT_US - slack <= held <= resume + 1000:
        return False
    return all(-slack <= t <= STORM_US + slack for _, t in snaps[:-2])


# ---- what the drain costs, how close edges may come

DRAIN_COST_CODE = """
def timed_drain():
    t = ticks_us()
    n = cap.drain()
    return n, ticks_diff(ticks_us(), t)
"""


def drain_cost(box, rounds=3):
    """Virtual us a drain() of the RX FIFO takes, as [(words, us)]: a full FIFO (8 chatter
    edges) and single edges, `rounds` times."""
    out = []
    level = False  # P1's, toggled by every edge
    with capture_session(box, HOLD_CODE + DRAIN_COST_CODE) as repl:
        repl.exec("cap.start(use_irq=False)\ncap.drain()")
        for n in (8, 1, 1) * rounds:  # an even number of edges a round: P1 ends up
            s = box.now_us() + LEAD_US
            edges = []
            for i in range(n):
                level = not level
                edges.append((s + 5 * i, 0, level))
            box.edges_at(edges)
            text = repl.exec("until(%d)\nprint(*timed_drain())" % ((s + 5 * n + 50) & TICKS_MASK)).decode()
            out.append(tuple(int(v) for v in text.split()))
    return out


EDGE_BY_EDGE_EDGES = 64


def closest_edge_by_edge(box, hi_us=64):
    """The smallest gap (us, by bisection up to hi_us; None if even that fails) at which
    P1 chattering EDGE_BY_EDGE_EDGES edges reaches the ring edge by edge through the IRQ
    drain: closer edges fill the FIFO and merge (chatter only: a held press is kept)."""
    with capture_session(box) as repl:

        def kept(gap_us):
            repl.exec("cap.start()")
            s = box.now_us() + LEAD_US
            box.edges_at([(s + i * gap_us, 0, i % 2 == 0) for i in range(EDGE_BY_EDGE_EDGES)])
            wait_past(box, s + EDGE_BY_EDGE_EDGES * gap_us + 1000)
            masks = [m for m, _ in read_ring(repl)]
            return masks == [1 - i % 2 for i in range(EDGE_BY_EDGE_EDGES)]

        return smallest_passing(kept, 1, hi_us)
