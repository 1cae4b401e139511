"""The input path without the app: snapshots -> Debouncer -> Arbiter, polled as the app's
input task polls it. Used by the unix-port tests and, sent as source, on the emulated
Pico's REPL (tests/host/pico_capture_runs.py): it imports firmware modules only."""

from firmware.arbiter import NONE, Arbiter
from firmware.buttons import Debouncer
from firmware.ticks import ticks_add, ticks_diff


class Chain:
    """Snapshots -> Debouncer -> Arbiter, polling like the app's loop, which also asks the
    arbiter when its next decision falls due (to sleep until then)."""

    def __init__(self, n_players=8, window=1000, debounce_us=25000, lockout_us=800000):
        self.deb = Debouncer(debounce_us=debounce_us)
        self.arb = Arbiter(n_players, tie_window_us=window, lockout_us=lockout_us)
        self.ev = [0, 0, 0]
        self.snap = [0, 0]
        self._results = [0] * 16  # preallocated: the chain runs under heap_lock too
        self._n = 0
        self.due = -1

    @property
    def results(self):
        return self._results[: self._n]

    def feed(self, mask, tick):
        self.deb.feed(mask, tick)
        self.deliver()
        self.poll(tick)

    def deliver(self):
        ev = self.ev
        while self.deb.take(ev):
            if ev[0] < 8:
                if ev[1]:
                    self.arb.press(ev[0], ev[2])
                else:
                    self.arb.release(ev[0], ev[2])

    def poll(self, now):
        self.deb.poll(now)
        self.deliver()
        self.arb.set_ignored(self.deb.ignored())
        code = self.arb.poll(now)
        while code != NONE:
            self._results[self._n] = code
            self._n += 1
            code = self.arb.poll(now)
        self.due = self.arb.due()

    def pump(self, ring, now, end, lag_us):
        """What a capture puts in `ring` through the chain until now() reaches tick `end`, as
        the app's input pass takes it: the clock (less the capture's lag) read first, then
        the ring drained, then the poll at that reading."""
        snap = self.snap
        while True:
            t = ticks_add(now(), -lag_us)
            while ring.pop(snap):
                self.feed(snap[0], snap[1])
            self.poll(t)
            if ticks_diff(t, end) >= 0:
                return
