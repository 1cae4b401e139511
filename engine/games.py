"""The game registry: game name -> engine module (same import path on every runtime)."""

GAMES = {
    "anomia": "engine.anomia",
    "anomia_score": "engine.anomia_score",  # the buzzer box's scorekeeper
    "anastasia": "engine.anastasia",  # 4-8 players, every secret card
    "anastasia_ledger": "engine.anastasia_ledger",  # the same game over what the table shows
    "anastasia_solo": "engine.anastasia_solo",  # Finding Anastasia, 1-3 players and the automa
}


def get_game(name):
    """The engine module for a game name; ValueError naming the known games if there is none."""
    modname = GAMES.get(name) if isinstance(name, str) else None
    if modname is None:
        raise ValueError("unknown game %r (known: %s)" % (name, ", ".join(sorted(GAMES))))
    # __import__ with a fromlist returns the submodule itself; MicroPython has no importlib.
    return __import__(modname, None, None, ["new_game"])
