"""A role the automa turns over in the Anastasia solo mode waits for the table, and for it
through a power cut; then a player finds Anastasia, and the records replay."""

# micropython heapsize: 256k - the box, its engine and a replayed copy of its game beside the harness

from tests.shared.anastasia_solo_box import REMOVE, REVEAL_CLUE, REVEAL_ROLE, Table, deck, replay  # noqa: I001
from engine.anastasia_solo_rules import REVEAL
from tests.shared.compat import tmp_dir


def test_a_role_the_automa_turns_over_waits_for_the_table_and_a_power_cut():
    with tmp_dir() as d:
        deck(d, ["r1: reveal_clue 2; return_reveal 1 2 5"])
        tb = Table(d)
        tb.act(REVEAL_CLUE, 3)
        tb.guest(3)
        tb.act(REMOVE, 6)
        tb.ok()  # action 1 shown first, though the automa already waits on action 2
        assert tb.screen()[0] == "AUTOMA r1 1/2" and tb.game.phase == REVEAL
        tb.guest(5)  # too early: action 2 is not shown yet
        assert "the automa's next action" in tb.text() and tb.game.phase == REVEAL
        tb.ok()
        assert tb.screen()[0] == "AUTOMA r1 2/2" and "Anastasia? G5" in tb.screen()
        assert tb.box.lit() == [0, 4, 7] and tb.box.leds._blinks[0] == 2  # Guest 1 gives 2 gems
        tb.box = tb.box.reboot()  # a power cut: back at the question
        assert tb.screen()[0] == "AUTOMA r1 2/2" and "Anastasia? G5" in tb.screen()
        tb.ok()  # not Anastasia
        assert tb.game.guest(5).role_shown and tb.game.purses == [14]  # 10 - 1 + 3 + 2
        assert "not Anastasia" in tb.text()
        tb.ok()
        tb.act(REVEAL_ROLE, 4)
        assert tb.screen()[0] == "GUEST 4 ROLE"
        tb.guest(4)  # it is Anastasia: P1 wins
        assert tb.box.mode.session.over and tb.screen()[0] == "GAME OVER"
        assert "P1 found her: Guest 4 is Anastasia." in " ".join(tb.screen())
        end = [f for k, f in tb.box.events if k == "game"][-1]
        assert end["event"] == "end" and end["winners"] == [1] and end["reason"] == "ended"
        assert replay(tb.box).winners() == [0]
