"""Checks any engine's tests make: a refused action changes nothing, a corrupted save is refused."""

import json

from engine.core import BadState, IllegalAction
from tests.shared.compat import raises


def refused(state, action, words):
    """apply(action) raises IllegalAction saying `words`, changes nothing, and the action is
    not among the legal ones; returns the message."""
    before = state.to_dict()
    e = raises(IllegalAction, state.apply, action)
    assert words in str(e), str(e)
    assert state.to_dict() == before
    if isinstance(action, (list, tuple)):
        assert list(action) not in state.legal_actions()
    return str(e)


def corrupted(from_dict, saved, change, words):
    """from_dict refuses a copy of the saved dict after change(copy), with BadState saying `words`."""
    bad = json.loads(json.dumps(saved))
    change(bad)
    e = raises(BadState, from_dict, bad)
    assert words in str(e), str(e)
