"""Anathema cards, dealing, turn order, end of hand, scoring and the end of the game at 21."""

from engine import anathema, anathema_cards, games
from engine.anathema_cards import CARD_IDS
from engine.core import CHANCE, TERMINAL
from engine.playout import RandomChooser
from engine.rng import Rng
from tests.shared.anathema_positions import ids, position, result
from tests.shared.compat import raises


def test_52_cards_numbered_1_to_13_in_four_suits_with_the_rulebook_ids():
    assert len(CARD_IDS) == 52 and len(set(CARD_IDS)) == 52
    assert CARD_IDS[0] == "1a" and CARD_IDS[51] == "13d"
    for c in range(52):
        assert anathema_cards.CARD_OF_ID[CARD_IDS[c]] == c
        assert CARD_IDS[c] == "%d%s" % (anathema_cards.number(c), "abcd"[c % 4])
    assert anathema_cards.SUIT_NAMES == ("Witch", "Spell", "Village", "Familiar")
    assert anathema_cards.name(anathema_cards.CARD_OF_ID["7a"]) == "7 of Witch (7a)"
    assert anathema_cards.name(anathema_cards.CARD_OF_ID["11d"]) == "11 of Familiar (11d)"


def test_the_engine_declarations_and_the_registry():
    assert anathema.MIN_PLAYERS == 2 and anathema.MAX_PLAYERS == 4
    assert anathema.OPTIONS["partners"] is False and anathema.OPTIONS["advanced"] is False
    assert anathema.OPTIONS["target"] == 21 and isinstance(anathema.STATE_VERSION, int)
    assert games.get_game("anathema") is anathema
    s = anathema.new_game(5, 3)
    assert s.current_player() == CHANCE and s.legal_actions() == [["deal"]]
    assert s.scores() == [0, 0, 0] and s.winners() == [] and not s.is_over()


def _rulebook_deal(seed, players, dealer):
    """The first deal as the rulebook describes it, from the same shuffle."""
    deck = list(range(52))
    Rng(seed).shuffle(deck)
    hands = [[] for _ in range(players)]
    table = []
    for _ in range(2):
        for k in range(1, players):  # two face down to each other player, from the dealer's left
            seat = (dealer + k) % players
            hands[seat] += [deck.pop(), deck.pop()]
        table += [deck.pop(), deck.pop()]  # two face up in the center
        hands[dealer] += [deck.pop(), deck.pop()]  # two face down to the dealer
    return hands, table, deck


def test_the_first_deal_two_at_a_time_four_each_and_four_face_up():
    for players in (2, 3, 4):
        for dealer in range(players):
            s = anathema.new_game(40 + dealer, players, dealer=dealer)
            s.apply(["deal"])
            hands, table, deck = _rulebook_deal(40 + dealer, players, dealer)
            assert s.hands == hands and s.table == table and s.deck == deck
            assert [len(h) for h in s.hands] == [4] * players and len(s.table) == 4
            assert s.current_player() == (dealer + 1) % players  # the dealer's left plays first


def _play_round(s, chooser):
    """Plays until the next deal is due (or the hand ends); the seats that played, in order."""
    seats = []
    while s.current_player() != CHANCE and not s.is_over():
        if not s.pending:
            seats.append(s.current_player())
        s.apply(chooser.choose(s))
    return seats


def test_later_deals_give_four_cards_each_and_none_to_the_table_last_deal_is_announced():
    for players, deals in ((2, 6), (3, 4), (4, 3)):
        s = anathema.new_game(7, players, dealer=1)
        chooser = RandomChooser(7)
        for k in range(1, deals + 1):
            text = s.describe(["deal"])
            table = list(s.table)
            left = len(s.deck)
            s.apply(["deal"])
            assert [len(h) for h in s.hands] == [4] * players
            if k > 1:
                assert s.table == table and len(s.deck) == left - 4 * players
            assert ("last deal!" in text) == (k == deals) == s.last_deal(), (players, k, text)
            # play goes clockwise from the dealer's left, every round
            assert _play_round(s, chooser) == [(1 + i) % players for i in range(1, players + 1)] * 4
        assert not s.deck and len(s.results) == 1  # the hand is over after its last deal


def test_the_deal_passes_to_the_left_from_hand_to_hand():
    s = anathema.new_game(3, 3, dealer=2)
    chooser = RandomChooser(3)
    while not s.is_over():
        s.apply(chooser.choose(s))
    assert len(s.results) >= 2
    assert [r["dealer"] for r in s.results] == [(2 + i) % 3 for i in range(len(s.results))]
    assert s.current_player() == TERMINAL and s.legal_actions() == []


# A hand's last round: P1 captures the 5c with the 5a (a sweep: the table is empty, and
# P2 still holds a card), P2 trails the 9b, and the hand is over.
P1_PILE = ["1a", "1b", "1c", "2d", "10b", "11a", "11b", "11c", "11d", "12a", "12b", "12c", "12d",
           "13a", "13b", "13c", "13d"]


def _last_round(**options):
    rest = [c for c in CARD_IDS if c not in P1_PILE + ["4a", "5a", "5c", "9b"]]
    return position(hands=[["5a"], ["9b"]], table=["5c"], piles=[P1_PILE, rest], sweeps=[["4a"], []],
                    last_deal=True, **options)


def test_scoring_a_hand_last_capture_takes_the_table_and_it_is_no_sweep():
    s = _last_round()
    s.apply(["capture", "5a", ["5c"]])
    assert ids(s.sweeps[0]) == ["4a", "5a"]
    s.apply(["trail", "9b"])
    # the hand is over: P1 made the last capture and takes the 9b face down
    assert s.table == [] and ids(s.piles[0])[-1] == "9b" and ids(s.sweeps[0]) == ["4a", "5a"]
    r = s.results[0]
    assert r["last_capture"] == 0
    assert r["cards"] == [21, 31]  # 17 + 2 sweep cards + 5c + 9b against the rest
    assert r["familiars"] == [4, 9]  # 2d 11d 12d 13d against 1d 3d-10d
    assert r["sweeps"] == [2, 0]
    assert r["card_points"] == [6, 1]  # 1a 1b 1c 2d and 2 for 10b, against 1d
    assert r["most_cards"] == [0, 3] and r["most_familiars"] == [0, 1]
    assert r["points"] == [8, 5] and s.scores() == [8, 5]
    # the next hand: dealt by the player left of this hand's dealer
    assert s.current_player() == CHANCE and s.dealer == (r["dealer"] + 1) % 2 and not s.is_over()


def test_point_cards_are_data_the_user_can_override():
    s = _last_round(point_cards={"9b": 5})
    s.apply(["capture", "5a", ["5c"]])
    s.apply(["trail", "9b"])
    assert s.results[0]["card_points"] == [5, 0]


def test_a_capture_clearing_the_table_on_the_last_play_is_a_sweep_unless_the_option_says_no():
    for counted in (True, False):
        rest = [c for c in CARD_IDS if c not in ["5a", "5c", "9b", "9c"]]
        s = position(hands=[["9b"], ["5a"]], table=["5c", "9c"], piles=[rest, []], last_deal=True,
                     last_play_sweep=counted)
        s.apply(["capture", "9b", ["9c"]])
        s.apply(["capture", "5a", ["5c"]])  # the last card of the hand takes the last face-up card
        assert s.results[0]["sweeps"] == [0, 1 if counted else 0]
        assert (ids(s.sweeps[1]) == ["5a"]) == counted


def _tied_cards(**options):
    # 26 cards each once P2, the last to capture, takes the two trailed cards; 7 Familiars to 6
    p1 = [c for c in CARD_IDS[:26]]
    p2 = [c for c in CARD_IDS[26:] if c not in ("13c", "13d")]
    return position(hands=[["13c"], ["13d"]], piles=[p1, p2], last_deal=True, last_capture=1, **options)


def test_ties_for_most_cards_score_for_nobody_or_for_all():
    s = _tied_cards()
    s.apply(["trail", "13c"])
    s.apply(["trail", "13d"])
    r = s.results[0]
    assert r["cards"] == [26, 26] and r["most_cards"] == [0, 0]
    assert r["familiars"] == [6, 7] and r["most_familiars"] == [0, 1]
    s = _tied_cards(most_tie="all")
    s.apply(["trail", "13c"])
    s.apply(["trail", "13d"])
    assert s.results[0]["most_cards"] == [3, 3]


def test_without_any_capture_the_table_stays_unscored():
    p1 = [c for c in CARD_IDS if c not in ("13c", "13d", "1a")]
    s = position(hands=[["13c"], ["13d"]], table=["1a"], piles=[p1, []], last_deal=True)
    s.apply(["trail", "13c"])
    s.apply(["trail", "13d"])
    assert ids(s.table) == ["1a", "13c", "13d"]
    assert s.results[0]["last_capture"] is None and s.results[0]["cards"] == [49, 0]


def _near_the_end(before, **options):
    """The last round of a hand: P1 captures 5c with 5a (a sweep) and P2 trails 9b.
    The hand is worth 8 to P1 and 5 to P2 (as in the scoring test) on top of `before`."""
    s = _last_round(**options)
    d = s.to_dict()
    d["results"] = [result(before, 2)]
    d["totals"] = list(before)
    s = anathema.from_dict(d)
    s.apply(["capture", "5a", ["5c"]])
    s.apply(["trail", "9b"])
    return s


def test_the_first_side_to_21_wins_at_the_end_of_a_hand():
    s = _near_the_end([12, 10])
    assert s.scores() == [20, 15] and not s.is_over() and s.current_player() == CHANCE
    s = _near_the_end([13, 10])
    assert s.scores() == [21, 15] and s.is_over() and s.winners() == [0]
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    # both past 21: the higher total wins
    s = _near_the_end([15, 19])
    assert s.scores() == [23, 24] and s.winners() == [1]


def test_a_tie_at_the_top_plays_another_hand_or_shares_the_win():
    s = _near_the_end([16, 19])
    assert s.scores() == [24, 24] and not s.is_over() and s.current_player() == CHANCE
    s.apply(["deal"])  # the game goes on with a new hand
    assert len(s.deck) == 52 - 12 and s.piles == [[], []]
    s = _near_the_end([16, 19], top_tie="share")
    assert s.is_over() and s.winners() == [0, 1]
    s = _near_the_end([0, 0], target=8)
    assert s.is_over() and s.winners() == [0]


def test_partners_sit_opposite_and_score_together():
    s = anathema.new_game(11, 4, partners=True)
    chooser = RandomChooser(11)
    while not s.results:
        s.apply(chooser.choose(s))
    # the first hand is scored: its piles stay until the next deal
    r = s.results[0]
    cards = [len(s.piles[p]) + len(s.sweeps[p]) for p in range(4)]
    sweeps = [len(s.sweeps[p]) for p in range(4)]
    assert r["cards"] == [cards[0] + cards[2], cards[1] + cards[3]] and sum(r["cards"]) == 52
    assert r["sweeps"] == [sweeps[0] + sweeps[2], sweeps[1] + sweeps[3]]
    assert s.scores() == [r["points"][0], r["points"][1], r["points"][0], r["points"][1]]
    while not s.is_over():
        s.apply(chooser.choose(s))
    assert len(s.totals) == 2
    assert s.scores() == [s.totals[0], s.totals[1], s.totals[0], s.totals[1]]
    assert s.winners() in ([0, 2], [1, 3])


def test_bad_setups_are_refused_with_a_reason():
    cases = [
        ((1, 1), {}, "2-4 players"),
        ((1, 5), {}, "2-4 players"),
        ((1, 3), {"partners": True}, "partners play needs 4 players"),
        ((1, 2), {"dealer": 2}, "dealer must be a seat 0-1"),
        ((1, 2), {"target": 0}, "target must be an int"),
        ((1, 2), {"most_tie": "split"}, "most_tie must be one of none, all"),
        ((1, 2), {"top_tie": "x"}, "top_tie must be one of"),
        ((1, 2), {"convert": "up"}, "convert must be one of not_lower, higher"),
        ((1, 2), {"point_cards": {"14a": 1}}, "not a card id"),
        ((1, 2), {"point_cards": {"1a": -1}}, "1a is worth -1"),
        ((1, 2), {"colour": "red"}, "unknown anathema option 'colour'"),
        (("x", 2), {}, "seed must be an int"),
        ((1, 2), {"advanced": "yes"}, "advanced must be true or false"),
    ]
    for args, options, message in cases:
        e = raises(ValueError, anathema.new_game, *args, **options)
        assert message in str(e), (options, str(e))
