"""`tablemate stats [--db FILE] [--game ID] [--plot FILE.png|.svg|.pdf] [--include-unfinished]`: per player.

Per roster name, over every stored game (or one), each game read through the view of
its mode (host/game_views.py): games played and won, for the buzzer modes face-offs
won, ties and the winning gaps (how far ahead of the second press the winner was: the
face-off's gap_us, shown in ms) as a median and a distribution, and for other modes the
figures their view names (the Anathema score keeper: hands, points, most cards ...). An
undo takes back the action it reverts, as the engine does. Games of other modes never
count as face-offs.
--plot draws them (host/stats_plot.py): the winning gaps per range and the scores over
the latest finished game (--game's; any game with --include-unfinished).
"""

import statistics
import sys
from pathlib import Path

from host import db as dbmod
from host import stats_plot
from host.columns import table
from host.game_views import VIEWS, faceoff_events, view_for
from host.replay import ReplayMismatch, replay
from host.stored_games import player_names
from host.words import count

# Upper bounds (ms) of the distribution buckets; the last bucket is open-ended.
BUCKETS_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500)


class PlayerStats:
    def __init__(self, name, colour=None):
        self.name = name
        self.colour = colour
        self.games = 0
        self.games_won = 0
        self.won = 0  # face-offs
        self.ties = 0
        self.gaps_us = []
        self.kinds = set()  # the view kinds of the games counted ("faceoff", "hands" ...)
        self.figures = {}  # a view's own figures: key -> total

    def median_gap_us(self):
        return statistics.median(self.gaps_us) if self.gaps_us else None

    def best_gap_us(self):
        """The widest winning gap: the clearest face-off this player won."""
        return max(self.gaps_us) if self.gaps_us else None

    def distribution(self):
        return distribution(self.gaps_us)


def distribution(gaps_us):
    """Counts of gaps per BUCKETS_MS bucket (plus the open-ended last one)."""
    counts = [0] * (len(BUCKETS_MS) + 1)
    for g in gaps_us:
        ms = g / 1000.0
        i = 0
        while i < len(BUCKETS_MS) and ms >= BUCKETS_MS[i]:
            i += 1
        counts[i] += 1
    return counts


def bucket_labels():
    labels = []
    lo = 0
    for hi in BUCKETS_MS:
        labels.append("<%d" % hi if lo == 0 else "%d-%d" % (lo, hi))
        lo = hi
    labels.append("%d+" % lo)
    return labels


def game_events(records):
    """The face-off outcomes standing at the end of a buzzer game (host.game_views)."""
    return faceoff_events(records)


def collect(store, game_ids):
    """{roster name: PlayerStats} over the given games, in order of first appearance."""
    by_name = {}
    for gid in game_ids:
        game = store.game(gid)
        names = player_names(game)

        def player(i, game=game, names=names):
            if not isinstance(i, int) or not 0 <= i < len(names):
                return None
            if names[i] not in by_name:
                by_name[names[i]] = PlayerStats(names[i], game["players"][i].get("colour"))
            return by_name[names[i]]

        view = view_for(game)
        for i in range(len(names)):
            player(i).kinds.add(view.kind)
        view.tally(player, game, store.game_records(gid))
    return by_name


def score_curve(records):
    """[scores after setup, after action 0, ...] by replaying the game's records."""
    curve = []
    replay(records, after=lambda state, rec: curve.append(state.scores()))
    return curve


def ms(us):
    return "-" if us is None else "%.3f ms" % (us / 1000.0)


def report(stats, out):
    kinds = set()
    for ps in stats.values():
        kinds |= ps.kinds
    faceoffs = "faceoff" in kinds or kinds <= {"game"}
    summary_report(stats, out, faceoffs)
    if faceoffs:
        out.write("\n")
        distribution_report(stats, out)
    for view in VIEWS.values():
        if view.figures and view.kind in kinds:
            out.write("\n")
            figures_report(view, [ps for ps in stats.values() if view.kind in ps.kinds], out)


def _write_table(out, headers, rows):
    """A table of one row per player: the name, then numbers (right-aligned)."""
    for line in table(headers, rows, right=range(1, len(headers))):
        out.write(line + "\n")


def summary_report(stats, out, faceoffs):
    """One row per player: games played and won, and for the buzzers the face-offs won, the
    ties and the winning gaps (the ms from the winner's press to the next one)."""
    headers = ["PLAYER", "GAMES", "WON"]
    if faceoffs:
        headers += ["FACE-OFFS WON", "TIES", "MEDIAN GAP", "BEST GAP"]
    rows = []
    for ps in stats.values():
        cells = [ps.name, ps.games, ps.games_won]
        if faceoffs:
            cells += [ps.won, ps.ties, ms(ps.median_gap_us()), ms(ps.best_gap_us())]
        rows.append(cells)
    _write_table(out, headers, rows)
    out.write("(WON: games won at their end; a buzzer game is won when it is ended with the mode button)\n")


def distribution_report(stats, out):
    out.write("winning gaps, face-offs per range (ms):\n")
    _write_table(out, ["PLAYER"] + bucket_labels(), [[ps.name] + ps.distribution() for ps in stats.values()])
    all_gaps = [g for ps in stats.values() for g in ps.gaps_us]
    out.write("%s won, %s measured, overall median gap %s\n"
              % (count(sum(ps.won for ps in stats.values()), "face-off"), count(len(all_gaps), "gap"),
                 ms(statistics.median(all_gaps) if all_gaps else None)))


def figures_report(view, players, out):
    """A view's own figures: one column each, one row per player."""
    out.write("%s:\n" % view.title)
    _write_table(out, ["PLAYER"] + [title for _key, title in view.figures],
                 [[ps.name] + [ps.figures.get(key, 0) for key, _title in view.figures] for ps in players])


def add_parser(subparsers):
    p = subparsers.add_parser("stats", help="statistics per player, optionally plotted",
                              description=__doc__.split("\n\n")[0])
    dbmod.add_db_argument(p)
    p.add_argument("--game", metavar="ID",
                   help="only this game, its id as `games list` prints it (default: every stored game)")
    p.add_argument("--plot", metavar="FILE", type=Path,
                   help="also draw the statistics: FILE.png, FILE.svg or FILE.pdf")
    p.add_argument("--include-unfinished", action="store_true",
                   help="with --plot: the score lines may come from an open, abandoned or left game "
                   "(default: finished games only)")
    p.set_defaults(func=run)


def curve_of(store, game_ids, include_unfinished):
    """(game, its score curve, why there is none): the latest game of game_ids whose scores
    are drawn (finished, unless include_unfinished; never one with records missing)."""
    from host.cli import CliError

    games = [store.game(gid) for gid in game_ids]
    drawn = [g for g in games if not g["incomplete"] and (include_unfinished or stats_plot.is_finished(g))]
    if not drawn:
        unfinished = [g for g in games if not g["incomplete"]]
        why = "no finished game" if not unfinished else \
            "game %s is not finished: --include-unfinished draws it" % unfinished[-1]["id"]
        return None, [], why
    game = drawn[-1]
    try:
        return game, score_curve(store.game_records(game["id"])), None
    except ReplayMismatch as e:
        raise CliError("game %s does not replay, no score curve: %s" % (game["id"], e), 1)


def run(args):
    from host.cli import CliError

    if args.include_unfinished and not args.plot:
        raise CliError("--include-unfinished chooses the game --plot draws: give --plot FILE.png too")
    fmt = stats_plot.plot_format(args.plot) if args.plot else None  # before any work
    with dbmod.open_from_args(args) as store:
        if args.game is not None:
            game_ids = [dbmod.game_from_args(store, args.game)["id"]]
        else:
            game_ids = [g["id"] for g in store.games()]
        if not game_ids:
            print("no games stored in %s (run `tablemate sync`)" % store.path)
        stats = collect(store, game_ids)
        if stats:
            report(stats, sys.stdout)
        if args.plot:
            game, curve, why = curve_of(store, game_ids, args.include_unfinished)
            stats_plot.write_plot(args.plot, fmt, stats_plot.build_figure(stats, game, curve, why))
            print("plot written to %s%s" % (args.plot, "" if why is None else " (%s)" % why))
    return 0
