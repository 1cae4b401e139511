"""The game registry: game name -> engine module (same import path on every runtime)."""

GAMES = {
    "anomia": "engine.anomia",
    "anomia_score": "engine.anomia_score",  # the buzzer box's scorekeeper
    "anastasia": "engine.anastasia",  # 4-8 players, every secret card
    "anastasia_ledger": "engine.anastasia_ledger",  # the same game over what the table shows
    "anastasia_solo": "engine.anastasia_solo",  # Finding Anastasia, 1-3 players and the automa
    "anathema": "engine.anathema",
    "anathema_score": "engine.anathema_score",  # the box's score keeper
}


def game_name(name):
    """The registry's name of a game as a person types it: dashes read as underscores
    ("anastasia-solo" is anastasia_solo); ValueError naming the known games if there is none."""
    key = name.replace("-", "_") if isinstance(name, str) else None
    if key not in GAMES:
        raise ValueError("unknown game %r (known: %s)" % (name, ", ".join(sorted(GAMES))))
    return key


def module_name(name):
    """The import path of a game's engine module (see game_name)."""
    return GAMES[game_name(name)]


def get_game(name):
    """The engine module for a game name (see game_name); ValueError naming the known games if none."""
    modname = module_name(name)
    # __import__ with a fromlist returns the submodule itself; MicroPython has no importlib.
    return __import__(modname, None, None, ["new_game"])
