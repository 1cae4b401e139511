"""`tablemate play`: a narrated, reproducible random game; bad arguments give one line and status 2."""

import re

import pytest

from engine import anomia, playout
from engine.games import GAMES
from host.cli import main


def _play(capsys, *argv):
    status = main(["play"] + list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_same_seed_prints_the_same_game_with_draws_faceoffs_and_a_winner_table(capsys):
    status, first, err = _play(capsys, "anomia", "--players", "4", "--seed", "7")
    assert status == 0 and err == ""
    assert _play(capsys, "anomia", "--players", "4", "--seed", "7")[1] == first
    assert _play(capsys, "anomia", "--players", "4", "--seed", "8")[1] != first
    lines = first.splitlines()
    assert lines[0].startswith("anomia: 4 players, blue deck, seed 7")
    assert re.match(r"turn 1  P1 draws \[\w+\] '[^']+' from pile [01]$", lines[2])
    assert any(re.match(r"  FACE-OFF P\d vs P\d \((wild )?\w+(\|\w+)?\): P\d answers \"", ln) for ln in lines)
    assert any(re.match(r"  P\d wins: takes P\d's card \[\w+\] '", ln) for ln in lines)
    assert any(re.match(r"  TIE P\d P\d -> ", ln) for ln in lines)
    assert any("WILD [" in ln and "draws" in ln for ln in lines)
    # the table agrees with the same playout run directly on the engine
    state = anomia.new_game(7, 4)
    playout.run(state, 7)
    table = lines[lines.index("player  score") + 1:]
    for p, score in enumerate(state.scores()):
        assert table[p].split()[:2] == ["P%d" % (p + 1), str(score)]
        assert table[p].endswith("winner") == (p in state.winners())
    names = ", ".join("P%d" % (p + 1) for p in state.winners())
    assert table[-1] in ("winner: " + names, "shared win: " + names)


def test_draws_match_the_engine_turn_by_turn(capsys):
    _, out, _ = _play(capsys, "anomia", "--players", "5", "--seed", "3", "--option", "deck=red")
    draws = [ln for ln in out.splitlines() if ln.startswith("turn ")]
    state = anomia.new_game(3, 5, deck="red")
    expected = []

    def before(st, action):
        if action[0] == "draw":
            expected.append((st.current_player(), st.deck.label(st.draw_piles[action[1]][-1]), action[1]))

    playout.run(state, 3, before=before)
    assert len(draws) == len(expected) > 90
    for line, (p, label, pile) in zip(draws, expected, strict=True):
        assert line.endswith(" P%d draws %s from pile %d" % (p + 1, label, pile)) or \
            line.endswith(" P%d draws again %s from pile %d" % (p + 1, label, pile)), line


def test_without_players_a_game_gets_the_count_nearest_four_it_allows(capsys):
    status, out, err = _play(capsys, "anastasia_solo", "--seed", "3")
    assert status == 0 and err == ""
    assert out == _play(capsys, "anastasia_solo", "--seed", "3", "--players", "3")[1]
    anomia_default = _play(capsys, "anomia", "--seed", "3")[1]
    assert anomia_default == _play(capsys, "anomia", "--seed", "3", "--players", "4")[1]


def test_a_game_nobody_won_says_so(capsys):
    # solo Finding Anastasia, seed 3: both players reveal a guest who is not Anastasia
    status, out, _ = _play(capsys, "anastasia_solo", "--players", "2", "--seed", "3")
    assert status == 0
    assert out.splitlines()[-4:] == ["player  score", "P1          0", "P2          0", "no winner"]


@pytest.mark.parametrize("argv, message", [
    (["anomia", "--players", "2"], "anomia needs 3-6 players, got 2"),
    (["anomia", "--players", "9"], "anomia needs 3-6 players, got 9"),
    (["anomia", "--seed", "abc"], "invalid int value: 'abc'"),
    (["chess"], "unknown game 'chess' (known: %s)" % ", ".join(sorted(GAMES))),
    (["anomia", "--option", "deck=green"], "deck must be one of blue, red"),
    (["anomia", "--option", "nokey"], "--option needs KEY=VALUE"),
])
def test_bad_arguments_give_one_line_and_status_2(capsys, argv, message):
    try:
        status, out, err = _play(capsys, *argv)
    except SystemExit as e:  # argparse's own errors exit from inside the parser
        status = e.code
        captured = capsys.readouterr()
        out, err = captured.out, captured.err
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tablemate: error: ") and message in err, err


def test_a_reader_that_has_gone_gets_no_traceback():
    import os
    import subprocess
    import sys
    from pathlib import Path

    exe = str(Path(sys.executable).parent / "tablemate")
    r, w = os.pipe()
    os.close(r)  # nobody will read: the first write fails with EPIPE, as after `| head` exits
    try:
        proc = subprocess.run([exe, "play", "anomia", "--players", "6", "--seed", "3"],
                              stdout=w, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(w)
    assert proc.stderr == b""
    assert proc.returncode == 141
