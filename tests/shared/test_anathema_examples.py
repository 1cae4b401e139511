"""The rulebook's Examples 1-17, each played on the engine: the position the example
describes, the moves it allows, the moves it refuses. Herbert is P1 (seat 0), Charlotte
P2 (seat 1), Mildred P3 (seat 2) unless an example needs other seats."""

from engine.anathema_cards import CARD_OF_ID
from engine.core import CHANCE
from tests.shared.anathema_positions import build_of, ids, plays_of, position, refused

HERBERT, CHARLOTTE, MILDRED = 0, 1, 2


def captures(state, card):
    return sorted(sorted(a[2]) for a in plays_of(state, card) if a[0] == "capture")


def test_example_1_a_ten_captures_a_ten():
    s = position(hands=[["10a", "4b"], ["6c", "8d"]], table=["10c", "3d"])
    assert ["capture", "10a", ["10c"]] in s.legal_actions()
    s.apply(["capture", "10a", ["10c"]])
    assert sorted(ids(s.piles[HERBERT])) == ["10a", "10c"] and not s.sweeps[HERBERT]
    assert ids(s.table) == ["3d"]


def test_example_2_a_ten_captures_a_three_and_a_seven():
    s = position(hands=[["10a", "2b"], ["6c", "8d"]], table=["3a", "6b", "7a", "9a"])
    assert captures(s, "10a") == [["3a", "7a"]]
    s.apply(["capture", "10a", ["3a", "7a"]])
    assert sorted(ids(s.piles[HERBERT])) == ["10a", "3a", "7a"]
    assert ids(s.table) == ["6b", "9a"]


def test_example_3_one_card_captures_several_sets():
    s = position(hands=[["10a", "2b"], ["6c", "8d"]], table=["3a", "6b", "7a", "10b"])
    assert captures(s, "10a") == [["10b"], ["10b", "3a", "7a"], ["3a", "7a"]]
    s.apply(["capture", "10a", ["3a", "7a", "10b"]])
    assert len(s.piles[HERBERT]) == 4 and ids(s.table) == ["6b"]
    # sets that do not each add up to the card are refused
    s2 = position(hands=[["10a", "2b"], ["6c", "8d"]], table=["3a", "6b", "7a", "10b"])
    refused(s2, ["capture", "10a", ["3a", "6b"]], "cannot be split into sets that each add up to 10")
    refused(s2, ["capture", "10a", ["3a", "7a", "6b"]], "cannot be split")


def test_example_4_capturing_every_face_up_card_is_a_sweep():
    s = position(hands=[["9b", "2b"], ["6c", "8d"]], table=["3a", "6a", "9a"])
    s.apply(["capture", "9b", ["3a", "6a", "9a"]])
    assert ids(s.sweeps[HERBERT]) == ["9b"]  # the capturing card lies face up
    assert sorted(ids(s.piles[HERBERT]))[-3:] == ["3a", "6a", "9a"] and "9b" not in ids(s.piles[HERBERT])
    assert s.table == [] and s.builds == []


def test_example_5_a_build_needs_the_card_that_captures_it():
    s = position(hands=[["5b", "10a"], ["6c", "8d"]], table=["2a", "5a", "7a"])
    assert ["build", "5b", 10, ["5a"]] in s.legal_actions()
    s.apply(["build", "5b", 10, ["5a"]])
    assert build_of(s, "5a") == (["5a", "5b"], 10, False, HERBERT)
    assert ids(s.table) == ["2a", "7a"]
    # without a 10 in hand the same build is refused, and not offered
    s = position(hands=[["5b", "9a"], ["6c", "8d"]], table=["2a", "5a", "7a"])
    assert not [a for a in s.legal_actions() if a[0] == "build" and a[2] == 10]
    refused(s, ["build", "5b", 10, ["5a"]], "holds no other 10")


def test_example_6_table_cards_stacked_with_a_hand_card():
    s = position(hands=[["5b", "10a"], ["6c", "8d"]], table=["2a", "3a", "7a"])
    assert ["build", "5b", 10, ["2a", "3a"]] in s.legal_actions()
    s.apply(["build", "5b", 10, ["2a", "3a"]])
    assert build_of(s, "2a") == (["2a", "3a", "5b"], 10, False, HERBERT)


def _herbert_builds_ten(charlotte):
    s = position(hands=[["5b", "10a"], charlotte], table=["2a", "5a", "7a"])
    s.apply(["build", "5b", 10, ["5a"]])
    assert s.current_player() == CHARLOTTE
    return s


def test_example_7_another_player_captures_the_build():
    s = _herbert_builds_ten(["10c", "4d"])
    assert ["capture", "10c", ["5a"]] in s.legal_actions()
    before = len(s.piles[CHARLOTTE])
    s.apply(["capture", "10c", ["5a"]])
    assert sorted(ids(s.piles[CHARLOTTE][before:])) == ["10c", "5a", "5b"] and s.builds == []


def test_example_8_adding_to_a_build_with_the_new_value_in_hand():
    s = _herbert_builds_ten(["1c", "11b"])
    assert ["build", "1c", 11, ["5a"]] in s.legal_actions()
    s.apply(["build", "1c", 11, ["5a"]])
    assert build_of(s, "5a") == (["5a", "5b", "1c"], 11, False, CHARLOTTE)
    # without the 11 she may not add the 1
    s = _herbert_builds_ten(["1c", "12b"])
    refused(s, ["build", "1c", 11, ["5a"]], "holds no other 11")


def _example_9():
    # a 2, a 3 and a build of 8 (Herbert's); Charlotte holds a 4 and a 10
    return position(hands=[["9a"], ["4b", "10b"]], table=["2a", "3a"],
                    builds=[(["5c", "3c"], 8, False, HERBERT)], turn=CHARLOTTE, dealer=CHARLOTTE)


def test_example_9_no_adding_to_a_build_and_capturing_it_in_one_turn():
    s = _example_9()
    # she can neither capture nor build: she trails
    assert s.legal_actions() == [["trail", "4b"], ["trail", "10b"]]
    refused(s, ["capture", "10b", ["2a", "5c"]], "build 5c is worth 8, not 10")


def test_example_10_a_build_needs_a_card_from_the_hand():
    s = _example_9()
    refused(s, ["build", "2a", 10, ["5c"]], "2a is not in P2's hand")


def test_example_11_no_capture_no_build_so_trail():
    s = position(players=3, table=["1c"], turn=MILDRED,
                 hands=[["3b", "4b", "6b", "8b"], ["3c", "4c", "6c", "8c"], ["2a", "5a", "5b", "7a"]])
    assert s.legal_actions() == [["trail", "2a"], ["trail", "5a"], ["trail", "5b"], ["trail", "7a"]]
    s.apply(["trail", "5b"])
    assert ids(s.table) == ["1c", "5b"]


def test_example_12_the_last_player_on_a_build_may_not_trail():
    s = position(hands=[["5a", "10a", "2a", "13a"], ["1b", "11b", "9c", "8c"]], table=["5b", "12c"])
    s.apply(["build", "5a", 10, ["5b"]])  # Herbert builds 10
    assert ["trail", "1b"] in s.legal_actions()  # Charlotte never played on it
    s.apply(["build", "1b", 11, ["5b"]])  # Charlotte adds a 1: 11
    # Charlotte played on the build last, so Herbert is free to do anything, trailing included
    assert ["trail", "10a"] in s.legal_actions()
    s.apply(["build", "2a", 13, ["5b"]])  # Herbert adds his 2: 13
    s.apply(["trail", "9c"])  # nobody captures the build
    acts = s.legal_actions()
    assert not [a for a in acts if a[0] == "trail"]
    assert ["capture", "13a", ["5b"]] in acts
    refused(s, ["trail", "10a"], "P1 was the last to play on a build still on the table")


def test_example_13_a_capture_reward_peek():
    s = position(players=3, hands=[["2a", "9b"], ["6c", "8d"], ["7d", "2c"]], table=["12c"],
                 builds=[(["3a", "4d", "7a"], 7, True, 0)], turn=MILDRED, advanced=True)
    s.apply(["capture", "7d", ["3a"]])
    assert s.pending == [["peek", CARD_OF_ID["7a"]]] and s.current_player() == MILDRED
    assert s.legal_actions() == [["peek", 0], ["peek", 1], ["pass"]]
    s.apply(["peek", CHARLOTTE])
    assert s.view(MILDRED)["peeked"] == {"P2": ["6c", "8d"]}
    assert s.view(HERBERT)["peeked"] == {} and s.view(HERBERT)["hands"][CHARLOTTE] == 2
    assert s.current_player() == HERBERT


def test_example_14_a_multiple_build():
    s = position(hands=[["3b", "5c"], ["6c", "8d"]], table=["2a", "5a"], advanced=True)
    assert ["build", "3b", 5, ["2a", "5a"]] in s.legal_actions()
    s.apply(["build", "3b", 5, ["2a", "5a"]])
    assert build_of(s, "2a") == (["2a", "5a", "3b"], 5, True, HERBERT)
    # another 5 must be in hand to take it later
    s = position(hands=[["3b", "9d"], ["6c", "8d"]], table=["2a", "5a"], advanced=True)
    refused(s, ["build", "3b", 5, ["2a", "5a"]], "holds no other 5")
    # multiple builds belong to the advanced rules
    s = position(hands=[["3b", "5c"], ["6c", "8d"]], table=["2a", "5a"])
    assert ["build", "3b", 5, ["2a", "5a"]] not in s.legal_actions()
    refused(s, ["build", "3b", 5, ["2a", "5a"]], "multiple builds are an advanced rule")


def _example_15(charlotte):
    # Mildred (seat 0) and Charlotte (seat 2) are partners; Mildred's multiple 7 is on the table
    return position(players=4, partners=True, advanced=True,
                    hands=[["1a", "1b"], ["1c", "1d"], charlotte, ["2c", "2d"]],
                    table=["2b"], builds=[(["3a", "4a", "7b"], 7, True, 0)], turn=2)


def test_example_15_a_partner_adds_to_a_multiple_build():
    s = _example_15(["5a", "7c"])
    assert ["build", "5a", 7, ["2b", "3a"]] in s.legal_actions()
    s.apply(["build", "5a", 7, ["2b", "3a"]])
    assert build_of(s, "3a") == (["3a", "4a", "7b", "2b", "5a"], 7, True, 2)
    # even a partner must hold the value
    refused(_example_15(["5a", "9c"]), ["build", "5a", 7, ["2b", "3a"]], "holds no other 7")
    # nobody changes a multiple build's value
    refused(_example_15(["5a", "9c"]), ["build", "5a", 9, ["3a"]], "its value cannot change")


def _example_16(**options):
    return position(players=3, hands=[["9a", "9b"], ["4d", "6a"], ["6b", "8c"]], table=["2c"],
                    builds=[(["3a", "3b"], 6, False, HERBERT)], turn=CHARLOTTE, advanced=True, **options)


def test_example_16_a_single_build_becomes_a_multiple_build():
    s = _example_16()
    assert ["build", "4d", 6, ["2c", "3a"]] in s.legal_actions()
    s.apply(["build", "4d", 6, ["2c", "3a"]])
    assert build_of(s, "3a") == (["3a", "3b", "2c", "4d"], 6, True, CHARLOTTE)
    assert s.current_player() == MILDRED
    before = len(s.piles[MILDRED])
    s.apply(["capture", "6b", ["3a"]])
    assert sorted(ids(s.piles[MILDRED][before:])) == ["2c", "3a", "3b", "4d"]
    assert ids(s.sweeps[MILDRED]) == ["6b"]  # the build was all the table held
    # read word for word ("higher"), the rulebook's sentence refuses Example 16 itself
    refused(_example_16(convert="higher"), ["build", "4d", 6, ["2c", "3a"]], "must be worth more than 6")


def test_example_17_a_multiple_build_may_not_lower_the_value():
    s = position(players=3, hands=[["9a", "9b"], ["10a", "10b"], ["3c", "6a"]], table=["2b"],
                 builds=[(["3a", "4a"], 7, False, HERBERT)], turn=MILDRED, advanced=True)
    assert ["build", "3c", 6, ["2b", "3a"]] not in s.legal_actions()
    refused(s, ["build", "3c", 6, ["2b", "3a"]], "single build 3a is worth 7: as a multiple build it must be "
                                                 "worth at least 7")


def test_a_single_build_may_become_a_higher_multiple_build():
    # 1 + 3 (a single 4) with a 2 from the table and a 6 from the hand: 6 and 1+3+2
    s = position(hands=[["6c", "6d"], ["9a", "9b"]], table=["2b"], builds=[(["1a", "3a"], 4, False, 1)],
                 advanced=True)
    assert ["build", "6c", 6, ["2b", "1a"]] in s.legal_actions()
    s.apply(["build", "6c", 6, ["2b", "1a"]])
    assert build_of(s, "1a") == (["1a", "3a", "2b", "6c"], 6, True, HERBERT)


def test_a_deal_is_a_chance_step():
    s = position(hands=[["10a"], ["10b"]], table=["3a"], dealer=1)
    s.apply(["trail", "10a"])
    s.apply(["trail", "10b"])
    assert s.current_player() == CHANCE and s.legal_actions() == [["deal"]]
