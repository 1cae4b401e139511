"""The serial ops a box answers now and then (firmware/link.py dispatches them here): the
settings read and written, the time set, an engine action entered, a flash's file list
and manifest, the self-test. Loaded at the first of them: a box in play that is only
synced and asked its status does not hold them.
"""

import sys

from firmware import protocol as P
from firmware.link import _MISSING, _PAGE_BUDGET, MAX_NAME, MAX_SEQ, OPS, clean, int_arg, str_arg

MAX_EPOCH = 4294967295
MAX_PATH = 200
MANIFEST_PIECE = 768  # bytes of .manifest.json per manifest reply
MAX_ACTION = 16  # items in an act op's action (engine actions are short lists)
# selftest: its parts, the arguments each takes, the colours an LED is tested in
SELFTEST_ARGS = {"buttons": (), "leds": ("led", "colour"), "display": (), "sound": ("hz",), "end": ()}
SELFTEST_COLOURS = ("red", "green", "blue", "white", "off")
MIN_HZ = 50  # a PWM slice at 125 MHz goes no slower than about 8 Hz; a piezo says little below this
MAX_HZ = 20000


def settings_get(link, req):
    key = str_arg(req, "key", MAX_NAME, None)
    settings = link.ctx.settings
    if key is None:
        return {"settings": settings.all()}
    try:
        return {"key": key, "value": settings.get(key)}
    except (KeyError, ValueError):
        raise P.OpError(P.BAD_ARG, "unknown setting '%s'" % clean(key, 32), {"key": clean(key, 32)})


def settings_set(link, req):
    changes = req.get("changes", _MISSING)
    if not isinstance(changes, dict):
        raise P.OpError(P.BAD_ARG, "'changes' must be an object of setting: value")
    settings = link.ctx.settings
    try:
        settings.update(changes)
    except (ValueError, TypeError) as e:
        key = getattr(e, "key", None)
        raise P.OpError(P.BAD_ARG, clean(e, 160), {"key": None if key is None else clean(key, 32)})
    return {"settings": settings.all()}


def time_set(link, req):
    epoch = int_arg(req, "epoch", 0, MAX_EPOCH)
    try:
        link.ctx.set_time(epoch)
    except ValueError as e:
        raise P.OpError(P.BAD_ARG, clean(e, 120))
    return {"epoch": epoch}


def act(link, req):
    action = req.get("action", _MISSING)
    if (not isinstance(action, list) or not 1 <= len(action) <= MAX_ACTION
            or not isinstance(action[0], str) or not 1 <= len(action[0]) <= MAX_NAME):
        raise P.OpError(P.BAD_ARG, "'action' must be an engine action: a list like [\"draw\"]"
                        " of at most %d items, its first a name" % MAX_ACTION)
    try:
        return link.ctx.act(action)
    except ValueError as e:
        raise P.OpError(P.BAD_ARG, clean(e, 160))


def files(link, req):
    from firmware import files  # loaded only when a flash asks: no heap for it in play

    after = str_arg(req, "after", MAX_PATH, "")
    items, more = files.files_page(after, _PAGE_BUDGET - 200)
    block, free = files.free_room()
    fields = {"more": more, "platform": sys.platform, "cwd": _cwd(), "block": block, "free": free}
    return fields, "files", items


def manifest(link, req):
    from firmware import files

    offset = int_arg(req, "offset", 0, MAX_SEQ, 0)
    # small pieces: the piece is held three times over (read, text, reply) on a heap that
    # may be fragmented, and JSON escapes may double it
    text, size = files.manifest_chunk(offset, MANIFEST_PIECE)
    return {"text": text, "size": size}


def selftest(link, req):
    part = str_arg(req, "part", MAX_NAME)
    takes = SELFTEST_ARGS.get(part)
    if takes is None:
        raise P.OpError(P.BAD_ARG, "'part' must be one of buttons, leds, display, sound, end")
    for key in OPS["selftest"][1:]:
        if key in req and key not in takes:
            raise P.OpError(P.BAD_ARG, "selftest %s takes no argument '%s'" % (part, key))
    args = {}
    if part == "leds":
        args["led"] = int_arg(req, "led", 0, 255, None)
        args["colour"] = str_arg(req, "colour", MAX_NAME)
        if args["colour"] not in SELFTEST_COLOURS:
            raise P.OpError(P.BAD_ARG, "'colour' must be one of %s" % ", ".join(SELFTEST_COLOURS))
    elif part == "sound":
        args["hz"] = int_arg(req, "hz", 0, MAX_HZ)
        if 0 < args["hz"] < MIN_HZ:
            raise P.OpError(P.BAD_ARG, "'hz' must be 0 (silence) or %d..%d" % (MIN_HZ, MAX_HZ))
    from firmware import modes

    before = modes.loaded()  # the self-test's code goes again when it ends (or never starts)
    from firmware.selftest import run

    try:
        return run(link.ctx, part, args, before)
    except ValueError as e:
        raise P.OpError(P.BAD_ARG, clean(e, 120))


def _cwd():
    import os

    return os.getcwd()
