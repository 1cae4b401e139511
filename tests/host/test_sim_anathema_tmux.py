"""A game of Anathema kept on the virtual box's score keeper to 21 with three players, in
tmux as a table keeps it: the mode picked in the menu and the setup cycled round with ok,
each deal pressed by the dealer the screen names (a wrong dealer refused), each hand's
scores entered by category with the buttons (a tie for most, sweeps, a wrong point undone),
until a player reaches 21 and wins; then `tablemate sync` and the synced game read back
with `games list`, `games show`, `stats` and `replay`."""

import re
import shutil

import pytest

from tests.host.test_end_to_end import tablemate
from tests.host.tmux_sim import lit, oled, sim_in_tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

SEATS = {"P1", "P2", "P3"}
# Each hand as the table scored it: who had the most cards, the most Familiars (two: a tie,
# nobody scores), who swept (once a sweep), who took each card point; and the totals after.
HANDS = (
    ({"cards": ["P1"], "familiars": ["P2", "P3"], "sweeps": ["P3"], "points": "1112233"},
     {"P1": 6, "P2": 2, "P3": 3}),
    ({"cards": ["P1"], "familiars": ["P1"], "sweeps": ["P1", "P1"], "points": "1111223"},
     {"P1": 16, "P2": 4, "P3": 4}),
    ({"cards": ["P2"], "familiars": ["P1"], "sweeps": [], "points": "1111223"},
     {"P1": 21, "P2": 9, "P3": 5}),
)


def title(screen):
    rows = oled(screen)
    return rows[0].strip() if rows else ""


def sides(screen):
    """{side: (total, this hand's points)} of the OLED's score rows ("*P1   6 +3": picked)."""
    rows = (re.fullmatch(r"\*?(P\d) +(\d+)(?: ([+-]\d+))?", r) for r in oled(screen))
    return {m.group(1): (int(m.group(2)), int(m.group(3) or 0)) for m in rows if m}


def picked(screen):
    return {m.group(1) for m in (re.match(r"\*(P\d) ", r) for r in oled(screen)) if m}


def key(side):
    return side[1:]  # the front-end's key for P3 is 3


def dealer_named(screen):
    """The side the deal screen asks to press ("P2: deal," / "P2: last deal,"), or None."""
    found = [r for r in oled(screen) if re.fullmatch(r"P\d: (last )?deal,", r)]
    return found[0][:2] if found else None


def test_a_three_player_game_to_21_then_sync_games_stats_and_replay(tmp_path):
    db = tmp_path / "games.sqlite3"
    with sim_in_tmux(tmp_path, 100, 40) as tmux:
        menu = tmux.wait_for(lambda s: ">Anomia buzzers" in s and "q quit" in s)
        port = re.search(r"serial (/dev/pts/\d+)", menu).group(1)

        def shows(predicate):
            return tmux.wait_for(lambda s: bool(oled(s)) and predicate(s))

        screen = menu
        while ">Anathema scores" not in oled(screen):  # mode moves the menu's cursor down
            before = oled(screen)
            tmux.press("m")
            screen = shows(lambda s, before=before: oled(s) != before)
        tmux.press("o")
        screen = shows(lambda s: title(s).startswith("ANATHEMA ") and "B:menu" in oled(s)[-1])
        setups = [title(screen)[9:]]
        while len(setups) < 5:  # ok goes round the setups, each named on the hint row first
            nxt = re.fullmatch(r"O:(\S+) B:menu M:-", oled(screen)[-1]).group(1)
            tmux.press("o")
            screen = shows(lambda s, nxt=nxt: title(s) == "ANATHEMA " + nxt and "O:%s " % nxt not in s)
            setups.append(nxt)
        assert setups == ["3P", "4P", "2V2", "2P", "3P"]
        shows(lambda s: sides(s) == {p: (0, 0) for p in SEATS} and "who deals: press" in oled(s))

        totals = {p: 0 for p in SEATS}
        dealers = []
        for number, (hand, after) in enumerate(HANDS, 1):
            gained = {p: after[p] - totals[p] for p in SEATS}
            # the deals: whoever the screen names presses after each; their LED alone is lit
            for deal in range(1, 5):
                if number == deal == 1:  # the game's first deal: whoever deals first (P1 is offered it)
                    shows(lambda s: title(s) == "ANATHEMA 3P" and lit(s) == {"P1"})
                    dealer = "P1"
                else:
                    heading = "H%d %s %d/4" % (number, "LAST DEAL" if deal == 4 else "DEAL", deal)
                    word = "last deal," if deal == 4 else "deal,"  # the last deal is announced
                    screen = shows(lambda s, heading=heading, word=word: (
                        title(s) == heading and dealer_named(s)
                        and "%s: %s" % (dealer_named(s), word) in oled(s) and lit(s) == {dealer_named(s)}))
                    dealer = dealer_named(screen)
                if number == 2 and deal == 1:  # the last hand's dealer presses out of habit: refused
                    tmux.press(key(dealers[-1]))
                    why = "%s deals this hand, not %s" % (dealer, dealers[-1])
                    shows(lambda s, why=why: why in " ".join(oled(s)))
                tmux.press(key(dealer))
            dealers.append(dealer)
            # the last deal is out: the box says so, the dealer's LED flashes and stays lit
            rows = {p: (totals[p], 0) for p in SEATS}
            shows(lambda s, dealer=dealer, rows=rows: title(s) == "LAST DEAL!" and lit(s) == {dealer}
                  and sides(s) == rows
                  and "ok: enter pick" in oled(s) and oled(s)[-1] == "B:undo M:end")

            for step, heading in (("cards", "MOST CARDS +3"), ("familiars", "MOST FAMILIAR +1")):
                if step == "familiars":
                    shows(lambda s, heading=heading: title(s) == heading and not picked(s))
                for side in hand[step]:
                    tmux.press(key(side))
                    shows(lambda s, side=side: side in picked(s) and side in lit(s))
                want = set(hand[step])
                shows(lambda s, heading=heading, want=want: title(s) == heading and picked(s) == want)
                tmux.press("o")
            screen = shows(lambda s: title(s) == "SWEEPS +1 EACH" and "ok: to points" in oled(s))
            for side in hand["sweeps"]:
                before = sides(screen)[side][1]
                tmux.press(key(side))
                screen = shows(lambda s, side=side, before=before: sides(s)[side][1] == before + 1)
            tmux.press("o")
            shows(lambda s: title(s) == "POINT CARDS 0/7" and "ok: score hand" in oled(s))
            for entered, seat in enumerate(hand["points"], 1):
                tmux.press(seat)
                shows(lambda s, n=entered: title(s) == "POINT CARDS %d/7" % n)
                if number == 3 and entered == 2:  # a point pressed for the wrong player, taken back
                    tmux.press("3")
                    shows(lambda s: title(s) == "POINT CARDS 3/7" and sides(s)["P3"][1] == 1)
                    tmux.press("b")
                    shows(lambda s: title(s) == "POINT CARDS 2/7" and sides(s)["P3"][1] == 0)
            rows = {p: (totals[p], gained[p]) for p in SEATS}
            shows(lambda s, rows=rows: "all in" in oled(s) and sides(s) == rows)
            tmux.press("o")  # the hand is scored
            totals = after
            if number < len(HANDS):
                heading = "H%d DEAL 1/4" % (number + 1)
                rows = {p: (after[p], gained[p]) for p in SEATS}
                shows(lambda s, heading=heading, rows=rows: title(s) == heading and sides(s) == rows)
        assert dealers == ["P1", "P2", "P3"]  # the deal passed to the left each hand

        # 21 for P1, ahead of everyone: the winner named over the totals, only their LED lit
        shows(lambda s: title(s) == "P1 WINS" and lit(s) == {"P1"}
              and sides(s) == {p: (totals[p], gained[p]) for p in SEATS}
              and "ok: new game" in oled(s) and oled(s)[-1] == "O:new B:menu M:-")

        synced = tablemate(tmp_path, "sync", "--port", port, "--db", str(db))
        assert synced.returncode == 0, synced.stderr
        assert re.search(r"synced \d+ new records .* 1 game in", synced.stdout), synced.stdout

    listing = tablemate(tmp_path, "games", "--db", str(db), "list")
    assert listing.returncode == 0, listing.stderr
    found = re.search(r"(?m)^(\d+@\w+) .* anathema .* won +P1 21, P2 9, P3 5$", listing.stdout)
    assert found, listing.stdout
    game = found.group(1)

    shown = tablemate(tmp_path, "games", "--db", str(db), "show", game)
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"(?m)^  winners +P1$", shown.stdout), shown.stdout
    actions = re.findall(r"(?m)^ *\d+ +action +(\d+) +\w+ +(.+?)\s*$", shown.stdout)
    details = [d for n, d in actions]
    assert details[:4] == ["P1 dealt"] * 4 and details.count("P2 dealt") == details.count("P3 dealt") == 4
    assert "most familiars: P2 P3 (tie)" in details and details.count("P1 +1 sweep") == 2
    assert [d for d in details if d.startswith("hand scored")] == [
        "hand scored: totals 6 2 3", "hand scored: totals 16 4 4", "hand scored: totals 21 9 5"]
    undos = [i for i, (n, d) in enumerate(actions) if d.startswith("undo")]
    assert len(undos) == 1  # the wrong point is in the record, right before its undo
    i = undos[0]
    n = int(actions[i][0])
    assert actions[i - 1:i + 1] == [(str(n - 1), "P3 +1 point"), (str(n), "undo of action %d" % (n - 1))]

    stats = tablemate(tmp_path, "stats", "--db", str(db))
    assert stats.returncode == 0, stats.stderr
    hands = {}
    for line in stats.stdout.split("Anathema hands")[1].splitlines():
        cells = line.split()
        if cells and cells[0] in SEATS:
            hands[cells[0]] = [int(c) for c in cells[1:]]
    # hands, points, most cards, most Familiars, sweeps, card points
    assert hands == {"P1": [3, 21, 2, 2, 2, 11], "P2": [3, 9, 1, 0, 0, 6], "P3": [3, 5, 0, 0, 1, 4]}
    assert re.search(r"(?m)^P1 +1 +1$", stats.stdout) and re.search(r"(?m)^P2 +1 +0$", stats.stdout)

    replay = tablemate(tmp_path, "replay", "--db", str(db), game)
    assert replay.returncode == 0, replay.stderr
    assert "every digest matches" in replay.stdout, replay.stdout
