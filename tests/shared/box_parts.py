"""The stand-in parts a mode's context is built over in the specs: a virtual clock, an LED
strip and a screen that count their writes, a debouncer with nothing stuck. Kept apart from
the harness (tests.shared.mode_harness) so a test of the session alone does not load the
display and the mode registry.
"""


class VirtualClock:
    """The context's clock, moved by the spec: ms follow the input task's µs reading."""

    def __init__(self):
        self.us = 0

    def now_ms(self):
        return self.us // 1000

    def epoch(self):
        return None


class Strip:
    """A neopixel-like chain that counts its writes."""

    def __init__(self, n):
        self.n = n
        self.px = [(0, 0, 0)] * n
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        self.px[i] = colour

    def __getitem__(self, i):
        return self.px[i]

    def write(self):
        self.writes += 1


class Screen:
    """framebuf-like target: the Display keeps the text, this only counts frames."""

    def __init__(self):
        self.frames = 0

    def fill(self, c):
        pass

    def fill_rect(self, x, y, w, h, c):
        pass

    def text(self, s, x, y, c):
        pass

    def show(self):
        self.frames += 1


class Debounced:
    """What the input task's debouncer tells a mode: no button held at boot or stuck."""

    stuck = 0
    held_at_boot = 0

    def ignored(self):
        return self.stuck
