"""A whole 5-player game of Finding Anastasia played in the terminal front-end as a table
plays it, in tmux: each key chosen from what the screen shows (whose turn the title says,
which item the pick list shows, a purse before a reveal). The Empress presses her buzzer;
answers pick their column and space; a Look, a Reaction, a Draw, an Exchange, a further
question; the Empress reveals Anastasia; the others enter their roles in turn and the
Collector says whether they held the full set; the result read; then `tablemate sync`,
`games list`, `games show` and `replay`."""

import re
import shutil

import pytest

from tests.host.test_end_to_end import tablemate
from tests.host.tmux_sim import lit, oled, sim_in_tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

class Table:
    """The players at the box: they read its screen and press its keys."""

    def __init__(self, tmux):
        self.tmux = tmux
        self.shows = tmux.shows
        self.pick = tmux.pick

    def title(self):
        return oled(self.tmux.wait_for(lambda s: bool(oled(s))))[0].strip()

    def asker(self):
        """The seat whose turn it is, as the title says ("P3 ASKS")."""
        return int(re.fullmatch(r"P(\d) ASKS", self.title()).group(1))

    def answer(self, seat, column, space):
        """The responder presses their buzzer, then picks the column and the space."""
        asker = self.asker()
        self.tmux.press(str(seat))
        self.shows("P%d: COLUMN" % seat)
        self.pick(column, seat)
        self.shows("P%d: %s" % (seat, column.upper()))
        self.pick(space, seat)
        return self.shows("P%d ACTS" % asker)

    def purse(self, seat):
        """seat's gems, as the screen shows them ("P3 6 gems")."""
        for row in oled(self.tmux.screen()):
            m = re.fullmatch(r"P%d (\d+) gems" % seat, row.strip())
            if m:
                return int(m.group(1))
        raise AssertionError("no purse of P%d on the screen" % seat)


def test_a_five_player_game_to_its_end_then_sync_games_and_replay(tmp_path):
    db = tmp_path / "games.sqlite3"
    with sim_in_tmux(tmp_path, 100, 40) as tmux:
        menu = tmux.wait_for(lambda s: ">Anomia buzzers" in s and "q quit" in s)
        port = re.search(r"serial (/dev/pts/\d+)", menu).group(1)
        table = Table(tmux)
        for entry in ("Anastasia solo", "Anathema scores", "Anastasia 4-8P"):  # mode steps the menu
            tmux.press("m")
            tmux.wait_for(lambda s, entry=entry: ">" + entry in s)
        tmux.press("o")
        setup = table.shows("EMPRESS?", "5 players")
        assert "o ok: 6P   b back: menu" in tmux.screen() and setup[-1].strip() == "O:6P B:menu M:-"
        tmux.press("3")  # P3 is the Empress: she starts, with 4 gems more
        table.shows("P3 ASKS", "P3 5 gems", leds=("P3",))

        # P3's turn: P4 claims Paris; the space paid nothing, the other four got one each
        table.answer(4, "Location", "1 Paris")
        table.shows("P3 ACTS", "P4: Paris", "P4 1 gems", "Locat 0 1 1 1 1")
        screen = tmux.wait_for(lambda s: "o ok: next" in s and lit(s) == {"P3"})
        assert "b back: undo" in screen
        table.pick("Look", 3)
        table.shows("LOOK AT?")
        tmux.press("4")  # +2 from the supply, 1 of them to P4

        # P4's turn: P5 claims Berlin; P1 shows that clue face up (a Reaction); P4 draws
        table.shows("P4 ASKS", "P4 2 gems")
        table.answer(5, "Location", "2 Berlin")
        tmux.press("1")
        table.shows("P4 ACTS", "P1 reacted:", "Berlin")
        table.pick("Draw", 4)

        # P5's turn: P1 claims the Locket; P5 exchanges a clue with P2
        table.shows("P5 ASKS")
        table.answer(1, "Trinket", "2 Locket")
        table.pick("Exchange", 5)
        table.shows("EXCHANGE WITH?")
        tmux.press("2")

        # P1's turn: P2 claims a Story; P1 asks P3 a further question
        table.shows("P1 ASKS")
        table.answer(2, "Story", "1 By train")
        table.pick("Question", 1)
        table.shows("ASK WHOM?")
        tmux.press("3")
        table.shows("P3: COLUMN")
        table.pick("Location", 3)
        table.shows("P3: LOCATION")
        table.pick("1 Paris", 3)
        table.shows("P2 ASKS", "ok: a Reaction")  # the claim may still be disproved
        assert "o ok: react" in tmux.screen()

        # P2's turn: P4 claims Paris; P2 draws
        table.answer(4, "Location", "1 Paris")
        table.pick("Draw", 2)

        # P3's turn again: P5 claims Paris; she can pay 5, and reveals P1: Anastasia
        table.shows("P3 ASKS")
        assert table.purse(3) >= 5
        table.answer(5, "Location", "1 Paris")
        table.pick("Reveal 5", 3)
        table.shows("REVEAL WHOM?")
        tmux.press("1")
        table.shows("ROLE OF P1")
        table.pick("Anastasia", 3)

        # the roles still hidden, each entered by its player, in seat order
        for seat, role in ((2, "Family Friend"), (4, "Collector"), (5, "Rasputin's Agent")):
            table.shows("ROLE OF P%d" % seat, "Anastasia found", leds=("P%d" % seat,))
            table.pick(role, seat)
        table.shows("P4 FULL SET?")  # the Collector, who never declared
        table.pick("No full set", 4)
        # Anastasia, the Empress and the Family Friend win; only their LEDs are lit
        table.shows("GAME OVER", "Anastasia found", "won: P1 P2 P3", leds=("P1", "P2", "P3"))
        assert "o ok: new" in tmux.screen()
        tmux.press("o")  # the next game: this one is closed and recorded
        table.shows("EMPRESS?", "5 players")

        synced = tablemate(tmp_path, "sync", "--port", port, "--db", str(db))
        assert synced.returncode == 0, synced.stderr
        assert re.search(r"synced \d+ new records .* 1 game in", synced.stdout), synced.stdout
        tmux.press("q")
        assert tmux.wait_gone()

    listing = tablemate(tmp_path, "games", "--db", str(db), "list")
    assert listing.returncode == 0, listing.stderr
    row = re.search(r"(?m)^(\S+) .* anastasia .* (\d+) +ended +P1 1, P2 1, P3 1, P4 0, P5 0$", listing.stdout)
    assert row, listing.stdout
    game_id, actions = row.group(1), int(row.group(2))
    shown = tablemate(tmp_path, "games", "--db", str(db), "show", game_id)
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert re.search(r"(?m)^  winners +P1, P2, P3$", text), text
    assert "5 players, the Empress P3" in text and "P1 reacts: shows Location: Berlin face up" in text
    assert "P3 pays 5 to reveal P1: Anastasia" in text and "Anastasia revealed (ended); won: P1 P2 P3" in text
    replayed = tablemate(tmp_path, "replay", "--db", str(db), game_id)
    assert replayed.returncode == 0, replayed.stderr
    words = "5 players, %d actions replayed, every digest matches" % actions
    assert words in replayed.stdout, replayed.stdout
