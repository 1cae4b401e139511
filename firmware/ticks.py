"""Microsecond ticks in one 30-bit wrapping domain, the same on every runtime.

The Pico's time.ticks_us() wraps at 2**30 (the largest small int on a 32-bit port is
2**30 - 1); the 64-bit unix port wraps at 2**62 and CPython has no ticks at all. The
capture paths, the debouncer and the arbiter all work in the Pico's domain: ticks_us()
masks to 30 bits, and ticks_diff / ticks_add follow MicroPython's time.ticks_diff /
time.ticks_add semantics in plain arithmetic. Their intermediate values stay inside
-2**30 .. 2**30 - 1, so they allocate nothing on a 32-bit port either, and they accept
any values congruent mod 2**30 (a 62-bit unix tick works as well as its masked value).
"""

import time as _time

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


TICKS_MASK = const(0x3FFFFFFF)  # TICKS_PERIOD - 1: a small int everywhere
TICKS_HALF = const(0x20000000)  # ticks_diff() returns values in [-TICKS_HALF, TICKS_HALF)
# 2**30 itself is a heap int on a 32-bit port: only for host-side maths and documentation.
TICKS_PERIOD = 1 << 30


def ticks_diff(a, b):
    """Signed a - b in [-2**29, 2**29): how far tick a is after tick b (negative: before)."""
    d = (a - b) & TICKS_MASK
    if d & TICKS_HALF:
        return d - TICKS_MASK - 1
    return d


def ticks_add(t, delta):
    """(t + delta) mod 2**30 for 0 <= t < 2**30 and -2**30 < delta < 2**30."""
    t &= TICKS_MASK
    if delta >= 0:
        room = TICKS_MASK - t  # steps left before the domain wraps
        if delta > room:
            return delta - room - 1
        return t + delta
    r = t + delta
    if r < 0:
        return r + TICKS_MASK + 1
    return r


if hasattr(_time, "ticks_add") and _time.ticks_add(0, -1) == TICKS_MASK:
    # A port whose own ticks wrap at 2**30 (the Pico's): they are this domain already, and the
    # built-in costs no Python frame (it is read at every input pass and in the capture's IRQ).
    ticks_us = _time.ticks_us

elif hasattr(_time, "ticks_us"):

    def ticks_us():
        """Now, in the 30-bit domain."""
        return _time.ticks_us() & TICKS_MASK

else:  # CPython: host tools and tests

    def ticks_us():
        """Now, in the 30-bit domain (monotonic clock)."""
        return (_time.monotonic_ns() // 1000) & TICKS_MASK
