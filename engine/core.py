"""What every game engine shares: the error types, the special player ids, canonical
serialisation and digests.

Every engine module declares
  MIN_PLAYERS, MAX_PLAYERS  the player counts new_game accepts;
  OPTIONS                   dict: option name -> default (JSON-safe) that new_game accepts;
  STATE_VERSION             int, saved in to_dict() as "version"; from_dict refuses others;
and exposes `new_game(seed, players, **options)` and `from_dict(d)`. Its state offers
current_player(), legal_actions(), apply(action), is_over(), scores(), winners(),
to_dict(), digest() and, where information is hidden, view(player). Actions are small
JSON-safe values. current_player() is a seat 0..N-1 or one of the ids below;
winners() is [] until is_over().

Optional declarations:
  VARIANTS      tuple of option dicts the shared engine tests walk besides the defaults;
  UNDO_ACTION   the action that takes back the last one, when the engine keeps its own
                undo history in the state (the box's session then uses it, and an undo
                survives a reset); without it the session undoes by replaying the game's
                standing actions from its seed (firmware/session.py).
An engine whose game can be closed early offers ["end"] among its legal actions.
"""

import binascii
import hashlib
import io

# current_player() values that are not a seat, numbered as OpenSpiel numbers them.
CHANCE = -1  # the game's own PRNG acts next (a shuffle or a draw nobody chooses)
SIMULTANEOUS = -2  # several players act at once (a face-off race)
TERMINAL = -4  # the game is over


class IllegalAction(Exception):
    """apply() refused an action; the message says why. The state is unchanged."""


class BadState(ValueError):
    """from_dict() was given something that is not a valid saved state."""


def action_name(action, over):
    """The name of an action (its first item) for a game that is `over` or not: IllegalAction
    once it is over, or for anything but a list (or tuple) starting with a name."""
    if over:
        raise IllegalAction("the game is over")
    if not isinstance(action, (list, tuple)) or not action or not isinstance(action[0], str):
        raise IllegalAction("an action is a list starting with its name, got %r" % (action,))
    return action[0]


# '"', '\\' and the control characters JSON names, and the letter each is escaped with
# (two strings, not a dict: on MicroPython each short literal is a name interned for good)
_NAMED = '"\\\n\r\t\b\f'
_NAMED_AS = '"\\nrtbf'
MAX_DEPTH = 16


def _esc(s):
    # Its bytes are looked at, not its characters: on MicroPython each character taken
    # from a str is interned for good, and new names grow the interpreter's name table.
    for b in s.encode():
        if b < 32 or b == 34 or b == 92:  # a control character, '"' or '\\'
            return _escaped(s)
    return '"' + s + '"'


def _escaped(s):
    out = ['"']
    for c in s:
        named = _NAMED.find(c)
        if named >= 0:
            out.append("\\" + _NAMED_AS[named:named + 1])
        elif c < " ":
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def canonical(obj):
    """Compact JSON with sorted keys, identical on CPython and MicroPython.

    Only None, bool, int, str, list/tuple and dicts with str keys, nested at most
    MAX_DEPTH deep, are allowed (ValueError otherwise): floats would print
    differently on the two runtimes. Non-ASCII stays as is (UTF-8 once encoded).
    """
    # Into one growing buffer, not a list of pieces: a record of a few hundred pieces
    # would otherwise need a pointer list and a small string per piece at once, which a
    # small, fragmented heap may not have in one piece.
    out = io.StringIO()
    _emit(obj, out.write, 0)
    return out.getvalue()


def _emit(obj, write, depth):
    """Write the canonical JSON of obj piece by piece (no whole-document string needed)."""
    if depth > MAX_DEPTH:
        raise ValueError("nested more than %d deep" % MAX_DEPTH)
    if obj is None:
        write("null")
    elif obj is True:
        write("true")
    elif obj is False:
        write("false")
    elif isinstance(obj, int):
        write("%d" % obj)
    elif isinstance(obj, str):
        write(_esc(obj))
    elif isinstance(obj, (list, tuple)):
        write("[")
        first = True
        for v in obj:
            if not first:
                write(",")
            first = False
            _emit(v, write, depth + 1)
        write("]")
    elif isinstance(obj, dict):
        write("{")
        first = True
        for k in sorted(obj):
            if not isinstance(k, str):
                raise ValueError("dict keys must be str, got %r" % (k,))
            if not first:
                write(",")
            first = False
            write(_esc(k))
            write(":")
            _emit(obj[k], write, depth + 1)
        write("}")
    else:
        raise ValueError("only None, bool, int, str, list and dict are allowed, got %r" % (obj,))


def write_canonical(obj, write):
    """Write canonical(obj) piece by piece through write(str): no whole-document string."""
    _emit(obj, write, 0)


def digest_of(obj):
    """Hex SHA-256 of the canonical serialisation of obj."""
    # Streamed into the hash: a big state never exists as one string (a small heap
    # on the board would have to find one contiguous block for it).
    h = hashlib.sha256()
    _emit(obj, lambda s: h.update(s.encode()), 0)
    return binascii.hexlify(h.digest()).decode()
