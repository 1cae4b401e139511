"""`tablemate replay ID`: rebuild a stored game from its records and check every digest.

The engine named in game_start is set up with the recorded seed, player count and
options, its digest compared with the recorded one, then every action record is
applied in `n` order and its digest compared (engine.gamelog_read.replay). The first record
that differs is reported by its seq (exit 1); exit 0 when the whole game matches.
A game with records this database never received (pruned on the box before it synced:
a gap) is incomplete: its records before the gap are replayed and checked, and exit 3
says the rest could not be.
"""

from engine.gamelog_read import ReplayMismatch, replay
from host import db as dbmod
from host.words import count

EXIT_INCOMPLETE = 3

__all__ = ("ReplayMismatch", "replay", "add_parser", "run")


def _short(digest):
    return str(digest)[:12]


# -- CLI -------------------------------------------------------------------
def add_parser(subparsers):
    p = subparsers.add_parser("replay", help="rebuild a stored game from its records and check every digest",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("game_id", metavar="ID", help="the game's id as `tablemate games list` prints it")
    dbmod.add_db_argument(p)
    p.set_defaults(func=run)


def run(args):
    with dbmod.open_from_args(args) as store:
        game = dbmod.game_from_args(store, args.game_id)
        records = store.game_records(game)
    if game["incomplete"]:
        # only what comes before the first gap can be checked: later actions need the missing ones
        records = [r for r in records if r["seq"] < game["missing"][0][0]]
        if not records:
            print("game %s: incomplete, seqs %s (its start among them) were pruned on the box before this"
                  " database received them; nothing to replay"
                  % (game["id"], dbmod.seq_ranges_text(game["missing"])))
            return EXIT_INCOMPLETE
    actions = sum(1 for r in records if r["kind"] == "action")
    try:
        state = replay(records)
    except ReplayMismatch as e:
        print("game %s: MISMATCH at %s" % (game["id"], e))
        return 1
    if game["incomplete"]:
        print("game %s: incomplete, seqs %s were pruned on the box before this database received them;"
              " the %s before them replay and every digest matches"
              % (game["id"], dbmod.seq_ranges_text(game["missing"]), count(actions, "action")))
        return EXIT_INCOMPLETE
    print("game %s: %s, %s, %s replayed, every digest matches (final %s)"
          % (game["id"], game["engine"], count(len(game["players"]), "player"), count(actions, "action"),
             _short(state.digest())))
    return 0
