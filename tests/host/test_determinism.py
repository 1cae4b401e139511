"""The same seeded playouts of every registered game give the same digest after every step on
CPython and MicroPython."""

import subprocess
from pathlib import Path

from engine import games
from tests.shared import determinism_playouts

ROOT = Path(__file__).resolve().parents[2]

MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"
SCRIPT = ROOT / "tests" / "shared" / "determinism_playouts.py"
COUNT = 100  # per game: every player count and variant in turn
COUNTS = {"anastasia_solo": 240}  # 1-3 players x the defaults and every reading, in turn


def test_playout_digests_match_on_cpython_and_micropython():
    assert COUNT >= 100
    # One MicroPython process per game (a fresh heap each, as a box has after a reset), run
    # in the background while CPython computes the same lines here.
    counts = {name: COUNTS.get(name, COUNT) for name in games.GAMES}
    procs = {name: subprocess.Popen(
        [str(MICROPYTHON), "-X", "heapsize=192k", str(SCRIPT), str(counts[name]), name],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) for name in sorted(games.GAMES)}
    for name, proc in procs.items():
        expected = []
        count = counts[name]
        determinism_playouts.emit_playouts(count, expected.append, [name])
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        got = out.splitlines()
        assert expected[-1] == "playouts %d" % count
        assert sum(1 for line in expected if line.startswith(name + " ") and " start " in line) == count
        for n, (want, have) in enumerate(zip(expected, got, strict=False)):
            assert have == want, "line %d differs:\n  cpython:     %s\n  micropython: %s" % (
                n + 1, want, have)
        assert len(got) == len(expected), "micropython stopped after %d of %d lines" % (
            len(got), len(expected))
        if name == "anastasia_solo":  # the playouts reach the automa, and its turns are compared too
            assert sum(1 for line in expected if ' ["automa"] ' in line) > count


def test_a_different_seed_gives_a_different_sequence():
    # guards the comparison above against trivially equal output
    a, b = [], []
    determinism_playouts.emit_playouts(2, a.append)
    determinism_playouts.emit_playouts(3, b.append)
    assert [line for line in b if line.split()[1] != "2"][:-1] == a[:-1]
    for name in games.GAMES:
        starts = [line.split()[-1] for line in b if line.startswith(name + " ") and " start " in line]
        assert len(starts) == 3 and len(set(starts)) == 3, name
