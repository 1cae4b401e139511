"""The game log: the journal records a game leaves, built and replayed in this one module.

The box's modes build their records here, the host replays and reads them here, the
tests check both against each other (docs/records.md). Pure: no I/O, the engine comes
from engine.games by the name the game_start record gives.

A game is a game_start record, then action records (n = 0, 1, 2 ...), then maybe a
game_end. Each record's data carries "v": LOG_VERSION. Records from before the format had
a version (v 0) replay too: their options mixed box settings in, and their digests were
taken of states that had no "version" field yet.
"""

from engine.core import IllegalAction, digest_of
from engine.games import get_game

LOG_VERSION = 1
GAME_START = "game_start"
ACTION = "action"
GAME_END = "game_end"
END_ACTION = ["end"]  # the action a game_end applies, for engines that have one


class ReplayMismatch(Exception):
    """The first record a replay disagrees with; .seq names it, .detail says how."""

    def __init__(self, seq, detail):
        super().__init__("record seq %s: %s" % (seq, detail))
        self.seq = seq
        self.detail = detail


# -- building records (the box) ---------------------------------------------


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


# -- reading records (the host, the tests) ----------------------------------


def version(data):
    v = data.get("v", 0)
    return v if isinstance(v, int) and not isinstance(v, bool) else -1


def new_game_args(data):
    """(engine module, seed, player count, options) from game_start data; ValueError if unusable."""
    if version(data) > LOG_VERSION:
        raise ValueError("written in log format %r, this tablemate reads up to %d"
                         % (data.get("v"), LOG_VERSION))
    try:
        engine = get_game(data.get("engine"))
    except ValueError as e:
        raise ValueError("no engine %r in this version of tablemate (%s)" % (data.get("engine"), e))
    players = data.get("players")
    if not isinstance(players, list):
        raise ValueError("players is not a list")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError("options is not an object")
    if version(data) == 0:  # box settings (tie window, lockout) were filed among the options
        options = {k: v for k, v in options.items() if k in engine.OPTIONS}
    return engine, data.get("seed"), len(players), options


def settings_of(data):
    """The box settings a game ran with (v 0 kept them among the options)."""
    if version(data) == 0:
        engine = get_game(data.get("engine"))
        return {k: v for k, v in (data.get("options") or {}).items() if k not in engine.OPTIONS}
    return data.get("settings") or {}


def digest_matches(state, data):
    if state.digest() == data.get("digest"):
        return True
    if version(data) == 0:  # states saved before they carried their version
        d = state.to_dict()
        d.pop("version", None)
        return digest_of(d) == data.get("digest")
    return False


def _short(digest):
    return str(digest)[:12]


def replay(records, after=None):
    """Replay one game's records (seq order, game_start first); returns the final state.

    after(state, record), if given, is called after the setup and after each action.
    Raises ReplayMismatch at the first record that cannot be applied or whose digest differs.
    """
    if not records or records[0]["kind"] != GAME_START:
        raise ReplayMismatch(records[0]["seq"] if records else None, "the game has no game_start record")
    start = records[0]
    try:
        engine, seed, players, options = new_game_args(start["data"])
        state = engine.new_game(seed, players, **options)
    except (ValueError, TypeError) as e:
        raise ReplayMismatch(start["seq"], "cannot set the game up: %s" % e)
    if not digest_matches(state, start["data"]):
        raise ReplayMismatch(start["seq"], "setup digest %s recorded, replay gives %s"
                             % (_short(start["data"].get("digest")), _short(state.digest())))
    if after:
        after(state, start)
    # The journal assigns seq and n together, so seq order is n order: requiring n = 0, 1, 2...
    # in seq order names the record out of place.
    standing = []  # (n, action) not taken back by an undo record, for rebuilding after one
    n_actions = 0
    for rec in records:
        if rec["kind"] != ACTION:
            continue
        d = rec["data"]
        if d.get("n") != n_actions:
            raise ReplayMismatch(rec["seq"], "action n=%s where n=%d was expected (missing or repeated"
                                 " action)" % (d.get("n"), n_actions))
        if "undo" in d:
            state = _undo(engine, seed, players, options, standing, rec)
        else:
            try:
                state.apply(d.get("action"))
            except IllegalAction as e:
                raise ReplayMismatch(rec["seq"], "action n=%d %r is illegal on replay: %s"
                                     % (n_actions, d.get("action"), e))
            standing.append((n_actions, d.get("action")))
        if not digest_matches(state, d):
            raise ReplayMismatch(rec["seq"], "action n=%d: digest %s recorded, replay gives %s"
                                 % (n_actions, _short(d.get("digest")), _short(state.digest())))
        n_actions += 1
        if after:
            after(state, rec)
    for rec in records:
        if rec["kind"] == GAME_END:
            state = _check_end(engine, state, rec, n_actions)
    return state


def _undo(engine, seed, players, options, standing, rec):
    undone = rec["data"].get("undo")
    if not standing or standing[-1][0] != undone:
        raise ReplayMismatch(rec["seq"], "undo of action %r, which is not the last one standing" % (undone,))
    standing.pop()
    state = engine.new_game(seed, players, **options)
    for _n, action in standing:
        state.apply(action)
    return state


def _check_end(engine, state, rec, n_actions):
    """Check a game_end against the replayed state; returns the final state.

    A box closes a game by applying the engine's end action without an action record of
    its own (the game_end carries n = that action's index): its digest is the state after
    it. An abandoned game of an engine without an end action ends as it is.
    """
    d = rec["data"]
    n = d.get("n")
    if isinstance(n, int) and n != n_actions:
        raise ReplayMismatch(rec["seq"], "game_end: n=%d but %d actions were recorded before it"
                             % (n, n_actions))
    if not digest_matches(state, d) and not state.is_over():
        ended = engine.from_dict(state.to_dict())
        try:
            ended.apply(END_ACTION)
        except IllegalAction:
            ended = None
        if ended is not None and digest_matches(ended, d):
            state = ended
    if not digest_matches(state, d):
        raise ReplayMismatch(rec["seq"], "game_end: digest %s recorded, replay gives %s"
                             % (_short(d.get("digest")), _short(state.digest())))
    checks = ("scores", "winners") if state.is_over() else ("scores",)  # no winners in an abandoned game
    for field in checks:
        if field in d and d[field] != getattr(state, field)():
            raise ReplayMismatch(rec["seq"], "game_end: %s %r recorded, replay gives %r"
                                 % (field, d[field], getattr(state, field)()))
    return state
