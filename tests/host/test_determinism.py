"""The same seeded playouts give the same digest after every step on CPython and MicroPython."""

import subprocess
from pathlib import Path

from tests.shared import determinism_playouts

ROOT = Path(__file__).resolve().parents[2]

MICROPYTHON = ROOT / ".venv" / "bin" / "micropython"
SCRIPT = ROOT / "tests" / "shared" / "determinism_playouts.py"
COUNT = 100  # Anomia: mixed player counts 3-6 and both decks; ~16,900 digests, about 10 s on MicroPython
SOLO_COUNT = 240  # solo Anastasia: 1-3 players, every reading, a one-card deck, real cards on a table
# Anathema: whole games to 21, 6 of each layout (2, 3, 4 players, partners), half of them
# with the advanced rules; some 5,500 digests.
ANATHEMA_COUNT = 24
ANASTASIA_COUNT = 30  # 4-8 player Anastasia and its ledger: every player count (and Empress seat)


def compare_runtimes(game, count):
    # MicroPython runs in the background while CPython computes the same lines here.
    proc = subprocess.Popen(
        [str(MICROPYTHON), "-X", "heapsize=192k", str(SCRIPT), str(count), game],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    expected = []
    determinism_playouts.emit_playouts(count, expected.append, game)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    got = out.splitlines()
    assert expected[-1] == "playouts %d" % count
    assert sum(1 for line in expected if " start " in line) == count
    for n, (want, have) in enumerate(zip(expected, got, strict=False)):
        assert have == want, "line %d differs:\n  cpython:     %s\n  micropython: %s" % (n + 1, want, have)
    assert len(got) == len(expected), "micropython stopped after %d of %d lines" % (len(got), len(expected))
    return expected


def test_playout_digests_match_on_cpython_and_micropython():
    assert COUNT >= 100
    compare_runtimes("anomia", COUNT)


def test_solo_anastasia_digests_match_on_cpython_and_micropython():
    lines = compare_runtimes("anastasia_solo", SOLO_COUNT)
    # the playouts reach the automa, and its turns are compared too
    assert sum(1 for line in lines if ' ["automa"] ' in line) > SOLO_COUNT


def test_anathema_digests_match_on_cpython_and_micropython():
    lines = compare_runtimes("anathema", ANATHEMA_COUNT)
    # the games really cover every layout, both rule sets and every kind of action
    starts = [line for line in lines if " start " in line]
    layouts = set((line.split()[3], '"partners":true' in line) for line in starts)
    assert len(layouts) == 4  # 2, 3 and 4 players, and partners
    assert any('"advanced":true' in line for line in starts)
    for op in ("deal", "trail", "capture", "build", "pass"):
        assert any('["%s"' % op in line for line in lines), op


def test_finding_anastasia_digests_match_on_cpython_and_micropython():
    lines = compare_runtimes("anastasia", ANASTASIA_COUNT)
    assert len(lines) > 30 * ANASTASIA_COUNT  # whole games, not just the deal
    assert any('["reveal",' in line for line in lines) and any('["react"]' in line for line in lines)


def test_finding_anastasia_ledger_digests_match_on_cpython_and_micropython():
    lines = compare_runtimes("anastasia_ledger", ANASTASIA_COUNT)
    assert any('["role",' in line for line in lines)


def test_a_different_seed_gives_a_different_sequence():
    # guards the comparison above against trivially equal output
    for game in ("anomia", "anastasia_solo", "anathema", "anastasia", "anastasia_ledger"):
        a, b = [], []
        determinism_playouts.emit_playouts(2, a.append, game)
        determinism_playouts.emit_playouts(3, b.append, game)
        assert b[: len(a) - 1] == a[:-1] and len(b) > len(a)
        assert a[1].split()[-1] != b[len(a)].split()[-1]
