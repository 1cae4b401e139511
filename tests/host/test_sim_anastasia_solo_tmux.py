"""A solo game of Finding Anastasia played in the terminal front-end, in tmux, as one player
plays it: two actions, then ok for the automa's turn, whose words on the OLED and lit LEDs
are held against the engine's own resolution (engine/anastasia_solo.py, rebuilt on the host
from the records synced so far: the same seed, the same actions); more rounds, each automa
turn checked the same way, until the player turns Anastasia over; then `tablemate sync`,
`games list`, `games show` and `replay`."""

import json
import re
import shutil

import pytest

from engine import anastasia_automa, gamelog_read
from tests.host.test_end_to_end import tablemate
from tests.host.tmux_sim import lit, oled, sim_in_tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def at_party(rows, hidden=False):
    """The guests still at the party, from the OLED's gems row ("$  3 - 3 3x 3 3": 2 is gone;
    4's role is face up), those whose role is face down if hidden."""
    row = next(r for r in rows if r.startswith("$  "))
    return [g + 1 for g, cell in enumerate(row[3:].split()) if cell != "-" and not (hidden and "x" in cell)]


def table_rows(tmux, title):
    """The OLED's rows once the screen titled title shows its gems row."""
    return oled(tmux.wait_for(lambda s: (oled(s) or [""])[0].strip() == title
                              and any(r.startswith("$  ") for r in oled(s))))


def synced_game(tmp_path, port, db):
    """The game as the host has it after a sync: its id and its state rebuilt from its records."""
    synced = tablemate(tmp_path, "sync", "--port", port, "--db", str(db))
    assert synced.returncode == 0, synced.stderr
    listing = tablemate(tmp_path, "games", "--db", str(db), "list")
    game_id = re.search(r"(?m)^(\S+) .* anastasia_solo ", listing.stdout).group(1)
    exported = tablemate(tmp_path, "games", "--db", str(db), "export", game_id)
    assert exported.returncode == 0, exported.stderr
    return game_id, gamelog_read.replay(json.loads(exported.stdout)["records"])


def automa_turn(tmux, state):
    """ok for the automa's turn; each of its actions on the OLED and the LEDs, as the engine
    resolves the same turn on the same state. A role it turns over is not Anastasia (ok)."""
    state.apply(["automa"])
    tmux.press("o")
    step = 0
    while True:
        rec = state.last_automa
        card = anastasia_automa.parse_card(state.deck_cards[rec["card"]])
        tiers, outcome = card["actions"][step], rec["actions"][step]
        title = ("AUTOMA %s %d/2" % (card["name"], step + 1))[:16]  # the OLED's 16 columns
        leds = {"P%d" % (7 + step)}  # LED 7 marks action 1, LED 8 action 2
        if outcome["tier"] >= 0:
            tier = tiers[outcome["tier"]]
            words = anastasia_automa.tier_text(tier)
            leds |= {"P%d" % g for g in anastasia_automa.guests_involved(tier)}
        else:
            words = "Skipped: no tier can be taken"
        # a guest that counts blinks: wait for the moment every LED of the action is on, and
        # for the whole frame (its words down to the key it asks for)
        def shown(s, title=title, leds=leds, words=words):
            text = " ".join(row.strip() for row in oled(s)[1:])
            return ((oled(s) or [""])[0].strip() == title and lit(s) == leds
                    and words in text and " ok: " in text)
        text = " ".join(row.strip() for row in oled(tmux.wait_for(shown))[1:])
        if state.phase == "reveal" and step == len(rec["actions"]) - 1:
            assert "Anastasia? G%d btn: yes, ok: no" % state.turned[0] in text, text
            state.apply(["role_seen", "other"])  # the automa goes on: the same action shown again
            tmux.press("o")
            tmux.wait_for(lambda s, text=text: " ".join(row.strip() for row in oled(s)[1:]) != text)
        elif step + 1 < len(rec["actions"]):
            assert "ok: action 2" in text, text
            tmux.press("o")
            step += 1
        else:
            assert "ok: next round" in text, text
            tmux.press("o")
            return


def test_a_solo_game_the_automa_turns_as_the_engine_resolves_them_then_sync_and_replay(tmp_path):
    db = tmp_path / "games.sqlite3"
    with sim_in_tmux(tmp_path, 100, 40) as tmux:
        menu = tmux.wait_for(lambda s: ">Anomia buzzers" in s and "q quit" in s)
        port = re.search(r"serial (/dev/pts/\d+)", menu).group(1)
        tmux.press("m")  # the next entry of the menu
        tmux.wait_for(lambda s: ">Anastasia solo" in s)
        tmux.press("o")
        tmux.shows("R1 P1 ACTION 1/2", "Set-up 1 player", "P1 gems 10 tok 2", "$  3 3 3 3 3 3")
        assert "o ok: next   b back: menu" in tmux.screen()

        # round 1: draw (a clue card is kept at once), then Guest 2 leaves, its 3 gems to P1
        tmux.pick("Draw", 1)
        tmux.shows("R1 P1 ACTION 2/2")
        tmux.pick("Remove", 2)
        tmux.shows("ROUND 1 OVER", "P1 gems 13 tok 2", "$  3 - 3 3 3 3", "ok: automa turn")
        assert "o ok: automa" in tmux.screen()
        game_id, state = synced_game(tmp_path, port, db)
        assert state.phase == "automa" and state.purses == [13]
        automa_turn(tmux, state)

        # round 2: a look at a guest still there, then one of its clues revealed
        guest = at_party(table_rows(tmux, "R2 P1 ACTION 1/2"))[0]
        for action, after in (("Look", "R2 P1 ACTION 2/2"), ("Rev. clue", "ROUND 2 OVER")):
            tmux.pick(action, guest)
            screen = tmux.wait_for(lambda s, after=after: "which card?" in s
                                   or (oled(s) or [""])[0].strip() == after)
            if "which card?" in screen:  # a fan of several face-down cards: the one shown
                tmux.press(str(guest))
            tmux.shows(after)
        tmux.shows("ROUND 2 OVER", "ok: automa turn")
        game_id, state = synced_game(tmp_path, port, db)
        automa_turn(tmux, state)

        # round 3: the player turns a guest's role over, and it is Anastasia
        guest = at_party(table_rows(tmux, "R3 P1 ACTION 1/2"), hidden=True)[-1]
        tmux.pick("Rev. role", guest)
        tmux.shows("GUEST %d ROLE" % guest, "Is it Anastasia?", leds=("P%d" % guest,))
        tmux.press(str(guest))  # its button: yes
        over = tmux.shows("GAME OVER", leds=("P%d" % guest,))
        text = " ".join(row.strip() for row in over[1:])
        assert "P1 found her: Guest %d is Anastasia." % guest in text and "o ok: new" in tmux.screen()

        synced = tablemate(tmp_path, "sync", "--port", port, "--db", str(db))
        assert synced.returncode == 0, synced.stderr
        tmux.press("q")
        assert tmux.wait_gone()

    listing = tablemate(tmp_path, "games", "--db", str(db), "list")
    row = re.search(r"(?m)^%s .* (\d+) +ended +P1 1$" % re.escape(game_id), listing.stdout)
    assert row, listing.stdout
    shown = tablemate(tmp_path, "games", "--db", str(db), "show", game_id)
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"(?m)^  winners +P1$", shown.stdout), shown.stdout
    assert "P1 found Anastasia (Guest %d)" % guest in shown.stdout, shown.stdout
    replayed = tablemate(tmp_path, "replay", "--db", str(db), game_id)
    assert replayed.returncode == 0, replayed.stderr
    words = "1 player, %s actions replayed, every digest matches" % row.group(1)
    assert words in replayed.stdout, replayed.stdout
