"""The checks of the device settings (firmware/settings.py), their merge with changes and the
migration of files older firmware wrote. Loaded only while a settings file is read or a
change is made (modes.call_once), then forgotten.
"""

import json

from firmware import modes
from firmware.checks import boolean, int_range
from firmware.screen_text import screen_text
from firmware.settings import (
    LEGACY_KEYS,
    MAX_FILE,
    NAME_MAX,
    ROSTER_MAX,
    SettingsError,
    _copy,
    defaults,
    seat_names,
)


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


# The box's own settings: key -> check, returning None or the reason.
BOX_CHECKS = {
    "roster": _check_roster,
    "brightness": int_range(1, 255),
    "sound": boolean,
    "debounce_ms": int_range(1, 100),
    "mode": _check_mode,
}


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
        elif key in BOX_CHECKS:
            why = BOX_CHECKS[key](values[key])
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
        elif key in BOX_CHECKS:
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


def read(path, size):
    """The settings in the file at path (size bytes), checked and migrated: (values, True if
    anything moved). Raises whatever is wrong with the file."""
    if size > MAX_FILE:
        raise SettingsError(None, "file is over %d bytes" % MAX_FILE)
    # read exactly the file: f.read(n) reserves n bytes, and a big hole may not exist
    with open(path, "rb") as f:
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
    return values, moved
