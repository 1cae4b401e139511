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
"""

import json
import os

from firmware import modes
from firmware.buttons import SEATS
from firmware.checks import boolean, int_range
from firmware.journal import TMP_SUFFIX, replace_file
from firmware.record import canonical_json
from firmware.screen_text import screen_text

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


def _check_mode(v):
    if v != "menu" and modes.find(v) is None:
        return "must be menu or one of %s, got %r" % (", ".join(modes.names()), v)
    return None


def _check_name(name):
    if not isinstance(name, str) or not (1 <= len(name) <= NAME_MAX):
        return "name must be a str of 1..%d chars, got %r" % (NAME_MAX, name)
    for c in name:
        # Latin-1: the screen shows its letters as their ASCII base (firmware/screen_text.py)
        if not (" " <= c <= "~" or "\xa0" <= c <= "\xff"):
            return "name must be letters, digits and signs of Latin-1 (as in Zo\xeb or Jos\xe9), got %r" \
                % (name,)
    if not name.strip():
        return "name must not be blank"
    return None


def _check_distinct(roster):
    """Every seat's name its own, as people say it and as the screen shows it (a seat beyond
    the roster is P<n>): two players called alike would make every result ambiguous."""
    names = seat_names(roster, ROSTER_MAX)
    seen = {}
    for i in range(len(names)):
        key = screen_text(names[i]).strip().lower()
        j = seen.get(key)
        if j is None:
            seen[key] = i
            continue
        if i >= len(roster):  # i's name is its default: P<i+1>
            return "player %d is named %r, the name player %d has by default: each player needs a name" \
                " of their own" % (j + 1, names[j], i + 1)
        if names[i] == names[j]:
            return "players %d and %d are both named %r: each player needs a name of their own" % (
                j + 1, i + 1, names[i])
        return "players %d and %d, named %r and %r, read the same on the box's screen: each player" \
            " needs a name of their own" % (j + 1, i + 1, names[j], names[i])
    return None


def _check_colour(colour):
    if not isinstance(colour, (list, tuple)) or len(colour) != 3:
        return "colour must be [r, g, b], got %r" % (colour,)
    for c in colour:
        if not isinstance(c, int) or isinstance(c, bool) or not (0 <= c <= 255):
            return "colour values must be ints 0..255, got %r" % (colour,)
    return None


def _check_roster(v):
    if not isinstance(v, list) or not (1 <= len(v) <= ROSTER_MAX):
        return "must be a list of 1..%d players" % ROSTER_MAX
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


# The box's own settings: key -> (check returning None or a reason, default factory).
SCHEMA = {
    "roster": (_check_roster, default_roster),
    "brightness": (int_range(1, 255), lambda: 64),
    "sound": (boolean, lambda: True),
    "debounce_ms": (int_range(1, 100), lambda: 25),
    "mode": (_check_mode, lambda: "menu"),
}


def defaults():
    out = {}
    for key in SCHEMA:
        out[key] = SCHEMA[key][1]()
    for entry in modes.AVAILABLE:
        schema = entry.schema()
        out[entry.name] = {k: _copy(schema[k][1]) for k in schema}
    return out


def _copy(v):
    # Settings values are JSON data: a deep copy keeps callers from editing the live state.
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(v[k]) for k in v}
    return v


def migrate(values, loading=False):
    """A settings dict as today's firmware stores it, from one an older firmware wrote (the
    flat keys of LEGACY_KEYS move into their mode's namespace; loading, a mode to resume
    that this firmware does not have becomes the menu). Returns (values, True if anything
    moved)."""
    out = {}
    moved = False
    for key in values:
        space = LEGACY_KEYS.get(key)
        if space is None:
            out[key] = values[key]
            continue
        moved = True
        if key == "automa_deck" and values[key] is None:
            continue  # the old default: nothing was set
        ns = out.get(space)
        if not isinstance(ns, dict):
            ns = out[space] = dict(values[space]) if isinstance(values.get(space), dict) else {}
        ns.setdefault(key, values[key])
    mode = out.get("mode")
    if loading and isinstance(mode, str) and mode != "menu" and modes.find(mode) is None:
        out["mode"] = "menu"
        moved = True
    return out, moved


def _check_namespace(entry, ns, changed):
    if not isinstance(ns, dict):
        raise SettingsError(entry.name, "must be an object of %s settings" % entry.name)
    schema = entry.schema()
    for key in changed:
        if key not in schema:
            raise SettingsError("%s.%s" % (entry.name, key), "unknown setting")
        why = schema[key][0](ns[key])
        if why:
            raise SettingsError("%s.%s" % (entry.name, key), why)


def check(values, changed):
    """Validate the complete settings dict values; changed: {key: None, or the namespace
    keys that changed}, the keys to blame first."""
    for key in changed:
        entry = modes.find(key)
        if entry is not None:
            _check_namespace(entry, values[key], changed[key] or list(values[key]))
        elif key in SCHEMA:
            why = SCHEMA[key][0](values[key])
            if why:
                raise SettingsError(key, why)
        elif not isinstance(values[key], dict):
            raise SettingsError(key, "unknown setting")


def merge(values, changes):
    """A validated copy of values with changes applied (a namespace change names only the
    keys it changes; flat keys of older firmware are migrated first). SettingsError naming
    the first bad key; values itself is never touched."""
    if not isinstance(changes, dict):
        raise SettingsError(None, "changes must be a dict, got %r" % (changes,))
    changes, _ = migrate(changes)
    out = _copy(values)
    changed = {}
    for key in changes:
        entry = modes.find(key)
        if entry is not None:
            ns = changes[key]
            if not isinstance(ns, dict):
                raise SettingsError(key, "must be an object of %s settings" % key)
            for k in ns:
                out[key][k] = _copy(ns[k])
            changed[key] = list(ns)
        elif key in SCHEMA:
            out[key] = _copy(changes[key])
            changed[key] = None
        elif isinstance(changes[key], dict):
            # the key is named once, by SettingsError: the request's text is not echoed twice
            raise SettingsError(key, "unknown setting (modes on this firmware: %s)"
                                % ", ".join(modes.names()))
        else:
            raise SettingsError(key, "unknown setting")
    check(out, changed)
    if "roster" in changed:  # a change only: a file an older firmware wrote still loads
        why = _check_distinct(out["roster"])
        if why:
            raise SettingsError("roster", why)
    return out


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
            loaded, moved = migrate(loaded, loading=True)
            values = defaults()
            changed = {}
            for key in loaded:
                if modes.find(key) is not None and isinstance(loaded[key], dict):
                    for k in loaded[key]:
                        values[key][k] = loaded[key][k]
                    changed[key] = list(loaded[key])
                else:
                    values[key] = loaded[key]
                    changed[key] = None
            check(values, changed)
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
        merge(self._values, changes)

    def update(self, changes):
        """Validate every change, then replace the file atomically; on any error nothing changes."""
        values = merge(self._values, changes)
        replace_file(self.path, canonical_json(values))
        self._values = values
