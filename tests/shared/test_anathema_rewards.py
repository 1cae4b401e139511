"""Capture rewards (advanced rules): Peek, Swap and Steal, from the data table keyed by card."""

from engine import anathema, anathema_cards
from engine.anathema_cards import CARD_IDS, CARD_OF_ID
from engine.core import CHANCE
from tests.shared.anathema_positions import ids, position, refused
from tests.shared.compat import raises


def test_the_default_table_prints_the_rulebook_rewards():
    rewards = anathema_cards.REWARDS
    assert rewards["7d"] == "7a: Peek" and rewards["11d"] == "11a: Steal"
    assert sorted(rewards) == sorted(CARD_IDS)
    kinds = {}
    for cid in rewards:
        target, kind = rewards[cid].split(": ")
        c, t = CARD_OF_ID[cid], CARD_OF_ID[target]
        assert t // 4 == c // 4 and t % 4 == (c % 4 + 1) % 4  # same number, next suit
        kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds == {"Peek": 20, "Steal": 16, "Swap": 16}


def _steal_position(p3_sweeps=("4b",), p2_pile=("6a", "6b", "6c"), advanced=True, seed=1):
    # P1 takes the 11a with the 11d ("11a: Steal"); P2 has a face-down pile, P3 only a sweep card
    rest = [c for c in CARD_IDS if c not in ("11d", "2a", "11a", "5c", "9a", "9b", "9c", "9d")
            + tuple(p3_sweeps) + tuple(p2_pile)]
    return position(players=3, hands=[["11d", "2a"], ["9a", "9b"], ["9c", "9d"]], table=["11a", "5c"],
                    piles=[rest, list(p2_pile), []], sweeps=[[], [], list(p3_sweeps)], advanced=advanced,
                    seed=seed)


def test_steal_takes_a_random_face_down_card_never_a_sweep_card():
    s = _steal_position()
    s.apply(["capture", "11d", ["11a"]])
    assert s.current_player() == 0 and s.legal_actions() == [["steal", 1], ["pass"]]
    refused(s, ["steal", 2], "P3 has no face-down capture pile to steal from")
    refused(s, ["peek", 1], "the reward to use now is steal (or pass), not 'peek'")
    refused(s, ["steal", 0], "names another player's seat")
    before = len(s.piles[0])
    s.apply(["steal", 1])
    assert len(s.piles[0]) == before + 1 and len(s.piles[1]) == 2
    assert ids(s.piles[0])[-1] in ("6a", "6b", "6c") and ids(s.sweeps[2]) == ["4b"]
    assert s.current_player() == 1 and s.pending == []
    # random, from the game's own PRNG: other seeds take other cards
    taken = set()
    for seed in range(12):
        s = _steal_position(seed=seed)
        s.apply(["capture", "11d", ["11a"]])
        s.apply(["steal", 1])
        taken.add(ids(s.piles[0])[-1])
    assert taken == set(["6a", "6b", "6c"])


def test_steal_is_skipped_when_nobody_has_a_face_down_card():
    s = _steal_position(p2_pile=())
    s.apply(["capture", "11d", ["11a"]])
    assert s.pending == [] and s.current_player() == 1


def test_a_reward_is_used_right_after_the_capture_or_not_at_all():
    s = _steal_position()
    s.apply(["capture", "11d", ["11a"]])
    s.apply(["pass"])
    assert s.current_player() == 1 and s.pending == []
    refused(s, ["steal", 1], "no capture reward to use now")
    # in the basic game the same capture earns nothing
    s = _steal_position(advanced=False)
    s.apply(["capture", "11d", ["11a"]])
    assert s.pending == [] and s.current_player() == 1


def test_swap_takes_a_face_up_card_and_puts_one_from_the_hand():
    # 3a reads "3b: Swap"
    s = position(hands=[["3a", "8c", "9c"], ["6a", "6b", "6c"]], table=["3b", "4d", "7d"], advanced=True)
    s.apply(["capture", "3a", ["3b"]])
    assert s.legal_actions() == [["swap", "4d", "8c"], ["swap", "4d", "9c"], ["swap", "7d", "8c"],
                                 ["swap", "7d", "9c"], ["pass"]]
    refused(s, ["swap", "3b", "8c"], "swap takes a loose face-up card from the table")
    refused(s, ["swap", "4d", "6a"], "swap gives a card from P1's hand")
    s.apply(["swap", "7d", "9c"])
    assert ids(s.hands[0]) == ["8c", "7d"] and ids(s.table) == ["4d", "9c"]
    assert s.current_player() == 1


def test_swap_is_skipped_after_a_sweep():
    s = position(hands=[["3a", "8c"], ["6a", "6b"]], table=["3b"], advanced=True)
    s.apply(["capture", "3a", ["3b"]])
    assert ids(s.sweeps[0]) == ["3a"] and s.pending == [] and s.current_player() == 1


def test_peek_shows_a_hand_to_that_player_alone_until_the_cards_are_played():
    # 4 players in partnerships: P1 peeks at partner P3 (1a reads "1b: Peek")
    s = position(players=4, partners=True, advanced=True, table=["1b", "13d"],
                 hands=[["1a", "5a"], ["2a", "2b"], ["3a", "3b"], ["4a", "4b"]])
    s.apply(["capture", "1a", ["1b"]])
    assert s.legal_actions() == [["peek", 1], ["peek", 2], ["peek", 3], ["pass"]]
    s.apply(["peek", 2])
    assert s.view(0)["peeked"] == {"P3": ["3a", "3b"]}
    for p in (1, 2, 3):
        assert s.view(p)["peeked"] == {} and s.view(p)["hands"][2] == (["3a", "3b"] if p == 2 else 2)
    s.apply(["trail", "2a"])
    s.apply(["trail", "3b"])
    assert s.view(0)["peeked"] == {"P3": ["3a"]}  # what P1 saw and P3 still holds


def test_several_rewards_on_one_card_come_one_after_the_other():
    rewards = {"10a": "5b: Steal, 5c: Peek"}
    s = position(hands=[["10a", "2a"], ["6a", "6b"]], table=["5b", "5c", "9d"], piles=[[], ["13a"]],
                 advanced=True, rewards=rewards)
    s.apply(["capture", "10a", ["5b", "5c"]])
    assert [k for k, _c in s.pending] == ["steal", "peek"]
    s.apply(["pass"])
    assert s.legal_actions() == [["peek", 1], ["pass"]]
    s.apply(["peek", 1])
    assert s.current_player() == 1 and s.view(0)["peeked"] == {"P2": ["6a", "6b"]}


def test_a_reward_on_the_last_capture_of_a_hand_comes_before_the_scoring():
    rest = [c for c in CARD_IDS if c not in ("11d", "11a", "9b", "6a", "6b")]
    s = position(hands=[["9b"], ["11d"]], table=["11a"], piles=[rest + ["6a", "6b"], []], last_deal=True,
                 advanced=True, dealer=1)
    s.apply(["trail", "9b"])
    s.apply(["capture", "11d", ["11a"]])  # the last card of the hand, and a Steal
    assert s.results == [] and s.current_player() == 1
    s.apply(["steal", 0])
    assert len(s.results) == 1 and s.current_player() == CHANCE
    # P2 made the last capture: the 9b is theirs, with the stolen card
    assert s.results[0]["cards"] == [len(rest) + 1, 4]


def test_reward_texts_are_checked():
    cases = [
        ({"7a": "7b: Fly"}, "is not Peek, Swap or Steal"),
        ({"7a": "7b Peek"}, 'is not "<card>: <reward>"'),
        ({"7a": "7a: Peek"}, "7a cannot capture itself"),
        ({"7a": "14b: Peek"}, "not a card id"),
        ({"7a": ["7b", "peek"]}, 'needs a text such as "7a: Peek"'),
        ({"7a": "1a: Peek, 2a: Peek, 3a: Peek, 4a: Peek, 5a: Peek"}, "(1-4, comma separated)"),
        ({"77": "7b: Peek"}, "not a card id"),
    ]
    for rewards, message in cases:
        e = raises(ValueError, anathema.new_game, 1, 2, advanced=True, rewards=rewards)
        assert message in str(e), (rewards, str(e))
    # written as the cards print them, any case
    s = anathema.new_game(1, 2, advanced=True, rewards={"7d": "7a: peek, 7b: STEAL"})
    assert s.rules.rewards[CARD_OF_ID["7d"]] == [(CARD_OF_ID["7a"], "peek"), (CARD_OF_ID["7b"], "steal")]
    assert s.rules.rewards[CARD_OF_ID["7c"]] is None  # the table given replaces the default one
