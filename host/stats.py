"""`tablemate stats [--db FILE] [--plot FILE.png] [--game ID]`: statistics per player.

Per roster name, over every stored game (or one), each game read through the view of
its mode (host/game_views.py): games played and won, for the buzzer modes face-offs
won, ties and the winning gaps (how far ahead of the second press the winner was: the
face-off's gap_us, shown in ms) as a median and a distribution, and for other modes the
figures their view names (the Anathema score keeper: hands, points, most cards ...). An
undo takes back the action it reverts, as the engine does. Games of other modes never
count as face-offs.
--plot writes a PNG with a histogram of the winning gaps and the scores over a game
(--game, else the latest one).
"""

import statistics
import sys

from host import db as dbmod
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
    width = max([6] + [len(n) for n in stats])
    kinds = set()
    for ps in stats.values():
        kinds |= ps.kinds
    if "faceoff" in kinds or kinds <= {"game"}:
        faceoff_report(stats, out, width)
    for view in VIEWS.values():
        if view.figures and view.kind in kinds:
            figures_report(view, [ps for ps in stats.values() if view.kind in ps.kinds], out, width)
    out.write("games played / won (won: at the game's end, or for the buzzers ended with the mode button):\n")
    for ps in stats.values():
        out.write("  %-*s  %d / %d\n" % (width, ps.name, ps.games, ps.games_won))


def figures_report(view, players, out, width):
    """A view's own figures: one column each, one row per player."""
    cols = [title for _key, title in view.figures]
    out.write("%s:\n" % view.title)
    out.write("%-*s  %s\n" % (width, "PLAYER", "  ".join(cols)))
    for ps in players:
        cells = ["%*d" % (len(title), ps.figures.get(key, 0)) for key, title in view.figures]
        out.write("%-*s  %s\n" % (width, ps.name, "  ".join(cells)))


def faceoff_report(stats, out, width):
    labels = bucket_labels()
    out.write("%-*s  %5s  %4s  %12s   winning gaps (ms): %s\n"
              % (width, "PLAYER", "WON", "TIES", "MEDIAN GAP", " ".join("%6s" % lb for lb in labels)))
    for ps in stats.values():
        out.write("%-*s  %5d  %4d  %12s   %18s %s\n"
                  % (width, ps.name, ps.won, ps.ties, ms(ps.median_gap_us()), "",
                     " ".join("%6d" % c for c in ps.distribution())))
    all_gaps = [g for ps in stats.values() for g in ps.gaps_us]
    out.write("%s won, %s measured, overall median gap %s\n"
              % (count(sum(ps.won for ps in stats.values()), "face-off"), count(len(all_gaps), "gap"),
                 ms(statistics.median(all_gaps) if all_gaps else None)))


def _rgb(colour):
    if isinstance(colour, list) and len(colour) == 3 and all(isinstance(c, int) for c in colour):
        return tuple(max(0, min(255, c)) / 255.0 for c in colour)
    return None


def _plot_figures(ax, stats):
    """Without face-offs: the first view's own figures, one group of bars per figure, one
    bar per player. False when no game had figures."""
    kinds = set()
    for ps in stats.values():
        kinds |= ps.kinds
    views = [v for v in VIEWS.values() if v.figures and v.kind in kinds]
    if not views:
        return False
    view = views[0]
    players = [ps for ps in stats.values() if view.kind in ps.kinds]
    width = 0.8 / len(players)
    for i, ps in enumerate(players):
        values = [ps.figures.get(key, 0) for key, _ in view.figures]
        ax.bar([k + i * width for k in range(len(values))], values, width, label=ps.name,
               color=_rgb(ps.colour) or "C%d" % i, edgecolor="black", linewidth=0.5)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(view.figures))])
    ax.set_xticklabels([title.lower() for _, title in view.figures], fontsize="small")
    ax.legend(fontsize="small")
    ax.set_title(view.title.split(" (")[0])
    return True


def plot(path, stats, curve_game, curve):
    """Write a PNG: winning-gap histogram per player (without face-offs: a view's own
    figures), and the scores over one game."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(1, 2)
    with_gaps = [ps for ps in stats.values() if ps.gaps_us]
    if with_gaps:
        ax1.hist([[g / 1000.0 for g in ps.gaps_us] for ps in with_gaps], bins=20, stacked=True,
                 edgecolor="black", linewidth=0.5,
                 label=[ps.name for ps in with_gaps], color=[_rgb(ps.colour) or "C%d" % i
                                                              for i, ps in enumerate(with_gaps)])
        ax1.legend(fontsize="small")
        ax1.set_title("winning gaps")
        ax1.set_xlabel("gap to the second press (ms)")
        ax1.set_ylabel("face-offs")
    elif not _plot_figures(ax1, stats):
        ax1.text(0.5, 0.5, "no measured gaps", ha="center", va="center", transform=ax1.transAxes)
        ax1.set_title("winning gaps")

    if curve_game is not None and curve:
        names = player_names(curve_game)
        for i, name in enumerate(names):
            colour = _rgb(curve_game["players"][i].get("colour")) or "C%d" % i
            ax2.step(range(len(curve)), [s[i] for s in curve], where="post", label=name, color=colour)
        ax2.legend(fontsize="small")
        ax2.set_title("scores over game %s" % curve_game["id"])
    else:
        ax2.set_title("scores over a game (none stored)")
    ax2.set_xlabel("action")
    ax2.set_ylabel("score")
    fig.tight_layout()
    fig.savefig(str(path), format="png")


def add_parser(subparsers):
    p = subparsers.add_parser("stats", help="face-off statistics per player, optionally plotted",
                              description=__doc__.split("\n\n")[0])
    dbmod.add_db_argument(p)
    p.add_argument("--game", metavar="ID",
                   help="only this game, its id as `games list` prints it (default: every stored game)")
    p.add_argument("--plot", metavar="FILE.png",
                   help="also write a PNG: gap histogram and scores over a game")
    p.set_defaults(func=run)


def run(args):
    from host.cli import CliError

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
            # the last game that replays whole (an incomplete one lacks records its curve needs)
            whole = [gid for gid in game_ids if not store.game(gid)["incomplete"]]
            curve_game = store.game(whole[-1]) if whole else None
            curve = []
            if curve_game is not None:
                try:
                    curve = score_curve(store.game_records(curve_game["id"]))
                except ReplayMismatch as e:
                    raise CliError("game %s does not replay, no score curve: %s" % (curve_game["id"], e), 1)
            try:
                plot(args.plot, stats, curve_game, curve)
            except OSError as e:
                raise CliError("cannot write %s: %s" % (args.plot, e.strerror or e), 1)
            print("plot written to %s" % args.plot)
    return 0
