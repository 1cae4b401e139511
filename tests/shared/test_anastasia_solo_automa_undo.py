"""The automa finding Anastasia in the Anastasia solo mode, and undo back through its turn."""

# micropython heapsize: 256k - the box, its engine and a replayed copy of its game beside the harness

from tests.shared.anastasia_solo_box import REMOVE, Table, deck, replay  # noqa: I001
from tests.shared.compat import tmp_dir


def test_the_automa_finding_anastasia_and_undo_back_through_its_turn():
    with tmp_dir() as d:
        deck(d, ["x1: expend_reveal 1 3 2; leave 4"])
        tb = Table(d)
        tb.act(REMOVE, 5)
        tb.act(REMOVE, 6)
        tb.ok()
        assert "Guest 1 expends 3 gems to reveal Guest 2" in tb.text()
        tb.back()  # undo: the automa's card goes back
        assert tb.screen()[0] == "ROUND 1 OVER" and tb.game.phase == "automa"
        tb.back()
        assert tb.game.guest(6).status == 0 and tb.screen()[0] == "R1 P1 ACTION 2/2"
        tb.act(REMOVE, 6)
        tb.ok()
        tb.guest(2)  # the table: Guest 2 is Anastasia
        assert tb.box.mode.session.over and "The automa found her first: Guest 2" in " ".join(tb.screen())
        assert tb.box.lit() == [1]
        state = replay(tb.box)
        assert state.winners() == [] and state.result["reason"] == "automa_found"
        state = None
        tb.ok()  # a new game, every guest back at the party
        assert tb.screen()[0] == "R1 P1 ACTION 1/2" and tb.game.options["away"] == []
