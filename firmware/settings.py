"""Device settings: one schema, validation with a named key and reason, atomic replace.

The file is one canonical JSON object holding every setting. update() validates
all changes first, then writes a temp file, flushes, closes and renames it over
the old file (atomic on littlefs): after a power cut the file holds exactly the
old or exactly the new settings. A file that cannot be read or fails validation
never stops the device: defaults are used, the file is kept aside as
<name>.bad and .load_error says why. Keys missing from a file (written by an
older firmware) take their defaults.
"""

import json
import os

from firmware.journal import TMP_SUFFIX, replace_file
from firmware.record import canonical_json

MAX_FILE = 4096  # bytes; a real settings file is well under 1 KB

MODES = ("menu", "anomia", "anastasia_ledger", "anastasia_solo", "anathema")
ROSTER_MIN = 3
ROSTER_MAX = 8
NAME_MAX = 12

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


def default_roster():
    return [{"name": "P%d" % (i + 1), "colour": list(c)} for i, c in enumerate(DEFAULT_COLOURS)]


class SettingsError(ValueError):
    """A rejected setting: .key names it (None for a malformed request), .reason says why."""

    def __init__(self, key, reason):
        super().__init__("%s: %s" % (key, reason))
        self.key = key
        self.reason = reason


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _int_range(lo, hi):
    def check(v):
        if not _is_int(v):
            return "must be an int, got %r" % (v,)
        if not (lo <= v <= hi):
            return "must be %d..%d, got %d" % (lo, hi, v)
        return None

    return check


def _check_bool(v):
    if not isinstance(v, bool):
        return "must be true or false, got %r" % (v,)
    return None


def _check_mode(v):
    if v not in MODES:
        return "must be one of %s, got %r" % (", ".join(MODES), v)
    return None


def _check_automa_deck(v):
    # The automa mode validates the cards themselves.
    if v is not None and not isinstance(v, list):
        return "must be null or a list, got %r" % (v,)
    return None


def _check_name(name):
    if not isinstance(name, str) or not (1 <= len(name) <= NAME_MAX):
        return "name must be a str of 1..%d chars, got %r" % (NAME_MAX, name)
    for c in name:
        if not (" " <= c <= "~"):
            return "name must be printable ASCII, got %r" % (name,)
    if not name.strip():
        return "name must not be blank"
    return None


def _check_colour(colour):
    if not isinstance(colour, (list, tuple)) or len(colour) != 3:
        return "colour must be [r, g, b], got %r" % (colour,)
    for c in colour:
        if not _is_int(c) or not (0 <= c <= 255):
            return "colour values must be ints 0..255, got %r" % (colour,)
    return None


def _check_roster(v):
    if not isinstance(v, list) or not (ROSTER_MIN <= len(v) <= ROSTER_MAX):
        return "must be a list of %d..%d players" % (ROSTER_MIN, ROSTER_MAX)
    for i, entry in enumerate(v):
        if not isinstance(entry, dict):
            return "player %d must be {name, colour}, got %r" % (i + 1, entry)
        for k in entry:
            if k != "name" and k != "colour":
                return "player %d has unknown field %r" % (i + 1, k)
        if "name" not in entry or "colour" not in entry:
            return "player %d needs name and colour" % (i + 1)
        why = _check_name(entry["name"]) or _check_colour(entry["colour"])
        if why:
            return "player %d %s" % (i + 1, why)
    return None


# The schema: key -> (check returning None or a reason, default factory).
SCHEMA = {
    "roster": (_check_roster, default_roster),
    "players": (_int_range(ROSTER_MIN, ROSTER_MAX), lambda: 4),
    "tie_window_us": (_int_range(0, 50000), lambda: 1000),
    "lockout_ms": (_int_range(0, 10000), lambda: 800),
    "brightness": (_int_range(1, 255), lambda: 64),
    "sound": (_check_bool, lambda: True),
    "debounce_ms": (_int_range(1, 100), lambda: 25),
    "mode": (_check_mode, lambda: "menu"),
    "automa_deck": (_check_automa_deck, lambda: None),
}


def defaults():
    out = {}
    for key in SCHEMA:
        out[key] = SCHEMA[key][1]()
    return out


def _copy(v):
    # Settings values are JSON data: a deep copy keeps callers from editing the live state.
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(v[k]) for k in v}
    return v


def check(values, changed):
    """Validate the complete settings dict values; changed lists the keys to blame first."""
    for key in changed:
        if key not in SCHEMA:
            raise SettingsError(key, "unknown setting")
        why = SCHEMA[key][0](values[key])
        if why:
            raise SettingsError(key, why)
    if values["players"] > len(values["roster"]):
        key = "players" if "players" in changed or "roster" not in changed else "roster"
        raise SettingsError(key, "%d players in use but the roster has %d"
                            % (values["players"], len(values["roster"])))


def bad_path(path):
    """Where a rejected settings file is kept: settings.json -> settings.bad."""
    stem = path[:-5] if path.endswith(".json") else path
    return stem + ".bad"


class Settings:
    def __init__(self, path):
        self.path = path
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
            if size > MAX_FILE:
                raise SettingsError(None, "file is over %d bytes" % MAX_FILE)
            # read exactly the file: f.read(n) reserves n bytes, and a big hole may not exist
            with open(self.path, "rb") as f:
                text = f.read(size)
            loaded = json.loads(text)
            if not isinstance(loaded, dict):
                raise SettingsError(None, "file is not a JSON object")
            values = defaults()
            for key in loaded:
                values[key] = loaded[key]
            check(values, list(loaded))
        except Exception as e:  # whatever is wrong with the file, the device must start
            self.load_error = "settings file rejected (%s), defaults in use, kept as %s" % (
                e, bad_path(self.path))
            try:
                os.rename(self.path, bad_path(self.path))
            except OSError:
                pass
            return
        self._values = values

    def get(self, key):
        if key not in SCHEMA:
            raise SettingsError(key, "unknown setting")
        return _copy(self._values[key])

    def all(self):
        return _copy(self._values)

    def _merged(self, changes):
        if not isinstance(changes, dict):
            raise SettingsError(None, "changes must be a dict, got %r" % (changes,))
        for key in changes:
            if key not in SCHEMA:
                raise SettingsError(key, "unknown setting")
        values = _copy(self._values)
        for key in changes:
            values[key] = _copy(changes[key])
        check(values, list(changes))
        return values

    def validate(self, changes):
        """Raise SettingsError for the first bad key in changes (checked against current settings)."""
        self._merged(changes)

    def update(self, changes):
        """Validate every change, then replace the file atomically; on any error nothing changes."""
        values = self._merged(changes)
        replace_file(self.path, canonical_json(values))
        self._values = values
