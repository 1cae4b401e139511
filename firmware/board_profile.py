"""Board profiles from hardware/boards.json: read, checked, and split from make_board's overrides.

load_profile(name) reads and validates one profile (ValueError with a clear message on any
mistake); firmware.board.make_board builds a board from it. The box loads this module only
while it builds its board.
"""

import json

from engine.data import copy_data
from firmware.board import BACKENDS, CAPTURE_METHODS, CONTROL_BITS
from firmware.buttons import SEATS

COLOR_ORDERS = ("RGB", "GRB", "BRG", "RBG", "GBR", "BGR")
OLED_SIZES = ((128, 64), (128, 32))
OLED_DRIVERS = ("ssd1306", "sh1106", "world")
MAX_COLUMN_OFFSET = 4  # an SH1106 has 132 columns of RAM for a 128-pixel panel
SECTIONS = ("players", "controls", "leds", "oled", "piezo")


def boards_path():
    """hardware/boards.json next to the firmware package (device root, or the repo on a host)."""
    here = globals().get("__file__") or ""
    cut = here.rfind("firmware/")
    if cut < 0:
        cut = here.rfind("firmware\\")
    return (here[:cut] if cut >= 0 else "") + "hardware/boards.json"


def load_document(path=None):
    path = path or boards_path()
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise ValueError("cannot read board file %s: %s" % (path, e))
    except ValueError as e:
        raise ValueError("board file %s is not valid JSON: %s" % (path, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("profiles"), dict):
        raise ValueError("board file %s has no 'profiles' object" % path)
    return doc


def load_profile(name, path=None, doc=None):
    """The validated profile `name` as a dict (with "name" added, the OLED address an int)."""
    if doc is None:
        doc = load_document(path)
    return validate(doc, name)


def profile_names(doc=None):
    return sorted((doc or load_document())["profiles"])


# -- validation --


def _fail(name, msg):
    raise ValueError("board profile '%s': %s" % (name, msg))


def _int(name, where, v, lo, hi):
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or v > hi:
        _fail(name, "%s must be an int %d..%d, got %r" % (where, lo, hi, v))
    return v


def _section(name, prof, key, required=True):
    sec = prof.get(key)
    if sec is None and not required:
        return {}
    if not isinstance(sec, dict):
        _fail(name, "'%s' must be an object" % key)
    return sec


def _address(name, v):
    if isinstance(v, str):
        try:
            v = int(v, 16) if v.lower().startswith("0x") else int(v)
        except ValueError:
            _fail(name, "oled.address %r is not a number" % v)
    return _int(name, "oled.address", v, 0x08, 0x77)


def validate(doc, name):
    profiles = doc.get("profiles") or {}
    if name not in profiles:
        raise ValueError("unknown board profile %r (known: %s)" % (name, ", ".join(sorted(profiles))))
    prof = profiles[name]
    if not isinstance(prof, dict):
        _fail(name, "must be an object")
    prof = copy_data(prof)
    prof["name"] = name
    if prof.get("backend") not in BACKENDS:
        _fail(name, "backend must be one of %s, got %r" % (", ".join(sorted(BACKENDS)), prof.get("backend")))

    header = None
    if prof.get("header") is not None:
        header = (doc.get("headers") or {}).get(prof["header"])
        if not isinstance(header, dict):
            _fail(name, "unknown header %r" % (prof["header"],))
    capture = prof.get("capture")
    if capture not in CAPTURE_METHODS:
        _fail(name, "capture must be one of %s, got %r" % ("/".join(CAPTURE_METHODS), capture))

    players = _section(name, prof, "players")
    n = _int(name, "players.count", players.get("count"), 1, SEATS)

    controls = _section(name, prof, "controls")
    names = controls.get("names", [])
    if not isinstance(names, list):
        _fail(name, "controls.names must be a list")
    for c in names:
        if c not in CONTROL_BITS:
            _fail(name, "unknown control button %r (known: mode, ok, back)" % (c,))
        if names.count(c) > 1:
            _fail(name, "control button %r listed twice" % c)

    leds = _section(name, prof, "leds")
    count = _int(name, "leds.count", leds.get("count"), 1, 256)
    order = leds.get("color_order", "GRB")
    if order not in COLOR_ORDERS:
        _fail(name, "leds.color_order must be one of %s, got %r" % ("/".join(COLOR_ORDERS), order))
    player_leds = leds.get("player_leds", list(range(n)))
    if not isinstance(player_leds, list) or len(player_leds) != n:
        _fail(name, "leds.player_leds must list one LED index per player (%d)" % n)
    for i in player_leds:
        _int(name, "leds.player_leds entry", i, 0, count - 1)
        if player_leds.count(i) > 1:
            _fail(name, "LED %d given to two players" % i)
    status = leds.get("status_index")
    if status is not None:
        _int(name, "leds.status_index", status, 0, count - 1)
        if status in player_leds:
            _fail(name, "status LED %d is also a player LED" % status)
    _int(name, "leds.brightness", leds.get("brightness", 64), 0, 255)

    oled = _section(name, prof, "oled", required=False)
    oled["enabled"] = bool(oled.get("enabled", False))
    if oled["enabled"]:
        size = (oled.get("width", 128), oled.get("height", 64))
        if size not in OLED_SIZES:
            _fail(name, "oled size must be 128x64 or 128x32, got %rx%r" % size)
        if oled.get("driver", "ssd1306") not in OLED_DRIVERS:
            _fail(name, "oled.driver must be one of %s, got %r"
                  % ("/".join(OLED_DRIVERS), oled.get("driver")))
        _int(name, "oled.column_offset", oled.get("column_offset", 0), 0, MAX_COLUMN_OFFSET)
    if "address" in oled:
        oled["address"] = _address(name, oled["address"])
    prof["oled"] = oled

    piezo = _section(name, prof, "piezo", required=False)
    piezo["enabled"] = bool(piezo.get("enabled", False))
    prof["piezo"] = piezo

    if header is None:
        if capture == "pio":
            _fail(name, "capture 'pio' needs a header with GPIO pins")
    else:  # a board with GPIO pins: their checks are loaded only for it (the sim board has none)
        from firmware.board_pins import check_pins

        check_pins(name, prof, header, n, names)
    return prof


def apply_overrides(profile, overrides):
    """Split make_board keywords: profile sections are merged in, the rest are backend options.

    A section given a dict is merged key by key (oled={"address": 0x3D}); a bool switches an
    optional part (oled=False); capture=... replaces the capture method.
    """
    prof = copy_data(profile)
    options = {}
    for key, value in overrides.items():
        if key in SECTIONS:
            if isinstance(value, bool):
                prof.setdefault(key, {})["enabled"] = value
            elif isinstance(value, dict):
                prof.setdefault(key, {}).update(value)
            else:
                raise ValueError("override %s must be a dict or a bool, got %r" % (key, value))
        elif key == "capture":
            prof[key] = value
        else:
            options[key] = value
    return prof, options


def board_setup(name, path, overrides):
    """(profile, backend options) for make_board(name, path, **overrides)."""
    doc = load_document(path)
    validate(doc, name)  # unknown names and bad files fail before any hardware is touched
    raw, options = apply_overrides(doc["profiles"][name], overrides)
    doc = {"headers": doc.get("headers"), "profiles": {name: raw}}
    return validate(doc, name), options
