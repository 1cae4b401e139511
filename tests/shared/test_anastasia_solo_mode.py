"""The Anastasia solo mode as specs on the mode harness: the set-up on the box, the player
count and the guests already away; the hint row on every screen. A turn: test_anastasia_solo_turn; refusals:
test_anastasia_solo_refusals; the automa: test_anastasia_solo_automa_*."""

# micropython heapsize: 256k - the box, its engine and a replayed copy of its game beside the harness

from tests.shared.anastasia_solo_box import AWAY, PLAYERS, Table  # noqa: I001
from tests.shared.compat import tmp_dir
from tests.shared.hint_walk import check_hints


def test_set_up_the_player_count():
    with tmp_dir() as d:
        tb = Table(d)
        assert tb.screen()[0] == "R1 P1 ACTION 1/2" and "Set-up 1 player" in tb.screen()
        assert tb.box.lit() == [0, 1, 2, 3, 4, 5]  # the six guests at the party
        tb.act(PLAYERS)  # a guest button steps the player count
        assert tb.game.players == 2 and "Set-up 2 players" in tb.screen()
        tb.guest(4)  # the list stays on Players: 3
        assert tb.game.players == 3 and tb.box.settings.get("anastasia_solo")["players"] == 3
        # each change starts the next game; none was played, so none is recorded or ended
        assert [f for k, f in tb.box.events if k == "game" and f["event"] == "end"] == []
        assert tb.box.records("game_start") == []


def test_set_up_guests_away():
    with tmp_dir() as d:
        tb = Table(d, players=2)
        tb.act(AWAY, 2)  # Guest 2 away before the game
        tb.guest(5)
        tb.guest(5)  # and back again
        assert tb.game.options["away"] == [2] and tb.game.guest(2).status != 0
        assert tb.box.mode.session.options["away"] == [2]  # recorded with the game
        assert tb.box.lit() == [0, 2, 3, 4, 5]
        assert [f for k, f in tb.box.events if k == "game" and f["event"] == "end"] == []
        while tb.box.mode.pick.index:  # back steps the list to its first item
            tb.back()
        assert tb.box.mode.pick.item() == "Remove"


def test_the_hint_row_says_what_the_keys_do_on_every_screen():
    # the set-up's pick list, a clue's card list opened and cancelled, a round, the automa's
    # two actions (a guest pressed while it shows), a role turned over, the result, a new game
    keys = "o b o o 3 o b b o 2 2 o 3 o o o o o o 4 o o".split()

    def entered(action):
        def check(box, before, after):
            assert after.digest != before.digest and box.actions()[-1] == action, box.actions()[-1:]
        return check

    checked = check_hints("anastasia_solo", {"players": 1}, keys,
                          {"automa": entered(["automa"]), "no": entered(["role_seen", "other"])})
    assert {"R# P# ACTION #/#", "ROUND # OVER", "AUTOMA A# #/#", "GUEST # ROLE", "GAME OVER"} <= {
        kind[0] for kind in checked}
