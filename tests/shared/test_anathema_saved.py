"""Anathema saved states, hidden information, refused actions and narration."""

import json

from engine import anathema
from engine.core import BadState, IllegalAction
from engine.playout import RandomChooser
from tests.shared.anathema_positions import position, refused
from tests.shared.compat import raises


def _midgame(seed=4, players=3, steps=20, **options):
    s = anathema.new_game(seed, players, **options)
    chooser = RandomChooser(seed)
    for _ in range(steps):
        s.apply(chooser.choose(s))
    return s


def test_a_json_round_trip_continues_the_same_game():
    for options in ({}, {"advanced": True}, {"partners": True}):
        players = 4 if options.get("partners") else 3
        s = _midgame(players=players, steps=70, **options)
        back = anathema.from_dict(json.loads(json.dumps(s.to_dict())))
        assert back.digest() == s.digest()
        chooser_a, chooser_b = RandomChooser(9), RandomChooser(9)
        while not s.is_over():
            s.apply(chooser_a.choose(s))
            back.apply(chooser_b.choose(back))
            assert back.digest() == s.digest()


def test_to_dict_shares_nothing_with_the_state():
    points = {"1a": 1, "10b": 2}
    s = _midgame(point_cards=points, steps=100)
    points["1a"] = 7  # the caller's dict, changed after new_game
    before = s.digest()
    d = s.to_dict()
    d["options"]["point_cards"]["1a"] = 9
    d["hands"][0].append("13d")
    d["results"].append("x")
    if d["results"][:-1]:
        d["results"][0]["points"][0] = 99
    assert s.digest() == before and s.to_dict()["options"]["point_cards"] == {"1a": 1, "10b": 2}


def _breaks(mutate, message, state=None):
    d = (state or _midgame()).to_dict()
    mutate(d)
    e = raises(BadState, anathema.from_dict, d)
    assert message in str(e), (message, str(e))


def test_from_dict_refuses_what_no_game_reaches():
    assert _midgame().deck and _midgame().table  # the mutations below have something to work on
    _breaks(lambda d: d.update(game="anomia"), "not an anathema state")
    _breaks(lambda d: d.update(version=99), "unknown version 99")
    _breaks(lambda d: d["deck"].pop(), "each of the 52 cards must lie in exactly one place")
    _breaks(lambda d: d["deck"].append(d["table"][0]), "each of the 52 cards")
    _breaks(lambda d: d["hands"][0].append("14a"), "'14a' is not a card id")
    _breaks(lambda d: d.update(turn=3), "turn must be an int 0-2")
    _breaks(lambda d: d.update(rng="seed"), "rng must be a list of ints")
    _breaks(lambda d: d["options"].update(target="21"), "target must be an int")
    _breaks(lambda d: d.update(totals=[1, 0, 0]), "totals must be the sum of the hands' points")
    _breaks(lambda d: d.update(over=True), "the game is over only when one side leads")
    _breaks(lambda d: d.update(winners=[0]), "winners must be []")
    _breaks(lambda d: d.update(pending=[["steal", "1a"]]), "capture rewards are an advanced rule")
    _breaks(lambda d: d.update(peeks=[[1, 1, []]]), "nobody peeks at their own hand")
    _breaks(lambda d: d.pop("table"), "bad anathema state")
    e = raises(BadState, anathema.from_dict, [1, 2])
    assert "not an anathema state" in str(e)


def test_from_dict_checks_builds_hands_and_the_deck():
    s = position(hands=[["5b", "10a"], ["6c", "8d"]], table=["2a", "7a"],
                 builds=[(["5a", "5c"], 10, False, 0)])
    _breaks(lambda d: d["builds"][0].update(value=9), "single build ['5a', '5c'] does not add up to 9", s)
    _breaks(lambda d: d["builds"][0].update(multiple=True, value=5), "multiple builds are an advanced", s)
    _breaks(lambda d: d["builds"][0].update(cards=["5a"]) or d["table"].append("5c"), "at least two cards", s)

    def hand_to_pile(d):
        d["piles"][0].append(d["hands"][1].pop())

    _breaks(hand_to_pile, "hand sizes do not match a round of play that reached seat 0", s)

    def deck_to_pile(d):
        d["piles"][0].append(d["deck"].pop())

    _breaks(deck_to_pile, "cards in the deck after", s)
    adv = position(hands=[["5b", "10a"], ["6c", "8d"]], table=["2a"], advanced=True,
                   builds=[(["3a", "4a", "7c"], 7, True, 0)])
    _breaks(lambda d: d["builds"][0].update(value=5), "does not split into sets of 5", adv)


def test_a_player_sees_their_hand_the_table_and_counts_only():
    s = _midgame(players=3, steps=30, advanced=True)
    me = s.current_player()
    v = s.view(me)
    assert "rng" not in v and v["deck"] == len(s.deck)
    assert v["hands"][me] == [anathema.CARD_IDS[c] for c in s.hands[me]]
    for p in range(3):
        if p != me:
            assert v["hands"][p] == len(s.hands[p])
        assert v["piles"][p] == len(s.piles[p])
        assert v["sweeps"][p] == [anathema.CARD_IDS[c] for c in s.sweeps[p]]
    assert v["table"] == s.to_dict()["table"] and v["builds"] == s.to_dict()["builds"]
    raises(ValueError, s.view, 3)
    raises(ValueError, s.view, "P1")


def test_refused_actions_name_the_reason_and_change_nothing():
    fresh = anathema.new_game(3, 2)
    refused(fresh, ["trail", "7a"], 'the dealer deals now: the only action is ["deal"]')
    refused(fresh, "deal", "an action is a list")
    s = position(hands=[["5b", "10a"], ["6c", "8d"]], table=["2a", "5a", "7a"],
                 builds=[(["3c", "4c"], 7, False, 1)])
    refused(s, ["deal"], "P1 still has cards to play: no deal now")
    refused(s, ["fly", "5b"], "unknown action 'fly'")
    refused(s, ["trail"], 'trail is written ["trail", card]')
    refused(s, ["trail", "6c"], "6c is not in P1's hand")
    refused(s, ["trail", 7], "7 is not a card id")
    refused(s, ["capture", "5b", []], "a capture takes at least one card or build")
    refused(s, ["capture", "5b", ["5a", "5a"]], "5a is named twice")
    refused(s, ["capture", "5b", ["4c"]], "4c lies in build 3c: name a build by its first card, 3c")
    refused(s, ["capture", "5b", ["9d"]], "9d is not face up on the table")
    refused(s, ["capture", "5b", "5a"], "table items are a list")
    refused(s, ["build", "5b", 14, ["5a"]], "a build value is a number 1-13")
    refused(s, ["build", "5b", 10, []], "name at least one")
    refused(s, ["build", "5b", 10, ["2a"]], "5b + 2a does not add up to 10")
    refused(s, ["build", "5b", 10, ["3c", "5a"]], "build 3c (7) + 5b + 5a does not add up to 10")
    refused(s, ["pass"], "no capture reward to use now")
    e = raises(IllegalAction, s.apply, None)
    assert "an action is a list" in str(e)


def test_describe_tells_what_a_move_does():
    s = anathema.new_game(3, 2, dealer=1)
    assert s.describe(["deal"]) == ("P2 shuffles and deals hand 1: 4 cards to each player and 4 face up to "
                                   "the table")
    s = position(hands=[["5b", "10a", "3d"], ["6c", "8d", "1d"]], table=["2a", "5a", "3a", "7a", "10c"],
                 builds=[(["3c", "4c"], 7, False, 1)])
    assert s.describe(["trail", "5b"]) == "P1 trails 5b"
    assert s.describe(["capture", "10a", ["3a", "7a", "10c"]]) == "P1 captures 10c and 7a+3a with 10a"
    assert s.describe(["build", "5b", 10, ["5a"]]) == "P1 builds a single 10: 5b on 5a"
    assert s.describe(["build", "3d", 10, ["3c"]]) == "P1 raises build 3c from 7 to 10 with 3d"
    sweep = position(hands=[["9b", "2b"], ["6c", "8d"]], table=["3a", "6a", "9a"])
    text = sweep.describe(["capture", "9b", ["3a", "6a", "9a"]])
    assert text == "P1 captures 9a and 6a+3a with 9b: a sweep"
    adv = position(players=3, hands=[["2a", "9b"], ["6c", "8d"], ["7d", "2c"]], table=["12c"], turn=2,
                   builds=[(["3a", "4d", "7a"], 7, True, 0)], advanced=True)
    assert adv.describe(["capture", "7d", ["3a"]]) == ("P3 captures multiple build 3a (7: 3a+4d+7a) with 7d "
                                                       "(reward 7a: Peek)")
    adv.apply(["capture", "7d", ["3a"]])
    assert adv.describe(["peek", 1]) == "P3 peeks at P2's hand"
    assert adv.describe(["pass"]) == "P3 does not use the Peek reward"
    # a reward that can do nothing is said so (the engine skips it)
    lone = position(hands=[["1b"], []], table=["1c", "5d"], dealer=0, advanced=True)
    text = lone.describe(["capture", "1b", ["1c"]])
    assert text == "P1 captures 1c with 1b (reward 1c: Peek, nothing to use it on)"
    lone.apply(["capture", "1b", ["1c"]])
    assert lone.pending == []
