"""The solo automa: its card format and validation, the printed card, and every verb's
"can be taken" condition with the fallback down the tiers to the skip, on real tables."""

from engine import anastasia_automa as automa
from engine import anastasia_cards as cards
from engine import anastasia_solo as solo
from engine.anastasia_automa_deck import DEFAULT_DECK, PRINTED
from engine.core import CHANCE
from tests.shared.anastasia_solo_tables import card, table, tier
from tests.shared.compat import raises


def automa_turn(state):
    """Play the automa's turn on a table that sits at the end of a round; returns its two outcomes."""
    assert state.current_player() == CHANCE and state.legal_actions() == [["automa"]]
    state.apply(["automa"])
    return state.last_automa["actions"]


def round_end(state):
    """The same table at the end of a round (the players' actions do not matter here)."""
    d = state.to_dict()
    d["phase"] = solo.AUTOMA
    return solo.from_dict(d)


def one_card(action1, action2=None, **kw):
    """A table whose automa deck is the single card (action1, action2)."""
    a2 = action2 or [tier("reveal_clue", 1)]  # touches no gem, card or guest the tests watch
    kw.setdefault("phase", solo.AUTOMA)
    return table(automa_deck=[card("t", action1, a2)], automa=[0], **kw)


# -- the format ---------------------------------------------------------------
PRINTED_TIERS = [
    [["reveal_clue", 3], ["exchange", 4, 5], ["return_reveal", 1, 3, 2]],
    [["draw", 6], ["expend_reveal", 5, 3, 2], ["leave", 3]],
]


def test_the_printed_card_is_in_the_data_exactly_as_printed():
    assert PRINTED in DEFAULT_DECK
    assert automa.parse_card(PRINTED) == {"name": "printed", "actions": PRINTED_TIERS}
    printed = [[automa.tier_text(t) for t in a] for a in PRINTED_TIERS]
    assert printed == [
        ["Reveal Guest 3's clue", "Guest 4 exchanges an unshown clue with Guest 5",
         "Guest 1 returns 3 gems to you, revealing Guest 2's role"],
        ["Guest 6 draws a clue", "Guest 5 expends 3 gems to reveal Guest 2", "Guest 3 leaves the party"],
    ]


def test_a_card_as_a_table_or_with_loose_spacing_becomes_the_same_line():
    table_form = {"name": "printed", "actions": PRINTED_TIERS}
    loose = "printed :reveal_clue  3,exchange 4 5 , return_reveal 1 3 2;draw 6,expend_reveal 5 3 2,leave 3"
    words = {"name": "printed", "actions": [["reveal_clue 3", "exchange 4 5", "return_reveal 1 3 2"],
                                            ["draw 6", "expend_reveal 5 3 2", "leave 3"]]}
    assert automa.validate_deck([table_form]) == [PRINTED]
    assert automa.validate_deck([loose]) == [PRINTED]
    assert automa.validate_deck([words]) == [PRINTED]
    assert automa.format_card("printed", PRINTED_TIERS) == PRINTED


def test_the_default_deck_is_valid_and_uses_every_verb_on_every_guest():
    assert automa.validate_deck(DEFAULT_DECK) == DEFAULT_DECK and len(DEFAULT_DECK) == 18
    names = [automa.parse_card(c)["name"] for c in DEFAULT_DECK]
    assert len(set(names)) == len(names)
    uses = {}
    for line in DEFAULT_DECK:
        c = automa.parse_card(line)
        assert len(c["actions"]) == 2
        for a in c["actions"]:
            assert len(a) == 3
            for t in a:
                uses.setdefault(t[0], set()).add(t[1])
    assert sorted(uses) == sorted(automa.VERBS)
    for verb in uses:
        assert uses[verb] == {1, 2, 3, 4, 5, 6}, verb


GOOD = "c7: reveal_clue 3, exchange 4 5, return_reveal 1 3 2; draw 6, expend_reveal 5 3 2, leave 3"

# (a bad second card, words its error must hold)
BAD_CARDS = [
    (GOOD.replace("draw 6", "draw 7"),
     "automa card 2 ('c7'), action 2, primary tier: draw's guest must be a guest number 1-6, got 7"),
    (GOOD.replace("return_reveal 1 3 2", "return_reveal 1 0 2"),
     "action 1, tertiary tier: return_reveal's gems must be a whole number 1-20, got 0"),
    (GOOD.replace("return_reveal 1 3 2", "return_reveal 1 three 2"),
     "return_reveal's gems must be a whole number 1-20, got 'three'"),
    (GOOD.replace("exchange 4 5", "exchange 4 4"), "action 1, secondary tier: exchange names Guest 4 twice"),
    (GOOD.replace("reveal_clue 3", "steal 3"), "the verb must be one of reveal_clue, exchange, return_"),
    (GOOD.replace("expend_reveal 5 3 2", "expend_reveal 5 3"),
     "action 2, secondary tier: expend_reveal takes 3 numbers (guest, gems, reveal), got 2"),
    (GOOD.replace("leave 3", "leave 3 2"), "leave takes 1 number (guest), got 2"),
    (GOOD.replace("; draw", ", reveal_clue 2; draw"), "action 1: must list 1-3 tiers"),
    (GOOD + "; leave 1", "a card has exactly 2 actions, got 3"),
    (GOOD.replace(", leave 3", ", "), "action 2, tertiary tier must be a verb and its numbers"),
    (GOOD.replace("c7:", "c7"), "automa card 2 must read"),
    (GOOD.replace("c7:", ":"), "automa card 2: the name must be 1-24 characters"),
    (DEFAULT_DECK[0], "automa card 2 ('A1'): the name is already used by automa card 1"),
    ({"name": "c7", "actions": [[["draw", 6]], [["leave", True]]]},
     "automa card 2 ('c7'), action 2, primary tier: leave's guest must be a guest number 1-6, got True"),
    ({"name": "c7", "actions": [[["draw", 6]], [["leave", 1]]], "colour": "red"}, "unknown field 'colour'"),
    ({"name": "c7", "actions": [[["draw", 6]]]}, "a card has exactly 2 actions, got 1"),
    ({"name": "c7", "actions": [[["draw", 6]], []]}, "action 2: must list 1-3 tiers"),
    (7, "automa card 2 must be a line of text or a table"),
]


def test_bad_cards_are_refused_naming_the_card_and_the_field():
    assert automa.validate_deck([GOOD]) == [GOOD]
    for card_data, words in BAD_CARDS:
        msg = str(raises(automa.BadDeck, automa.validate_deck, [DEFAULT_DECK[0], card_data]))
        assert words in msg, (card_data, msg)
    assert "list of cards" in str(raises(automa.BadDeck, automa.validate_deck, {"cards": []}))
    assert "1-60 cards, got 0" in str(raises(automa.BadDeck, automa.validate_deck, []))
    # a bad deck given to the engine is refused the same way, before any game exists
    e = raises(ValueError, solo.new_game, 1, 1, automa_deck=["x: draw 6; leave 0"])
    assert "automa card 1 ('x'), action 2, primary tier" in str(e)


def test_a_shorter_card_is_fine_and_a_missing_tier_is_a_skip():
    deck = automa.validate_deck([card("short", [tier("leave", 2)], [tier("draw", 1), tier("leave", 1)])])
    state = table(automa_deck=deck, automa=[0], status=[0, 1, 0, 0, 0, 0], phase=solo.AUTOMA)
    first, second = automa_turn(state)
    assert first == {"tier": -1, "failed": [[automa.ABSENT, 2]], "did": None}
    assert second["tier"] == 0


# -- each verb: when it can be taken, what it does ------------------------------
def test_reveal_clue_needs_the_guest_at_the_party_with_a_face_down_clue():
    state = one_card([tier("reveal_clue", 3)])
    first, _ = automa_turn(state)
    assert first["tier"] == 0
    slot = first["did"]["slot"]
    assert state.guest(3).revealed[slot] and first["did"]["clue"] == state.guest(3).clues[slot]
    assert state.guest(3).revealed.count(True) == 1
    # every clue already face up
    state = one_card([tier("reveal_clue", 3)], revealed=[[False] * 3] * 2 + [[True] * 3] + [[False] * 3] * 3)
    first, _ = automa_turn(state)
    assert first == {"tier": -1, "failed": [[automa.NO_FACEDOWN, 3]], "did": None}
    # removed from the party
    first, _ = automa_turn(one_card([tier("reveal_clue", 3)], status=[0, 0, 1, 0, 0, 0]))
    assert first["failed"] == [[automa.ABSENT, 3]]


def test_exchange_swaps_an_unshown_clue_of_each_guest():
    looked = [[0] * 3 for _ in range(6)]
    looked[3] = [1, 0, 1]  # Guest 4: only slot 1 is unshown
    state = one_card([tier("exchange", 4, 5)], looked=looked)
    before4, before5 = list(state.guest(4).clues), list(state.guest(5).clues)
    first, _ = automa_turn(state)
    assert first["tier"] == 0
    s4, s5 = first["did"]["slots"]
    assert s4 == 1
    assert state.guest(4).clues[1] == before5[s5] and state.guest(5).clues[s5] == before4[1]
    assert state.guest(4).clues[0] == before4[0] and state.guest(4).clues[2] == before4[2]


def test_exchange_cannot_be_taken_without_an_unshown_clue_on_both_sides():
    looked = [[0] * 3 for _ in range(6)]
    looked[4] = [1, 1, 1]  # P1 looked at all of Guest 5's clues
    first, _ = automa_turn(one_card([tier("exchange", 4, 5)], looked=looked))
    assert first["failed"] == [[automa.NO_UNSHOWN, 5]]
    revealed = [[False] * 3 for _ in range(6)]
    revealed[3] = [True, True, True]
    first, _ = automa_turn(one_card([tier("exchange", 4, 5)], revealed=revealed))
    assert first["failed"] == [[automa.NO_UNSHOWN, 4]]
    first, _ = automa_turn(one_card([tier("exchange", 4, 5)], status=[0, 0, 0, 0, 2, 0]))
    assert first["failed"] == [[automa.ABSENT, 5]]
    # read as "any face-down clue", a looked-at clue is unshown and moves with what P1 knows of it
    state = one_card([tier("exchange", 4, 5)], looked=looked, unshown="face_down")
    was = list(state.guest(5).clues)
    first, _ = automa_turn(state)
    assert first["tier"] == 0
    s4, s5 = first["did"]["slots"]
    assert state.guest(4).clues[s4] == was[s5] and state.guest(4).looked[s4] == 1
    assert state.guest(5).looked[s5] == 0


def test_return_reveal_pays_the_players_and_reveals_a_role():
    t = tier("return_reveal", 1, 3, 2)
    state = one_card([t], anastasia=6)
    first, _ = automa_turn(state)
    assert first["tier"] == 0 and first["did"]["paid"] == [3]
    assert state.purses == [13] and state.guest(1).gems == 0
    assert state.guest(2).role_shown and first["did"]["role"] == state.guest(2).role
    assert not state.is_over()
    # too few gems beneath the giver, the role already face up, the target gone
    first, _ = automa_turn(one_card([t], beneath=[2, 3, 3, 3, 3, 3], anastasia=6))
    assert first["failed"] == [[automa.SHORT, 1, 2, 3]]
    first, _ = automa_turn(one_card([t], shown=[False, True, False, False, False, False], anastasia=6))
    assert first["failed"] == [[automa.ROLE_SHOWN, 2]]
    first, _ = automa_turn(one_card([t], status=[0, 1, 0, 0, 0, 0], anastasia=6))
    assert first["failed"] == [[automa.ABSENT, 2]]
    first, _ = automa_turn(one_card([t], status=[2, 0, 0, 0, 0, 0], anastasia=6))
    assert first["failed"] == [[automa.ABSENT, 1]]


def test_returned_gems_are_shared_in_turn_or_given_to_each():
    t = tier("return_reveal", 1, 3, 2)
    state = one_card([t], players=2, anastasia=6, beneath=[5, 3, 3, 3, 3, 3])
    first, _ = automa_turn(state)
    assert first["did"]["paid"] == [2, 1] and state.purses == [8, 7] and state.guest(1).gems == 2
    assert state.share_next == 1  # the next share starts with P2
    # P1 is out: the whole share goes to P2
    state = one_card([t], players=3, anastasia=6, out=[True, False, False], beneath=[4, 3, 3, 3, 3, 3])
    state.share_next = 0
    first, _ = automa_turn(state)
    assert first["did"]["paid"] == [0, 2, 1]
    # "each": every player still in receives 3, so Guest 1 needs 3 per player
    state = one_card([t], players=2, anastasia=6, beneath=[5, 3, 3, 3, 3, 3], returned_gems="each")
    first, _ = automa_turn(state)
    assert first["failed"] == [[automa.SHORT, 1, 5, 6]]
    state = one_card([t], players=2, anastasia=6, beneath=[6, 3, 3, 3, 3, 3], returned_gems="each")
    first, _ = automa_turn(state)
    assert first["did"]["paid"] == [3, 3] and state.purses == [9, 9] and state.guest(1).gems == 0


def test_draw_needs_a_clue_in_the_deck():
    state = one_card([tier("draw", 6)], deck=[13, 14])
    first, _ = automa_turn(state)
    assert first == {"tier": 0, "failed": [], "did": {"slot": 3}}
    assert state.guest(6).clues[3] == 14 and state.clue_deck == [13]
    assert not state.guest(6).revealed[3] and state.guest(6).looked[3] == 0
    first, _ = automa_turn(one_card([tier("draw", 6)], deck=[]))
    assert first["failed"] == [[automa.DECK_EMPTY]]


def test_expend_reveal_sends_the_gems_to_the_supply():
    state = one_card([tier("expend_reveal", 5, 3, 2)], anastasia=6)
    supply = state.supply
    first, _ = automa_turn(state)
    assert first["tier"] == 0 and first["did"]["spent"] == 3
    assert state.supply == supply + 3 and state.guest(5).gems == 0 and state.guest(2).role_shown
    first, _ = automa_turn(one_card([tier("expend_reveal", 5, 4, 2)], anastasia=6))
    assert first["failed"] == [[automa.SHORT, 5, 3, 4]]


def test_leave_needs_only_the_guest_at_the_party_and_returns_its_gems():
    state = one_card([tier("leave", 3)], beneath=[3, 3, 5, 3, 3, 3])
    supply = state.supply
    first, _ = automa_turn(state)
    assert first["did"] == {"gems": 5} and state.guest(3).status == solo.LEFT
    assert state.supply == supply + 5 and state.guest(3).gems == 0
    first, _ = automa_turn(one_card([tier("leave", 3)], status=[0, 0, 2, 0, 0, 0]))
    assert first["failed"] == [[automa.ABSENT, 3]]


# -- the printed card down its tiers -----------------------------------------------
def printed_table(**kw):
    kw.setdefault("anastasia", 4)
    return table(automa=[0], phase=solo.AUTOMA, **kw)


def test_printed_card_primary_tiers():
    state = printed_table()
    first, second = automa_turn(state)
    assert first["tier"] == 0 and second["tier"] == 0
    assert state.guest(3).revealed.count(True) == 1 and len(state.guest(6).clues) == 4
    assert state.describe_automa() == [
        "Automa card 'printed'",
        "1: Reveal Guest 3's clue: card %d, %s" % (first["did"]["slot"] + 1,
                                                   cards.clue_label(first["did"]["clue"])),
        "2: Guest 6 draws a clue",
    ]


def test_printed_card_secondary_tiers():
    # Guest 3 shows every clue; the clue deck is empty
    revealed = [[False] * 3 for _ in range(6)]
    revealed[2] = [True] * 3
    state = printed_table(revealed=revealed, deck=[])
    first, second = automa_turn(state)
    assert first["tier"] == 1 and first["failed"] == [[automa.NO_FACEDOWN, 3]]
    assert second["tier"] == 1 and second["failed"] == [[automa.DECK_EMPTY]]
    assert state.guest(2).role_shown and state.guest(5).gems == 0
    s4, s5 = first["did"]["slots"]
    assert state.describe_automa()[1] == (
        "1: Guest 4 exchanges an unshown clue with Guest 5: Guest 4's card %d for Guest 5's card %d "
        "(primary could not be taken: Guest 3 has no face-down clue)" % (s4 + 1, s5 + 1))
    assert state.describe_automa()[2] == (
        "2: Guest 5 expends 3 gems to reveal Guest 2: the %s (primary could not be taken: "
        "the clue deck is empty)" % cards.ROLE_NAMES[state.guest(2).role])


def test_printed_card_tertiary_tiers():
    # Guest 3 gone, Guest 5 gone: no reveal, no exchange; Guest 5 cannot expend either
    state = printed_table(status=[0, 0, 1, 0, 2, 0], deck=[])
    purse = state.purses[0]
    first, second = automa_turn(state)
    assert first["tier"] == 2 and first["failed"] == [[automa.ABSENT, 3], [automa.ABSENT, 5]]
    assert state.purses[0] == purse + 3 and state.guest(2).role_shown
    # no clue to draw, Guest 5 cannot expend anything, Guest 3 cannot leave again
    assert second == {"tier": -1, "failed": [[automa.DECK_EMPTY], [automa.ABSENT, 5], [automa.ABSENT, 3]],
                      "did": None}
    assert state.describe_automa()[2] == (
        "2: skipped (primary could not be taken: the clue deck is empty; secondary could not be taken: "
        "Guest 5 is no longer at the party; tertiary could not be taken: Guest 3 is no longer at the party)")


def test_printed_card_second_action_judged_after_the_first():
    # Action 1 falls to its tertiary tier and reveals Guest 2, so action 2's secondary tier
    # (reveal Guest 2) can no longer be taken and Guest 3 leaves instead.
    revealed = [[False] * 3 for _ in range(6)]
    revealed[2] = [True] * 3
    looked = [[0] * 3 for _ in range(6)]
    looked[3] = [1, 1, 1]
    state = printed_table(deck=[], revealed=revealed, looked=looked)
    first, second = automa_turn(state)
    assert first["tier"] == 2 and first["failed"] == [[automa.NO_FACEDOWN, 3], [automa.NO_UNSHOWN, 4]]
    assert second["tier"] == 2 and second["failed"] == [[automa.DECK_EMPTY], [automa.ROLE_SHOWN, 2]]
    assert state.guest(3).status == solo.LEFT


def test_the_automa_revealing_anastasia_ends_the_game():
    state = printed_table(anastasia=2, status=[0, 0, 1, 0, 2, 0], players=2)
    first, second = automa_turn(state)
    assert first["tier"] == 2 and first["did"]["role"] == cards.ANASTASIA
    assert second == {"tier": -1, "failed": [[automa.GAME_OVER]], "did": None}
    assert state.is_over() and state.result["reason"] == solo.AUTOMA_FOUND and state.winners() == []
    assert state.describe_automa()[1] == (
        "1: Guest 1 returns 3 gems to you, revealing Guest 2's role: P1 +2, P2 +1; it is Anastasia "
        "(primary could not be taken: Guest 3 is no longer at the party; secondary could not be taken: "
        "Guest 5 is no longer at the party)")
    assert state.describe_automa()[2] == "2: not taken: the game is over"
    # the other reading: the table found her together
    state = printed_table(anastasia=2, status=[0, 0, 1, 0, 2, 0], players=2, out=[True, False],
                          automa_finds_anastasia="players_win")
    automa_turn(state)
    assert state.winners() == [1] and state.scores() == [0, 1]


def test_reshuffle_when_the_automa_deck_is_empty():
    deck = [card("c%d" % i, [tier("draw", i + 1)], [tier("leave", 6)]) for i in range(4)]
    state = table(automa_deck=deck, automa=[], discard=[3, 1, 0, 2], deck=[13, 14], anastasia=1,
                  phase=solo.AUTOMA)
    automa_turn(state)
    rec = state.last_automa
    assert rec["reshuffled"] is True
    drawn = rec["card"]
    assert state.automa_discard == [drawn] and sorted(state.automa_deck + [drawn]) == [0, 1, 2, 3]
    assert state.describe_automa()[0] == "Automa card 'c%d' (deck reshuffled)" % drawn
    # the order is the PRNG's, the same from the same state
    again = table(automa_deck=deck, automa=[], discard=[3, 1, 0, 2], deck=[13, 14], anastasia=1,
                  phase=solo.AUTOMA)
    automa_turn(again)
    assert again.automa_deck == state.automa_deck and again.digest() == state.digest()
    # the new order is the PRNG's shuffle, not the order of the discards
    orders = set()
    for seed in range(6):
        other = table(automa_deck=deck, automa=[], discard=[3, 1, 0, 2], deck=[13, 14], anastasia=1,
                      phase=solo.AUTOMA, seed=seed)
        automa_turn(other)
        orders.add(tuple(other.automa_deck + other.automa_discard))
    assert len(orders) > 2, orders
    # the next turns draw the rest without reshuffling, then reshuffle all four again
    seen = [drawn]
    for _ in range(3):
        state = round_end(state)
        automa_turn(state)
        assert state.last_automa["reshuffled"] is False
        seen.append(state.last_automa["card"])
    assert sorted(seen) == [0, 1, 2, 3] and state.automa_deck == []
    state = round_end(state)
    automa_turn(state)
    assert state.last_automa["reshuffled"] is True and len(state.automa_discard) == 1


def test_every_automa_turn_draws_the_top_card_and_discards_it():
    deck = [card("c%d" % i, [tier("leave", 6)], [tier("leave", 5)]) for i in range(3)]
    state = table(automa_deck=deck, automa=[2, 0, 1], anastasia=1, phase=solo.AUTOMA)
    automa_turn(state)
    assert state.last_automa["card"] == 1 and state.automa_deck == [2, 0] and state.automa_discard == [1]
    assert state.round == 2 and state.current_player() == 0


def test_guests_involved_and_reasons_in_words():
    assert automa.guests_involved(tier("return_reveal", 1, 3, 2)) == [1, 2]
    assert automa.guests_involved(tier("exchange", 4, 5)) == [4, 5]
    assert automa.guests_involved(tier("draw", 6)) == [6]
    assert automa.describe_reason([automa.SHORT, 1, 2, 3]) == "Guest 1 holds 2 gems, 3 needed"
    assert automa.describe_reason([automa.ROLE_SHOWN, 2]) == "Guest 2's role is already revealed"
    assert automa.describe_reason([automa.NO_UNSHOWN, 5]) == "Guest 5 has no unshown clue"
