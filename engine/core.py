"""What every game engine shares: the error type, canonical serialisation, digests.

Every engine module exposes `new_game(seed, players, **options)` and
`from_dict(d)`, and its state object offers current_player(), legal_actions(),
apply(action), is_over(), scores(), winners(), to_dict(), digest() and, where
information is hidden, view(player). Actions are small JSON-safe values.
"""

import binascii
import hashlib


class IllegalAction(Exception):
    """apply() refused an action; the message says why. The state is unchanged."""


class BadState(ValueError):
    """from_dict() was given something that is not a valid saved state."""


def _esc(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def canonical(obj):
    """Compact JSON with sorted keys, identical on CPython and MicroPython.

    Only None, bool, int, str, list/tuple and dicts with str keys are allowed:
    floats would print differently on the two runtimes.
    """
    parts = []
    _emit(obj, parts.append)
    return "".join(parts)


def _emit(obj, write):
    """Write the canonical JSON of obj piece by piece (no whole-document string needed)."""
    if obj is None:
        write("null")
    elif obj is True:
        write("true")
    elif obj is False:
        write("false")
    elif isinstance(obj, int):
        write(str(obj))
    elif isinstance(obj, str):
        write(_esc(obj))
    elif isinstance(obj, (list, tuple)):
        write("[")
        first = True
        for v in obj:
            if not first:
                write(",")
            first = False
            _emit(v, write)
        write("]")
    elif isinstance(obj, dict):
        write("{")
        first = True
        for k in sorted(obj):
            if not isinstance(k, str):
                raise TypeError("canonical(): dict keys must be str, got %r" % (k,))
            if not first:
                write(",")
            first = False
            write(_esc(k))
            write(":")
            _emit(obj[k], write)
        write("}")
    else:
        raise TypeError("canonical(): unsupported type %s" % type(obj).__name__)


def digest_of(obj):
    """Hex SHA-256 of the canonical serialisation of obj."""
    # Streamed into the hash: a big state never exists as one string (a small heap
    # on the board would have to find one contiguous block for it).
    h = hashlib.sha256()
    _emit(obj, lambda s: h.update(s.encode()))
    return binascii.hexlify(h.digest()).decode()
