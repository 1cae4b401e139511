"""The registry of game modes: each mode is declared here once, and nowhere else.

An entry gives the mode's name (menu, protocol, settings namespace, records), its menu
title, its module, its player limits and its own settings: key -> (spec, default), the
spec naming a check of firmware.checks (checks.from_spec), which is loaded only when a
value is checked. The box settings hold one namespace per mode under its name
({"anomia": {"players": 4, "tie_window_us": 1000, ...}}); "players" is in every
namespace, checked against the limits here. A mode's module is imported only when the
mode is chosen and dropped when it is left, with every module its game brought in (the
engine, the session, the game log): modes cost no heap while the menu runs.

A mode module defines `class Mode`, a firmware.modes.base.GameMode (docs/architecture.md,
"Write a new mode").
"""


class Entry:
    def __init__(self, name, title, module, min_players, max_players, default_players, settings=None):
        self.name = name
        self.title = title
        self.module = module
        self.min_players = min_players
        self.max_players = max_players
        self.default_players = default_players
        self.settings = settings or {}

    def schema(self):
        """key -> (check, default) of the mode's settings namespace, players included."""
        from firmware.checks import from_spec

        out = {"players": (from_spec(("int", self.min_players, self.max_players)), self.default_players)}
        for key in self.settings:
            spec, default = self.settings[key]
            out[key] = (from_spec(spec), default)
        return out


# One entry per mode that works.
AVAILABLE = (
    Entry("anomia", "Anomia buzzers", "firmware.modes.anomia", 3, 8, 4, {
        "tie_window_us": (("int", 0, 50000), 1000),
        "lockout_ms": (("int", 0, 10000), 800),
    }),
    Entry("anastasia_solo", "Anastasia solo", "firmware.modes.anastasia_solo", 1, 3, 1, {
        "difficulty": (("one_of", "normal", "easy", "hard"), "normal"),  # the built-in automa deck
        "automa_deck": (("deck",), None),  # a deck of your own, played instead (checks.automa_deck)
    }),
    # the rule choices of engine/anathema_score.py's OPTIONS; partners applies to 4 players
    Entry("anathema", "Anathema scores", "firmware.modes.anathema", 2, 4, 3, {
        "partners": (("bool",), False),
        "target": (("int", 1, 999), 21),
        "most_tie": (("one_of", "none", "all"), "none"),
        "top_tie": (("one_of", "play_on", "share"), "play_on"),
    }),
    Entry("anastasia", "Anastasia 4-8P", "firmware.modes.anastasia", 4, 8, 5),
)


def names():
    return [entry.name for entry in AVAILABLE]


def find(name):
    """The registry entry for name, or None."""
    for entry in AVAILABLE:
        if entry.name == name:
            return entry
    return None


def load(name):
    """The Mode class of a registered mode (imports its module now). ValueError if unknown."""
    entry = find(name)
    if entry is None:
        known = names()
        raise ValueError("no mode %r on this firmware (available: %s)"
                         % (name, ", ".join(known) if known else "none yet"))
    import gc

    gc.collect()  # a mode compiled from source (the virtual box) needs the heap's large free blocks
    module = __import__(entry.module, None, None, ["Mode"])
    return module.Mode


def loaded():
    """The names of the modules loaded now (before a mode starts: see unload)."""
    import sys

    return set(sys.modules)


def unload(before):
    """Forget every module loaded since `before` (loaded()), so a mode's code, its engine and
    their tables can be collected; None forgets nothing."""
    import sys

    if before is None:
        return
    for name in list(sys.modules):
        if name in before:
            continue
        del sys.modules[name]
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and getattr(sys.modules[parent], child, None) is not None:
            delattr(sys.modules[parent], child)  # the package keeps its submodule otherwise


def call_once(module, name, *args):
    """module.name(*args), the module loaded for the call and forgotten after with whatever it
    loaded: code a box needs now and then (a file's checks, a board's profile) holds no heap
    in between."""
    before = loaded()
    try:
        return getattr(__import__(module, None, None, [name]), name)(*args)
    finally:
        unload(before)
