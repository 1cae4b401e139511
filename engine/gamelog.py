"""The game log: the journal records a game leaves, as the box builds them.

A game is a game_start record, then action records (n = 0, 1, 2 ...), then maybe a
game_end. Each record's data carries "v": LOG_VERSION (docs/records.md). The box's modes
build their records here; the host and the tests read and replay them with
engine/gamelog_read.py, which the box never imports (a running mode would hold about
4 KB more heap). Pure: no I/O.
"""

LOG_VERSION = 1
GAME_START = "game_start"
ACTION = "action"
GAME_END = "game_end"
END_ACTION = ["end"]  # the action a game_end applies, for engines that have one


def start_data(game_id, name, engine_name, seed, players, options, settings, state):
    """game_start: the mode `name` started engine `engine_name`. options: what new_game was
    given; settings: the box settings that shaped the game (timings), kept apart."""
    return {"v": LOG_VERSION, "game": game_id, "name": name, "engine": engine_name, "seed": seed,
            "players": players, "options": options, "settings": settings, "digest": state.digest()}


def action_data(game_id, n, action, state, extra=None):
    """action n of a game (an engine action), with the state's digest and scores after it.
    extra: the mode's own fields (e.g. {"faceoff": the arbiter's timings}), or None."""
    data = {"v": LOG_VERSION, "game": game_id, "n": n, "action": action, "digest": state.digest(),
            "scores": state.scores()}
    if extra:
        for k in extra:
            data[k] = extra[k]
    return data


def undo_data(game_id, n, undone, state):
    """action n takes back action `undone` (the last one standing) for an engine without an
    undo action of its own: the state is the one before `undone`."""
    return {"v": LOG_VERSION, "game": game_id, "n": n, "undo": undone, "digest": state.digest(),
            "scores": state.scores()}


def end_data(game_id, n, state, reason):
    """game_end: the game closed for `reason` after n actions. When the engine has an end
    action the box applies it without an action record, and state is the state after it."""
    return {"v": LOG_VERSION, "game": game_id, "n": n, "scores": state.scores(), "winners": state.winners(),
            "digest": state.digest(), "reason": reason}
