"""Finding Anastasia for 1-3 players: set-up, the five actions, turns and rounds, the game
ends, the readings as options, saving and loading, and what each player may see."""

import json

from engine import anastasia_cards as cards
from engine import anastasia_solo as solo
from engine import games
from engine.anastasia_automa_deck import DEFAULT_DECK
from engine.core import CHANCE, TERMINAL, BadState, IllegalAction
from tests.shared.anastasia_solo_tables import table
from tests.shared.compat import raises


def illegal(state, action, expect):
    before = state.digest()
    e = raises(IllegalAction, state.apply, action)
    assert expect in str(e), str(e)
    assert state.digest() == before
    return e


def put(container, key, value):
    """container[key] = value as an expression (a lambda cannot assign)."""
    container[key] = value


def categories(clues):
    return sorted(cards.clue_category(c) for c in clues)


# -- set-up ----------------------------------------------------------------
def test_setup_deals_six_invites_as_the_rulebook_says():
    for players in (1, 2, 3):
        for seed in range(12):
            state = solo.new_game(seed, players)
            roles = [x.role for x in state.guests]
            assert roles.count(cards.ANASTASIA) == 1 and cards.EMPRESS not in roles and len(set(roles)) == 6
            for x in state.guests:
                assert len(x.clues) == 3 and x.status == solo.PARTY and not x.role_shown
                assert x.gems == 3 and x.revealed == [False] * 3 and x.looked == [0] * 3
                if x.role == cards.ANASTASIA:
                    assert categories(x.clues) == [cards.LOCATION, cards.TRINKET, cards.STORY]
                else:
                    cats = categories(x.clues)
                    assert cats.count(cards.BLANK) == 1 and cats[:2] != [cards.BLANK, cards.BLANK]
            # the two real clues left over form the clue deck; the other nine Blanks go back to the box
            assert len(state.clue_deck) == 2 and all(c < cards.FIRST_BLANK for c in state.clue_deck)
            assert len(state.box) == 9 and all(c >= cards.FIRST_BLANK for c in state.box)
            assert sorted(c for c, _ in state.all_clues()) == list(range(cards.CLUE_COUNT))
            assert state.purses == ([10] if players == 1 else [6] * players)
            assert state.tokens == ([2] if players == 1 else [4])  # one pool the table shares
            assert state.gems() == {"supply": 50 - sum(state.purses) - 18, "purses": state.purses,
                                    "beneath": [3] * 6, "total": 50}
            assert sorted(state.automa_deck) == list(range(len(DEFAULT_DECK))) and state.automa_discard == []
            assert state.current_player() == 0 and state.round == 1 and state.actions_left == 2


def test_setup_shuffles_the_invites_and_the_fans():
    where, blank_slot = set(), set()
    for seed in range(40):
        state = solo.new_game(seed, 1)
        for g in range(1, 7):
            x = state.guest(g)
            if x.role == cards.ANASTASIA:
                where.add(g)
            else:
                blank_slot.add([cards.clue_category(c) for c in x.clues].index(cards.BLANK))
    assert where == {1, 2, 3, 4, 5, 6} and blank_slot == {0, 1, 2}
    assert solo.new_game(1, 1).digest() != solo.new_game(2, 1).digest()
    assert solo.new_game(1, 1).digest() == solo.new_game(1, 1).digest()


def test_setup_options_and_their_refusals():
    state = solo.new_game(3, 2, purse_group=4, tokens_group=3, token_pool="each", guest_gems=1, deck_blanks=4)
    assert state.purses == [4, 4] and state.tokens == [3, 3] and [x.gems for x in state.guests] == [1] * 6
    assert len(state.clue_deck) == 6 and len(state.box) == 5
    assert state.gems()["supply"] == 50 - 8 - 6
    assert solo.new_game(3, 1, purse_solo=7, tokens_solo=1).purses == [7]
    for bad, words in (
        ({"colour": 1}, "unknown anastasia_solo option 'colour'"),
        ({"guest_gems": -1}, "guest_gems must be a whole number 0-20"),
        ({"token_pool": "mine"}, "token_pool must be one of shared, each"),
        ({"unshown": True}, "unshown must be one of unlooked, face_down"),
        ({"gem_total": 20}, "the set-up needs 28 gems"),
        ({"purse_solo": 1.5}, "purse_solo must be a whole number"),
    ):
        assert words in str(raises(ValueError, solo.new_game, 1, 1, **bad))
    for players in (0, 4, True, "1"):
        assert "1-3 players" in str(raises(ValueError, solo.new_game, 1, players))
    assert "seed" in str(raises(ValueError, solo.new_game, "x", 1))


def test_registered_with_the_common_declarations():
    assert games.get_game("anastasia_solo") is solo
    assert (solo.MIN_PLAYERS, solo.MAX_PLAYERS, solo.STATE_VERSION) == (1, 3, 1)
    assert isinstance(solo.OPTIONS, dict) and solo.OPTIONS["automa_deck"] is None
    json.dumps(solo.OPTIONS)


# -- the five actions ------------------------------------------------------------
def test_remove_takes_the_gems_beneath_the_guest():
    state = table(beneath=[3, 7, 3, 3, 3, 3])
    state.apply(["remove", 2])
    assert state.guest(2).status == solo.REMOVED and state.guest(2).gems == 0 and state.purses == [17]
    assert not state.guest(2).role_shown  # set aside without being revealed
    illegal(state, ["remove", 2], "Guest 2 has been removed from the party")
    assert ["remove", 2] not in state.legal_actions() and ["reveal_role", 2] not in state.legal_actions()


def test_draw_two_keep_one_the_other_goes_back_on_top():
    state = table(deck=[13, 14])
    state.apply(["draw"])
    assert state.drawn == [14, 13] and state.clue_deck == [] and state.current_player() == 0
    assert state.legal_actions() == [["keep", 0], ["keep", 1]]
    illegal(state, ["remove", 1], "must first keep one of the two drawn clues")
    illegal(state, ["keep", 2], "keep takes 0 (the top card) or 1")
    illegal(state, ["keep", True], "keep takes 0")
    state.apply(["keep", 1])
    assert state.hands == [[13]] and state.clue_deck == [14] and state.actions_left == 1
    # one card left: it is drawn and kept at once
    state.apply(["draw"])
    assert state.hands == [[13, 14]] and state.clue_deck == [] and state.current_player() == CHANCE
    assert ["draw"] not in state.legal_actions()
    state = table(deck=[])
    illegal(state, ["draw"], "the clue deck is empty")
    illegal(state, ["keep", 0], "no drawn clue to keep")


def test_reveal_clue_costs_one_more_gem_per_face_up_clue_of_that_guest():
    state = table(purses=[6])
    state.apply(["reveal_clue", 2, 0])
    assert state.purses == [5] and state.guest(2).gems == 4
    assert state.guest(2).revealed == [True, False, False]
    state.apply(["reveal_clue", 2, 2])
    assert state.purses == [3] and state.guest(2).gems == 6  # the second face-up clue cost 2
    state.apply(["automa"])  # the printed card: Guest 3 shows a clue, Guest 6 draws one
    assert state.clue_fee(2) == 3 and state.clue_fee(3) == 2 and state.clue_fee(4) == 1
    illegal(state, ["reveal_clue", 2, 0], "already face up")
    illegal(state, ["reveal_clue", 2, 3], "Guest 2 has clues in slots 0-2")
    state.apply(["reveal_clue", 2, 1])
    assert state.purses == [0] and state.guest(2).gems == 9
    illegal(state, ["reveal_clue", 4, 0], "costs 1 gem; P1 has 0")
    assert not [a for a in state.legal_actions() if a[0] == "reveal_clue"]
    # the other reading: the fees go to the supply
    state = table(clue_fee_to="supply")
    supply = state.supply
    state.apply(["reveal_clue", 2, 0])
    assert state.guest(2).gems == 3 and state.supply == supply + 1


def test_look_spends_a_token_and_only_the_looker_sees_the_clue():
    state = table(players=2)
    state.apply(["look", 3, 1])
    assert state.tokens == [3] and state.guest(3).looked == [0, 1, 0]
    assert state.view(0)["clues"][2] == [None, state.guest(3).clues[1], None]
    assert state.view(1)["clues"][2] == [None, None, None]
    illegal(state, ["look", 3, 1], "P1 already looked at Guest 3's clue in slot 1")
    state.apply(["look", 3, 2])
    # P2 draws on the same shared pool and may look at what P1 saw
    assert state.current_player() == 1
    state.apply(["look", 3, 1])
    assert state.tokens == [1] and state.guest(3).looked == [0, 3, 1]
    state = table(players=2, tokens=[0, 1], token_pool="each")
    illegal(state, ["look", 1, 0], "P1 has no token left")
    assert not [a for a in state.legal_actions() if a[0] == "look"]
    state = table(players=2, tokens=[0, 1], token_pool="each", turn=1)
    state.apply(["look", 1, 0])
    assert state.tokens == [0, 0]
    state = table(players=1, tokens=[0])
    illegal(state, ["look", 1, 0], "the table has no token left")
    assert not [a for a in state.legal_actions() if a[0] == "look"]


def test_revealing_anastasia_wins():
    state = table(players=3, anastasia=5, turn=1)
    state.apply(["reveal_role", 5])
    assert state.is_over() and state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.result == {"reason": solo.FOUND, "winners": [1], "guest": 5, "by": 1}
    assert state.winners() == [1] and state.scores() == [0, 1, 0]
    illegal(state, ["reveal_role", 1], "the game is over")


def test_revealing_anyone_else_puts_the_player_out():
    state = table(players=3, anastasia=5)
    state.apply(["reveal_role", 2])
    assert state.out == [True, False, False] and state.guest(2).role_shown
    assert state.current_player() == 1 and state.actions_left == 2  # P1's second action is lost
    illegal(state, ["reveal_role", 2], "already face up")
    for action in (["look", 1, 0], ["reveal_clue", 6, 0], ["look", 1, 1], ["reveal_clue", 6, 1]):
        state.apply(action)
    assert state.current_player() == CHANCE
    state.apply(["automa"])
    assert state.round == 2 and state.current_player() == 1  # P1 is skipped from now on
    state.apply(["reveal_role", 3])
    state.apply(["reveal_role", 4])
    assert state.is_over() and state.result["reason"] == solo.ALL_OUT and state.winners() == []
    assert state.scores() == [0, 0, 0]


def test_an_out_player_is_skipped_within_a_round():
    state = table(players=3, anastasia=5, turn=1)
    state.apply(["reveal_role", 2])  # P2 is out
    assert state.current_player() == 2
    state.apply(["look", 1, 0])
    state.apply(["look", 1, 1])
    state.apply(["automa"])
    assert state.current_player() == 0
    state.apply(["look", 1, 2])
    state.apply(["look", 3, 0])
    assert state.current_player() == 2  # P2 is passed over
    state.apply(["reveal_role", 1])
    assert state.current_player() == CHANCE and state.out == [False, True, True]


def test_a_solo_player_who_reveals_a_guest_loses():
    state = table(anastasia=6)
    state.apply(["reveal_role", 1])
    assert state.is_over() and state.result["reason"] == solo.ALL_OUT and state.winners() == []


def test_the_game_ends_when_no_face_down_role_is_left_at_the_party():
    # Anastasia (Guest 1) was removed unseen; Guests 5 and 6 are known not to be her
    shown = [False, False, False, False, True, True]
    state = table(players=2, anastasia=1, status=[1, 0, 2, 1, 0, 0], shown=shown)
    state.apply(["remove", 2])
    assert state.is_over() and state.result["reason"] == solo.NONE_HIDDEN and state.winners() == []
    # the last face-down role is revealed and is not Anastasia: P1 is out, and P2 has nobody to find
    state = table(players=2, anastasia=1, status=[1, 0, 2, 1, 0, 0], shown=shown)
    state.apply(["reveal_role", 2])
    assert state.out == [True, False] and state.is_over() and state.result["reason"] == solo.NONE_HIDDEN


# -- turns and rounds ----------------------------------------------------------
def test_two_actions_each_then_the_automa_then_a_new_round():
    state = table(players=3, anastasia=6)
    order = []
    for g in range(1, 7):
        order.append(state.current_player())
        state.apply(["reveal_clue", g, 0] if g < 6 else ["look", 6, 0])
    assert order == [0, 0, 1, 1, 2, 2]
    assert state.current_player() == CHANCE and state.legal_actions() == [["automa"]]
    illegal(state, ["remove", 1], "the automa takes its turn first")
    illegal(state, ["automa", 1], "automa takes 0 arguments")
    state.apply(["automa"])
    assert state.round == 2 and state.current_player() == 0 and state.actions_left == 2
    assert state.last_automa["round"] == 1


def test_bad_actions_are_refused_and_change_nothing():
    state = table(players=2)
    for action, words in (
        ("remove", "an action is a list"),
        ([], "an action is a list"),
        ([3], "an action is a list"),
        (["fly"], "unknown action 'fly'"),
        (["remove"], "remove takes 1 argument"),
        (["remove", 7], "remove names a guest 1-6"),
        (["remove", "2"], "remove names a guest 1-6"),
        (["reveal_clue", 2], "reveal_clue takes 2 arguments"),
        (["reveal_clue", 2, -1], "slots 0-2"),
        (["look", 2, None], "slots 0-2"),
        (["automa"], "the automa plays after the round"),
    ):
        illegal(state, action, words)


# -- saving, loading, views --------------------------------------------------------
def test_to_dict_round_trips_through_json_mid_game():
    state = solo.new_game(11, 2)
    for action in (["reveal_clue", 1, 0], ["look", 2, 2], ["draw"]):
        state.apply(action)
    saved = json.loads(json.dumps(state.to_dict()))
    again = solo.from_dict(saved)
    assert again.digest() == state.digest() and again.to_dict() == state.to_dict()
    for action in (["keep", 0], ["remove", 3], ["automa"], ["reveal_clue", 4, 1]):
        state.apply(action)
        again.apply(action)
        assert again.digest() == state.digest()
    # to_dict is a copy: changing it changes nothing
    d = state.to_dict()
    d["clues"][0].append(99)
    d["purses"][0] = 99
    assert state.digest() == again.digest()
    # the built-in automa deck is saved by name (null); a user's deck is saved whole
    assert d["options"]["automa_deck"] is None
    custom = solo.new_game(11, 2, automa_deck=DEFAULT_DECK[:3])
    d = custom.to_dict()
    assert d["options"]["automa_deck"] == DEFAULT_DECK[:3]
    d["options"]["automa_deck"][0] = "x: leave 1; leave 2"
    assert custom.deck_cards == DEFAULT_DECK[:3]
    assert solo.from_dict(json.loads(json.dumps(custom.to_dict()))).digest() == custom.digest()


def test_from_dict_refuses_broken_states():
    good = table(players=2, deck=[13, 14]).to_dict()

    def refused(change, words):
        d = json.loads(json.dumps(good))
        change(d)
        e = raises(BadState, solo.from_dict, d)
        assert words in str(e), str(e)

    refused(lambda d: d.update(version=2), "unknown version 2")
    refused(lambda d: d.update(game="anomia"), "not an anastasia_solo state")
    refused(lambda d: put(d["clues"][0], 0, 13), "every clue card must lie in exactly one place")
    refused(lambda d: d.update(clue_deck=[13]), "every clue card must lie in exactly one place")
    refused(lambda d: d.update(supply=d["supply"] + 1), "the gems add up to 51")
    refused(lambda d: put(d["beneath"], 0, -1), "beneath must be an int")
    refused(lambda d: put(d["roles"], 1, cards.ANASTASIA), "roles must be Anastasia and five")
    refused(lambda d: put(d["roles"], 1, cards.EMPRESS), "roles must be Anastasia and five")
    refused(lambda d: d["revealed"][0].pop(), "revealed must be a list of 3")
    refused(lambda d: put(d["looked"][0], 0, 4), "looked must be an int 0-3")
    refused(lambda d: d.update(phase="later"), "phase must be")
    refused(lambda d: d.update(out=[True, True]), "every player out is over")
    refused(lambda d: d.update(out=[True, False]), "P1 is out and cannot be the player to move")
    refused(lambda d: d.update(status=[1, 1, 2, 2, 1, 1]), "without a face-down role at the party is over")
    refused(lambda d: d.update(result={"reason": "found", "winners": [0], "guest": 1, "by": 0}),
            "only a game that is over has a result")
    refused(lambda d: d.update(automa_discard=[0]), "every automa card must lie once")
    refused(lambda d: d["options"].update(automa_deck=[{"name": "x"}]), "automa card 1 ('x')")
    refused(lambda d: d["options"].update(unshown="maybe"), "unshown must be one of")
    refused(lambda d: d.update(drawn=[13, 14], clue_deck=[], phase="automa"), "drawn clues wait")
    refused(lambda d: d.update(last_automa={"card": 0}), "last_automa must be null or")
    refused(lambda d: d.update(last_automa={"card": 0, "round": 1, "reshuffled": False,
                                            "actions": [{"tier": 5, "failed": [], "did": None}] * 2}),
            "automa outcome tier must be an int -1-2")
    refused(lambda d: d.update(rng=[0] * 8), "rng state must not be all zero")
    refused(lambda d: d.pop("turn"), "missing field turn")
    assert solo.from_dict(json.loads(json.dumps(good))).digest() == table(players=2, deck=[13, 14]).digest()


def test_view_hides_what_a_player_may_not_see():
    state = table(players=2, deck=[13, 14], anastasia=3)
    state.apply(["look", 1, 2])
    state.apply(["draw"])
    mine, theirs = state.view(0), state.view(1)
    for v in (mine, theirs):
        assert "rng" not in v and v["roles"] == [None] * 6
        assert v["clue_deck"] == 0 and v["automa_deck"] == 1 and isinstance(v["box"], int)
        json.dumps(v)
    assert mine["drawn"] == [14, 13] and theirs["drawn"] == 2
    assert mine["clues"][0][2] == state.guest(1).clues[2] and theirs["clues"][0] == [None] * 3
    state.apply(["keep", 0])
    assert state.view(0)["hands"] == [[14], 0] and state.view(1)["hands"] == [1, []]
    state.apply(["reveal_role", 2])  # P2 is out
    assert state.view(0)["roles"][1] == state.guest(2).role and state.view(0)["roles"][3] is None
    state.apply(["automa"])
    state.apply(["reveal_role", 4])  # and P1 too
    assert state.is_over()
    assert state.view(1)["roles"] == [x.role for x in state.guests]  # all shown at the end
    assert "no player 2" in str(raises(ValueError, state.view, 2))


def test_the_gems_never_leave_the_table():
    state = table(players=2)
    for action in (["reveal_clue", 1, 0], ["remove", 1], ["reveal_clue", 2, 0], ["reveal_clue", 2, 1]):
        state.apply(action)
        g = state.gems()
        assert g["total"] == 50 == g["supply"] + sum(g["purses"]) + sum(g["beneath"])
    assert state.gems()["purses"] == [6 - 1 + 4, 6 - 1 - 2]


def test_guests_away_at_the_set_up_are_out_of_play_and_their_gems_stay_in_the_supply():
    from engine.anastasia_solo import new_game
    from engine.anastasia_solo_rules import LEFT

    home = new_game(5, 1)
    s = new_game(5, 1, away=[5, 2])
    assert s.options["away"] == [2, 5]
    assert [x.status for x in s.guests] == [0, LEFT, 0, 0, LEFT, 0]
    gems = s.gems()
    assert gems["beneath"] == [3, 0, 3, 3, 0, 3] and gems["total"] == 50
    assert gems["supply"] == home.gems()["supply"] + 6
    acts = s.legal_actions()
    assert ["remove", 2] not in acts and ["reveal_role", 5] not in acts and ["remove", 1] in acts
    assert "left the party" in str(raises(IllegalAction, s.apply, ["reveal_clue", 2, 0]))
    for bad in ([1, 2, 3, 4, 5, 6], [0], [7], [2, 2], "2", [True]):
        assert "option away" in str(raises(ValueError, new_game, 5, 1, away=bad))
    # saved and restored with the option
    from engine.anastasia_solo import from_dict

    assert from_dict(s.to_dict()).digest() == s.digest()
