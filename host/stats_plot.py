"""`tablemate stats --plot FILE`: the statistics as a picture people can read.

Top: the winning gaps per range (the ranges of the text report), one stacked bar per range
and a colour per player; without face-offs, the first view's own figures. Bottom: each
player's score over one game: the latest finished one (or --game's), open, abandoned and
left games only when asked. Counts, actions and scores are whole numbers, so are their
ticks. A player's colour is their LED colour, darkened until it reads on white; the
legends sit right of the plots, where there is no data. The file's suffix names its
format: .png, .svg or .pdf.
"""

from host.game_views import VIEWS
from host.output_file import check_output_path, write_file
from host.stored_games import player_names

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
# WCAG 2's least contrast for graphics against their background (1.4.11 non-text contrast)
MIN_CONTRAST = 3.0
# Colours of players whose roster has none: matplotlib's tab10, made readable like the rest.
FALLBACK = ((31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
            (140, 86, 75), (227, 119, 194), (127, 127, 127))
# game_end reasons of a game the players finished (others: "left", "abandoned", ... or no end)
FINISHED = ("ended", "won")


def plot_format(path):
    """The format --plot writes for path; CliError (exit 2) for a suffix it does not write."""
    from host.cli import CliError

    check_output_path(path, "--plot", "stats.png")
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise CliError("--plot %s: write a .png, .svg or .pdf file (the suffix names the format), not %s"
                       % (path, "a file without a suffix" if not suffix else "a %s file" % suffix))
    return FORMATS[suffix]


def is_finished(game):
    return bool(game["ended"]) and game["reason"] in FINISHED and not game.get("incomplete")


def _linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def contrast_on_white(rgb):
    """WCAG contrast ratio of an (r, g, b) in 0..1 against white."""
    r, g, b = (_linear(c) for c in rgb)
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def readable_on_white(rgb):
    """The colour darkened (hue kept) until it has MIN_CONTRAST against white."""
    scale = 1.0
    while contrast_on_white([c * scale for c in rgb]) < MIN_CONTRAST:
        scale -= 0.02
    return tuple(c * scale for c in rgb)


def player_colour(colour, i):
    """A player's plot colour: their roster colour (0-255 each), else a fallback, readable on white."""
    if isinstance(colour, list) and len(colour) == 3 and all(isinstance(c, int) for c in colour) \
            and max(colour) > 0:
        rgb = colour
    else:
        rgb = FALLBACK[i % len(FALLBACK)]
    return readable_on_white([max(0, min(255, c)) / 255.0 for c in rgb])


def player_colours(stats):
    """{name: plot colour} for the players of a stats dict, in its order."""
    return {name: player_colour(ps.colour, i) for i, (name, ps) in enumerate(stats.items())}


def _integer_ticks(axis):
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _legend_outside(ax, title=None):
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small",
              title=title, title_fontsize="small")


def _plot_gaps(ax, players, labels):
    """Stacked bars: face-offs won per gap range, a colour per player."""
    bottoms = [0] * len(labels)
    for ps, colour in players:
        counts = ps.distribution()
        ax.bar(range(len(labels)), counts, bottom=bottoms, color=colour, edgecolor="white", linewidth=0.8,
               label=ps.name)
        bottoms = [b + c for b, c in zip(bottoms, counts, strict=True)]
    ax.set_ylim(0, max(1, max(bottoms)) * 1.08)  # room above the tallest bar
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels)
    _integer_ticks(ax.yaxis)
    ax.set_title("winning gaps: how far ahead of the next press the winner was")
    ax.set_xlabel("gap to the next press (ms)")
    ax.set_ylabel("face-offs won")
    _legend_outside(ax)


def _plot_figures(ax, stats, colours):
    """Without face-offs: the first view's own figures, a group of bars per figure, a bar per
    player. False when no game had figures."""
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
               color=colours[ps.name], edgecolor="white", linewidth=0.5)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(view.figures))])
    ax.set_xticklabels([title.lower() for _, title in view.figures], fontsize="small")
    _integer_ticks(ax.yaxis)
    ax.set_title(view.title.split(" (")[0])
    _legend_outside(ax)
    return True


def _plot_scores(ax, game, curve):
    """Each player's score after each action, as steps. Lines that run together stay visible:
    the earlier players' lines are drawn wider, beneath the later ones."""
    names = player_names(game)
    n = len(names)
    for i, name in enumerate(names):
        ax.step(range(len(curve)), [s[i] for s in curve], where="post", label=name,
                color=player_colour(game["players"][i].get("colour"), i),
                linewidth=1.5 + 3.0 * (n - 1 - i) / max(1, n - 1), zorder=2 + i, solid_capstyle="butt")
    _integer_ticks(ax.xaxis)
    _integer_ticks(ax.yaxis)
    # a little room around the data: a line at 0 or at the top score is not cut in half by the frame
    top = max([1] + [max(scores) for scores in curve])
    ax.set_xlim(-0.3, max(1, len(curve) - 1) + 0.3)
    ax.set_ylim(-0.3, top + 0.3)
    state = "finished" if is_finished(game) else (game["reason"] or "open")
    ax.set_title("scores over game %s (%s, %s)" % (game["id"], game["name"] or "?", state))
    ax.set_xlabel("action")
    ax.set_ylabel("score")
    _legend_outside(ax)


def build_figure(stats, curve_game, curve, no_curve_why="no finished game stored"):
    """The matplotlib Figure: gaps (or a view's figures) above, scores over one game below."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from host.stats import bucket_labels

    fig = Figure(figsize=(10, 8), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(2, 1)
    colours = player_colours(stats)
    with_gaps = [(ps, colours[ps.name]) for ps in stats.values() if ps.gaps_us]
    if with_gaps:
        _plot_gaps(ax1, with_gaps, bucket_labels())
    elif not _plot_figures(ax1, stats, colours):
        ax1.text(0.5, 0.5, "no measured gaps", ha="center", va="center", transform=ax1.transAxes)
        ax1.set_title("winning gaps")
        ax1.set_axis_off()
    if curve_game is not None and curve:
        _plot_scores(ax2, curve_game, curve)
    else:
        ax2.text(0.5, 0.5, no_curve_why, ha="center", va="center", transform=ax2.transAxes)
        ax2.set_title("scores over a game")
        ax2.set_axis_off()
    return fig


def write_plot(path, fmt, fig):
    write_file(path, lambda f: fig.savefig(f, format=fmt), "--plot", "stats." + fmt)
