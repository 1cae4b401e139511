"""Does the hint row tell the truth? A mode is walked through its screens with the keys a
table presses. On each screen (a new title, its numbers aside; new hints; new lines that
name keys; its pick list on its first item or not), ok, back and mode are each pressed on a
fresh box brought to that screen, and what the key did is held against the word the row
gave it.

    check_hints("anastasia", {"players": 5}, "3 2 o 2 2 o b ...".split(), {"react": ...})

Keys: "o" ok, "b" back, "m" mode, "1".."8" a player's button. The words and what they must
do (a mode adds its own words, or replaces these, with a dict of checks):
    -       a "nope" for that key, and nothing changes (a message on show may go)
    next    the pick list's next item (on a screen with no list: the screen changes), nothing entered
    prev    the pick list's previous item
    cancel  the entry being made is dropped: a screen the walk showed since the last entry
    undo    the game as it was before its last entry
    end     "END GAME?"
    menu    the app's menu
    5P ...  that many players
    new     a new game
"""

import gc
import re

from firmware import session
from firmware.modes.base import hint_line
from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import MS, Box

KEYS = ("ok", "back", "mode")
_COUNTER = re.compile(r"^> .* (\d+)/(\d+)$")


def press(box, key, at_us):
    if key == "o":
        box.ok(at_us)
    elif key == "b":
        box.back(at_us)
    elif key == "m":
        box.mode_button(at_us)
    else:
        box.press(int(key) - 1, at_us)


def counter(screen):
    """(item, items) of the pick list's line on the screen, or None."""
    for line in screen:
        m = _COUNTER.match(line)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


class Seen:
    """What the box shows and holds at one moment of the walk. A walk keeps one per key,
    beside a whole box on a small test heap: the screen is kept as one string, and values
    equal to an earlier Seen's are that Seen's own objects (shared)."""

    def __init__(self, box, shared=None):
        mode = box.mode
        game = mode.game
        share = (lambda v: shared.setdefault(v, v)) if shared is not None else (lambda v: v)
        self.text = share("\n".join(box.screen()))
        self.hints = share(box.hints)  # what the latest "hints" event said (a front-end's key line)
        self.ok_in_text = mode.OK_IN_TEXT
        self.mode_hints = share(mode._hints)  # what the row shows
        self.digest = share(game.digest()) if game is not None else None
        self.players = mode.players
        self.events = len(box.events)
        self.in_menu = box.in_menu

    @property
    def screen(self):
        return self.text.split("\n")


def _events(box, seen, kind):
    return [f for k, f in box.events[seen.events:] if k == kind]


def _moved(box, before, after, step):
    """A pick list moved by step: nothing entered, no nope, its counter moved."""
    assert after.digest == before.digest and not _events(box, before, "nope"), "something was entered"
    was, now = counter(before.screen), counter(after.screen)
    if was is None:
        assert after.screen != before.screen, "the screen did not change"
        return
    assert now is not None and now[1] == was[1], "the pick list closed: %r" % after.screen
    assert now[0] == (was[0] - 1 + step) % was[1] + 1, "the list went to %d/%d" % now


def check_key(word, key, box, before, after, walk):
    """Assert that pressing key did what word says; walk: what the walk showed (Seen list)."""
    nopes = [f["key"] for f in _events(box, before, "nope")]
    since = [s.text for s in walk if s.digest == before.digest]  # shown since the last entry
    if word == "-":  # a message on show may go (back to the screen under it)
        assert nopes == [key] and after.digest == before.digest and after.text in since, after.screen
    elif word == "next":
        _moved(box, before, after, 1)
    elif word == "prev":
        _moved(box, before, after, -1)
    elif word == "cancel":
        assert after.digest == before.digest and not nopes
        assert after.text != before.text and after.text in since, after.screen
    elif word == "undo":
        older = [s.digest for s in walk if s.digest not in (None, before.digest)]
        assert older and after.digest == older[-1], "not the game before the last entry"
    elif word == "end":
        assert after.screen[0] == "END GAME?"
    elif word == "menu":
        assert after.in_menu and not before.in_menu
    elif re.match(r"^\dP$", word):
        assert after.players == int(word[0])
    elif word == "new":
        starts = [f for f in _events(box, before, "game") if f["event"] == "start"]
        assert starts and box.mode.session.n == 0, "no new game"
    else:
        raise AssertionError("no check for the word %r" % word)


def _kind(seen):
    """A screen's title (P3 ACTS is P4 ACTS), its hints, the keys its own lines name and
    whether its pick list shows its first item (back may leave the list there)."""
    said = tuple(line for line in seen.screen[1:-1] if "ok:" in line or "back:" in line)
    at = counter(seen.screen)
    return re.sub(r"\d", "#", seen.screen[0]), seen.hints, said, at and at[0] == 1


def fresh(path, mode, options, keys):
    gc.collect()  # the last box's garbage: a small heap holds one box
    box = Box(path, mode, **options)
    for i, key in enumerate(keys):
        press(box, key, (i + 1) * 100 * MS)
    return box


def check_hints(mode, options, keys, words=None):
    """Walk keys; on each new screen, press ok, back and mode on a fresh box there and check
    each did what the hint row said. words: {word: check(box, before, after)} of the mode.
    Returns the screens checked, each as _kind says."""
    clock = session.ticks_us
    session.ticks_us = lambda: 12345  # every game of the walk has one seed: the same game each time
    # CPython: the firmware's collections (for MicroPython's small heap) leave the test
    # process's own objects out; each fresh box would otherwise cost many full collections
    frozen = getattr(gc, "freeze", None)
    if frozen:
        frozen()
    try:
        return _check(mode, options, keys, words)
    finally:
        session.ticks_us = clock
        if frozen:
            gc.unfreeze()


def _check(mode, options, keys, words):
    walk = []
    shared = {}
    with tmp_dir() as d:
        box = fresh(d, mode, options, ())
        walk.append(Seen(box, shared))
        for i, key in enumerate(keys):
            press(box, key, (i + 1) * 100 * MS)
            walk.append(Seen(box, shared))
        box.journal.close()
    box = shared = None
    checked = []
    for i, seen in enumerate(walk):
        assert seen.hints is not None, "no hint row of the mode's own on %r" % seen.screen
        assert seen.hints == seen.mode_hints, "the hints event says %r" % (seen.hints,)
        screen = _kind(seen)
        if screen in checked:
            continue
        checked.append(screen)
        assert seen.screen[-1] == hint_line(seen.hints, ok_in_text=seen.ok_in_text), seen.screen
        for k, key in enumerate("obm"):
            word = seen.hints[k]
            with tmp_dir() as d:
                box = fresh(d, mode, options, keys[:i])
                before = Seen(box)
                assert before.text == seen.text  # the walk is the same every time
                press(box, key, (i + 1) * 100 * MS)
                after = Seen(box)
                try:
                    if words is not None and word in words:
                        words[word](box, before, after)
                    else:
                        check_key(word, KEYS[k], box, before, after, walk[: i + 1])
                except AssertionError as e:
                    raise AssertionError("%s on %r says %r: %s" % (KEYS[k], seen.screen, word, e)) from None
                box.journal.close()
            box = before = after = None
    return checked
