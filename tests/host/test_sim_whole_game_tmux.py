"""A whole Anomia game played in the terminal front-end as a table plays it, in tmux: the
roster pushed, the player count set, face-offs won, a tie and its tie-breaker (a press by
someone else refused), the window made 80x24 while it runs, two undos that walk back into
the tie-breaker, an end declined and then confirmed, the game-over screen read; then
`tablemate sync` and `tablemate stats`."""

import re
import shutil

import pytest

from tests.host.test_end_to_end import tablemate
from tests.host.tmux_sim import SESSION, lit, oled, sim_in_tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

# Zoë shows on the OLED in her ASCII base letters (docs/storage.md) and on the host as written.
# Every press is alone (a second press within the lockout would race a loaded machine, and
# keys sent one after the other may reach the front-end in one read: pressed together).
CONFIG = "".join('[[roster]]\nname = "%s"\ncolour = "%s"\n' % nc for nc in (
    ("Ana", "#ff0000"), ("Ben", "#00ff00"), ("Zoë", "#0000ff"), ("Dee", "#ffff00"), ("Eve", "#ff00ff"),
    ("Fay", "#00ffff"), ("Gil", "#ff8000"), ("Hal", "#ffffff")))


def scores(screen):
    """{name: count} of the OLED's score rows."""
    rows = (re.fullmatch(r"\*?(\S+) +(\d+)", r) for r in oled(screen))
    return {m.group(1): int(m.group(2)) for m in rows if m}


def test_a_whole_game_then_sync_and_stats(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(CONFIG, encoding="utf-8")
    db = tmp_path / "games.sqlite3"
    with sim_in_tmux(tmp_path, 100, 40) as tmux:
        menu = tmux.wait_for(lambda s: ">Anomia buzzers" in s and "q quit" in s)
        port = re.search(r"serial (/dev/pts/\d+)", menu).group(1)
        pushed = tablemate(tmp_path, "config", "push", "--port", port, str(config))
        assert pushed.returncode == 0, pushed.stderr

        def shows(title, counts=None, leds=None, keys=""):
            """Wait for the OLED titled title (with these counts, these player LEDs lit, the
            key line saying keys): its frame, the LEDs' and the hints travel apart."""
            def holds(s):
                rows = oled(s)
                return (bool(rows) and rows[0].strip() == title and keys in s
                        and (counts is None or scores(s) == counts)
                        and (leds is None or lit(s) == set(leds)))
            return tmux.wait_for(holds)

        zero = {"Ana": 0, "Ben": 0, "Zoe": 0, "Dee": 0}
        tmux.press("o")  # the buzzers, for the count kept in the settings
        shows("ANOMIA 4P", zero, leds=("P1", "P2", "P3", "P4"))
        tmux.press("o")  # before the first face-off, ok sets the count: five players
        shows("ANOMIA 5P", dict(zero, Eve=0), leds=("P1", "P2", "P3", "P4", "P5"))
        count = dict(zero, Eve=0)

        tmux.press("2")  # Ben
        shows("SCORES", dict(count, Ben=1))
        tmux.press("4")  # Dee alone
        shows("SCORES", dict(count, Ben=1, Dee=1))
        count.update(Ben=1, Dee=1)

        tmux.press("35")  # Zoë and Eve at once: a tie, and only they may answer the tie-breaker
        shows("TB Zoe Eve", count, leds=("P3", "P5"))
        tmux("resize-window", "-t", SESSION, "-x", "80", "-y", "24")  # the rest at 80x24: all still shown
        small = tmux.wait_for(lambda s: "⠀" not in s and oled(s)[:1] == ["   TB Zoe Eve"])
        assert small.startswith("tablemate virtual device") and lit(small) == {"P3", "P5"}
        assert scores(small) == count and max(len(row) for row in small.splitlines()) <= 80
        tmux.press("1")  # Ana is not in it: told so, nothing changes
        nope = tmux.wait_for(lambda s: "P1 does nothing now" in " ".join(s.split()))  # the key line, wrapped
        assert scores(nope) == count and oled(nope)[0].strip() == "TB Zoe Eve"
        tmux.press("5")  # Eve wins the tie-breaker
        shows("SCORES", dict(count, Eve=1), leds=("P1", "P2", "P3", "P4", "P5"))
        tmux.press("1")  # Ana wins the next face-off
        shows("SCORES", dict(count, Eve=1, Ana=1))

        tmux.press("b")  # undo Ana's face-off
        shows("SCORES", dict(count, Eve=1))
        tmux.press("b")  # and Eve's tie-breaker: the box is back in it
        shows("TB Zoe Eve", count, leds=("P3", "P5"))
        tmux.press("3")  # this time Zoë wins it
        shows("SCORES", dict(count, Zoe=1))
        tmux.press("2")  # Ben again
        count.update(Zoe=1, Ben=2)
        shows("SCORES", count)

        tmux.press("m")  # mode asks first; back declines, the game goes on
        asked = shows("END GAME?", keys="o ok: yes   b back: no")
        assert "ok: end it" in oled(asked)
        tmux.press("b")
        shows("SCORES", count)
        tmux.press("m")
        shows("END GAME?")
        tmux.press("o")  # confirmed: the winner named and starred, every count, only his LED lit
        over = shows("GAME OVER", count, leds=("P2",), keys="o ok: new")
        rows = oled(over)
        assert rows[1] == "won: Ben" and [r for r in rows if r.startswith("*")] == ["*Ben           2"]

        synced = tablemate(tmp_path, "sync", "--port", port, "--db", str(db))
        assert synced.returncode == 0, synced.stderr
        assert re.search(r"synced \d+ new records .* 1 game in", synced.stdout), synced.stdout
        tmux.press("q")
        assert tmux.wait_gone()

    stats = tablemate(tmp_path, "stats", "--db", str(db))
    assert stats.returncode == 0, stats.stderr
    table = {}
    for line in stats.stdout.splitlines()[1:]:
        cells = line.split()
        if cells and cells[0] in ("Ana", "Ben", "Zoë", "Dee", "Eve"):
            table.setdefault(cells[0], cells[1:6])
    # games, won, face-offs won, ties, median gap (none: every press was alone); the undone
    # face-offs count for nobody
    assert table["Ben"] == ["1", "1", "2", "0", "-"]
    assert table["Zoë"][:4] == ["1", "0", "1", "1"] and table["Eve"][:4] == ["1", "0", "0", "1"]
    assert table["Ana"][:4] == ["1", "0", "0", "0"] and table["Dee"][:4] == ["1", "0", "1", "0"]
    listing = tablemate(tmp_path, "games", "--db", str(db), "list")
    ended = r"(?m)ended +P1 Ana 0, P2 Ben 2, P3 Zoë 1, P4 Dee 1, P5 Eve 0$"
    assert re.search(ended, listing.stdout), listing.stdout
