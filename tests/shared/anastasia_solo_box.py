"""A solo Anastasia box on the mode harness, pressed as a person would: the helper of the
test_anastasia_solo_* mode specs. They are small modules of one or two tests each, each run
in its own process: the mode, its engine and the harness nearly fill a 192k heap."""

# The mode first (it imports its engine first): compiling their source needs the most room,
# so it is done while the heap is still empty. A block set aside before it and freed after
# leaves the harness's compile one hole in one piece, not the scraps between the mode's
# (a flashed box loads them compiled, from .mpy, and needs neither).
import gc  # noqa: I001

_room = bytearray(12 * 1024)
import firmware.modes.anastasia_solo  # noqa: F401, E402

_room = None
gc.collect()
from engine import gamelog  # noqa: E402
from tests.shared.compat import IS_MICROPYTHON  # noqa: E402
from tests.shared.mode_harness import MS, Box  # noqa: E402

REMOVE, DRAW, REVEAL_CLUE, LOOK, REVEAL_ROLE, PLAYERS, AWAY = range(7)  # the pick list's items


class Table:
    """A box and a clock: the spec presses buttons as a person would."""

    def __init__(self, d, **options):
        gc.collect()  # the last test's garbage: a small heap holds one box
        self.box = Box(d, "anastasia_solo", **options)
        self.t = 10 * MS

    def _next(self):
        self.t += 100 * MS
        return self.t

    def ok(self, times=1):
        for _ in range(times):
            self.box.ok(self._next())

    def back(self):
        return self.box.back(self._next())

    def guest(self, g):
        self.box.press(g - 1, self._next())

    def pick(self, item):
        """Step the actions' pick list from its first item to `item` (ok moves on)."""
        assert self.box.mode.pick is None or self.box.mode.pick.index == 0
        self.ok(item)

    def act(self, item, g=1):
        self.pick(item)
        self.guest(g)

    @property
    def game(self):
        return self.box.mode.game

    def screen(self):
        return self.box.screen()

    def text(self):
        return " ".join(self.screen()[1:])


def replay(box):
    """The box's latest game rebuilt from its records: as the host does on CPython
    (engine.gamelog_read, every digest checked); on MicroPython, whose small heap the host's
    reader never shares on a box, by the engine itself from the seed and the standing actions,
    the records read one at a time."""
    start = box.mode.session.game_id
    if not IS_MICROPYTHON:
        from engine import gamelog_read

        return gamelog_read.replay([r for r in box.records() if start in (r["seq"], r["data"].get("game"))])
    state = None
    standing = []
    for r in box.journal.iter_since(start - 1):
        d = r["data"]
        if r["seq"] == start:
            state = box.mode.session.engine.new_game(d["seed"], len(d["players"]), **d["options"])
            digest = d["digest"]
        elif r["kind"] == gamelog.ACTION and d.get("game") == start:
            if "undo" in d:
                standing.pop()
            else:
                standing.append(d["action"])
            digest = d["digest"]
    for action in standing:
        state.apply(action)
    assert state.digest() == digest
    return state


def deck(d, cards):
    from firmware.settings import Settings

    Settings(d + "/settings.json").update({"anastasia_solo": {"automa_deck": cards}})
