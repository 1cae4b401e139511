"""`games`, `replay` and `stats` read the Anathema score keeper's games in their own terms:
records made by the real mode (on the mode harness) pressed through two games, stored as a
sync stores them."""

import pytest

from firmware.record import decode_record, encode_record
from host import db as dbmod
from host import stats as stats_mod
from host import stats_plot
from host.cli import main as cli_main
from tests.shared.anathema_box import Clock, deal_hand, score_hand
from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import Box

HANDS = [  # three players: P1 wins at 21 after three hands
    ([0], [0], [0], [0, 0, 0, 1, 1, 2, 2]),  # P1 3+1+1+3 = 8, P2 2, P3 2
    ([1], [0, 2], [], [1, 1, 1, 1, 0, 0, 0]),  # a tie for most Familiars scores nobody: P2 3+4, P1 3
    ([0], [0], [0, 0], [0, 0, 0, 0, 1, 1, 1]),  # P1 3+1+2+4 = 10: 21 to 12 and 2
]


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    with tmp_dir() as d:
        box = Box(d, "anathema", players=3)
        at = Clock()
        for k, hand in enumerate(HANDS):
            deal_hand(box, at, k % 3)
            score_hand(box, at, *hand)
        box.press(1, at())  # ok: a new game, ended early with the mode button after one hand
        box.ok(at())
        deal_hand(box, at, 2)
        box.back(at())  # an undo record in the middle
        box.press(2, at())
        score_hand(box, at, [2], [2], [], [2] * 7)
        box.mode_button(at())
        box.ok(at())  # yes to END GAME?
        wire = [encode_record(r["seq"], r["kind"], r["data"], r["t"]) for r in box.records()]
    records = [decode_record(line) for line in wire]
    path = tmp_path_factory.mktemp("db") / "games.sqlite3"
    with dbmod.open_db(path) as s:
        s.add_records("box-1", records, {"board": "sim"})
    return path


def _ids(store_path):
    with dbmod.open_db(store_path) as s:
        return [g["id"] for g in s.games()]


def _run(capsys, *argv):
    status = cli_main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_games_list_and_show_read_hands_not_faceoffs(store_path, capsys):
    status, out, _ = _run(capsys, "games", "list", "--db", store_path)
    lines = out.splitlines()
    assert status == 0 and len(lines) == 3
    assert lines[1].split()[2] == "anathema" and "won" in lines[1] and "P1 21, P2 12, P3 2" in lines[1]
    assert "ended" in lines[2] and "P3 11" in lines[2]
    first, second = _ids(store_path)
    status, out, _ = _run(capsys, "games", "show", first, "--db", store_path)
    assert status == 0 and "winners  P1" in out and "gap" not in out
    assert "P1 dealt" in out and "most cards: P1" in out and "most familiars: P1 P3 (tie)" in out
    assert "P2 +1 point" in out and "P1 +1 sweep" in out and "sweeps entered" in out
    assert "hand scored: totals 8 2 2" in out and "hand scored: totals 21 12 2" in out
    status, out, _ = _run(capsys, "games", "show", second, "--db", store_path)
    assert "undo of action" in out and "scores P1 0, P2 0, P3 11; ended" in out


def test_replay_checks_every_digest_of_both_games(store_path, capsys):
    for gid in _ids(store_path):
        status, out, _ = _run(capsys, "replay", gid, "--db", store_path)
        assert status == 0 and "anathema_score, 3 players" in out and "every digest matches" in out


def test_stats_count_hands_points_and_categories_per_player(store_path, capsys):
    with dbmod.open_db(store_path) as s:
        stats = stats_mod.collect(s, [g["id"] for g in s.games()])
    p1, p2, p3 = stats["P1"], stats["P2"], stats["P3"]
    assert (p1.games, p1.games_won, p2.games_won, p3.games_won) == (2, 1, 0, 0)  # game 2 ended early
    assert p1.figures == {"hands": 4, "points": 21, "most_cards": 2, "most_familiars": 2, "sweeps": 3,
                          "card_points": 10}
    assert p3.figures["points"] == 2 + 11 and p3.figures["most_familiars"] == 1  # the tie scored nobody
    assert p2.figures["most_cards"] == 1 and p2.won == 0 and not p2.gaps_us
    status, out, _ = _run(capsys, "stats", "--db", store_path)
    assert status == 0 and "face-off" not in out
    lines = out.splitlines()
    head = [i for i, line in enumerate(lines) if line.startswith("Anathema hands")][0] + 1
    assert lines[head].split()[:3] == ["PLAYER", "HANDS", "POINTS"]
    assert lines[head + 1].split() == ["P1", "4", "21", "2", "2", "3", "10"]
    assert lines[1].split() == ["P1", "2", "1"]  # games played, won


def test_the_plot_shows_the_hand_figures_where_there_are_no_faceoffs(store_path, tmp_path, capsys):
    from matplotlib.figure import Figure

    with dbmod.open_db(store_path) as s:
        stats = stats_mod.collect(s, [g["id"] for g in s.games()])
    ax = Figure().subplots()
    assert stats_plot._plot_figures(ax, stats, stats_plot.player_colours(stats)) is True
    assert ax.get_title() == "Anathema hands" and len(ax.patches) == 6 * 3  # six figures, three players
    assert [p.get_height() for p in ax.patches][:6] == [4, 21, 2, 2, 3, 10]  # P1's bars
    png = tmp_path / "stats.png"
    status, out, _ = _run(capsys, "stats", "--db", store_path, "--plot", png)
    assert status == 0 and png.read_bytes()[:4] == b"\x89PNG"
