"""What a mode may use of the box: a narrow context, never the whole app.

    input     .now_us(): the µs tick the input task read before its last drain (decisions
              due up to then are safe to make); .ignored(): player buttons held at boot or
              stuck (mask, bit i = seat i), whose presses must not count
    leds, display (None without an OLED), sound: the output drivers
    clock     .now_ms(), .epoch() (seconds since 1970 once the host set the time, else None)
    journal   the append-only record store (firmware.journal.Journal)
    settings  the mode's own namespace: .get() -> dict, .update(changes)
    roster    seat_names(n), seat_colours(n)
    emit(kind, fields)   an event for the serial host and the sim front-end
    data_dir  where the mode's session keeps its files

The app builds one per mode start (firmware/app.py); the mode harness of the tests builds
the same one over a virtual clock and a recording display (tests/shared/mode_harness.py).
"""

import time

from firmware import settings as settings_mod


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
        self._debouncer = debouncer
        self._players_mask = (1 << n_players) - 1
        self.at_us = 0  # set by the input task before each drain

    def now_us(self):
        return self.at_us

    def ignored(self):
        return self._debouncer.ignored() & self._players_mask


class ModeSettings:
    """One mode's settings namespace in the box settings (get, update), and the roster's seat
    names and colours (seat_names, seat_colours). The context gives this one object as both
    .settings and .roster: one class and one instance less on a running mode's heap."""

    def __init__(self, settings, name):
        self._settings = settings
        self.name = name

    def get(self):
        return self._settings.get(self.name)

    def update(self, changes):
        self._settings.update({self.name: changes})

    def seat_names(self, n):
        return settings_mod.seat_names(self._settings.get("roster"), n)

    def seat_colours(self, n):
        return settings_mod.seat_colours(self._settings.get("roster"), n)


class Context:
    def __init__(self, name, input, leds, display, sound, clock, journal, settings, emit, data_dir):
        self.name = name
        self.input = input
        self.leds = leds
        self.display = display
        self.sound = sound
        self.clock = clock
        self.journal = journal
        self.settings = self.roster = ModeSettings(settings, name)
        self.emit = emit
        self.data_dir = data_dir
