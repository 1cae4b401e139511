"""Reading the game log (the host, the tests): its format version, the settings a game ran
with, and replay(), which rebuilds a game from its records and checks every digest.

The records are the ones engine/gamelog.py builds on the box (docs/records.md). Records
from before the format had a version (v 0) replay too: their options mixed box settings
in, and their digests were taken of states that had no "version" field yet. Pure: no
I/O, the engine comes from engine.games by the name the game_start record gives.
"""

from engine.core import IllegalAction, digest_of
from engine.gamelog import ACTION, END_ACTION, GAME_END, GAME_START, LOG_VERSION
from engine.games import get_game


class ReplayMismatch(Exception):
    """The first record a replay disagrees with; .seq names it, .detail says how."""

    def __init__(self, seq, detail):
        super().__init__("record seq %s: %s" % (seq, detail))
        self.seq = seq
        self.detail = detail


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
