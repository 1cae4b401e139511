"""`tablemate replay ID`: rebuild a stored game from its records and check every digest.

The engine named in game_start is set up with the recorded seed, player count and
options, its digest compared with the recorded one, then every action record is
applied in `n` order and its digest compared. The first record that differs is
reported by its seq (exit 1); exit 0 when the whole game matches.
"""

from engine.core import IllegalAction
from engine.games import get_game
from firmware.settings import SCHEMA as DEVICE_SETTINGS
from host import db as dbmod


class ReplayMismatch(Exception):
    """The first record the replay disagrees with; .seq names it."""

    def __init__(self, seq, message):
        Exception.__init__(self, "record seq %s: %s" % (seq, message))
        self.seq = seq
        self.detail = message


def load_engine(name):
    """The engine module a game_start names (its `engine` field, a key of the game registry)."""
    try:
        return get_game(name)
    except ValueError as e:
        raise ValueError("no engine %r in this version of tablemate (%s)" % (name, e))


def engine_options(engine, options):
    """The options new_game takes. game_start options also carry device settings (the
    arbiter's tie_window_us, lockout_ms): they describe the box, not the rules. An engine
    that declares OPTIONS gets exactly those; otherwise the device settings are left out.
    A dropped option that did matter would still show as a setup digest mismatch."""
    declared = getattr(engine, "OPTIONS", None)
    if declared is not None:
        return {k: v for k, v in options.items() if k in declared}
    return {k: v for k, v in options.items() if k not in DEVICE_SETTINGS}


def _short(digest):
    return str(digest)[:12]


def replay(records, after=None):
    """Replay one game's records (seq order, game_start first); returns the final state.

    after(state, record), if given, is called after the setup and after each action.
    Raises ReplayMismatch at the first record that cannot be applied or whose digest differs.
    """
    if not records or records[0]["kind"] != "game_start":
        seq = records[0]["seq"] if records else None
        raise ReplayMismatch(seq, "the game has no game_start record")
    start = records[0]
    d = start["data"]
    try:
        engine = load_engine(d.get("engine"))
        players = d.get("players")
        if not isinstance(players, list):
            raise ValueError("players is not a list")
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("options is not an object")
        state = engine.new_game(d.get("seed"), len(players), **engine_options(engine, options))
    except (ValueError, TypeError) as e:
        raise ReplayMismatch(start["seq"], "cannot set the game up: %s" % e)
    if state.digest() != d.get("digest"):
        raise ReplayMismatch(start["seq"], "setup digest %s recorded, replay gives %s"
                             % (_short(d.get("digest")), _short(state.digest())))
    if after:
        after(state, start)

    # The journal assigns seq and n together, so seq order is n order: walking in seq order
    # and requiring n = 0, 1, 2... applies the actions in n order and names the record out of place.
    actions = sorted((r for r in records if r["kind"] == "action"), key=lambda r: r["seq"])
    for expected_n, rec in enumerate(actions):
        n = rec["data"].get("n")
        if n != expected_n:
            raise ReplayMismatch(rec["seq"], "action n=%s where n=%d was expected (missing or repeated"
                                 " action)" % (n, expected_n))
        try:
            state.apply(rec["data"].get("action"))
        except IllegalAction as e:
            raise ReplayMismatch(rec["seq"], "action n=%d %r is illegal on replay: %s"
                                 % (n, rec["data"].get("action"), e))
        if state.digest() != rec["data"].get("digest"):
            raise ReplayMismatch(rec["seq"], "action n=%d: digest %s recorded, replay gives %s"
                                 % (n, _short(rec["data"].get("digest")), _short(state.digest())))
        if after:
            after(state, rec)

    for rec in records:
        if rec["kind"] == "game_end":
            state = _check_end(engine, state, rec, len(actions))
    return state


def _check_end(engine, state, rec, n_actions):
    """Check a game_end against the replayed state; returns the final state.

    A box may close a game by applying the engine's ["end"] without an action record of
    its own (the game_end then carries n = that action's index): its digest is the
    state after ["end"]. An abandoned game (reason "players_changed", ...) ends as it is.
    """
    d = rec["data"]
    n = d.get("n")
    if isinstance(n, int) and n != n_actions:
        raise ReplayMismatch(rec["seq"], "game_end: n=%d but %d actions were recorded before it"
                             % (n, n_actions))
    if state.digest() != d.get("digest") and not state.is_over():
        ended = engine.from_dict(state.to_dict())
        try:
            ended.apply(["end"])
        except IllegalAction:
            ended = None
        if ended is not None and ended.digest() == d.get("digest"):
            state = ended
    if state.digest() != d.get("digest"):
        raise ReplayMismatch(rec["seq"], "game_end: digest %s recorded, replay gives %s"
                             % (_short(d.get("digest")), _short(state.digest())))
    checks = ("scores", "winners") if state.is_over() else ("scores",)  # no winners in an abandoned game
    for field in checks:
        if field in d and d[field] != getattr(state, field)():
            raise ReplayMismatch(rec["seq"], "game_end: %s %r recorded, replay gives %r"
                                 % (field, d[field], getattr(state, field)()))
    return state


# -- CLI -------------------------------------------------------------------
def add_parser(subparsers):
    p = subparsers.add_parser("replay", help="rebuild a stored game from its records and check every digest",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("game_id", metavar="ID", type=int, help="game id (see `tablemate games list`)")
    dbmod.add_db_argument(p)
    p.set_defaults(func=run)


def run(args):
    with dbmod.open_from_args(args) as store:
        game = dbmod.game_from_args(store, args.game_id)
        records = store.game_records(game["id"])
    actions = sum(1 for r in records if r["kind"] == "action")
    try:
        state = replay(records)
    except ReplayMismatch as e:
        print("game %d: MISMATCH at %s" % (game["id"], e))
        return 1
    print("game %d: %s, %d players, %d actions replayed, every digest matches (final %s)"
          % (game["id"], game["engine"], len(game["players"]), actions, _short(state.digest())))
    return 0
