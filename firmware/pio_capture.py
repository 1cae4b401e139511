"""Player-button capture on an rp2 PIO state machine: one sample of all 8 pins per microsecond.

The program (PROGRAM below, pioasm syntax) loops once per microsecond. Each pass reads
the 8 player pins with ONE `in pins, 8`, so presses in the same sample are simultaneous
by construction and the pin number plays no part. When the sample differs from the
previous one it pushes one 30-bit word to the RX FIFO:

    bits 29..22  pin levels of the sample (1 = up: buttons are active low)
    bits 21..0   low 22 bits of a 32-bit down-counter, one step per pass (per us)

One word per change (not a counter word plus a level word) keeps every FIFO word a small
int, so sm.get() allocates nothing on a 32-bit port.

A full FIFO (the CPU drains late, e.g. while NeoPixel writes hold interrupts off) never
loses the buttons' state: before it reports a change the program reads the RX level
through `mov x, status` (EXECCTRL: STATUS_SEL = RX, STATUS_N = the joined depth, 8), and
only when there is room does it push and take the sample as reported (Y). With the FIFO
full it keeps Y, so every later pass sees the change again and reports it, with that
pass's counter, as soon as a word was drained. Chatter in between is lost; the last
state never is. The counter never stalls either way.

Timing: both paths through the loop take the same number of cycles (the unchanged path
pads with a delay), so the sample period and the counter step are exactly one pass:
loop_cycles = freq / 1 MHz PIO cycles. With the default 25 MHz (an integer divider of 5
at the Pico's 125 MHz, 6 at 150 MHz) one pass is 25 cycles of 40 ns = 1.000 us. The
counter and ticks_us() both come from the board's crystal, so with an integer divider
they never drift apart.

Conversion: PioCapture.start() notes t_start, the tick of the first pass: the tick read
right after the enable (interrupts off around both), less START_LAG_US. The
sample of pass k carries counter -k (mod 2**22), so its tick is t_start + k. drain()
recovers k from the counter and now: the drain must run within 2**22 us (4.19 s) of the
sample, which the IRQ (immediate) or any poll loop guarantees. Wrap of the 32-bit
register, of the 22-bit field and of the 30-bit tick domain all cancel out mod 2**22.

rp2 is imported only inside _make_state_machine(), so this module imports on CPython and
the emulator in tests/host runs the very words assemble() produces from PROGRAM.
"""

from firmware.ticks import TICKS_MASK, ticks_add, ticks_us

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]  # the stub's const is generic; this stand-in is not
        return x

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy only (it treats this name as true): the device imports rp2 lazily
    import rp2  # noqa: F401 - named in a type comment below


N_PINS = 8
PLAYER_FIELD = const(0xFF)
COUNTER_BITS = const(22)
COUNTER_MASK = const(0x3FFFFF)
DEFAULT_FREQ = 25000000
MIN_LOOP_CYCLES = 14  # the changed path without padding
MAX_LOOP_CYCLES = 45  # padding is one delay field: at most 31
# From the state machine's enable to the ticks_us() read after it, on a Pico at 125 MHz
# (measured on the emulated RP2040: tests/host/test_pico_box.py).
START_LAG_US = 5
RX_DEPTH = const(8)  # the joined RX FIFO (fifo_join=JOIN_RX)
# EXECCTRL STATUS_SEL (bit 4) = 1: `mov x, status` is all ones while RX level < STATUS_N (bits 3..0)
EXECCTRL_STATUS = const(0x10 | RX_DEPTH)
# rp2.asm_pio's program list ends with [execctrl, shiftctrl, out_init, set_init, sideset_init]
# after the words and one offset per PIO block: 2 blocks before MicroPython 1.24, 3 since
# (the RP2350's PIO2), so EXECCTRL is found from the end.
EXECCTRL_FROM_END = 5

# `{pad}` is loop_cycles - MIN_LOOP_CYCLES. Cycle counts per path are in the comments.
PROGRAM = """
    mov osr, null           ; counter := 0
    mov y, ~null            ; previous sample := impossible, so the first sample is pushed
.wrap_target
    mov isr, null           ; 1
    in pins, 8              ; 2  THE sample: all 8 player pins in one cycle
    mov x, isr              ; 3
    jmp x!=y changed        ; 4
    jmp fetch [6]           ; 5-11  unchanged: as long as the changed paths' 5-11
changed:
    mov x, status           ; 5  all ones while the RX FIFO has room (EXECCTRL_STATUS)
    jmp !x full             ; 6  (no delay here: it would hold the taken path too)
    mov y, isr              ; 7  remember this sample: it WILL be pushed
    mov x, osr              ; 8
    in x, 22                ; 9  ISR = levels << 22 | counter & 0x3FFFFF
    push noblock            ; 10 never drops: there was room at 5 and only the CPU moves it
    irq nowait 0 rel        ; 11 wake the CPU (StateMachine.irq)
    jmp count               ; 12
full:
    jmp fetch [4]           ; 7-11  FIFO full: Y keeps the last reported sample, the next pass retries
fetch:
    mov x, osr              ; 12
count:
    jmp x-- store           ; 13  decrement; both outcomes land on `store`
store:
    mov osr, x [{pad}]      ; 14 + pad = loop_cycles
.wrap
"""


def program_source(loop_cycles):
    if not MIN_LOOP_CYCLES <= loop_cycles <= MAX_LOOP_CYCLES:
        raise ValueError("loop_cycles must be %d..%d" % (MIN_LOOP_CYCLES, MAX_LOOP_CYCLES))
    return PROGRAM.replace("{pad}", str(loop_cycles - MIN_LOOP_CYCLES))


# -- a tiny assembler for the pioasm subset above (plus the rest of the RP2040 set) --

_JMP_COND = {"": 0, "!x": 1, "x--": 2, "!y": 3, "y--": 4, "x!=y": 5, "pin": 6, "!osre": 7}
_IN_SRC = {"pins": 0, "x": 1, "y": 2, "null": 3, "isr": 6, "osr": 7}
_OUT_DEST = {"pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "isr": 6, "exec": 7}
_MOV_DEST = {"pins": 0, "x": 1, "y": 2, "exec": 4, "pc": 5, "isr": 6, "osr": 7}
_MOV_SRC = {"pins": 0, "x": 1, "y": 2, "null": 3, "status": 5, "isr": 6, "osr": 7}
_SET_DEST = {"pins": 0, "x": 1, "y": 2, "pindirs": 4}
_WAIT_SRC = {"gpio": 0, "pin": 1, "irq": 2}


class Program:
    """Assembled PIO program: 16-bit words, wrap bounds, labels (addresses from 0)."""

    def __init__(self, words, wrap_target, wrap, labels):
        self.words = words
        self.wrap_target = wrap_target
        self.wrap = wrap
        self.labels = labels


def _lookup(table, name, what, line):
    if name not in table:
        raise ValueError("PIO line %r: bad %s %r" % (line, what, name))
    return table[name]


def _number(text, lo, hi, line):
    try:
        v = int(text, 0)
    except ValueError:
        raise ValueError("PIO line %r: %r is not a number" % (line, text))
    if not lo <= v <= hi:
        raise ValueError("PIO line %r: %d not in %d..%d" % (line, v, lo, hi))
    return v


def _split(text):
    """(label or None, tokens, delay) of one source line without its comment."""
    text = text.split(";", 1)[0].strip()
    delay = 0
    if text.endswith("]") and "[" in text:
        cut = text.rindex("[")
        delay = _number(text[cut + 1 : -1].strip(), 0, 31, text)
        text = text[:cut].strip()
    if text.endswith(":"):
        return text[:-1].strip(), [], 0
    return None, text.replace(",", " ").split(), delay


def _encode(tokens, labels, line):
    op = tokens[0]
    args = tokens[1:]
    if op == "nop" and not args:
        return 0xA042  # mov y, y
    if op == "jmp":
        cond = args[0] if len(args) == 2 else ""
        target = args[-1]
        addr = labels[target] if target in labels else _number(target, 0, 31, line)
        return (_lookup(_JMP_COND, cond, "jmp condition", line) << 5) | addr
    if op == "wait":
        pol = _number(args[0], 0, 1, line)
        src = _lookup(_WAIT_SRC, args[1], "wait source", line)
        index = _number(args[2], 0, 31, line)
        if len(args) > 3 and args[3] == "rel":
            index |= 0x10
        return 0x2000 | (pol << 7) | (src << 5) | index
    if op == "in":
        return 0x4000 | (_lookup(_IN_SRC, args[0], "in source", line) << 5) | (
            _number(args[1], 1, 32, line) & 31
        )
    if op == "out":
        return 0x6000 | (_lookup(_OUT_DEST, args[0], "out destination", line) << 5) | (
            _number(args[1], 1, 32, line) & 31
        )
    if op == "push" or op == "pull":
        word = 0x8000 if op == "push" else 0x8080
        block = 1
        for a in args:
            if a == "iffull" and op == "push" or a == "ifempty" and op == "pull":
                word |= 0x40
            elif a == "noblock":
                block = 0
            elif a != "block":
                raise ValueError("PIO line %r: bad %s option %r" % (line, op, a))
        return word | (block << 5)
    if op == "mov":
        src = args[1]
        mov_op = 0
        if src.startswith("~") or src.startswith("!"):
            mov_op, src = 1, src[1:]
        elif src.startswith("::"):
            mov_op, src = 2, src[2:]
        dest = _lookup(_MOV_DEST, args[0], "mov destination", line)
        return 0xA000 | (dest << 5) | (mov_op << 3) | _lookup(_MOV_SRC, src, "mov source", line)
    if op == "irq":
        clear = wait = 0
        rest = []
        for a in args:
            if a == "wait":
                wait = 1
            elif a == "clear":
                clear = 1
            elif a != "set" and a != "nowait":
                rest.append(a)
        index = _number(rest[0], 0, 7, line)
        if len(rest) > 1 and rest[1] == "rel":
            index |= 0x10
        return 0xC000 | (clear << 6) | (wait << 5) | index
    if op == "set":
        return 0xE000 | (_lookup(_SET_DEST, args[0], "set destination", line) << 5) | _number(
            args[1], 0, 31, line
        )
    raise ValueError("PIO line %r: unknown instruction" % line)


def assemble(source):
    """Program from pioasm text: labels `name:`, `.wrap_target`, `.wrap`, delays `[n]`."""
    labels = {}
    body = []  # type: list  # (tokens, delay, line)
    wrap_target = 0
    wrap = None
    for line in source.split("\n"):
        label, tokens, delay = _split(line)
        if label is not None:
            labels[label] = len(body)
        elif tokens == [".wrap_target"]:
            wrap_target = len(body)
        elif tokens == [".wrap"]:
            wrap = len(body) - 1
        elif tokens:
            body.append((tokens, delay, line.strip()))
    if not body or len(body) > 32:
        raise ValueError("a PIO program has 1..32 instructions, got %d" % len(body))
    words = [_encode(t, labels, line) | (d << 8) for (t, d, line) in body]
    return Program(words, wrap_target, len(body) - 1 if wrap is None else wrap, labels)


# -- counter words to ticks --


def word_mask(word):
    """Players down in a FIFO word (bit i = player i+1)."""
    return ((word >> COUNTER_BITS) ^ PLAYER_FIELD) & PLAYER_FIELD


def counter_tick(counter, now, t_start):
    """Tick of the sample whose 22-bit counter field is `counter`, drained at tick `now`.

    Pass k carries counter -k mod 2**22 and happened at t_start + k. The passes elapsed
    by now are now - t_start, so the sample is ((now - t_start) + counter) mod 2**22 us
    old. Every intermediate value stays below 2**23: no big ints on a 32-bit port.
    """
    age = (((now - t_start) & COUNTER_MASK) + counter) & COUNTER_MASK
    return (now - age) & TICKS_MASK


def pick_freq(sys_hz):
    """The state machine frequency: a whole number of MHz (one pass = 1 us) dividing sys_hz."""
    best = 0
    for mhz in range(MIN_LOOP_CYCLES, MAX_LOOP_CYCLES + 1):
        if sys_hz % (mhz * 1000000) == 0 and (mhz == 25 or not best):
            best = mhz
    if not best:
        raise ValueError(
            "PIO capture needs a system clock that is a multiple of a whole MHz in %d..%d, got %d Hz"
            % (MIN_LOOP_CYCLES, MAX_LOOP_CYCLES, sys_hz)
        )
    return best * 1000000


def _check_freq(freq, sys_hz):
    if freq % 1000000 or not MIN_LOOP_CYCLES <= freq // 1000000 <= MAX_LOOP_CYCLES:
        raise ValueError("PIO capture freq must be a whole number of MHz in %d..%d, got %d"
                         % (MIN_LOOP_CYCLES, MAX_LOOP_CYCLES, freq))
    if sys_hz is not None and sys_hz % freq:
        raise ValueError("system clock %d Hz is not a multiple of %d Hz: the counter would drift"
                         % (sys_hz, freq))


def rp2_program(loop_cycles):
    """The assembled words wrapped by rp2.asm_pio (device only)."""
    import rp2  # noqa: F401 - named in a type comment below

    prog = assemble(program_source(loop_cycles))
    words = prog.words
    top = prog.wrap_target
    bottom = prog.wrap

    def body():
        # asm_pio swaps this module's globals for its directives while body() runs.
        g = globals()
        for i in range(len(words)):
            if i == top:
                g["wrap_target"]()
            g["word"](words[i])
            if i == bottom:
                g["wrap"]()

    prog = rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, fifo_join=rp2.PIO.JOIN_RX)(body)
    # asm_pio has no argument for the MOV STATUS source; the StateMachine takes EXECCTRL
    # from this slot of the program whole (plus the wrap offsets).
    prog[len(prog) - EXECCTRL_FROM_END] |= EXECCTRL_STATUS  # type: ignore  # the stub hides the list
    return prog


def _make_state_machine(sm_id, first_pin, freq):
    import machine
    import rp2  # noqa: F401 - named in a type comment below

    sys_hz = machine.freq()
    if freq is None:
        freq = pick_freq(sys_hz)
    _check_freq(freq, sys_hz)
    Pin = machine.Pin
    pins = [Pin(first_pin + i, Pin.IN, Pin.PULL_UP) for i in range(N_PINS)]
    sm = rp2.StateMachine(sm_id, rp2_program(freq // 1000000), freq=freq, in_base=pins[0])
    return sm, pins


def _no_irq_off():
    return 0


def _no_irq_on(_state):
    pass


class PioCapture:
    """Drains the capture state machine into an EdgeRing (player bits 0..7).

    first_pin: GPIO of player 1; players 2..8 must follow on consecutive GPIOs.
    freq: state machine clock (None: pick_freq(machine.freq()), 25 MHz on a Pico).
    now / sm / pins: injectable for tests (an object with rp2.StateMachine's active,
    restart, irq, rx_fifo and get; Pin-like objects with value()).
    """

    def __init__(self, first_pin, ring, sm_id=0, freq=None, now=ticks_us, sm=None, pins=None):
        self._irq_off = _no_irq_off
        self._irq_on = _no_irq_on
        if sm is None:
            sm, pins = _make_state_machine(sm_id, first_pin, freq)
            import machine

            self._irq_off = machine.disable_irq
            self._irq_on = machine.enable_irq
        elif freq is not None:
            _check_freq(freq, None)
        self._sm = sm  # type: rp2.StateMachine
        self._pins = pins
        self._ring = ring
        self._now = now
        self._t_start = 0
        self.field = PLAYER_FIELD
        self.words = 0  # FIFO words drained
        # Bound method made once: creating it inside the IRQ would allocate.
        self._handler = self._on_irq

    def read(self):
        """Players down now, read from the pins (not the FIFO); 0 without pins."""
        m = 0
        if self._pins is not None:
            for i in range(len(self._pins)):
                if not self._pins[i].value():
                    m |= 1 << i
        return m

    def start(self, use_irq=True):
        """Run the program; the FIFO is drained from its IRQ, or by calling drain()."""
        sm = self._sm
        sm.active(0)
        while sm.rx_fifo():
            sm.get()
        ring = self._ring
        ring.level = (ring.level & ~PLAYER_FIELD) | self.read()
        sm.irq(handler=self._handler if use_irq else None, hard=True)
        sm.restart()
        # The tick right after the enable, with interrupts off: the first pass pushes at
        # once, and a drain run before _t_start is set, or between the enable and the
        # tick, would put every timestamp off by its run time.
        state = self._irq_off()
        sm.active(1)
        t = self._now()
        self._t_start = ticks_add(t, -START_LAG_US)
        self._irq_on(state)

    def stop(self):
        self._sm.active(0)
        self._sm.irq(handler=None)

    def drain(self):
        """Move every FIFO word into the ring; returns how many. Allocates nothing.

        From a poll loop (start(use_irq=False)) no other capture may push to the same
        ring from an interrupt meanwhile: ring.update() is a read-modify-write.
        """
        before = self.words
        self._on_irq(self._sm)
        return self.words - before

    def _on_irq(self, sm):
        # The hard IRQ runs on top of whatever the main code holds on the C stack (an OLED
        # redraw under a decision reaches deep), and MicroPython raises RuntimeError there,
        # disabling the handler for good, when the two together pass its stack limit: one
        # call level less than going through drain().
        # counter_tick and word_mask are written out here: a Python call costs ~20 us on a
        # Pico, and this handler runs before the input task can wake.
        while sm.rx_fifo():  # sm: the state machine, as the IRQ and drain() pass it
            word = sm.get()
            # the clock read after get(): the sample is older, and counter_tick finds its age
            now = self._now()
            age = (((now - self._t_start) & COUNTER_MASK) + (word & COUNTER_MASK)) & COUNTER_MASK
            self._ring.update(((word >> COUNTER_BITS) ^ PLAYER_FIELD) & PLAYER_FIELD, PLAYER_FIELD,
                              (now - age) & TICKS_MASK)
            self.words += 1
