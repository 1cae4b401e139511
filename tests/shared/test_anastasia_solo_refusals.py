"""The Anastasia solo mode refuses what cannot happen (a guest who has gone, a player's action
during the automa's turn, an overdraft, no token left) with the engine's reason on the OLED,
and nothing changes."""

# micropython heapsize: 256k - the box, its engine and a replayed copy of its game beside the harness

from tests.shared.anastasia_solo_box import REMOVE, REVEAL_CLUE, REVEAL_ROLE, Table, deck  # noqa: I001
from tests.shared.compat import tmp_dir


def test_what_cannot_happen_is_refused_with_the_reason_and_nothing_changes():
    with tmp_dir() as d:
        deck(d, ["q: leave 6; leave 5"])
        tb = Table(d)
        tb.act(REMOVE, 2)
        n = len(tb.box.records())
        tb.act(REVEAL_ROLE, 2)  # a guest who has gone
        assert "Guest 2 has been removed" in tb.text() and len(tb.box.records()) == n
        assert tb.box.mode.pick.index == REVEAL_ROLE  # the list stays where it was
        tb.back()
        tb.back()
        tb.back()
        tb.back()
        tb.act(REVEAL_CLUE, 1)
        tb.guest(1)  # the round is over: the automa's turn
        assert tb.screen()[0] == "ROUND 1 OVER"
        tb.guest(3)  # out of turn
        assert "ok goes on" in tb.text() and tb.game.phase == "automa"
        # an overdraft and no token left, entered as a host would (the same path as buttons)
        tb.ok()
        while tb.box.mode.shown is not None:
            tb.ok()
        tb.game.purses[0] = 1
        tb.game.guest(3).revealed[0] = True
        n = len(tb.box.records())
        why = tb.box.mode.enter(["reveal_clue", 3, 1], tb.t)
        assert why == "revealing a clue of Guest 3 costs 2 gems; P1 has 1" and tb.game.purses[0] == 1
        assert "costs 2 gems; P1 has 1" in tb.text()
        tb.game.tokens[0] = 0
        assert tb.box.mode.enter(["look", 4, 0], tb.t) == "the table has no token left"
        assert len(tb.box.records()) == n
