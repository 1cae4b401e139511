"""The PIO capture program, run instruction by instruction in the emulator, behind PioCapture.

The emulator executes the words firmware.pio_capture.assemble() makes from PROGRAM (the
same words rp2_program() hands to rp2.asm_pio on the device), with pin waveforms given
in nanoseconds. PioCapture drains it through a fake rp2.StateMachine and a simulated
clock, exactly as on the board.
"""

import sys

import pytest

from engine.rng import Rng
from firmware import pio_capture as pc
from firmware.arbiter import TIE, WIN, Arbiter
from firmware.board_profile import load_profile
from firmware.buttons import Debouncer, EdgeRing
from firmware.ticks import TICKS_MASK, ticks_diff
from tests.host.bisection import longest_passing
from tests.host.pio_emulator import PioEmulator
from tests.shared.test_buttons import PROGRAM_HEX

LOOP = 25  # cycles per pass at the default 25 MHz
NS_PER_CYCLE = 40
FIRST_PIN = load_profile("pico")["players"]["pins"][0]  # the emulated header, wired as boards.json says
SAMPLE_CYCLE = 3  # `in pins, 8` of pass k runs at cycle 3 + 25 k (2 setup instructions first)


# -- encoding: the assembler against the RP2040 datasheet's instruction table --


def field_word(opcode, delay, a, b, c=None):
    """Compose a word from the datasheet's fields: opcode(3) delay(5) then the operands.

    JMP/IN/OUT/SET: a = 3-bit condition/source/destination, b = 5-bit address/count/data.
    MOV: a = destination(3), b = op(2), c = source(3). PUSH/IRQ: a = the low byte.
    """
    word = (opcode << 13) | (delay << 8)
    if c is not None:
        return word | (a << 5) | (b << 3) | c
    if b is None:
        return word | a
    return word | (a << 5) | b


def test_program_words_match_the_datasheet_encoding():
    prog = pc.assemble(pc.program_source(LOOP))
    JMP, IN, PUSH, MOV, IRQ = 0, 2, 4, 5, 6
    PINS, X, Y, NULL, STATUS, ISR, OSR = 0, 1, 2, 3, 5, 6, 7
    expected = [
        field_word(MOV, 0, OSR, 0, NULL),  # mov osr, null
        field_word(MOV, 0, Y, 1, NULL),  # mov y, ~null      (op 01 = invert)
        field_word(MOV, 0, ISR, 0, NULL),  # mov isr, null
        field_word(IN, 0, PINS, 8),  # in pins, 8
        field_word(MOV, 0, X, 0, ISR),  # mov x, isr
        field_word(JMP, 0, 0b101, 7),  # jmp x!=y changed
        field_word(JMP, 6, 0b000, 16),  # jmp fetch [6]
        field_word(MOV, 0, X, 0, STATUS),  # changed: mov x, status
        field_word(JMP, 0, 0b001, 15),  # jmp !x full
        field_word(MOV, 0, Y, 0, ISR),  # mov y, isr
        field_word(MOV, 0, X, 0, OSR),  # mov x, osr
        field_word(IN, 0, X, 22),  # in x, 22
        field_word(PUSH, 0, 0b0000_0000, None),  # push noblock (IfF 0, Blk 0)
        field_word(IRQ, 0, 0b0001_0000, None),  # irq nowait 0 rel (Clr 0, Wait 0, index 1 0000)
        field_word(JMP, 0, 0b000, 17),  # jmp count
        field_word(JMP, 4, 0b000, 16),  # full: jmp fetch [4]
        field_word(MOV, 0, X, 0, OSR),  # fetch: mov x, osr
        field_word(JMP, 0, 0b010, 18),  # count: jmp x-- store
        field_word(MOV, LOOP - 14, OSR, 0, X),  # store: mov osr, x [11]
    ]
    assert prog.words == expected
    # the hex the shared test checks on both runtimes
    assert ["%04x" % w for w in prog.words] == PROGRAM_HEX
    assert (prog.wrap_target, prog.wrap) == (2, 18)
    assert prog.labels == {"changed": 7, "full": 15, "fetch": 16, "count": 17, "store": 18}


def test_assembler_matches_datasheet_examples():
    # RP2040 datasheet 3.3.9.3 (squarewave.pio and its hex output) and MicroPython's nop.
    square = pc.assemble("set pindirs, 1\nagain:\nset pins, 1 [1]\nset pins, 0\njmp again\n")
    assert square.words == [0xE081, 0xE101, 0xE000, 0x0001]
    assert pc.assemble("nop").words == [0xA042]
    assert pc.assemble("push block\npull ifempty noblock\nwait 1 gpio 5\nirq wait 3").words == [
        0x8020, 0x80C0, 0x2085, 0xC023,
    ]
    assert pc.assemble("mov x, ::pins\nout pc, 5\nin null, 32").words == [0xA030, 0x60A5, 0x4060]


@pytest.mark.parametrize("bad", ["jmp y!=x 0", "in foo, 8", "in pins, 33", "mov x, y [32]", "frob x"])
def test_assembler_rejects_bad_lines(bad):
    with pytest.raises(ValueError):
        pc.assemble(bad)


def test_loop_cycles_bounds():
    assert "[0]" in pc.program_source(14) and "[31]" in pc.program_source(45)
    for bad in (13, 46):
        with pytest.raises(ValueError):
            pc.program_source(bad)


def test_freq_choice_and_checks():
    assert pc.pick_freq(125_000_000) == 25_000_000  # divider 5
    assert pc.pick_freq(150_000_000) == 25_000_000  # divider 6
    assert pc.pick_freq(133_000_000) == 19_000_000  # divider 7
    with pytest.raises(ValueError):
        pc.pick_freq(125_000_001)
    with pytest.raises(ValueError):
        pc._check_freq(25_000_000, 133_000_000)  # fractional divider: the counter would drift
    with pytest.raises(ValueError):
        pc._check_freq(8_000_000, None)  # too few cycles for one pass


@pytest.mark.parametrize("blocks", [2, 3])
def test_rp2_program_hands_the_same_words_to_asm_pio(monkeypatch, blocks):
    """rp2_program() through a stand-in rp2.asm_pio that works like MicroPython's.

    MicroPython's decorator swaps the function's module globals for its directives, runs
    it twice (labels pass, emit pass) and returns [words, -1 per PIO block, execctrl,
    shiftctrl, out_init, set_init, sideset_init]: 2 blocks before 1.24, 3 since (1.28 on a
    Pico included).
    """
    calls = {}

    class Emit:
        def __init__(self):
            self.words = []
            self.execctrl = 0

        def word(self, instr, label=None):
            assert label is None
            self.words.append(instr)

        def wrap_target(self):
            self.execctrl |= len(self.words) << 7

        def wrap(self):
            self.execctrl |= (len(self.words) - 1) << 12

    def asm_pio(**kw):
        calls["kw"] = kw

        def dec(f):
            gl = f.__globals__
            old = gl.copy()
            try:
                for _pass in range(2):
                    emit = Emit()
                    gl.clear()
                    gl.update({"word": emit.word, "wrap_target": emit.wrap_target, "wrap": emit.wrap})
                    f()
            finally:
                gl.clear()
                gl.update(old)
            return [emit.words] + [-1] * blocks + [emit.execctrl, 0, None, None, None]

        return dec

    class PIO:
        SHIFT_LEFT = 0
        JOIN_RX = 2

    fake = type(sys)("rp2")
    fake.asm_pio = asm_pio
    fake.PIO = PIO
    monkeypatch.setitem(sys.modules, "rp2", fake)
    prog = pc.rp2_program(LOOP)
    ref = pc.assemble(pc.program_source(LOOP))
    assert prog[0] == ref.words
    # wrap bounds, and STATUS_SEL = RX (bit 4) with STATUS_N = 8 (the joined FIFO's depth)
    assert prog[1 + blocks] == (ref.wrap_target << 7) | (ref.wrap << 12) | 0x10 | 8
    assert prog[1:1 + blocks] == [-1] * blocks
    assert calls["kw"] == {"in_shiftdir": 0, "fifo_join": 2}
    assert "assemble" in vars(pc) and "word" not in vars(pc)  # the module's globals came back


# -- the emulated board --


class Waveform:
    """Player buttons over time: presses as (ns, player, down), levels active low."""

    def __init__(self, edges=()):
        self.edges = sorted(edges)

    def gpio(self, cycle):
        t = cycle * NS_PER_CYCLE
        down = 0
        for ns, player, is_down in self.edges:
            if ns > t:
                break
            if is_down:
                down |= 1 << player
            else:
                down &= ~(1 << player)
        return ~(down << FIRST_PIN) & 0xFFFFFFFF

    def next_change_after(self, cycle):
        t = cycle * NS_PER_CYCLE
        for ns, _, _ in self.edges:
            if ns > t:
                return ns // NS_PER_CYCLE
        return None


class FakeStateMachine:
    """rp2.StateMachine's drain-side API over the emulator."""

    def __init__(self, emu):
        self.emu = emu
        self.handler = None

    def active(self, v=None):
        if v is not None:
            self.emu.enabled = bool(v)
        return self.emu.enabled

    def restart(self):
        self.emu.restart()

    def irq(self, handler=None, hard=False):
        self.handler = handler

    def rx_fifo(self):
        return len(self.emu.rx)

    def get(self):
        return self.emu.rx.popleft()


class FakePin:
    def __init__(self, bench, player):
        self.bench = bench
        self.player = player

    def value(self):
        b = self.bench
        return (b.wave.gpio(b.emu.cycle) >> (FIRST_PIN + self.player)) & 1


class Bench:
    """Emulator + PioCapture + EdgeRing with a clock: t_origin (us) at cycle 0."""

    def __init__(self, waveform, t_origin=5000, irq_latency_cycles=0, use_irq=True, loop=LOOP,
                 with_pins=False, source=None):
        prog = pc.assemble(source or pc.program_source(loop))
        self.loop = loop
        self.wave = waveform
        # configured as rp2_program() configures the real one: joined RX FIFO, MOV STATUS on RX
        self.emu = PioEmulator(prog.words, prog.wrap_target, prog.wrap, waveform.gpio, in_base=FIRST_PIN,
                               fifo_join="rx", status_sel=pc.EXECCTRL_STATUS >> 4 & 1,
                               status_n=pc.EXECCTRL_STATUS & 15)
        self.samples = []  # cycles at which `in pins, 8` ran
        self.emu.on_execute = self._watch
        self.t_origin = t_origin
        self.ring = EdgeRing(256)
        self.sm = FakeStateMachine(self.emu)
        pins = [FakePin(self, i) for i in range(8)] if with_pins else None
        self.cap = pc.PioCapture(FIRST_PIN, self.ring, now=self.now, sm=self.sm, pins=pins)
        self.latency = irq_latency_cycles
        self._irq_due = None
        self.cap.start(use_irq=use_irq)

    def _watch(self, cycle, pc_, word):
        if word == 0x4008:
            self.samples.append(cycle)

    def now(self):
        """ticks_us() of the simulated board: whole microseconds since t_origin."""
        return (self.t_origin + self.emu.cycle * NS_PER_CYCLE // 1000) & TICKS_MASK

    def step(self):
        self.emu.step()
        if self.emu.irq_flags & 1 and self.sm.handler is not None:
            if self._irq_due is None:
                self._irq_due = self.emu.cycle + self.latency
            if self.emu.cycle >= self._irq_due:
                self.emu.irq_flags &= ~1  # MicroPython acknowledges the flag before the handler
                self._irq_due = None
                self.sm.handler(self.sm)

    def run_us(self, us):
        for _ in range(us * 1000 // NS_PER_CYCLE):
            self.step()

    def skip_idle(self, passes):
        """Jump over `passes` passes at once that each only decrement the counter: the pins
        equal the last reported sample (Y), or the FIFO is full (every pass retries).

        Allowed only at the top of the loop with no pin change ahead.
        """
        emu = self.emu
        self.align()
        change = self.wave.next_change_after(emu.cycle)
        assert change is None or change > emu.cycle + passes * self.loop + SAMPLE_CYCLE
        sample = self.wave.gpio(emu.cycle) >> FIRST_PIN & 0xFF
        full = len(emu.rx) == emu.rx_depth
        assert full or (not emu.rx and emu.y == sample)  # last sample = pins now
        emu.osr = emu.x = (emu.osr - passes) & 0xFFFFFFFF
        emu.isr = sample  # such a pass leaves its sample in ISR
        emu.isr_count = 8
        emu.cycle += passes * self.loop

    def align(self):
        """Step to the top of the loop (the start of a pass)."""
        assert self.emu.enabled, "the capture never started its state machine"
        while self.emu.pc != self.emu.wrap_target or self.emu.delay:
            self.step()

    def snapshots(self):
        out = [0, 0]
        got = []
        while self.ring.pop(out):
            got.append((out[0], out[1]))
        return got

    def expected_tick(self, press_ns):
        """The tick PioCapture must give a press at press_ns: that of the first pass seeing it."""
        cycle = -(-press_ns // NS_PER_CYCLE)  # the first cycle with the pin low
        k = max(0, -(-(cycle - SAMPLE_CYCLE) // self.loop))
        t_start = (self.t_origin - pc.START_LAG_US) & TICKS_MASK
        return (t_start + k) & TICKS_MASK


def test_sample_period_and_counter_step_are_one_microsecond_on_every_path():
    # Changes every few us exercise the changed path, the gaps between them the other one.
    edges = []
    for i in range(12):
        edges.append((3_000 + i * 2_500, i % 8, True))
        edges.append((3_000 + i * 2_500 + 1_100, i % 8, False))
    b = Bench(Waveform(edges))
    counters = []

    def watch(cycle, addr, word):
        b._watch(cycle, addr, word)
        if addr == 18:  # store: the counter is back in OSR
            counters.append(b.emu.osr)

    b.emu.on_execute = watch
    b.run_us(40)
    gaps = {b2 - a for a, b2 in zip(b.samples, b.samples[1:], strict=False)}
    assert gaps == {LOOP}  # every pass, changed or not, is 25 cycles
    assert b.samples[0] == SAMPLE_CYCLE
    assert LOOP * NS_PER_CYCLE == 1000  # 25 cycles of 40 ns (25 MHz): one sample per 1.000 us
    # OSR (the counter) after each pass's store: one step down per pass, through the 32-bit wrap.
    steps = {(a - b2) & 0xFFFFFFFF for a, b2 in zip(counters, counters[1:], strict=False)}
    assert steps == {1} and counters[0] == 0xFFFFFFFF
    assert len(b.snapshots()) == 24  # every press and release (the boot sample changed nothing)


def test_boot_sample_is_always_pushed_and_merged_into_the_ring_level():
    # Player 4 held from power-up. With pins, start() takes the level from them and the
    # boot sample (always pushed: Y starts as ~0) changes nothing; without, it is news.
    b = Bench(Waveform([(0, 3, True)]), with_pins=True)
    assert b.ring.level == 0b1000
    b.run_us(3)
    assert b.cap.words == 1 and b.snapshots() == []
    b = Bench(Waveform([(0, 3, True)]))
    b.run_us(3)
    assert b.snapshots() == [(0b1000, b.expected_tick(0))]


def test_each_press_gets_the_tick_of_the_first_sample_that_saw_it():
    presses = [(7_020, 0), (7_980, 5), (9_000, 7), (12_345, 2)]
    b = Bench(Waveform([(ns, p, True) for ns, p in presses]))
    b.run_us(20)
    snaps = b.snapshots()
    assert len(snaps) == 4
    for (ns, p), (mask, tick) in zip(presses, snaps, strict=True):
        assert mask & (1 << p)
        assert tick == b.expected_tick(ns)
    # against the board's ticks_us(): START_LAG_US early (the bench starts the machine and
    # reads the tick at one instant), less the wait for the sample
    # (0..1 us), the same for every press
    for (ns, _), (_, tick) in zip(presses, snaps, strict=True):
        offset = ticks_diff(tick, b.t_origin) - ns / 1000
        assert -pc.START_LAG_US - 1 < offset <= -pc.START_LAG_US + 1


def test_events_come_out_in_timestamp_order_whatever_the_pin():
    rng = Rng(2024)
    for _trial in range(6):
        times = {}
        for p in range(8):
            times[p] = 2_000 + rng.below(30_000)  # presses spread over 30 us
        edges = [(ns, p, True) for p, ns in times.items()]
        b = Bench(Waveform(edges), t_origin=rng.next30())
        b.run_us(36)
        snaps = b.snapshots()
        ticks = [t for _, t in snaps]
        assert all(ticks_diff(b2, a) > 0 for a, b2 in zip(ticks, ticks[1:], strict=False))
        for p, ns in times.items():
            first = next(t for m, t in snaps if m & (1 << p))
            assert first == b.expected_tick(ns)
        # and the arbiter, fed through the debouncer, names the earliest presser
        deb, arb = Debouncer(), Arbiter(8, tie_window_us=0)
        ev = [0, 0, 0]
        for m, t in snaps:
            deb.feed(m, t)
            while deb.take(ev):
                arb.press(ev[0], ev[2])
        assert arb.poll(ticks[-1]) in (WIN, TIE)
        earliest = min(b.expected_tick(ns) for ns in times.values())
        first_players = {p for p, ns in times.items() if b.expected_tick(ns) == earliest}
        assert arb.first_tick == earliest
        if arb.code == WIN:
            assert first_players == {arb.winner}
        else:
            assert first_players == {arb.tied[i] for i in range(arb.n_tied)}


def test_presses_in_the_same_sample_are_one_snapshot_and_tie_even_with_window_zero():
    # players 8 and 1 pressed 600 ns apart, between two samples (3 + 25 k cycles)
    k = 200
    sample_ns = (SAMPLE_CYCLE + LOOP * k) * NS_PER_CYCLE
    b = Bench(Waveform([(sample_ns - 900, 7, True), (sample_ns - 300, 0, True)]))
    b.run_us(210)
    snaps = b.snapshots()
    assert len(snaps) == 1 and snaps[0][0] == 0b1000_0001
    deb, arb = Debouncer(), Arbiter(8, tie_window_us=0)
    deb.feed(*snaps[0])
    ev = [0, 0, 0]
    while deb.take(ev):
        arb.press(ev[0], ev[2])
    assert arb.poll(snaps[0][1]) == TIE and arb.tied_mask == 0b1000_0001 and arb.gap_us == 0
    # one sample (25 cycles) apart: two snapshots, 1 us apart
    b = Bench(Waveform([(sample_ns - 300, 7, True), (sample_ns + 700, 0, True)]))
    b.run_us(210)
    (m1, t1), (m2, t2) = b.snapshots()
    assert (m1, m2, ticks_diff(t2, t1)) == (0b1000_0000, 0b1000_0001, 1)


def test_counter_and_tick_wrap_inside_a_face_off():
    """2**32 - 6 passes after start: the 32-bit counter register, its 22-bit field in the
    FIFO word and the 30-bit tick domain all wrap between the presses of one face-off."""
    b = Bench(Waveform([]), t_origin=pc.START_LAG_US + 1)  # t_start = 1
    b.run_us(1)
    b.skip_idle((1 << 32) - 7)  # from pass 1 to pass 2**32 - 6
    assert b.emu.osr == 6
    base = b.emu.cycle * NS_PER_CYCLE
    presses = [(base + 2_500, 1, True), (base + 5_200, 4, True), (base + 9_100, 6, True)]
    b.wave.edges = sorted(presses)
    b.run_us(12)
    assert b.emu.osr > 0xFFFFFFF0  # the register wrapped
    snaps = b.snapshots()
    ticks = [t for _, t in snaps]
    assert [m for m, _ in snaps] == [0b10, 0b10010, 0b1010010]
    assert ticks == [b.expected_tick(ns) for ns, _, _ in presses]
    assert ticks[0] > ticks[-1]  # the tick domain wrapped in between ...
    assert [ticks_diff(t, ticks[0]) for t in ticks] == [0, 3, 7]  # ... and the gaps are right
    arb = Arbiter(8, tie_window_us=3)
    for (_m, t), p in zip(snaps, (1, 4, 6), strict=True):
        arb.press(p, t)
    assert arb.poll(ticks[-1]) == TIE and arb.tied_mask == 0b10010 and arb.gap_us == 3


def test_irq_latency_does_not_move_timestamps():
    edges = [(4_000, 2, True), (4_700, 3, True), (30_000, 2, False)]
    fast = Bench(Waveform(edges))
    slow = Bench(Waveform(edges), irq_latency_cycles=25 * 300)  # the handler runs 300 us late
    fast.run_us(400)
    slow.run_us(400)
    assert fast.snapshots() == slow.snapshots()


def test_full_fifo_delays_changes_but_never_drops_the_state_or_stalls_the_counter():
    # 12 changes while nobody drains: the joined FIFO fills with the boot word and the first
    # 7 changes; the rest wait (no push is ever dropped) and the counter runs on.
    edges = [(3_000 + i * 2_000, i % 4, i % 8 < 4) for i in range(12)]
    edges.append((60_000, 7, True))
    b = Bench(Waveform(edges), use_irq=False)
    b.run_us(40)
    assert len(b.emu.rx) == 8 and not b.emu.rxstall and b.emu.stalls == 0
    drained_ns = b.emu.cycle * NS_PER_CYCLE
    assert b.cap.drain() == 8
    b.run_us(3)
    assert b.cap.drain() == 1  # the state now (players 1-4 down), at the first pass with room
    late = b.snapshots()[-1]
    assert late == (0b1111, b.expected_tick(drained_ns))
    b.run_us(27)
    b.cap.drain()
    # the change after the drain is stamped at its true time
    assert b.snapshots() == [(0b1000_1111, b.expected_tick(60_000))]


# The program before the FIFO check: it took a sample as reported (mov y, x) before a
# `push noblock` that a full FIFO drops.
UNCHECKED_PROGRAM = """
    mov osr, null
    mov y, ~null
.wrap_target
    mov isr, null
    in pins, 8
    mov x, isr
    jmp x!=y changed
    jmp fetch [4]
changed:
    mov y, x
    mov x, osr
    in x, 22
    push noblock
    irq nowait 0 rel
    jmp count
fetch:
    mov x, osr
count:
    jmp x-- store
store:
    mov osr, x [13]
.wrap
"""

STORM_END_NS = 3_000 + 29 * 3_000
HELD_NS = 40_000


def bounce_storm():
    """Player 1 chatters 30 edges 3 us apart (and ends up), player 2 presses during it and holds."""
    edges = [(3_000 + i * 3_000, 0, i % 2 == 0) for i in range(30)]
    return Waveform(edges + [(HELD_NS, 1, True)])


def late_drain_trial(delay_us, source=None):
    """A bounce storm nobody drains until delay_us after it. True when the held press is
    reported and every tick lies inside the time it could belong to."""
    b = Bench(bounce_storm(), use_irq=False, source=source)
    b.run_us(STORM_END_NS // 1000 + 2)
    storm_end = b.now()
    if delay_us:
        b.skip_idle(delay_us)
    drained_ns = b.emu.cycle * NS_PER_CYCLE
    b.cap.drain()
    b.run_us(3)
    b.cap.drain()
    snaps = b.snapshots()
    if b.ring.level != 0b10 or not snaps or snaps[-1][0] != 0b10:
        return False
    first = b.expected_tick(0)
    for _mask, tick in snaps[:-1]:  # the storm's words: between the start and the storm's end
        if not 0 <= ticks_diff(tick, first) <= ticks_diff(storm_end, first):
            return False
    last = snaps[-1][1]  # the held press: no earlier than pressed, no later than just after the drain
    held, drained = b.expected_tick(HELD_NS), b.expected_tick(drained_ns)
    return 0 <= ticks_diff(last, held) and ticks_diff(last, drained) <= 0


def longest_late_drain(limit_us=1 << 23):
    """The longest drain delay (us, by bisection) after a bounce storm that loses no press."""
    found = longest_passing(late_drain_trial, 0, limit_us, 1000)
    assert found is not None
    return found


def test_a_bounce_storm_with_a_late_drain_keeps_the_held_press():
    for delay_us in (0, 300, 250_000):  # e.g. NeoPixel writes with interrupts off
        assert late_drain_trial(delay_us), delay_us
    # what the check prevents: the unchecked program loses the press in the same storm
    assert not late_drain_trial(300, source=UNCHECKED_PROGRAM)
    b = Bench(bounce_storm(), use_irq=False, source=UNCHECKED_PROGRAM)
    b.run_us(STORM_END_NS // 1000 + 2)
    assert b.emu.rxstall  # the emulator drops the push and flags it, as the RP2040 does


def test_a_capture_that_is_stopped_and_started_again_restarts_its_counter():
    b = Bench(Waveform([(300_000, 2, True)]))
    b.run_us(100)
    b.cap.stop()
    samples = len(b.samples)
    b.run_us(100)
    assert len(b.samples) == samples  # a stopped state machine runs no pass
    b.cap.start(use_irq=True)  # restart(): the program from its first instruction, the counter anew
    b.run_us(110)
    # exactly what a capture started fresh at that moment gives
    fresh = Bench(Waveform([(100_000, 2, True)]), t_origin=b.t_origin + 200)
    fresh.run_us(110)
    assert b.snapshots() == fresh.snapshots() == [(0b100, fresh.expected_tick(100_000))]


def test_idle_skip_matches_stepping():
    a = Bench(Waveform([(900_000, 5, True)]))
    c = Bench(Waveform([(900_000, 5, True)]))
    a.run_us(1)
    c.run_us(1)
    c.align()
    while a.emu.cycle < c.emu.cycle:
        a.step()
    a.run_us(500)
    c.skip_idle(500)
    ea, ec = a.emu, c.emu
    state = lambda e: (e.cycle, e.pc, e.delay, e.x, e.y, e.osr, e.isr, e.isr_count, list(e.rx))  # noqa: E731
    assert state(ea) == state(ec)


def test_counter_tick_conversion_edges():
    """counter_tick and word_mask, and the IRQ handler that writes both out, across the
    wraps of the 22-bit counter and of the 30-bit ticks."""
    from tests.shared.test_buttons import WordsSM, pio_word

    t_start = TICKS_MASK - 10
    sm = WordsSM([])
    clock = [0]
    cap = pc.PioCapture(2, EdgeRing(4), now=lambda: clock[0], sm=sm)
    cap._t_start = t_start
    out = [0, 0]
    # pass k carries -k mod 2**22 and happened at t_start + k
    for k in (0, 1, 11, (1 << 22) - 1, (1 << 22) + 5, 3 << 22):
        counter = (-k) & pc.COUNTER_MASK
        tick_k = (t_start + k) & TICKS_MASK
        for lag in (0, 1, 1000, (1 << 22) - 1):
            now = (tick_k + lag) & TICKS_MASK
            assert pc.counter_tick(counter, now, t_start) == tick_k
            down = 1 + (k + lag) % 255  # a new level every time: each word makes a snapshot
            sm.words, sm.i, clock[0] = [pio_word(down, counter)], 0, now
            assert cap.drain() == 1 and cap._ring.pop(out) and out == [down, tick_k], (k, lag)
    assert pc.word_mask(0xFF << 22) == 0 and pc.word_mask((0xFF ^ 0b101) << 22 | 123) == 0b101


# -- the emulator itself: what it models, and what it refuses --


def emulate(source, **config):
    prog = pc.assemble(source)
    emu = PioEmulator(prog.words, prog.wrap_target, prog.wrap, lambda cycle: 0, **config)
    emu.enabled = True
    return emu


@pytest.mark.parametrize("config", [{"sideset_count": 1}, {"autopush": True}, {"autopull": True},
                                    {"push_thresh": 8}])
def test_emulator_refuses_configurations_it_does_not_model(config):
    with pytest.raises(NotImplementedError):
        emulate("nop", **config)


@pytest.mark.parametrize("source", ["mov exec, x", "out exec, 16"])
def test_emulator_refuses_instructions_it_does_not_model(source):
    emu = emulate(source)
    with pytest.raises(NotImplementedError):
        emu.step()


@pytest.mark.parametrize("join, depth", [(None, 4), ("rx", 8)])
def test_emulator_fifo_depth_status_and_dropped_pushes(join, depth):
    # each pass: X := status (all ones while RX level < N), push its low bit; with N = depth - 1
    # the last word that fits says "no room left", and the pushes after it are dropped with
    # RXSTALL set.
    emu = emulate("mov isr, null\nmov x, status\nin x, 1\npush noblock", fifo_join=join, status_sel=1,
                  status_n=depth - 1)
    emu.run(4 * depth)
    assert list(emu.rx) == [1] * (depth - 1) + [0] and not emu.rxstall
    emu.run(4)
    assert len(emu.rx) == depth and emu.rxstall and emu.stalls == 0
    tx = emulate("mov x, status", fifo_join=join, status_sel=0, status_n=1)
    tx.step()
    assert tx.x == 0xFFFFFFFF  # TX level 0 < 1


def test_emulator_runs_only_while_enabled_and_restart_goes_back_to_the_start():
    emu = emulate("set x, 5\nset y, 6\nin x, 3\njmp 3")
    emu.enabled = False
    emu.run(10)
    assert (emu.cycle, emu.executed, emu.pc) == (10, 0, 0)
    emu.enabled = True
    emu.run(3)
    assert (emu.x, emu.y, emu.isr_count, emu.pc) == (5, 6, 3, 3)
    emu.restart()  # SM_RESTART clears ISR and its count; X and Y stay; the PC is the start
    assert (emu.pc, emu.isr, emu.isr_count, emu.x, emu.y) == (0, 0, 0, 5, 6)
