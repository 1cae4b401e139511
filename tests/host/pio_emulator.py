"""Cycle-by-cycle emulator of one RP2040 PIO state machine, for the host tests.

It executes assembled 16-bit instruction words (firmware.pio_capture.assemble), decoded
by the field layout of the RP2040 datasheet's instruction table (section 3.4):

    JMP  000 ddddd cond  addr        WAIT 001 ddddd pol src index
    IN   010 ddddd src   count       OUT  011 ddddd dest count
    PUSH 100 ddddd 0 IfF Blk 00000   PULL 100 ddddd 1 IfE Blk 00000
    MOV  101 ddddd dest op src       IRQ  110 ddddd 0 Clr Wait index
    SET  111 ddddd dest data         (ddddd: all five bits are delay: no side-set)

Modelled, as the datasheet describes them:
- every instruction above with its conditions, sources and destinations, and delays;
- stalls: blocking PUSH/PULL on a full/empty FIFO, WAIT, IRQ wait (no delay while stalled);
- .wrap / .wrap_target;
- the FIFOs: 4 words each way, or 8 RX / 0 TX with fifo_join="rx" (8 TX / 0 RX: "tx");
- PUSH noblock on a full RX FIFO: the word is lost, ISR is still cleared, the sticky
  RXSTALL flag (FDEBUG) is set; PUSH iffull / PULL ifempty against a threshold of 32;
- MOV x, STATUS with EXECCTRL STATUS_SEL (0: TX level, 1: RX level) and STATUS_N:
  all ones while the selected FIFO holds fewer than N words, else all zeros;
- enable: the machine steps its program only while `enabled` (SM_ENABLE); the clock
  (cycle) runs either way, and its FIFO keeps its words while it is stopped;
- restart(), as rp2.StateMachine.restart(): SM_RESTART clears the shift counters, ISR,
  the delay and any stall, and the PC jumps to the program's first instruction; X, Y,
  OSR and the FIFOs are kept.
Input pins are read through gpio(cycle) -> 32-bit levels; the 2-flop input synchronizer
is left out (a constant delay, equal for every pin).

Not modelled, and refused (NotImplementedError) rather than run wrongly: side-set
(sideset_count), autopush/autopull, MOV/OUT EXEC, OUT_STICKY, fractional clock
dividers (one step is one state machine clock), WAIT source 11, and input/output
shift thresholds other than 32.
"""

from collections import deque

M32 = 0xFFFFFFFF


def _rotr(v, n):
    n &= 31
    return ((v >> n) | (v << (32 - n))) & M32 if n else v


def _reverse32(v):
    return int("{:032b}".format(v & M32)[::-1], 2)


class PioEmulator:
    def __init__(self, words, wrap_target, wrap, gpio, in_base=0, jmp_pin=0, sm_id=0,
                 in_shift_left=True, out_shift_left=True, fifo_join=None, status_sel=0, status_n=0,
                 sideset_count=0, autopush=False, autopull=False, push_thresh=32, pull_thresh=32):
        if len(words) > 32:
            raise ValueError("PIO instruction memory holds 32 words")
        if sideset_count:
            raise NotImplementedError("side-set is not modelled")
        if autopush or autopull:
            raise NotImplementedError("autopush/autopull are not modelled")
        if push_thresh != 32 or pull_thresh != 32:
            raise NotImplementedError("shift thresholds other than 32 are not modelled")
        if fifo_join not in (None, "rx", "tx"):
            raise ValueError("fifo_join is None, 'rx' or 'tx'")
        if status_sel not in (0, 1) or not 0 <= status_n <= 15:
            raise ValueError("STATUS_SEL is 0 or 1, STATUS_N 0..15")
        self.words = list(words)
        self.wrap_target = wrap_target
        self.wrap = wrap
        self.gpio = gpio
        self.in_base = in_base
        self.jmp_pin = jmp_pin
        self.sm_id = sm_id
        self.in_shift_left = in_shift_left
        self.out_shift_left = out_shift_left
        self.rx = deque()
        self.tx = deque()
        self.rx_depth = {None: 4, "rx": 8, "tx": 0}[fifo_join]
        self.tx_depth = {None: 4, "rx": 0, "tx": 8}[fifo_join]
        self.status_sel = status_sel
        self.status_n = status_n
        self.enabled = False  # SM_ENABLE: set by the driver (rp2.StateMachine.active)
        self.pc = 0
        self.x = self.y = self.isr = self.osr = 0
        self.isr_count = 0
        self.osr_count = 32  # empty
        self.irq_flags = 0
        self.pins_out = 0
        self.pindirs = 0
        self.cycle = 0
        self.delay = 0
        self.rxstall = False
        self.stalls = 0
        self._irq_waiting = False
        self.executed = 0
        self.on_execute = None  # optional callback(cycle, pc, word) for each executed instruction

    # -- registers seen from outside --

    def read_pins(self):
        return _rotr(self.gpio(self.cycle) & M32, self.in_base)

    def _irq_index(self, index):
        if index & 0x10:  # rel: add the state machine number to the two LSBs, modulo 4
            return (index & 0x4) | ((index + self.sm_id) & 0x3)
        return index & 0x7

    def restart(self):
        """SM_RESTART plus the jump to the program's start, as rp2.StateMachine.restart() does."""
        self.isr = 0
        self.isr_count = 0
        self.osr_count = 32
        self.delay = 0
        self._irq_waiting = False
        self.pc = 0

    # -- execution --

    def run(self, cycles):
        for _ in range(cycles):
            self.step()

    def step(self):
        """One state machine clock cycle (the program advances only while enabled)."""
        if not self.enabled:
            self.cycle += 1
            return
        if self.delay:
            self.delay -= 1
            self.cycle += 1
            return
        word = self.words[self.pc]
        nxt = self.wrap_target if self.pc == self.wrap else (self.pc + 1) & 31
        nxt = self._execute(word, nxt)
        if nxt is None:  # stalled: the same instruction runs again next cycle, no delay
            self.stalls += 1
            self.cycle += 1
            return
        if self.on_execute is not None:
            self.on_execute(self.cycle, self.pc, word)
        self.executed += 1
        self.pc = nxt
        self.delay = (word >> 8) & 31
        self.cycle += 1

    def _execute(self, word, nxt):
        op = word >> 13
        arg1 = (word >> 5) & 7
        low = word & 31
        if op == 0:
            return self._jmp(arg1, low, nxt)
        if op == 1:
            return self._wait(word, nxt)
        if op == 2:
            self._shift_in(self._source(arg1, in_op=True), low or 32)
            return nxt
        if op == 3:
            return self._out(arg1, low or 32, nxt)
        if op == 4:
            return self._pull(word, nxt) if word & 0x80 else self._push(word, nxt)
        if op == 5:
            return self._mov(word, nxt)
        if op == 6:
            return self._irq(word, nxt)
        return self._set(arg1, low, nxt)

    def _jmp(self, cond, addr, nxt):
        if cond == 0:
            take = True
        elif cond == 1:
            take = self.x == 0
        elif cond == 2:
            take = self.x != 0
            self.x = (self.x - 1) & M32
        elif cond == 3:
            take = self.y == 0
        elif cond == 4:
            take = self.y != 0
            self.y = (self.y - 1) & M32
        elif cond == 5:
            take = self.x != self.y
        elif cond == 6:
            take = bool((self.gpio(self.cycle) >> self.jmp_pin) & 1)
        else:
            take = self.osr_count < 32
        return addr if take else nxt

    def _wait(self, word, nxt):
        pol = (word >> 7) & 1
        src = (word >> 5) & 3
        index = word & 31
        if src == 0:
            met = ((self.gpio(self.cycle) >> index) & 1) == pol
        elif src == 1:
            met = (self.read_pins() >> index) & 1 == pol
        elif src == 2:
            bit = 1 << self._irq_index(index)
            met = bool(self.irq_flags & bit) == bool(pol)
            if met and pol:
                self.irq_flags &= ~bit
        else:
            raise NotImplementedError("WAIT source 11 is reserved on RP2040")
        return nxt if met else None

    def _source(self, src, in_op):
        if src == 0:
            return self.read_pins()
        if src == 1:
            return self.x
        if src == 2:
            return self.y
        if src == 3:
            return 0
        if src == 6:
            return self.isr
        if src == 7:
            return self.osr
        if src == 5 and not in_op:
            level = len(self.rx) if self.status_sel else len(self.tx)
            return M32 if level < self.status_n else 0
        raise ValueError("reserved source %d" % src)

    def _shift_in(self, value, n):
        data = value & ((1 << n) - 1)
        if n == 32:
            self.isr = data
        elif self.in_shift_left:
            self.isr = ((self.isr << n) | data) & M32
        else:
            self.isr = (self.isr >> n) | (data << (32 - n))
        self.isr_count = min(32, self.isr_count + n)

    def _out(self, dest, n, nxt):
        if n == 32:
            data = self.osr
            self.osr = 0
        elif self.out_shift_left:
            data = self.osr >> (32 - n)
            self.osr = (self.osr << n) & M32
        else:
            data = self.osr & ((1 << n) - 1)
            self.osr >>= n
        self.osr_count = min(32, self.osr_count + n)
        if dest == 0:
            self.pins_out = data
        elif dest == 1:
            self.x = data
        elif dest == 2:
            self.y = data
        elif dest == 4:
            self.pindirs = data
        elif dest == 5:
            return data & 31
        elif dest == 6:
            self.isr = data
            self.isr_count = n
        elif dest == 7:
            raise NotImplementedError("OUT EXEC")
        return nxt

    def _push(self, word, nxt):
        if word & 0x40 and self.isr_count < 32:  # iffull with the default threshold of 32
            return nxt
        if len(self.rx) >= self.rx_depth:
            if word & 0x20:
                return None  # block: stall until the CPU reads
            self.rxstall = True  # noblock: data lost, FIFO unchanged, ISR still cleared
        else:
            self.rx.append(self.isr)
        self.isr = 0
        self.isr_count = 0
        return nxt

    def _pull(self, word, nxt):
        if word & 0x40 and self.osr_count < 32:  # ifempty
            return nxt
        if not self.tx:
            if word & 0x20:
                return None
            self.osr = self.x  # noblock on an empty FIFO copies X
        else:
            self.osr = self.tx.popleft()
        self.osr_count = 0
        return nxt

    def _mov(self, word, nxt):
        dest = (word >> 5) & 7
        mov_op = (word >> 3) & 3
        value = self._source(word & 7, in_op=False)
        if mov_op == 1:
            value = ~value & M32
        elif mov_op == 2:
            value = _reverse32(value)
        elif mov_op == 3:
            raise ValueError("reserved MOV operation")
        if dest == 0:
            self.pins_out = value
        elif dest == 1:
            self.x = value
        elif dest == 2:
            self.y = value
        elif dest == 5:
            return value & 31
        elif dest == 6:
            self.isr = value
            self.isr_count = 0
        elif dest == 7:
            self.osr = value
            self.osr_count = 0
        elif dest == 4:
            raise NotImplementedError("MOV EXEC")
        else:
            raise ValueError("reserved MOV destination %d" % dest)
        return nxt

    def _irq(self, word, nxt):
        bit = 1 << self._irq_index(word & 31)
        if word & 0x40:  # clear
            self.irq_flags &= ~bit
            return nxt
        if not self._irq_waiting:
            self.irq_flags |= bit
            if not word & 0x20:
                return nxt
            self._irq_waiting = True
        if self.irq_flags & bit:  # wait: stall until someone clears the flag
            return None
        self._irq_waiting = False
        return nxt

    def _set(self, dest, data, nxt):
        if dest == 0:
            self.pins_out = data
        elif dest == 1:
            self.x = data
        elif dest == 2:
            self.y = data
        elif dest == 4:
            self.pindirs = data
        else:
            raise ValueError("reserved SET destination %d" % dest)
        return nxt
