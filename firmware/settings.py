"""Device settings: one schema, validation with a named key and reason, atomic replace.

The file is one canonical JSON object: the box's own settings (roster, brightness,
sound, debounce, the mode to come back in) and one namespace per mode, named after it,
holding that mode's settings as its entry in firmware/modes declares them
({"anomia": {"players": 4, "tie_window_us": 1000, "lockout_ms": 800}}). A change to a
namespace names only the keys it changes; the rest stay.

update() validates all changes first, then writes a temp file, flushes, closes and
renames it over the old file (atomic on littlefs): after a power cut the file holds
exactly the old or exactly the new settings. A file that cannot be read or fails
validation never stops the device: defaults are used, the file is kept aside as
<name>.bad and .load_error says why. Keys missing from a file take their defaults.
A flat file written before the namespaces existed is migrated on load and written
back: every value moves into its mode's namespace (LEGACY_KEYS), nothing is dropped.
The namespace of a mode this firmware does not have is kept as it is.
The checks, the merge and the migration live in firmware/settings_check.py, loaded for a
file's load or a change and forgotten after (modes.call_once): the box's heap holds them only then.
"""

import os

from firmware import modes
from firmware.buttons import SEATS
from firmware.journal import TMP_SUFFIX, replace_file
from firmware.record import canonical_json

CHECKS = "firmware.settings_check"  # the checks, merge and migration (see above)
MAX_FILE = 4096  # bytes; a real settings file is well under 1 KB

ROSTER_MAX = SEATS
NAME_MAX = 12
# Keys of the flat file today's firmware wrote, and the mode namespace each moves into.
LEGACY_KEYS = {"players": "anomia", "tie_window_us": "anomia", "lockout_ms": "anomia",
               "automa_deck": "anastasia_solo"}

# Player n's default name and colour: red, green, blue, yellow, magenta, cyan, orange, white.
DEFAULT_COLOURS = (
    (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0),
    (255, 0, 255), (0, 255, 255), (255, 128, 0), (255, 255, 255),
)


def seat_colours(roster, seats=ROSTER_MAX):
    """One (r, g, b) per physical seat: the roster's, then the default palette beyond it."""
    out = []
    for i in range(seats):
        c = roster[i]["colour"] if i < len(roster) else DEFAULT_COLOURS[i]
        out.append((c[0], c[1], c[2]))
    return out


def seat_names(roster, seats):
    """The name of each of the first `seats` seats: the roster's, then P<n> beyond it."""
    return [roster[i]["name"] if i < len(roster) else "P%d" % (i + 1) for i in range(seats)]


def default_roster():
    return [{"name": "P%d" % (i + 1), "colour": list(c)} for i, c in enumerate(DEFAULT_COLOURS)]


class SettingsError(ValueError):
    """A rejected setting: .key names it (None for a malformed request), .reason says why."""

    def __init__(self, key, reason):
        super().__init__("%s: %s" % (key, reason))
        self.key = key
        self.reason = reason


# The box's own settings: key -> default factory (their checks: settings_check.BOX_CHECKS).
SCHEMA = {
    "roster": default_roster,
    "brightness": lambda: 64,
    "sound": lambda: True,
    "debounce_ms": lambda: 25,
    "mode": lambda: "menu",
}


def defaults():
    out = {}
    for key in SCHEMA:
        out[key] = SCHEMA[key]()
    for entry in modes.AVAILABLE:  # each mode's namespace: its players and its own settings
        ns = out[entry.name] = {"players": entry.default_players}
        for key in entry.settings:
            ns[key] = _copy(entry.settings[key][1])
    return out


def _copy(v):
    # Settings values are JSON data: a deep copy keeps callers from editing the live state.
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(v[k]) for k in v}
    return v


def bad_path(path):
    """Where a rejected settings file is kept: settings.json -> settings.bad."""
    stem = path[:-5] if path.endswith(".json") else path
    return stem + ".bad"


class Settings:
    def __init__(self, path, on_change=None):
        """on_change(changes): called after each successful update."""
        self.path = path
        self._on_change = on_change
        self.load_error = None
        self._values = defaults()
        self._load()

    def _load(self):
        try:
            os.remove(self.path + TMP_SUFFIX)  # a replacement cut short by power loss
        except OSError:
            pass
        try:
            size = os.stat(self.path)[6]
        except OSError:
            return  # no file yet: defaults
        try:
            values, moved = modes.call_once(CHECKS, "read", self.path, size)
        except Exception as e:  # whatever is wrong with the file, the device must start
            self.load_error = "settings file rejected (%s), defaults in use, kept as %s" % (
                e, bad_path(self.path))
            try:
                os.rename(self.path, bad_path(self.path))
            except OSError:
                pass
            return
        self._values = values
        if moved:
            try:
                replace_file(self.path, canonical_json(values))
            except OSError:
                pass  # kept in memory; written with the next change

    def get(self, key):
        """A box setting, or a mode's namespace (a dict) by the mode's name."""
        if key not in self._values or (key not in SCHEMA and modes.find(key) is None):
            raise SettingsError(key, "unknown setting")
        return _copy(self._values[key])

    def all(self):
        return _copy(self._values)

    def validate(self, changes):
        """Raise SettingsError for the first bad key in changes (checked against current settings)."""
        modes.call_once(CHECKS, "merge", self._values, changes)

    def update(self, changes):
        """Validate every change, then replace the file atomically; on any error nothing changes."""
        values = modes.call_once(CHECKS, "merge", self._values, changes)
        replace_file(self.path, canonical_json(values))
        self._values = values
        if self._on_change is not None:
            self._on_change(changes)
