"""Edge ring, debouncer and capture paths: behaviour, bounce trains, faults, no allocation."""

from engine.rng import Rng
from firmware.buttons import BACK_BIT, MODE_BIT, Debouncer, EdgeRing, IrqCapture
from firmware.pio_capture import (
    COUNTER_BITS,
    START_LAG_US,
    PioCapture,
    assemble,
    counter_tick,
    program_source,
)
from firmware.ticks import TICKS_MASK, ticks_add, ticks_diff
from tests.shared.compat import assert_alloc_free, raises

TRAINS = 150  # seeded bounce trains per run (each up to 20 ms of chatter on press and release)


def bounce_edges(rng, t0, new_level, max_chatter_us=20000):
    """One chattering transition: [(tick, level)], first edge at t0, last at the new level."""
    n = 2 * rng.below(11)  # an even number of extra toggles ends on new_level
    offsets = {}
    while len(offsets) < n:
        offsets[1 + rng.below(max_chatter_us - 1)] = True
    edges = [(t0, new_level)]
    level = new_level
    for off in sorted(offsets):
        level ^= 1
        edges.append((t0 + off, level))
    return edges


def press_trains(rng, button, t, trains, debounce_us=25000):
    """Edges of `trains` presses of one button from t, and the events a debouncer must give."""
    edges = []
    expected = []
    for _ in range(trains):
        press = bounce_edges(rng, t, 1)
        release_at = press[-1][0] + 1 + rng.below(200000)
        release = bounce_edges(rng, release_at, 0)
        edges.extend(press)
        edges.extend(release)
        expected.append((button, 1, t))
        expected.append((button, 0, release[-1][0]))  # start of the stable-up stretch
        t = release[-1][0] + debounce_us + rng.below(100000)
    return edges, expected


def snapshots(edges_by_button):
    """Merge [(tick, level)] per button into [(mask, tick)], one snapshot per distinct tick."""
    merged = []
    for button in edges_by_button:
        for tick, level in edges_by_button[button]:
            merged.append((tick, button, level))
    merged.sort()
    out = []
    mask = 0
    for tick, button, level in merged:
        mask = mask | (1 << button) if level else mask & ~(1 << button)
        if out and out[-1][1] == tick:
            out[-1] = (mask, tick)
        else:
            out.append((mask, tick))
    return out


def drain(deb):
    ev = [0, 0, 0]
    got = []
    while deb.take(ev):
        got.append((ev[0], ev[1], ev[2]))
    return got


# -- EdgeRing --


def test_ring_is_fifo_and_wraps():
    ring = EdgeRing(4)
    out = [0, 0]
    for k in range(10):
        assert ring.push(k, 100 + k) and ring.push(k + 1, 200 + k)
        assert len(ring) == 2
        assert ring.pop(out) and out == [k, 100 + k]
        assert ring.pop(out) and out == [k + 1, 200 + k]
        assert not ring.pop(out) and len(ring) == 0
    assert ring.overflows == 0


def test_ring_full_drops_the_new_snapshot_and_counts():
    ring = EdgeRing(3)
    for k in range(5):
        ring.push(k, k)
    assert len(ring) == 3 and ring.overflows == 2
    out = [0, 0]
    got = []
    while ring.pop(out):
        got.append(out[0])
    assert got == [0, 1, 2]
    assert raises(ValueError, EdgeRing, 0)


def test_ring_update_merges_a_field_and_skips_no_change():
    ring = EdgeRing(8)
    ring.push(0b1_0000_0101, 1)  # players 1 and 3, mode
    assert ring.update(0b10, 0xFF, 2)  # players field now only player 2: mode kept
    assert not ring.update(0b10, 0xFF, 3)  # nothing changed: nothing pushed
    out = [0, 0]
    ring.pop(out)
    ring.pop(out)
    assert out == [0b1_0000_0010, 2] and len(ring) == 0


class Flag:
    """Counts set() calls, as asyncio.ThreadSafeFlag would be set (without allocating)."""

    def __init__(self):
        self.sets = 0

    def set(self):
        self.sets += 1


def test_ring_wakes_its_reader_on_every_snapshot_pushed():
    ring = EdgeRing(2)
    flag = ring.wake = Flag()
    assert ring.push(0b1, 10) and flag.sets == 1
    assert not ring.update(0b1, 0xFF, 11) and flag.sets == 1  # nothing new: no wake
    assert ring.update(0b11, 0xFF, 12) and flag.sets == 2
    assert not ring.push(0b111, 13) and flag.sets == 2  # full: dropped, the reader was woken
    ring.wake = None
    out = [0, 0]
    assert ring.pop(out) and ring.push(0, 14) and flag.sets == 2


# -- Debouncer --


def test_press_is_reported_at_its_first_edge_release_after_stable_up():
    deb = Debouncer(debounce_us=25000)
    deb.feed(0b1, 1000)
    assert drain(deb) == [(0, 1, 1000)]  # at once, with the edge's tick
    deb.feed(0, 3000)
    deb.feed(0b1, 3500)  # chatter
    deb.feed(0, 4000)
    deb.poll(4000 + 24999)
    assert drain(deb) == [] and deb.is_down(0)
    deb.poll(4000 + 25000)  # stable up for exactly debounce_us
    assert drain(deb) == [(0, 0, 4000)] and not deb.is_down(0)


def test_chatter_shorter_than_debounce_is_one_press_and_one_release():
    deb = Debouncer(debounce_us=25000)
    t = 50
    for k in range(40):  # 40 edges, 500 us apart: 20 ms of chatter
        deb.feed((k + 1) & 1, t + 500 * k)
    deb.poll(t + 500 * 39 + 25000)
    assert drain(deb) == [(0, 1, 50), (0, 0, t + 500 * 39)]


def test_seeded_bounce_trains_give_one_press_each_with_the_first_edge_tick():
    rng = Rng(7)
    deb = Debouncer()
    t = TICKS_MASK - 3000000  # the tick domain wraps during the run
    buttons = (0, 3, 7, MODE_BIT)
    per_round = 2
    for _round in range(TRAINS // (per_round * len(buttons))):
        # a few trains per button at a time keeps the test inside a Pico-sized heap
        per_button = {}
        expected = {}
        for button in buttons:
            per_button[button], expected[button] = press_trains(rng, button, t + rng.below(50000), per_round)
        snaps = snapshots(per_button)
        got = {}
        for mask, tick in snaps:
            if rng.below(3) == 0:
                deb.poll((tick - 1 - rng.below(10)) & TICKS_MASK)  # the app's loop, between edges
            deb.feed(mask, tick & TICKS_MASK)
            for ev in drain(deb):
                got.setdefault(ev[0], []).append(ev)
        t = snaps[-1][1] + 30000
        deb.poll(t & TICKS_MASK)
        for ev in drain(deb):
            got.setdefault(ev[0], []).append(ev)
        for button in buttons:
            want = [(b, d, tick & TICKS_MASK) for b, d, tick in expected[button]]
            assert got[button] == want, button
    assert deb.overflows == 0 and deb.stuck == 0 and deb.ignored() == 0


def test_simultaneous_presses_are_two_events_with_one_tick():
    deb = Debouncer()
    deb.feed(0b1001, 777)
    assert drain(deb) == [(0, 1, 777), (3, 1, 777)]


def test_held_at_boot_is_ignored_until_released_then_works():
    deb = Debouncer(debounce_us=25000)
    deb.start(0b100 | (1 << BACK_BIT), 100)
    assert deb.held_at_boot == 0b100 | (1 << BACK_BIT) and deb.flagged == deb.held_at_boot
    deb.feed(0b100 | (1 << BACK_BIT) | 0b1, 5000)  # player 1 presses normally
    deb.feed(0b1, 6000)  # the held ones let go (back bounces once)
    deb.feed(0b1 | (1 << BACK_BIT), 6100)
    deb.feed(0b1, 6200)
    deb.poll(6200 + 25000)
    assert drain(deb) == [(0, 1, 5000)]  # no press, no release for the held ones
    assert deb.held_at_boot == 0 and deb.ignored() == 0
    assert deb.flagged == 0b100 | (1 << BACK_BIT)  # still reported until the caller clears it
    deb.feed(0b101, 40000)
    assert drain(deb) == [(2, 1, 40000)]


def test_stuck_button_is_flagged_ignored_and_reported_on_release():
    deb = Debouncer(debounce_us=25000, stuck_us=10000000)
    deb.feed(0b10, 1000)
    deb.poll(1000 + 9999999)
    assert deb.stuck == 0
    deb.poll(1000 + 10000000)
    assert deb.stuck == 0b10 and deb.flagged == 0b10 and deb.ignored() == 0b10
    deb.feed(0, 10002000)  # contact chatter while stuck: nothing
    deb.feed(0b10, 10003000)
    deb.feed(0b110, 10004000)  # others still work
    assert drain(deb) == [(1, 1, 1000), (2, 1, 10004000)]
    deb.feed(0b100, 10005000)  # finally released
    deb.poll(10005000 + 25000)
    assert drain(deb) == [(1, 0, 10005000)]
    assert deb.stuck == 0 and deb.flagged == 0b10
    deb.feed(0b110, 10100000)
    assert drain(deb) == [(1, 1, 10100000)]


def test_release_and_stuck_timers_work_across_the_tick_wrap():
    deb = Debouncer(debounce_us=25000, stuck_us=1000000)
    t = TICKS_MASK - 10000
    deb.feed(1, t)
    deb.feed(0, ticks_add(t, 5000))
    deb.poll(ticks_add(t, 5000 + 24999))
    assert drain(deb) == [(0, 1, t)]
    deb.poll(ticks_add(t, 5000 + 25000))
    assert drain(deb) == [(0, 0, ticks_add(t, 5000))]
    deb.feed(1, t + 5 * (1 << 30) + 90000)  # a 62-bit unix tick: taken mod 2**30
    assert drain(deb) == [(0, 1, ticks_add(t, 90000))]


def test_event_queue_overflow_is_counted():
    deb = Debouncer(queue=4)
    deb.feed(0x7FF, 10)
    assert len(drain(deb)) == 4 and deb.overflows == 7


def test_debouncer_rejects_bad_settings():
    assert raises(ValueError, Debouncer, 11, 0)
    assert raises(ValueError, Debouncer, 11, 25000, 25000)
    assert raises(ValueError, Debouncer, 31)


class FeedRun:
    """Feeds snapshots to a Debouncer and drains its events; small frames on purpose, since
    MicroPython gives a function of more than 11 frame slots a (freed) heap block."""

    def __init__(self, deb, snaps):
        self.deb = deb
        self.masks = [m for m, _ in snaps]
        self.ticks = [t for _, t in snaps]
        self.out = [0, 0, 0]
        self.end = self.ticks[-1] + 20000000  # past release and stuck times

    def run(self):
        i = 0
        n = len(self.masks)
        while i < n:
            self.step(i)
            i += 1
        self.deb.poll(self.end)

    def step(self, i):
        deb = self.deb
        deb.poll(self.ticks[i])
        deb.feed(self.masks[i], self.ticks[i])
        while deb.take(self.out):
            pass


def test_debouncer_allocates_nothing():
    rng = Rng(3)
    edges, _ = press_trains(rng, 2, 1000, 4)
    snaps = snapshots({2: edges, 5: [(1500, 1), (2000000, 0)]})
    assert_alloc_free(lambda: FeedRun(Debouncer(stuck_us=1000000), snaps).run)


# -- IrqCapture --


class FakePin:
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self):
        self.level = 1  # pulled up: not pressed
        self.handler = None
        self.trigger = 0
        self.hard = False

    def value(self):
        return self.level

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler
        self.trigger = trigger
        self.hard = hard

    def set(self, level):
        self.level = level
        if self.handler is not None:
            self.handler(self)


class Clock:
    def __init__(self, t):
        self.t = t

    def now(self):
        return self.t


def test_irq_capture_reads_all_its_pins_and_merges_into_the_ring():
    ring = EdgeRing(16)
    ring.push(0b11, 1)  # players 1-2 down, as pushed by another capture path
    out = [0, 0]
    ring.pop(out)
    pins = [None] * 11
    for bit in (MODE_BIT, BACK_BIT):
        pins[bit] = FakePin()
    pins[BACK_BIT].level = 0  # held at start: level only, no snapshot
    clock = Clock(500)
    cap = IrqCapture(pins, ring, clock.now)
    assert cap.field == (1 << MODE_BIT) | (1 << BACK_BIT)
    cap.start()
    assert len(ring) == 0 and ring.level == 0b11 | (1 << BACK_BIT)
    assert pins[MODE_BIT].hard and pins[MODE_BIT].trigger == 12
    clock.t = 900
    pins[MODE_BIT].set(0)
    clock.t = 950
    pins[BACK_BIT].set(1)
    clock.t = 960
    pins[BACK_BIT].handler(pins[BACK_BIT])  # an edge with no net change: nothing pushed
    assert ring.pop(out) and out == [0b11 | (1 << MODE_BIT) | (1 << BACK_BIT), 900]
    assert ring.pop(out) and out == [0b11 | (1 << MODE_BIT), 950]
    assert not ring.pop(out) and cap.edges == 3
    cap.stop()
    assert pins[MODE_BIT].handler is None


def test_irq_capture_stamps_each_pin_in_its_own_handler():
    # Both pins went down before the first handler ran: each handler takes only its own
    # pin, so the second press keeps its own (later) stamp instead of joining the first's.
    ring = EdgeRing(16)
    pins = [FakePin() for _ in range(4)]
    clock = Clock(100)
    cap = IrqCapture(pins, ring, clock.now)
    cap.start()
    pins[3].level = 0
    pins[1].level = 0
    pins[1].handler(pins[1])  # the lower pin is dispatched first
    clock.t = 130
    pins[3].handler(pins[3])
    out = [0, 0]
    assert ring.pop(out) and out == [0b0010, 100]
    assert ring.pop(out) and out == [0b1010, 130]
    assert not ring.pop(out)


class EdgeRun:
    def __init__(self):
        self.pins = [FakePin() for _ in range(8)]
        ring = EdgeRing(64)
        ring.wake = Flag()  # the app's wake-up is set from the handler too
        cap = IrqCapture(self.pins, ring, Clock(1).now)
        cap.start()
        self.handler = self.pins[0].handler

    def run(self):
        k = 0
        while k < 40:
            pin = self.pins[k & 7]
            pin.level = (k >> 3) & 1
            self.handler(pin)
            k += 1


def test_irq_handler_allocates_nothing():
    assert_alloc_free(lambda: EdgeRun().run)


# -- PioCapture drain path (the program itself is emulated in tests/host) --


class WordsSM:
    """rp2.StateMachine stand-in serving prepared FIFO words."""

    def __init__(self, words):
        self.words = words
        self.i = 0

    def rx_fifo(self):
        return len(self.words) - self.i

    def get(self):
        self.i += 1
        return self.words[self.i - 1]

    def active(self, v=None):
        pass

    def restart(self):
        pass

    def irq(self, handler=None, hard=False):
        self.handler = handler


# The capture program as assembled for the default 25 MHz (pioasm hex); checked against the
# datasheet's encoding table in tests/host/test_pio_capture.py.
PROGRAM_HEX = [
    "a0e3", "a04b", "a0c3", "4008", "a026", "00a7", "0610", "a025", "002f", "a046",
    "a027", "4036", "8000", "c010", "0011", "0410", "a027", "0052", "abe1",
]


def test_program_assembles_the_same_on_this_runtime():
    # the device assembles PROGRAM itself at start-up, with MicroPython's str methods
    prog = assemble(program_source(25))
    assert ["%04x" % w for w in prog.words] == PROGRAM_HEX
    assert (prog.wrap_target, prog.wrap) == (2, 18)


def pio_word(down_mask, counter):
    return ((0xFF ^ down_mask) << COUNTER_BITS) | (counter & 0x3FFFFF)


def test_pio_drain_converts_counters_to_ticks():
    t_origin = TICKS_MASK - 20
    clock = Clock(t_origin)
    sm = WordsSM([])
    ring = EdgeRing(8)
    cap = PioCapture(2, ring, now=clock.now, sm=sm)
    cap.start(use_irq=True)
    assert sm.handler is not None
    t_start = ticks_add(t_origin, -START_LAG_US)
    # samples at passes 5, 30 and 40 (counter = -pass), drained at pass 45
    sm.words = [pio_word(0b1, -5), pio_word(0b11, -30), pio_word(0b10, -40)]
    clock.t = ticks_add(t_start, 45)
    sm.handler(sm)
    out = [0, 0]
    got = []
    while ring.pop(out):
        got.append((out[0], ticks_diff(out[1], t_start)))
    assert got == [(0b1, 5), (0b11, 30), (0b10, 40)]
    assert counter_tick((-40) & 0x3FFFFF, clock.t, t_start) == ticks_add(t_start, 40)


def test_pio_drain_allocates_nothing():
    words = [pio_word(k & 0xFF, -k * 7) for k in range(1, 60)]

    def make():
        sm = WordsSM([])
        cap = PioCapture(2, EdgeRing(64), now=Clock(TICKS_MASK - 100).now, sm=sm)
        cap.start(use_irq=False)
        sm.words = words
        return cap.drain

    assert_alloc_free(make)
