"""The host tools end to end against the virtual device, as a user runs them: flash a
running virtual box, play a scripted Anomia game through its world channel, sync twice,
replay, stats with a plot. (The cut-link case is in test_sync.py.)"""

import json
import sqlite3
import subprocess
import time

from tests.host.test_sim_boot import BIN, ROOT, Sim, sim_command, sim_env

GAME = """\
# P2 beats P1 by 3 ms
1000000 2 down
1003000 1 down
1050000 2 up
1053000 1 up
# P3 and P4 tie (400 us apart), then P4 wins the tie-breaker alone
2000000 3 down
2000400 4 down
2050000 3 up
2050400 4 up
3000000 4 down
3050000 4 up
# P1 beats P3 by 12 ms
4000000 1 down
4012000 3 down
4050000 1 up
4062000 3 up
"""


def tablemate(tmp_path, *args):
    return subprocess.run([str(BIN / "tablemate")] + list(args), cwd=ROOT, env=sim_env(tmp_path),
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_flash_play_sync_twice_replay_stats(tmp_path):
    image = tmp_path / "box.img"
    db = tmp_path / "games.sqlite3"

    # 1. flash a running virtual box: its firmware restarts and answers on the same port
    with Sim(image, "--fresh") as sim:
        sim.wait_ready()
        res = tablemate(tmp_path, "flash", "--port", sim.port)
        assert res.returncode == 0, res.stderr
        assert "flashed" in res.stdout and "answers on %s" % sim.port in res.stdout
        again = tablemate(tmp_path, "flash", "--port", sim.port)
        assert again.returncode == 0 and "flashed 0 files" in again.stdout, again.stdout
        assert sim.stop()[0] == 0

    # 2. a scripted game through the world channel of the flashed box
    script = tmp_path / "game.txt"
    script.write_text(GAME)
    res = subprocess.run(sim_command(image, "--players", "4", "--script", str(script)), cwd=ROOT,
                         env=sim_env(tmp_path), capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr
    decisions = [json.loads(line) for line in res.stdout.splitlines()[1:]]
    assert [(d["event"], d.get("winner"), d["gap_us"]) for d in decisions] == [
        ("win", 2, 3000), ("tie", None, 400), ("win", 4, None), ("win", 1, 12000)]

    # 3. sync twice: the database then holds exactly that game, once
    with Sim(image) as sim:
        sim.wait_ready()
        first = tablemate(tmp_path, "sync", "--port", sim.port, "--db", str(db))
        assert first.returncode == 0, first.stderr
        second = tablemate(tmp_path, "sync", "--port", sim.port, "--db", str(db))
        assert second.returncode == 0 and "nothing new" in second.stdout, second.stdout
        assert sim.stop()[0] == 0
    con = sqlite3.connect(db)
    try:
        (seq_count,) = con.execute("SELECT COUNT(*) FROM records").fetchone()
        (distinct,) = con.execute("SELECT COUNT(DISTINCT seq) FROM records").fetchone()
    finally:
        con.close()
    assert seq_count == distinct
    listing = tablemate(tmp_path, "games", "--db", str(db), "list")
    games = [ln for ln in listing.stdout.splitlines()[1:] if ln.strip()]
    assert len(games) == 1 and "anomia" in games[0], listing.stdout
    game_id = games[0].split()[0]
    shown = tablemate(tmp_path, "games", "--db", str(db), "export", game_id, "--format", "json")
    exported = json.loads(shown.stdout)["records"]
    actions = [r["data"]["action"] for r in exported if r["kind"] == "action"]
    assert actions == [["win", 1, 0], ["tie", 2, 3], ["win", 3, -1], ["win", 0, 2]]
    started = time.time() - 600
    assert all(isinstance(r["t"], int) and r["t"] > started for r in exported)  # the sim set the clock

    # 4. replay passes; stats counts the face-offs and writes a PNG
    rep = tablemate(tmp_path, "replay", "--db", str(db), game_id)
    assert rep.returncode == 0 and "every digest matches" in rep.stdout, rep.stdout + rep.stderr
    png = tmp_path / "stats.png"
    st = tablemate(tmp_path, "stats", "--db", str(db), "--plot", str(png))
    assert st.returncode == 0, st.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    rows = {}  # each player's first row: the summary's (face-offs won, ties after games played, won)
    for ln in st.stdout.splitlines():
        rows.setdefault(ln.split()[0] if ln.strip() else "", ln.split())
    assert rows["P1"][3:5] == ["1", "0"] and rows["P2"][3:5] == ["1", "0"]
    assert rows["P4"][3:5] == ["1", "1"] and rows["P3"][3:5] == ["0", "1"]
