"""The Anathema score keeper (engine/anathema_score.py): deals and the dealer, entries by
category, ties, the winner at 21, undo, refusals, partnerships and saved states. Whole games
of the rules engine, entered hand by hand, must score exactly as the rules engine scored them."""

from engine import anathema, anathema_score, anathema_scoring, games
from engine.anathema_bots import GreedyBot, play_game
from engine.core import SIMULTANEOUS, TERMINAL, BadState, IllegalAction
from tests.shared.compat import IS_MICROPYTHON, raises

GAMES_PER_LAYOUT = 1 if IS_MICROPYTHON else 4


def deals(s, dealer=None):
    """The hand's deals, all by the dealer (or by `dealer` as the game's first)."""
    dealer = s.dealer if dealer is None else dealer
    while s.step == "deal":
        s.apply(["deal", dealer])


def enter(s, cards, familiars, sweeps, points):
    """One hand's entries after its deals: the "most" sides, sweeps and points per side."""
    deals(s)
    s.apply(["most_cards", cards])
    s.apply(["most_familiars", familiars])
    for side in range(len(sweeps)):
        for _ in range(sweeps[side]):
            s.apply(["sweep", side])
    s.apply(["next"])
    for side in range(len(points)):
        for _ in range(points[side]):
            s.apply(["point", side])
    s.apply(["next"])


def test_declarations_registry_and_a_new_game():
    assert games.get_game("anathema_score") is anathema_score
    assert anathema_score.MIN_PLAYERS == 2 and anathema_score.MAX_PLAYERS == 4
    s = anathema_score.new_game(3, 3)
    assert s.current_player() == SIMULTANEOUS and s.step == "deal" and s.hand() == 1
    assert s.legal_actions() == [["deal", 0], ["deal", 1], ["deal", 2], ["end"]]
    assert s.scores() == [0, 0, 0] and s.winners() == [] and not s.last_deal()
    assert s.rules.point_total == 7  # the classic Casino point cards: four 1s, 2d and 10b (2)
    for bad in ({"partners": True}, {"target": 0}, {"most_tie": "some"}, {"point_cards": {"99z": 1}},
                {"dealer": 3}, {"colour": 1}):
        raises(ValueError, anathema_score.new_game, 1, 3, **bad)


def test_deals_per_hand_the_last_deal_and_the_dealer_passing_left():
    for players, per_hand in ((2, 6), (3, 4), (4, 3)):
        s = anathema_score.new_game(1, players)
        assert s.rules.deals == per_hand == anathema.new_game(1, players).rules.deals_per_hand()
        for hand in range(players + 1):
            dealer = hand % players
            assert s.dealer == dealer and s.hand() == hand + 1
            for _ in range(per_hand):
                assert not s.last_deal()
                s.apply(["deal", dealer])
            assert s.last_deal() and s.step == "cards"
            assert raises(IllegalAction, s.apply, ["deal", dealer])
            enter(s, [0], [0], [0] * players, [0] * (players - 1) + [7])
            if s.is_over():
                break
        assert s.results[0]["dealer"] == 0 and s.results[1]["dealer"] == 1


def test_the_first_deal_may_be_any_seat_then_only_the_dealer():
    s = anathema_score.new_game(1, 4)
    s.apply(["deal", 2])
    assert s.dealer == 2 and s.legal_actions()[0] == ["deal", 2]
    e = raises(IllegalAction, s.apply, ["deal", 1])
    assert str(e) == "P3 deals this hand, not P2"


def test_a_hand_scores_most_cards_3_most_familiars_1_sweeps_and_point_cards():
    s = anathema_score.new_game(1, 3)
    enter(s, [1], [2], [2, 0, 1], [4, 2, 1])
    assert s.scores() == [6, 5, 3]
    r = s.results[0]
    assert r["most_cards"] == [0, 3, 0] and r["most_familiars"] == [0, 0, 1]
    assert r["sweeps"] == [2, 0, 1] and r["card_points"] == [4, 2, 1] and r["points"] == [6, 5, 3]
    assert s.step == "deal" and s.dealer == 1 and s.hand() == 2


def test_a_tie_for_most_scores_for_nobody_or_with_most_tie_all_for_each():
    s = anathema_score.new_game(1, 3)
    enter(s, [0, 2], [0, 1, 2], [0, 0, 0], [3, 3, 1])
    assert s.scores() == [3, 3, 1]
    s = anathema_score.new_game(1, 3, most_tie="all")
    enter(s, [0, 2], [0, 1], [0, 0, 0], [3, 3, 1])
    assert s.scores() == [7, 4, 4]


def test_21_wins_alone_at_the_top_a_tie_at_the_top_plays_on_or_shares():
    s = anathema_score.new_game(1, 2, target=10)
    enter(s, [0], [1], [3, 3], [3, 4])  # 9 : 8
    assert not s.is_over()
    enter(s, [1], [0], [0, 0], [4, 3])  # 14 : 14 -> tied at the top past 10: another hand
    assert s.scores() == [14, 14] and not s.is_over() and s.winners() == []
    enter(s, [0], [0], [0, 0], [3, 4])  # 21 : 18
    assert s.is_over() and s.winners() == [0] and s.current_player() == TERMINAL
    assert s.legal_actions() == [] and str(raises(IllegalAction, s.apply, ["end"])) == "the game is over"
    assert s.dealer == 0 and s.step == "deal"  # the winning hand's dealer (P1 dealt hands 1 and 3)
    s = anathema_score.new_game(1, 2, target=10, top_tie="share")
    enter(s, [0], [1], [3, 3], [3, 4])
    enter(s, [1], [0], [0, 0], [4, 3])
    assert s.is_over() and s.winners() == [0, 1]


def test_partnerships_score_as_sides_and_win_together():
    s = anathema_score.new_game(1, 4, partners=True, target=5)
    assert s.rules.sides == 2 and s.rules.deals == 3
    assert ["sweep", 2] not in s.legal_actions()
    deals(s)
    assert s.legal_actions()[:3] == [["most_cards", [0]], ["most_cards", [1]], ["most_cards", [0, 1]]]
    raises(IllegalAction, s.apply, ["most_cards", [2]])
    s.apply(["most_cards", [1]])
    s.apply(["most_familiars", [1]])
    s.apply(["next"])
    for _ in range(7):
        s.apply(["point", 0])
    s.apply(["next"])
    assert s.scores() == [7, 4, 7, 4] and s.winners() == [0, 2]


def test_entries_out_of_their_step_are_refused_and_change_nothing():
    s = anathema_score.new_game(1, 3)
    cases = [
        (["sweep", 0], "P1 deals first (deal 1 of 4)"),
        (["deal", 5], "no seat 5 in a 3-player game"),
        (["deal"], "deal takes 1 argument, got ['deal']"),
        (["flip"], "unknown action ['flip']"),
        (["next", 0], "next takes 0 arguments, got ['next', 0]"),
    ]
    deals(s)
    cases += [
        (["most_familiars", [0]], "most_familiars is not entered now: the cards step is open"),
        (["most_cards", [1, 0]], "the sides must be distinct, ascending, 0-2: got [1, 0]"),
        (["most_cards", []], "name the side(s) with the most: a list of 1-3 sides, got []"),
        (["next"], "enter the side with the most cards first"),
        (["point", 0], "points are not entered now: the cards step is open"),
    ]
    for action, why in cases[5:]:
        d = s.digest()
        assert str(raises(IllegalAction, s.apply, action)) == why
        assert s.digest() == d
    s.apply(["most_cards", [0]])
    s.apply(["most_familiars", [0]])
    s.apply(["next"])
    why = lambda action: str(raises(IllegalAction, s.apply, action))  # noqa: E731
    assert why(["sweep", 0]) == "sweeps are not entered now: the points step is open"
    assert why(["point", 3]) == "no side 3 (sides 0-2)"
    for _ in range(6):
        s.apply(["point", 1])
    assert why(["next"]) == "1 of the 7 card points still to enter"
    s.apply(["point", 2])
    assert why(["point", 2]) == "the point cards are worth 7 in all, all entered"
    t = anathema_score.new_game(1, 3)
    for action, why in cases[:5]:
        assert str(raises(IllegalAction, t.apply, action)) == why


def test_every_step_round_trips_and_the_engine_keeps_no_undo_history():
    # undo is the box's: it replays the standing entries (firmware/session.py)
    s = anathema_score.new_game(1, 2)
    script = [["deal", 1]] * 6 + [["most_cards", [0, 1]], ["most_familiars", [1]], ["sweep", 0]] \
        + [["sweep", 1], ["next"]] + [["point", 0]] * 4 + [["point", 1]] * 3 + [["next"], ["deal", 0]]
    for action in script:
        s.apply(action)
        assert anathema_score.from_dict(s.to_dict()).to_dict() == s.to_dict()
    assert s.scores() == [5, 5] and s.dealer == 0 and "history" not in s.to_dict()
    assert str(raises(IllegalAction, s.apply, ["undo"])) == "unknown action ['undo']"


def test_end_closes_the_game_without_a_winner():
    s = anathema_score.new_game(1, 3)
    enter(s, [0], [0], [0, 0, 0], [7, 0, 0])
    s.apply(["end"])
    assert s.is_over() and s.winners() == [] and s.scores() == [11, 0, 0]


def _entered(result):
    """(cards, familiars, sweeps, points) of a rules-engine hand as the table enters them."""
    return (anathema_scoring.leaders(result["cards"]), anathema_scoring.leaders(result["familiars"]),
            result["sweeps"], result["card_points"])


def test_whole_games_of_the_rules_engine_score_the_same_entered_by_hand():
    for players, partners in ((2, False), (3, False), (4, False), (4, True)):
        for g in range(GAMES_PER_LAYOUT):
            full = anathema.new_game(500 + g, players, partners=partners, dealer=g % players)
            play_game(full, [GreedyBot() for _ in range(players)], 500 + g)
            s = anathema_score.new_game(g, players, partners=partners, dealer=g % players)
            for result in full.results:
                assert s.dealer == result["dealer"]
                enter(s, *_entered(result))
                assert s.results[-1]["points"] == result["points"]
            assert s.scores() == full.scores() and s.winners() == full.winners() and s.is_over()


def test_saved_states_round_trip_and_tampering_is_refused():
    s = anathema_score.new_game(1, 3)
    enter(s, [1], [2], [2, 0, 1], [4, 2, 1])
    deals(s)
    s.apply(["most_cards", [0]])
    good = s.to_dict()
    assert anathema_score.from_dict(good).to_dict() == good

    def broken(**fields):
        d = s.to_dict()
        for k in fields:
            d[k] = fields[k]
        return d

    r = s.to_dict()["results"]
    r[0]["points"] = [7, 5, 3]
    for bad in (broken(totals=[6, 5, 4]), broken(step="sweeps"), broken(deals=2), broken(results=r),
                broken(dealer=0), broken(winning=[0]), broken(over=1), broken(most_familiars=[0]),
                broken(sweeps=[1, 0, 0]), broken(options={"target": "21"})):
        raises(BadState, anathema_score.from_dict, bad)
