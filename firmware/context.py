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

The app builds one per mode start (firmware/app.py), over its clock and input view
(firmware/app_parts.py); the mode harness of the tests builds the same one over a virtual
clock and a recording display (tests/shared/mode_harness.py). The app loads this module
with the mode and forgets it with the mode: the menu does not hold it.
"""

from firmware import settings as settings_mod


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
