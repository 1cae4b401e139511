"""Deterministic PRNG shared by every engine.

Algorithm: xoshiro128** (Blackman & Vigna, 2018) over four 32-bit words.
Each 32-bit word is held as two 16-bit halves so that no intermediate value
reaches 2**30: on a 32-bit MicroPython port larger ints are heap objects, and
drawing a number must not allocate (the capture path and the engine share
this code). Every shift is applied to a masked half, so the largest value
ever formed is below 2**29.

Seeding: the seed (any int, reduced to 32 bits) fills the state through a
32-bit xorshift stream, then 8 outputs are discarded. The state is a list of
eight small ints and is part of every game's saved state.
"""

_M16 = 0xFFFF


class Rng:
    # s: the eight 16-bit halves of the state; o: the last output (hi, lo),
    # kept in a preallocated list because returning a tuple would allocate.

    def __init__(self, seed=0, state=None):
        if state is not None:
            if len(state) != 8:
                raise ValueError("rng state needs 8 ints")
            for v in state:
                if not (0 <= v <= _M16):
                    raise ValueError("rng state ints must be 16-bit")
            if not any(state):
                raise ValueError("rng state must not be all zero")
            self.s = list(state)
            self.o = [0, 0]
            return
        seed = int(seed)
        hi = (seed >> 16) & _M16
        lo = seed & _M16
        if not (hi or lo):
            hi, lo = 0x9E37, 0x79B9
        s = []
        for _ in range(4):
            # xorshift32 (13, 17, 5) on the two halves
            hi ^= ((hi << 13) | (lo >> 3)) & _M16
            lo ^= (lo << 13) & _M16
            lo ^= hi >> 1
            hi ^= ((hi << 5) | (lo >> 11)) & _M16
            lo ^= (lo << 5) & _M16
            s.append(hi)
            s.append(lo)
        self.s = s
        self.o = [0, 0]
        for _ in range(8):
            self.next16()

    def state(self):
        return list(self.s)

    def copy(self):
        """An independent generator in the same state (no re-validation)."""
        r = object.__new__(Rng)
        r.s = list(self.s)
        r.o = [0, 0]
        return r

    def _step(self):
        """Advance the generator one step; the output goes to self.o as [hi, lo]."""
        s = self.s
        # result = rotl(s1 * 5, 7) * 9, all mod 2**32
        h = s[2]
        lo = s[3] * 5
        hi = (h * 5 + (lo >> 16)) & _M16
        lo &= _M16
        # rotl by 7
        hi, lo = ((hi << 7) | (lo >> 9)) & _M16, ((lo << 7) | (hi >> 9)) & _M16
        lo *= 9
        hi = (hi * 9 + (lo >> 16)) & _M16
        lo &= _M16
        # t = s1 << 9
        th = ((s[2] << 9) | (s[3] >> 7)) & _M16
        tl = (s[3] << 9) & _M16
        # s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11)
        s[4] ^= s[0]
        s[5] ^= s[1]
        s[6] ^= s[2]
        s[7] ^= s[3]
        s[2] ^= s[4]
        s[3] ^= s[5]
        s[0] ^= s[6]
        s[1] ^= s[7]
        s[4] ^= th
        s[5] ^= tl
        a = s[6]
        b = s[7]
        s[6] = ((a << 11) | (b >> 5)) & _M16
        s[7] = ((b << 11) | (a >> 5)) & _M16
        o = self.o
        o[0] = hi
        o[1] = lo

    def next16(self):
        """Upper 16 bits of the next 32-bit output."""
        self._step()
        return self.o[0]

    def next30(self):
        """Upper 30 bits of the next 32-bit output: 0 <= n < 2**30, a small int everywhere."""
        self._step()
        o = self.o
        return (o[0] << 14) | (o[1] >> 2)

    def below(self, n):
        """Uniform int in [0, n), 0 < n < 2**30, without modulo bias (rejection)."""
        if n <= 0 or n > 0x3FFFFFFF:
            raise ValueError("below() needs 0 < n < 2**30")
        # accept r < 2**30 - (2**30 % n); 2**30 itself is not a small int, so use 2**30 - 1.
        rem = (0x3FFFFFFF % n + 1) % n
        limit = 0x3FFFFFFF - rem
        while True:
            r = self.next30()
            if r <= limit:
                return r % n

    def shuffle(self, items):
        """Uniform in-place Fisher-Yates: j ranges over 0..i inclusive (not Sattolo)."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
        return items
