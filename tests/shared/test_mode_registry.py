"""The mode registry: each entry's player limits are the mode's own, declared once in the
entry (the box reads them without importing the engine), and must fit what its engine
accepts and the seats the box has."""

import gc

from engine.games import GAMES, get_game
from firmware import modes
from firmware.buttons import SEATS


def test_every_mode_names_a_registered_engine_by_its_module():
    # the session imports a mode's engine as engine.<ENGINE>, not through the registry
    for entry in modes.AVAILABLE:
        before = modes.loaded()
        name = modes.load(entry.name).ENGINE
        modes.unload(before)
        assert GAMES.get(name) == "engine." + name, (entry.name, name)


def test_every_mode_plays_only_player_counts_its_engine_and_the_box_allow():
    assert modes.AVAILABLE
    for entry in modes.AVAILABLE:
        before = modes.loaded()  # one mode at a time, dropped after, as the box holds them
        engine = get_game(modes.load(entry.name).ENGINE)
        lo, hi = entry.min_players, entry.max_players
        low, high = engine.MIN_PLAYERS, engine.MAX_PLAYERS
        engine = None
        modes.unload(before)
        gc.collect()
        assert low <= lo <= entry.default_players <= hi, entry.name
        assert hi <= high and hi <= SEATS, entry.name
