"""Helpers for JSON-shaped game data that several engines share: a deep copy, and the
loading of a saved state with its errors named as BadState. Kept apart from engine/core.py,
which every decision loads: these are needed only where states are copied or read back.
"""

from engine.core import BadState


def copy_data(obj):
    """A deep copy of JSON-shaped data: dicts and lists are copied, everything else is shared."""
    if isinstance(obj, dict):
        return {k: copy_data(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [copy_data(v) for v in obj]
    return obj


def load_checked(load, d, game):
    """load(d), where a malformed d (a missing key, a wrong type) raises BadState naming
    the game instead of whatever error the loader tripped on."""
    try:
        return load(d)
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise BadState("bad %s state: %s" % (game, e))
