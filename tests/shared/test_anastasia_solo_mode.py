"""The Anastasia solo mode as specs on the mode harness: the set-up on the box (players,
guests away), a turn of two actions picked from the menu, the end when every player is out,
records that replay. Refusals: test_anastasia_solo_refusals; the automa's turn:
test_anastasia_solo_automa_mode and test_anastasia_solo_automa_reveal."""

from tests.shared.anastasia_solo_box import LOOK, PLAYERS, REMOVE, REVEAL_ROLE, Table, replay  # noqa: I001
from tests.shared.compat import tmp_dir


def test_set_up_players_and_guests_away():
    with tmp_dir() as d:
        tb = Table(d)
        assert tb.screen()[0] == "R1 P1 ACTION 1/2" and "Set-up 1 player" in tb.screen()
        assert tb.box.lit() == [0, 1, 2, 3, 4, 5]  # the six guests at the party
        tb.act(PLAYERS)  # a guest button steps the player count
        assert tb.game.players == 2 and "Set-up 2 players" in tb.screen()
        tb.guest(4)  # the list stays on Players: 3
        assert tb.game.players == 3 and tb.box.settings.get("anastasia_solo")["players"] == 3
        tb.ok()  # on to "Guest away"
        tb.guest(2)  # Guest 2 away before the game
        tb.guest(5)
        tb.guest(5)  # and back again
        assert tb.game.options["away"] == [2] and tb.game.guest(2).status != 0
        assert tb.box.lit() == [0, 2, 3, 4, 5]
        # each change closes the game it changes and starts the next with it (the game's options are recorded)
        assert tb.box.mode.session.options["away"] == [2]
        assert [f["reason"] for k, f in tb.box.events if k == "game" and f["event"] == "end"] == \
            ["players_changed"] * 2 + ["setup_changed"] * 3
        while tb.box.mode.pick.index:  # back steps the list to its first item
            tb.back()
        assert tb.box.mode.pick.item() == "Remove"


def test_a_turn_of_two_actions_and_a_card_picked_from_a_fan():
    with tmp_dir() as d:
        tb = Table(d, players=3)
        tb.act(REMOVE, 3)
        assert tb.box.mode.session.n == 1 and tb.game.guest(3).status == 1  # removed
        assert tb.screen()[0] == "R1 P1 ACTION 2/2"
        assert "Set-up" not in tb.text() and tb.box.mode.pick.items[-1] == "Reveal role"
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
