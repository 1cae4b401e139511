"""The Finding Anastasia box mode as specs on the mode harness: presses give ledger entries,
records that replay, screens and lights; the set-up, a turn, the Reaction, the refusals
(each with its one-line reason and nothing changed), the Thief's free action, the end, undo
back through the game and the resume after a power cut."""

# micropython heapsize: 256k - the box, its engine and a replayed copy of its game beside the harness

import gc
import hashlib

from engine import anastasia_cards as cards
from engine import gamelog_read
from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import MS, Box

LOCATION, TRINKET, STORY = 0, 1, 2


class Table:
    """A box and a clock that moves on with every press."""

    def __init__(self, d, players=5, empress=2):
        self.t = 0
        self.box = Box(d, "anastasia", players=players)
        if players >= 5:
            self.press(empress)

    def _next(self):
        self.t += 100 * MS
        return self.t

    def _trim(self):
        """Keep only the last refusals of the harness's event list: a test's heap is small."""
        self.box.events = [e for e in self.box.events if e[0] == "refused"][-3:]

    def press(self, seat):
        self.box.press(seat, self._next())
        self._trim()

    def ok(self, times=1):
        for _ in range(times):
            self.box.ok(self._next())
        self._trim()

    def back(self):
        used = self.box.back(self._next())
        self._trim()
        return used

    def answer(self, t, col, row):
        """t presses their buzzer, then picks the column and the space."""
        self.press(t)
        self.ok(col)
        self.press(t)
        self.ok(row)
        self.press(t)

    def act(self, item, seat=None):
        """The active player picks action number item (0 Look ... 6 Declare, 7 Pass)."""
        self.ok(item)
        self.press(self.game().frame()[1] if seat is None else seat)

    def game(self):
        return self.box.mode.game

    def screen(self):
        return self.box.screen()

    def state(self):
        """What a refusal must not change: the game, the records, the kept copy (hashed piece
        by piece: the test holds as little heap as it can beside the box)."""
        h = hashlib.sha256()
        if not self.box.mode.session.recorded:  # nothing kept before the first action
            return self.game().digest(), self.box.journal.last_seq, None
        with open(self.box.path + "/anastasia_game.json", "rb") as f:
            while True:
                piece = f.read(256)
                if not piece:
                    break
                h.update(piece)
        return self.game().digest(), self.box.journal.last_seq, h.digest()

    def refused(self):
        return [f["msg"] for k, f in self.box.events if k == "refused"]


def test_setup_the_empress_presses_her_buzzer_and_ok_cycles_the_count():
    with tmp_dir() as d:
        box = Box(d, "anastasia", players=5)
        assert box.screen()[0] == "EMPRESS?" and box.records("game_start") == []
        box.ok(10 * MS)  # 6 players now, still waiting for the Empress
        assert box.screen()[1] == "6 players" and box.records("game_start") == []
        box.press(4, 20 * MS)
        # the game is recorded from its first action on; its start holds the Empress
        assert box.mode.session.options == {"empress": 4} and box.mode.session.players == 6
        game = box.mode.game
        assert game.frame() == ["ask", 4] and game.purses == [1, 1, 1, 1, 5, 1]
        assert box.screen()[0] == "P5 ASKS" and box.lit() == [4]
        assert box.ctx.settings.get()["players"] == 6


def test_four_players_start_at_once_without_an_empress():
    with tmp_dir() as d:
        box = Box(d, "anastasia", players=4)
        assert box.mode.session.options == {} and box.records("game_start") == []
        assert box.mode.game.frame() == ["ask", 0] and box.screen()[0] == "P1 ASKS"


def test_a_turn_the_answer_pays_moves_the_token_and_shows_purse_and_column():
    with tmp_dir() as d:
        tb = Table(d, players=5, empress=2)
        tb.press(1)  # P2 starts to answer: their LED while they pick; back gives it up
        assert tb.screen()[0] == "P2: COLUMN" and tb.box.lit() == [1]
        tb.back()
        assert tb.screen()[0] == "P3 ASKS" and tb.box.lit() == [2]
        tb.answer(3, TRINKET, 2)  # P4 claims Trinket 3: Icon
        game = tb.game()
        assert tb.box.actions() == [["answer", 3, 7]]
        assert game.tokens[3] == [-1, 2, -1] and game.spaces[5:10] == [1, 1, 0, 1, 1]
        assert tb.screen()[:4] == ["P3 ACTS", "P4: Icon", "P4 1 gems", "Trink 1 1 0 1 1"]
        assert tb.screen()[4].startswith("> Look") and tb.box.lit() == [2]
        tb.act(0)  # Look ...
        assert tb.screen()[0] == "LOOK AT?"
        tb.press(0)  # ... at P1's clue: +2 from the supply, 1 to P1
        assert tb.box.actions()[-1] == ["look", 0] and game.purses[2] == 6 and game.purses[0] == 2
        assert game.frame() == ["ask", 3] and tb.screen()[0] == "P4 ASKS" and tb.box.lit() == [3]
        tb.answer(0, TRINKET, 0)  # a second answer in that column moves nobody else's token
        tb.act(2)  # Question: P4 asks P2 a further question; P2 claims Story 5
        tb.answer(1, STORY, 4)
        assert tb.box.actions()[-1] == ["question", 1, 14] and game.tokens[1][STORY] == 4
        assert sum(game.gems()["purses"]) + game.supply + sum(game.spaces) == cards.TOTAL_GEMS


def test_the_reaction_is_a_buzzer_while_the_action_is_picked_and_only_once():
    with tmp_dir() as d:
        tb = Table(d)
        tb.answer(3, LOCATION, 1)
        tb.press(0)  # P1 disproves the claim
        assert tb.box.actions()[-1] == ["react", 0] and tb.game().face_up[0] == 1
        tb.act(3)  # Draw
        tb.answer(4, LOCATION, 0)
        before = tb.state()
        tb.press(0)  # a second Reaction
        assert tb.state() == before and tb.screen()[0] == "NOT POSSIBLE"
        assert tb.refused()[-1].startswith("P1 already used their Reaction")


def test_refusals_say_why_in_one_line_and_change_nothing():
    with tmp_dir() as d:
        tb = Table(d)
        before = tb.state()
        tb.press(2)  # the active player cannot answer their own question
        assert tb.refused()[-1] == "P3 cannot ask themselves" and tb.state() == before
        assert tb.screen()[0] == "NOT POSSIBLE" and " ".join(tb.screen()[1:]).startswith("P3 cannot ask")
        tb.press(1)  # the next button, a buzzer too, takes the reason away: the entry goes on
        assert tb.screen()[0] == "P2: COLUMN"
        tb.ok(STORY)
        tb.press(1)
        tb.ok(2)
        tb.press(1)
        tb.press(3)  # while a claim may be disproved, another player's buzzer is a Reaction
        assert tb.box.actions()[-1] == ["react", 3]
        before = tb.state()
        tb.press(4)  # now no claim is open: out of turn
        assert tb.refused()[-1] == "out of turn: P3 chooses now" and tb.state() == before
        tb.act(3)  # P3 draws; P4's turn: P4 asks P1
        tb.answer(0, LOCATION, 0)
        before = tb.state()
        tb.act(4)  # Reveal P2's role for 5 gems P4 does not have: an overdraft
        tb.press(1)
        tb.press(3)
        assert tb.refused()[-1] == "P4 has 1 gems: revealing a role costs 5" and tb.state() == before
        tb.box.run_to(tb.t + 3500 * MS)  # the reason stays a while, then the entry starts over
        assert tb.screen()[0] == "P4 ACTS" and tb.screen()[4].startswith("> Look")
        # the act op's path: a space off the board (no fourth token column), an entry out of turn
        assert tb.box.mode.enter(["answer", 1, 15], tb.t).startswith("P4 must choose an action")
        assert tb.box.mode.enter(["draw"], tb.t) is None
        before = tb.state()
        assert tb.box.mode.enter(["answer", 1, 15], tb.t) == "15 is not a clue space (0-14)"
        assert tb.box.mode.enter(["look", 0], tb.t).startswith("P5 must ask a question")
        assert tb.state() == before
        for r in tb.refused():
            assert "\n" not in r and r


def test_anastasia_and_the_impostor_cannot_reveal_themselves():
    with tmp_dir() as d:
        tb = Table(d, players=4)
        mode = tb.box.mode
        for _ in range(40):  # turns (an answer, an exchange) until P2 holds 7 gems on her turn
            p = tb.game().frame()[1]
            if p == 1 and tb.game().purses[1] >= 7:
                break
            spaces = tb.game().spaces  # P2 answers the others, from the richest space
            assert mode.enter(["answer", 1 if p != 1 else 2, spaces.index(max(spaces))], tb.t) is None
            assert mode.enter(["exchange", (p + 2) % 4], tb.t) is None
        tb.answer(2, LOCATION, 0)
        assert tb.game().purses[1] >= 7
        before = tb.state()
        for role in (cards.ANASTASIA, cards.IMPOSTOR):
            tb.act(5)  # Reveal self
            roles = tb.box.mode.draft.roles
            tb.ok(roles.index(role))
            tb.press(1)
            assert tb.refused()[-1] == "%s cannot reveal themselves" % cards.ROLE_NAMES[role]
            assert tb.state() == before


def test_the_thief_takes_from_everyone_then_has_a_free_action():
    with tmp_dir() as d:
        tb = Table(d, players=5, empress=0)
        tb.answer(1, LOCATION, 0)
        tb.act(4)  # Reveal (5 gems): P2 shows the Thief
        tb.press(1)
        tb.ok(tb.box.mode.draft.roles.index(cards.THIEF))
        tb.press(0)
        game = tb.game()
        assert tb.box.actions()[-1] == ["reveal", 1, cards.THIEF] and game.roles[1] == cards.THIEF
        assert game.purses == [0, 4, 0, 0, 0]  # 1 from each other purse that has one (P1 paid 5)
        assert game.frame() == ["act", 1, 1] and tb.screen()[0] == "P2 FREE ACT"
        assert tb.screen()[3].endswith("1/8") and tb.box.lit() == [1]
        tb.act(6)  # the Collector declares only on their own turn
        assert tb.refused()[-1].startswith("the Collector declares on their own turn")
        tb.act(7)  # Pass
        assert tb.box.actions()[-1] == ["pass"] and game.frame() == ["ask", 1]


def test_undo_goes_back_through_the_whole_game_then_back_leaves():
    with tmp_dir() as d:
        tb = Table(d)
        digests = [tb.game().digest()]
        for t, col, row in ((3, 1, 2), (4, 0, 0), (0, 2, 3), (1, 1, 4), (2, 0, 1)):
            tb.answer(t if t != tb.game().frame()[1] else (t + 1) % 5, col, row)
            digests.append(tb.game().digest())
            tb.act(1)  # exchange ...
            tb.press((tb.game().frame()[1] + 1) % 5)  # ... with the next player
            digests.append(tb.game().digest())
        assert len(tb.box.actions()) == 10
        while len(digests) > 1:
            digests.pop()
            assert tb.back() is True and tb.game().digest() == digests[-1]
            gc.collect()
        assert tb.screen()[0] == "P3 ASKS"
        assert tb.back() is True and tb.screen()[0] == "END GAME?"  # nothing left to undo: end?
        assert not tb.box.in_menu


def test_a_power_cut_resumes_the_game_by_replaying_its_records():
    with tmp_dir() as d:
        tb = Table(d)
        tb.answer(3, 1, 2)
        tb.act(3)  # draw
        tb.answer(0, 2, 2)
        digest, game_id = tb.game().digest(), tb.box.mode.session.game_id
        tb.box = tb.box.reboot()
        assert tb.game().digest() == digest and tb.box.mode.session.game_id == game_id
        assert tb.box.mode.session.storage_error is None and tb.screen()[0] == "P4 ACTS"
        assert tb.back() is True and tb.game().frame() == ["ask", 3]  # undo goes on after the cut
        tb.answer(1, 0, 0)
        assert gamelog_read.replay(tb.box.records()).digest() == tb.game().digest()


def test_an_end_effect_then_each_hidden_role_then_the_winners():
    with tmp_dir() as d:
        tb = Table(d, players=4)
        mode = tb.box.mode
        for _ in range(40):  # P2 answers the others from the richest space until she can pay 5
            p = tb.game().frame()[1]
            if p == 1 and tb.game().purses[1] >= 5:
                break
            spaces = tb.game().spaces
            assert mode.enter(["answer", 1 if p != 1 else 2, spaces.index(max(spaces))], tb.t) is None
            assert mode.enter(["exchange", (p + 2) % 4], tb.t) is None
        tb.answer(0, LOCATION, 0)
        tb.act(4)  # P2 reveals P3: Anastasia
        tb.press(2)
        tb.ok(tb.box.mode.draft.roles.index(cards.ANASTASIA))
        tb.press(1)
        game = tb.game()
        assert game.ended == "anastasia" and game.frame() == ["role", 0] and tb.screen()[0] == "ROLE OF P1"
        for seat, role in ((0, cards.RASPUTINS_AGENT), (1, cards.PSYCHIC), (3, cards.THIEF)):
            tb.ok(tb.box.mode.draft.roles.index(role))
            tb.press(seat)
        assert game.is_over() and game.winners() == [1, 2]
        assert tb.screen()[:3] == ["GAME OVER", "Anastasia found", "won: P2 P3"] and tb.box.lit() == [1, 2]
        assert tb.back() is True and tb.game().frame() == ["role", 3]  # the last role entry taken back
        tb.ok(tb.box.mode.draft.roles.index(cards.THIEF))
        tb.press(3)
        tb.ok()  # the next game
        end = tb.box.records("game_end")[-1]["data"]
        assert end["reason"] == "ended" and end["winners"] == [1, 2]
        # the next game is recorded from its first action on
        assert len(tb.box.records("game_start")) == 1 and tb.screen()[0] == "P1 ASKS"
