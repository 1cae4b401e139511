"""Button input: the snapshot ring, the debouncer and the pin-IRQ capture path.

Capture works in snapshots, not edges: each entry of an EdgeRing is the mask of every
button down at one instant plus its 30-bit microsecond tick (bit i = player i+1 for
i 0..7, bit 8 = mode, 9 = ok, 10 = back). A lost entry therefore loses an intermediate
state, never the level: the next snapshot carries all of it again.

Nothing on the capture and debounce path allocates: the ring and the event queue are
preallocated lists of small ints, no tuples are returned, and every hot method keeps
its frame small (MicroPython puts frames of more than 11 slots on the heap).
See docs/buttons-and-arbiter.md for the algorithm and the choice of defaults.
"""

from firmware.ticks import TICKS_MASK, ticks_diff, ticks_us

# The one definition of the button bits and of how many player seats a box has.
SEATS = 8  # player buttons: bits 0..SEATS-1
MODE_BIT = 8
OK_BIT = 9
BACK_BIT = 10
N_INPUTS = 11


class EdgeRing:
    """Fixed-size FIFO of (mask, tick) snapshots; one interrupt-side writer, one reader.

    push() only moves the write index and pop() only the read index, so an interrupt
    may push while the main loop pops without locks. One slot always stays empty so
    that full and empty differ without a shared counter.
    """

    def __init__(self, size=64):
        if size < 1:
            raise ValueError("EdgeRing needs size >= 1")
        n = size + 1
        self._masks = [0] * n
        self._ticks = [0] * n
        self._n = n
        self._w = 0  # written by push only
        self._r = 0  # written by pop only
        self.overflows = 0  # snapshots dropped because the ring was full
        # The last mask pushed: capture paths that own some of the bits merge into it.
        self.level = 0
        # Set by the reader: an object whose set() each push calls (the app's
        # asyncio.ThreadSafeFlag, safe from a hard IRQ), so the reader wakes at once.
        self.wake = None

    def push(self, mask, tick):
        """Append a snapshot; when full, drop it, count it and return False."""
        w = self._w
        nxt = w + 1
        if nxt == self._n:
            nxt = 0
        if nxt == self._r:
            self.overflows += 1
            return False
        self._masks[w] = mask
        self._ticks[w] = tick
        self._w = nxt
        self.level = mask
        wake = self.wake
        if wake is not None:
            wake.set()
        return True

    def update(self, bits, field, tick):
        """Push the last level with the bits in field replaced by bits, if that changes it."""
        mask = (self.level & ~field) | bits
        if mask == self.level:
            return False
        return self.push(mask, tick)

    def pop(self, out):
        """Oldest snapshot into out[0] (mask) and out[1] (tick); False when empty."""
        r = self._r
        if r == self._w:
            return False
        out[0] = self._masks[r]
        out[1] = self._ticks[r]
        r += 1
        if r == self._n:
            r = 0
        self._r = r
        return True

    def __len__(self):
        d = self._w - self._r
        if d < 0:
            d += self._n
        return d


class Debouncer:
    """Turns snapshots into one press and one release per physical press.

    Leading-edge debounce: the first down edge of an idle button is reported at once as a
    press carrying that edge's tick, so debouncing neither delays nor moves the press
    time. From then on the button counts as down, whatever its line does, until the line
    has stayed up for debounce_us without a break; the release is then reported with the
    tick at which that stable-up stretch began. Chatter of any length shorter than
    debounce_us therefore gives exactly one press and one release.

    Faults: a button down in the start() mask is held_at_boot; a button down for stuck_us
    becomes stuck. Both are ignored (no events) until their line has been stably up, then
    cleared; a stuck button's release is reported (its press was), a held-at-boot one's
    is not (no press was). `flagged` keeps every button ever flagged until the caller
    clears it, for the UI to report.

    Time only advances through feed() ticks and poll(now): call poll() every few ms so
    releases and stuck buttons are noticed when no edge arrives.
    """

    def __init__(self, n_inputs=N_INPUTS, debounce_us=25000, stuck_us=10000000, queue=32):
        if not 1 <= n_inputs <= 30:
            raise ValueError("n_inputs must be 1..30")
        if not 0 < debounce_us < stuck_us < (1 << 29):
            raise ValueError("need 0 < debounce_us < stuck_us < 2**29")
        self.n_inputs = n_inputs
        self.debounce_us = debounce_us
        self.stuck_us = stuck_us
        self._all = (1 << n_inputs) - 1
        self._raw = 0  # line levels as of the last snapshot
        self._busy = 0  # debounced down: pressed, held at boot or stuck
        self._down_at = [0] * n_inputs  # tick of the press (stuck timer)
        self._up_at = [0] * n_inputs  # tick the line last went up (release timer)
        self.held_at_boot = 0
        self.stuck = 0
        self.flagged = 0
        # Event queue: button, is_down, tick; one slot stays empty as in EdgeRing.
        n = queue + 1
        self._q_button = [0] * n
        self._q_down = [0] * n
        self._q_tick = [0] * n
        self._qn = n
        self._qw = 0
        self._qr = 0
        self.overflows = 0  # events dropped because take() was not called often enough

    def start(self, mask, tick):
        """Boot reference: buttons down in mask are held_at_boot (ignored until released)."""
        mask &= self._all
        self._raw = mask
        self._busy = mask
        self.held_at_boot = mask
        self.stuck = 0
        self.flagged |= mask
        tick &= TICKS_MASK
        for i in range(self.n_inputs):
            self._down_at[i] = tick
            self._up_at[i] = tick

    def ignored(self):
        """Mask of buttons whose events are suppressed (held at boot or stuck)."""
        return self.held_at_boot | self.stuck

    def is_down(self, button):
        """Debounced level of one button (held-at-boot and stuck buttons count as down)."""
        return (self._busy >> button) & 1

    def feed(self, mask, tick):
        """One snapshot: mask of the lines down at tick (the ring's order is the time order)."""
        mask &= self._all
        tick &= TICKS_MASK
        if self._busy:
            self.poll(tick)  # releases that completed before this snapshot come first
        changed = mask ^ self._raw
        if not changed:
            return
        self._raw = mask
        ups = changed & self._busy & ~mask
        if ups:
            self._mark_up(ups, tick)
        downs = changed & mask & ~self._busy
        if downs:
            self._press(downs, tick)

    def poll(self, now):
        """Confirm releases whose line stayed up debounce_us, flag buttons down stuck_us."""
        busy = self._busy
        if not busy:
            return
        now &= TICKS_MASK
        up = busy & ~self._raw
        if up:
            self._confirm_up(up, now)
        down = busy & self._raw & ~self.held_at_boot & ~self.stuck
        if down:
            self._check_stuck(down, now)

    def take(self, out):
        """Oldest event into out: [button, is_down (1/0), tick]; False when none."""
        r = self._qr
        if r == self._qw:
            return False
        out[0] = self._q_button[r]
        out[1] = self._q_down[r]
        out[2] = self._q_tick[r]
        r += 1
        if r == self._qn:
            r = 0
        self._qr = r
        return True

    def pending(self):
        d = self._qw - self._qr
        if d < 0:
            d += self._qn
        return d

    # -- helpers, each small enough to keep its frame off the heap --

    def _mark_up(self, ups, tick):
        up_at = self._up_at
        i = 0
        while ups:
            if ups & 1:
                up_at[i] = tick
            ups >>= 1
            i += 1

    def _press(self, downs, tick):
        self._busy |= downs
        down_at = self._down_at
        i = 0
        while downs:
            if downs & 1:
                down_at[i] = tick
                self._emit(i, 1, tick)
            downs >>= 1
            i += 1

    def _confirm_up(self, up, now):
        up_at = self._up_at
        limit = self.debounce_us
        i = 0
        while up:
            if up & 1 and ticks_diff(now, up_at[i]) >= limit:
                self._release(i)
            up >>= 1
            i += 1

    def _release(self, i):
        bit = 1 << i
        self._busy &= ~bit
        if self.held_at_boot & bit:
            self.held_at_boot &= ~bit  # never reported as pressed: no release either
            return
        self.stuck &= ~bit
        self._emit(i, 0, self._up_at[i])

    def _check_stuck(self, down, now):
        down_at = self._down_at
        limit = self.stuck_us
        i = 0
        while down:
            if down & 1 and ticks_diff(now, down_at[i]) >= limit:
                self.stuck |= 1 << i
                self.flagged |= 1 << i
            down >>= 1
            i += 1

    def _emit(self, button, is_down, tick):
        w = self._qw
        nxt = w + 1
        if nxt == self._qn:
            nxt = 0
        if nxt == self._qr:
            self.overflows += 1
            return
        self._q_button[w] = button
        self._q_down[w] = is_down
        self._q_tick[w] = tick
        self._qw = nxt


class IrqCapture:
    """Capture for boards without PIO: a hard IRQ on both edges of every pin.

    pins: a list indexed by snapshot bit; each entry a Pin-like object (value(), irq(),
    IRQ_FALLING, IRQ_RISING) wired active low, or None for bits this capture does not
    own. Each edge's handler stamps now() first (default: the 30-bit
    firmware.ticks.ticks_us, not time.ticks_us, which wraps at 2**62 on unix), then reads
    only the pin that raised it and merges that one bit into the ring's level
    (EdgeRing.update). A press on another pin meanwhile is left to that pin's own handler
    and stamp, so two presses are told apart as closely as the interrupts run, not merged
    into one snapshot while a handler reads every pin.

    Fairness: the stamp lags the edge by the IRQ latency (about 15 us on a Pico, longer
    while interrupts are off, e.g. during a NeoPixel write). rp2 MicroPython reads the
    pending GPIO interrupts of a bank of 8 pins at once and dispatches them in pin order,
    so of two presses that are both pending when it does, the lower pin is stamped first
    whichever came first (docs/buttons-and-arbiter.md gives the measured figures). The
    PIO path (firmware/pio_capture.py) has none of these effects and is the one to use on
    a Pico.
    """

    def __init__(self, pins, ring, now=ticks_us):
        self._pins = list(pins)
        self._n = len(self._pins)
        field = 0
        for i in range(self._n):
            if self._pins[i] is not None:
                field |= 1 << i
        self.field = field
        # pin -> its bit, for the one handler all pins share
        self._bit_of = {}
        for i in range(self._n):
            if self._pins[i] is not None:
                self._bit_of[self._pins[i]] = 1 << i
        self._ring = ring
        self._now = now
        self.edges = 0  # handler runs (chatter included)
        # Bound method made once: creating it inside the IRQ would allocate.
        self._handler = self._on_edge

    def read(self):
        """Mask of the owned buttons that are down now."""
        pins = self._pins
        m = 0
        for i in range(self._n):
            p = pins[i]
            if p is not None and not p.value():
                m |= 1 << i
        return m

    def start(self):
        """Take the current levels as the ring's level (no snapshot) and enable the IRQs."""
        ring = self._ring
        ring.level = (ring.level & ~self.field) | self.read()
        for p in self._pins:
            if p is not None:
                p.irq(handler=self._handler, trigger=p.IRQ_FALLING | p.IRQ_RISING, hard=True)

    def stop(self):
        for p in self._pins:
            if p is not None:
                p.irq(handler=None)

    def _on_edge(self, pin):
        t = self._now()  # stamp first: closest to the edge
        bit = self._bit_of[pin]
        self.edges += 1
        self._ring.update(0 if pin.value() else bit, bit, t)
