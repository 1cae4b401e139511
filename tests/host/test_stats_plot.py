"""`tablemate stats --plot`: a picture people can read (integer ticks, colours that read on
white, legends over no data, finished games' scores unless asked), and the formats it writes."""

import pytest

from firmware.record import decode_record, encode_record
from host import db as dbmod
from host import stats as stats_mod
from host import stats_plot
from host.bench_host import game_records
from host.cli import main as cli_main

T0 = 1_700_000_000


@pytest.fixture()
def store_path(tmp_path):
    """Game 1: eight players (yellow, cyan and white LEDs among them), finished. Game 2: three
    players, a few face-offs, finished. Game 3: open, still being played."""
    games, seq = [], 1
    for seed, players, faceoffs, end in ((61, 8, 40, True), (62, 3, 7, True), (63, 4, 9, False)):
        recs = game_records(seed, players=players, faceoffs=faceoffs, start_seq=seq, t0=T0 + seq * 10,
                            undo_every=5, end=end)
        seq = recs[-1]["seq"] + 1
        games += recs
    path = tmp_path / "games.sqlite3"
    with dbmod.open_db(path) as s:
        s.add_records("box-1", [decode_record(encode_record(r["seq"], r["kind"], r["data"], r["t"]))
                                for r in games], {"board": "sim"})
    return path


def _ids(store_path, numbers):
    """The ids of the fixture's games 1, 2, 3 (in the order they were played)."""
    with dbmod.open_db(store_path) as s:
        ids = [g["id"] for g in s.games()]
    return [ids[n - 1] for n in numbers]


def _figure(store_path, numbers, include_unfinished=False):
    game_ids = _ids(store_path, numbers)
    with dbmod.open_db(store_path) as s:
        stats = stats_mod.collect(s, game_ids)
        game, curve, why = stats_mod.curve_of(s, game_ids, include_unfinished)
    fig = stats_plot.build_figure(stats, game, curve, why)
    fig.canvas.draw()
    return fig, game


def _integers(values):
    return all(float(v).is_integer() for v in values)


def _visible_ticks(axis):
    lo, hi = sorted(axis.get_view_interval())
    return [v for v in axis.get_majorticklocs() if lo <= v <= hi]


@pytest.mark.parametrize("game_ids", [[2], [1, 2, 3]])
def test_the_ticks_of_counts_actions_and_scores_are_whole_numbers(store_path, game_ids):
    fig, _ = _figure(store_path, game_ids)
    gaps, scores = fig.axes[:2]
    for axis in (gaps.yaxis, scores.xaxis, scores.yaxis):
        ticks = _visible_ticks(axis)
        assert len(ticks) >= 2 and _integers(ticks), ticks
    for label in scores.get_yticklabels() + gaps.get_yticklabels():
        if label.get_text():
            int(label.get_text().replace("\u2212", "-"))  # "1", never "1.0" or "0.5"
    # the gap axis is the text report's ranges, in order
    assert [t.get_text() for t in gaps.get_xticklabels()] == stats_mod.bucket_labels()


def test_every_colour_drawn_reads_on_white(store_path):
    fig, _ = _figure(store_path, [1, 2, 3])
    gaps, scores = fig.axes[:2]
    colours = [p.get_facecolor()[:3] for p in gaps.patches] + [ln.get_color() for ln in scores.get_lines()]
    assert len(colours) > 8
    from matplotlib.colors import to_rgb

    for c in colours:
        assert stats_plot.contrast_on_white(to_rgb(c)) >= stats_plot.MIN_CONTRAST, c
    # the LED colours are darkened, not replaced: yellow stays a yellow hue
    r, g, b = stats_plot.player_colour([255, 255, 0], 3)
    assert r == g and b == 0 and 0 < r < 1


def _data_points(ax):
    """Display-space boxes of everything an axes plots: bars and every vertex of each line."""
    from matplotlib.transforms import Bbox

    boxes = [p.get_window_extent() for p in ax.patches if p.get_height()]
    for line in ax.get_lines():
        for x, y in ax.transData.transform(line.get_xydata()):
            boxes.append(Bbox([[x - 1, y - 1], [x + 1, y + 1]]))
    return boxes


@pytest.mark.parametrize("game_ids", [[2], [1, 2, 3]])
def test_no_legend_covers_data_and_each_is_inside_the_picture(store_path, game_ids):
    fig, _ = _figure(store_path, game_ids)
    renderer = fig.canvas.get_renderer()
    axes = fig.axes[:2]
    legends = [ax.get_legend() for ax in axes]
    assert all(legends)
    data = [box for ax in axes for box in _data_points(ax)]
    assert len(data) > 20
    page = fig.bbox
    for legend in legends:
        box = legend.get_window_extent(renderer)
        assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1
        assert not [d for d in data if box.overlaps(d)]


def test_the_scores_come_from_the_latest_finished_game_unless_asked(store_path, capsys):
    second, third = _ids(store_path, [2, 3])
    _, game = _figure(store_path, [1, 2, 3])
    assert game["id"] == second
    _, game = _figure(store_path, [1, 2, 3], include_unfinished=True)
    assert game["id"] == third and not game["ended"]
    fig, game = _figure(store_path, [3])
    assert game is None and "--include-unfinished" in fig.axes[1].texts[0].get_text()
    status = cli_main(["stats", "--db", str(store_path), "--game", third, "--plot",
                       str(store_path.parent / "open.png")])
    out = capsys.readouterr().out
    assert status == 0 and "game %s is not finished: --include-unfinished draws it" % third in out


@pytest.mark.parametrize("name, magic", [("s.png", b"\x89PNG\r\n\x1a\n"), ("s.PNG", b"\x89PNG"),
                                         ("s.svg", b"<?xml"), ("s.pdf", b"%PDF")])
def test_the_suffix_names_the_format(store_path, tmp_path, capsys, name, magic):
    target = tmp_path / name
    assert cli_main(["stats", "--db", str(store_path), "--game", _ids(store_path, [2])[0], "--plot",
                     str(target)]) == 0
    assert target.read_bytes().startswith(magic) and "plot written to %s" % target in capsys.readouterr().out
    if name.endswith(".svg"):
        assert b"<svg" in target.read_bytes()[:600]


@pytest.mark.parametrize("name, words", [("s.jpg", "not a .jpg file"), ("stats", "without a suffix"),
                                         ("s.png.txt", "not a .txt file")])
def test_another_suffix_is_refused_before_anything_is_done(store_path, tmp_path, capsys, name, words):
    out_dir = tmp_path / "plots"
    out_dir.mkdir()
    status = cli_main(["stats", "--db", str(store_path), "--plot", str(out_dir / name)])
    out = capsys.readouterr()
    assert status == 2 and out.out == "" and list(out_dir.iterdir()) == []
    assert out.err.count("\n") == 1 and words in out.err and ".png, .svg or .pdf" in out.err
    status = cli_main(["stats", "--db", str(store_path), "--plot", str(out_dir)])
    assert status == 1 and "--plot %s is a folder" % out_dir in capsys.readouterr().err
    status = cli_main(["stats", "--db", str(store_path), "--include-unfinished"])
    out = capsys.readouterr()
    assert status == 2 and out.out == "" and "give --plot FILE.png too" in out.err


def test_the_summary_names_each_players_games_wins_ties_and_gaps(store_path, capsys):
    with dbmod.open_db(store_path) as s:
        stats = stats_mod.collect(s, [g["id"] for g in s.games()])
    assert cli_main(["stats", "--db", str(store_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["PLAYER", "GAMES", "WON", "FACE-OFFS", "WON", "TIES", "MEDIAN", "GAP",
                                "BEST", "GAP"]
    rows = {ln.split()[0]: ln.split() for ln in lines[1:1 + len(stats)]}
    assert set(rows) == set(stats)
    for name, ps in stats.items():
        assert ps.gaps_us and ps.best_gap_us() == max(ps.gaps_us)
        cells = rows[name]
        assert cells[1:5] == [str(ps.games), str(ps.games_won), str(ps.won), str(ps.ties)]
        median, best = ps.median_gap_us() / 1000.0, ps.best_gap_us() / 1000.0
        assert cells[5:9] == ["%.3f" % median, "ms", "%.3f" % best, "ms"]
    assert rows["Ana"][1] == "3" and rows["Hal"][1] == "1"  # Ana played every game, Hal only the first
