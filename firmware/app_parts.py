"""The app's clock and its input task's view, which it hands to each mode's context
(firmware/context.py): the parts of the context the menu needs too."""

import time


class Clock:
    """Milliseconds for timeouts, and the wall time the host set (time_set)."""

    def __init__(self):
        self._epoch = None  # (epoch seconds, ticks_ms) at the host's time_set

    def now_ms(self):
        return time.ticks_ms()

    def set_epoch(self, epoch):
        if not isinstance(epoch, int) or isinstance(epoch, bool) or epoch < 0:
            raise ValueError("epoch must be an int >= 0")
        self._epoch = (epoch, self.now_ms())

    def is_set(self):
        return self._epoch is not None

    def epoch(self):
        """Seconds since 1970 as set by the host, or None before the first time_set."""
        if self._epoch is None:
            return None
        return self._epoch[0] + time.ticks_diff(self.now_ms(), self._epoch[1]) // 1000


class Input:
    """The input task's view for a mode: its clock reading and the buttons to ignore."""

    def __init__(self, debouncer, n_players):
        self.debouncer = debouncer  # its held_at_boot and stuck: a press reads them, no call
        self._players_mask = (1 << n_players) - 1
        self.at_us = 0  # set by the input task before each drain

    def now_us(self):
        return self.at_us

    def ignored(self):
        return self.debouncer.ignored() & self._players_mask
