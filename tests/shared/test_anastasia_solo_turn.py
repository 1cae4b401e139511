"""A turn in the Anastasia solo mode: two actions picked from the menu, a card picked from a
guest's fan, the turn passing on; the end when every player is out; records that replay."""

# micropython heapsize: 256k - the box, its engine and a replayed copy of its game beside the harness

from tests.shared.anastasia_solo_box import LOOK, REMOVE, REVEAL_ROLE, Table, replay  # noqa: I001
from tests.shared.compat import tmp_dir


def test_a_turn_of_two_actions_and_a_card_picked_from_a_fan():
    with tmp_dir() as d:
        tb = Table(d, players=3)
        tb.act(REMOVE, 3)
        assert tb.box.mode.session.n == 1 and tb.game.guest(3).status == 1  # removed
        assert tb.screen()[0] == "R1 P1 ACTION 2/2"
        assert "Set-up" not in tb.text() and tb.box.mode.pick.items[-1] == "Rev. role"
        tb.act(LOOK, 4)  # Guest 4 holds three face-down cards: which one?
        assert tb.screen()[1:3] == ["Look at G4:", "which card?"] and tb.box.lit() == [3]
        tb.ok()
        tb.guest(1)  # any guest button chooses the card shown
        assert tb.game.guest(4).looked == [0, 1, 0]  # P1 looked at its card 2
        assert tb.screen()[0] == "R1 P2 ACTION 1/2" and tb.game.purses == [9, 6, 6]  # 3 gems + 6
        assert replay(tb.box).digest() == tb.game.digest()


def test_every_player_out_ends_the_game():
    with tmp_dir() as d:
        tb = Table(d)
        tb.act(REVEAL_ROLE, 1)
        tb.ok()  # not Anastasia: P1 is out, and with P1 the table
        assert tb.box.mode.session.over and "Every player is out" in " ".join(tb.screen())
        assert replay(tb.box).result["reason"] == "all_out"
