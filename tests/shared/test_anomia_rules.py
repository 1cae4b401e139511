"""Anomia rules, one situation per rule, built by hand with table() rather than found by seed."""

import json

from engine import anomia, anomia_cards, core, games, playout
from engine.anomia_categories import CATEGORIES
from engine.core import BadState, IllegalAction, digest_of
from tests.shared.compat import raises

DECK = anomia.make_deck(4)  # the default blue deck, all 8 symbols


def sym(s, k=0):
    """The k-th playing card with symbol s."""
    return DECK.cards_with_symbol(s)[k]


def wild(a, b):
    return DECK.wild_card(a, b)


def table(players=4, play=None, won=None, wild_pile=(), piles=([], []), turn=0, rest=("draw", 1),
          tiebreak=None, seed=0, **options):
    """A hand-made state through from_dict. Piles are lists of card ids, bottom first (top last).

    Every card in play that is not placed goes to the bottom of `rest`: ("draw", k),
    ("won", p) or ("play", p); on a won or play pile the unplaced wild cards go to the
    bottom of the wild pile instead (a wild card never lies on a player's pile).
    """
    base = anomia.new_game(seed, players, **options).to_dict()
    play = [list(p) for p in (play or [[]] * players)]
    won = [list(p) for p in (won or [[]] * players)]
    wild_pile = list(wild_pile)
    piles = [list(piles[0]), list(piles[1])]
    deck = anomia.make_deck(players, **options)
    placed = set(wild_pile + piles[0] + piles[1])
    for p in play + won:
        placed.update(p)
    if tiebreak and tiebreak["card"] is not None:
        placed.add(tiebreak["card"])
    left = [c for c in deck.in_play if c not in placed]
    kind, where = rest
    if kind == "draw":
        piles[where] = left + piles[where]
    else:
        target = won if kind == "won" else play
        target[where] = [c for c in left if not deck.is_wild(c)] + target[where]
        wild_pile = [c for c in left if deck.is_wild(c)] + wild_pile
    base.update(draw_piles=piles, play_piles=play, winning_piles=won, wild_pile=wild_pile, turn=turn,
                tiebreak=tiebreak)
    del base["faceoff"]
    return anomia.from_dict(base)


def copy(state):
    return anomia.from_dict(state.to_dict())


def _illegal(state, action, expect_in_message):
    before = state.digest()
    e = raises(IllegalAction, state.apply, action)
    assert expect_in_message in str(e), (action, str(e))
    assert state.digest() == before, action


# -- cards ------------------------------------------------------------------

def test_each_deck_has_92_playing_and_8_wild_cards_over_8_symbols():
    category_sets = []
    for name in ("blue", "red"):
        deck = anomia.make_deck(4, name)
        assert deck.n_playing == 92 and deck.size - deck.n_playing == 8
        per_symbol = [len(deck.cards_with_symbol(s)) for s in range(8)]
        assert per_symbol == [12, 12, 12, 12, 11, 11, 11, 11]
        wilds = [deck.wild_symbols(c) for c in range(92, 100)]
        for s in range(8):
            assert sum(1 for w in wilds if s in w) == 2, s
        assert all(a != b for a, b in wilds)
        assert len(set(tuple(sorted(w)) for w in wilds)) == 8
        cats = [deck.category(c) for c in range(92)]
        assert len(set(cats)) == 92 and all(0 <= c < len(CATEGORIES) for c in cats)
        category_sets.append(set(cats))
        state = anomia.new_game(1, 4, deck=name)
        assert sorted(state.draw_piles[0] + state.draw_piles[1]) == list(range(100))
    assert not (category_sets[0] & category_sets[1])
    assert anomia.make_deck(4, "blue").label(sym(0)) == "[star] '%s'" % CATEGORIES[0]
    assert anomia.make_deck(4, "red").label(sym(0)) == "[star] '%s'" % CATEGORIES[100]
    assert DECK.label(wild(0, 1)) == "WILD [star|moon]"


def test_three_players_remove_two_symbols_and_every_wild_showing_them():
    state = anomia.new_game(1, 3)
    cards = state.draw_piles[0] + state.draw_piles[1]
    assert list(anomia_cards.THREE_PLAYER_REMOVED) == [6, 7] == state.to_dict()["removed_symbols"]
    playing = [c for c in cards if not DECK.is_wild(c)]
    wilds = [DECK.wild_symbols(c) for c in cards if DECK.is_wild(c)]
    assert len(playing) == 92 - 22 and not any(DECK.symbol(c) in (6, 7) for c in playing)
    assert sorted(wilds) == [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]]
    other = anomia.new_game(1, 3, removed_symbols=[0, 3])
    cards = other.draw_piles[0] + other.draw_piles[1]
    assert sum(1 for c in cards if not DECK.is_wild(c)) == 92 - 24
    assert sorted(DECK.wild_symbols(c) for c in cards if DECK.is_wild(c)) == [[1, 2], [4, 5], [5, 6], [6, 7]]
    assert len(anomia.new_game(1, 4).draw_piles[0]) == 50  # 4+ players keep every card


def test_setup_shuffles_with_the_seed_and_cuts_two_draw_piles():
    state = anomia.new_game(5, 4)
    p0, p1 = state.draw_piles
    assert len(p0) == len(p1) == 50 and sorted(p0 + p1) == list(range(100))
    assert p0 + p1 != list(range(100))
    assert state.play_piles == [[]] * 4 and state.winning_piles == [[]] * 4 and state.wild_pile == []
    assert state.current_player() == 0 and state.faceoff() is None
    assert anomia.new_game(5, 4).digest() == state.digest()
    assert anomia.new_game(6, 4).draw_piles != state.draw_piles
    three = anomia.new_game(5, 3)
    assert [len(p) for p in three.draw_piles] == [38, 37]  # 75 cards: pile 0 takes the odd one


def test_custom_deck_spec_overrides_the_data():
    state = anomia.new_game(2, 4, deck="red", symbol_counts=[5, 5, 6], wild_pairs=[[0, 2]])
    d = state.to_dict()
    assert d["symbol_counts"] == [5, 5, 6] and d["wild_pairs"] == [[0, 2]] and d["deck"] == "red"
    assert sorted(state.draw_piles[0] + state.draw_piles[1]) == list(range(17))
    assert state.deck.wild_symbols(16) == [0, 2] and state.deck.category(0) == 100
    assert anomia.from_dict(json.loads(json.dumps(d))).digest() == state.digest()


# -- turns ------------------------------------------------------------------

def test_turns_go_clockwise_from_player_0_onto_own_play_pile():
    drawn = [sym(0), sym(1), sym(2), sym(3), sym(4)]
    state = table(piles=[list(reversed(drawn)), []])
    order = []
    for card in drawn:
        order.append(state.current_player())
        assert state.legal_actions() == [["draw", 0], ["draw", 1]]
        state.apply(["draw", 0])
        assert state.play_piles[order[-1]][-1] == card
    assert order == [0, 1, 2, 3, 0] and state.current_player() == 1
    assert state.play_piles[0] == [sym(0), sym(4)]


# -- face-offs --------------------------------------------------------------

def test_shared_symbol_starts_a_faceoff_and_exposes_it():
    state = table(play=[[sym(2)], [sym(3)], [], []], piles=[[sym(2, 1)], []], turn=2)
    assert state.faceoff() is None and state.current_player() == 2  # wave vs bolt: no match
    state.apply(["draw", 0])
    assert state.current_player() == core.SIMULTANEOUS
    fo = {"players": [0, 2], "symbols": [2, 2], "wild": False, "tiebreak": False, "card": None}
    assert state.faceoff() == fo and state.to_dict()["faceoff"] == fo
    assert state.legal_actions() == [["win", 0], ["win", 2], ["tie"]]
    _illegal(state, ["draw", 1], "must be settled")


def test_only_the_top_wild_card_links_symbols():
    older_below = table(play=[[sym(2)], [sym(3)], [], []], wild_pile=[wild(2, 3), wild(4, 5)])
    assert older_below.faceoff() is None and older_below.current_player() == 0
    on_top = table(play=[[sym(2)], [sym(3)], [], []], wild_pile=[wild(4, 5), wild(2, 3)])
    assert on_top.faceoff() == {"players": [0, 1], "symbols": [2, 3], "wild": True, "tiebreak": False,
                                "card": None}
    # drawing the wild card is what reveals the link
    drawn = table(play=[[sym(3)], [sym(2)], [], []], wild_pile=[wild(4, 5)], piles=[[wild(2, 3)], []], turn=2)
    assert drawn.faceoff() is None
    drawn.apply(["draw", 0])
    assert drawn.faceoff()["players"] == [0, 1] and drawn.faceoff()["symbols"] == [3, 2]


def test_winner_takes_losers_top_card_and_keeps_own():
    state = table(play=[[sym(5), sym(2)], [sym(1)], [sym(6), sym(2, 1)], []], turn=3)
    state.apply(["win", 0])
    assert state.winning_piles[0] == [sym(2, 1)] and state.scores() == [1, 0, 0, 0]
    assert state.play_piles[0] == [sym(5), sym(2)] and state.play_piles[2] == [sym(6)]
    assert state.faceoff() is None and state.current_player() == 3
    other = table(play=[[sym(5), sym(2)], [sym(1)], [sym(6), sym(2, 1)], []], turn=3)
    other.apply(["win", 2])
    assert other.winning_piles[2] == [sym(2)] and other.play_piles[0] == [sym(5)]


def test_a_revealed_card_cascades_into_the_next_faceoff():
    state = table(play=[[sym(2)], [sym(0)], [sym(0, 1), sym(2, 1)], [sym(7)]])
    assert state.faceoff()["players"] == [0, 2]
    state.apply(["win", 0])  # P3 loses the top card and shows symbol 0 like P2
    assert state.faceoff() == {"players": [1, 2], "symbols": [0, 0], "wild": False, "tiebreak": False,
                               "card": None}
    state.apply(["win", 2])
    assert state.faceoff() is None and state.scores() == [1, 0, 1, 0]


def test_three_equal_symbols_settle_pair_by_pair_lowest_first():
    state = table(play=[[sym(6), sym(4)], [sym(5), sym(4, 1)], [sym(1)], [sym(4, 2)]])
    assert state.faceoff()["players"] == [0, 1]  # not (0, 3) or (1, 3)
    p0_wins = copy(state)
    p0_wins.apply(["win", 0])
    assert p0_wins.faceoff()["players"] == [0, 3]  # P2 now shows symbol 5, P1 still symbol 4
    state.apply(["win", 1])
    assert state.faceoff()["players"] == [1, 3]
    state.apply(["win", 3])
    assert state.faceoff() is None and state.scores() == [0, 1, 0, 1]


def test_drawn_wild_goes_on_wild_pile_then_same_player_draws_again():
    state = table(play=[[sym(0)], [sym(1)], [], []], piles=[[wild(0, 1)], []], turn=2)
    state.apply(["draw", 0])
    assert state.wild_pile[-1] == wild(0, 1) and state.play_piles[2] == []
    assert state.faceoff()["players"] == [0, 1] and state.faceoff()["wild"]
    state.apply(["win", 1])
    assert state.current_player() == 2  # face-offs first, then the same player again
    quiet = table(piles=[[wild(3, 4)], []], turn=1)
    quiet.apply(["draw", 0])
    assert quiet.current_player() == 1 and quiet.faceoff() is None


# -- ties -------------------------------------------------------------------

def test_tie_starts_a_tiebreaker_between_the_two_tied_players_only():
    state = table(play=[[sym(7), sym(2)], [sym(5)], [sym(2, 1)], []], piles=[[sym(6)], [sym(3)]],
                  rest=("won", 3))
    state.apply(["tie"])
    assert state.faceoff() == {"players": [0, 2], "symbols": [2, 2], "wild": False, "tiebreak": True,
                               "card": sym(6)}  # equal piles: the card comes from pile 0
    assert state.current_player() == core.SIMULTANEOUS and state.draw_piles == [[], [sym(3)]]
    assert state.legal_actions() == [["win", 0], ["win", 2]]
    _illegal(state, ["tie"], "cannot tie")
    _illegal(state, ["win", 1], "not in the face-off")
    _illegal(state, ["draw", 1], "must be settled")
    state.apply(["win", 2])
    assert state.winning_piles[2] == [sym(2)] and state.play_piles[0] == [sym(7)]
    assert state.faceoff() is None and state.to_dict()["tiebreak"] is None


def test_tiebreaker_card_comes_from_the_fuller_pile_that_holds_a_playing_card():
    fuller_1 = table(play=[[sym(2)], [sym(5)], [sym(2, 1)], []], piles=[[sym(6)], [sym(1), sym(3)]],
                     rest=("won", 3))
    fuller_1.apply(["tie"])
    assert fuller_1.faceoff()["card"] == sym(3) and fuller_1.draw_piles == [[sym(6)], [sym(1)]]
    only_wilds = table(play=[[sym(2)], [sym(5)], [sym(2, 1)], []], piles=[[sym(6)], [wild(0, 1), wild(3, 4)]],
                       rest=("won", 3))
    only_wilds.apply(["tie"])
    assert only_wilds.faceoff()["card"] == sym(6) and only_wilds.draw_piles[1] == [wild(0, 1), wild(3, 4)]


def test_wild_drawn_for_a_tiebreaker_is_shuffled_back_and_another_drawn():
    places = set()
    for seed in range(12):
        state = table(play=[[sym(2)], [sym(5)], [sym(2, 1)], []], piles=[[sym(3), wild(0, 1)], []],
                      rest=("draw", 0), seed=seed)
        before = list(state.draw_piles[0])
        state.apply(["tie"])
        assert state.faceoff()["card"] == sym(3)
        after = state.draw_piles[0]
        assert sorted(after + [sym(3)]) == sorted(before) and after[-1] != sym(3)
        places.add(after.index(wild(0, 1)))
    assert len(places) > 3  # the engine PRNG decides where the wild card goes back


def test_tiebreaker_card_is_shuffled_back_into_its_draw_pile():
    places = set()
    for seed in range(12):
        state = table(play=[[sym(2)], [sym(5)], [sym(2, 1)], []], rest=("draw", 0), seed=seed)
        before = sorted(state.draw_piles[0])
        state.apply(["tie"])
        card = state.faceoff()["card"]
        assert card is not None and card not in state.draw_piles[0]
        state.apply(["win", 0])
        assert sorted(state.draw_piles[0]) == before and state.draw_piles[1] == []
        places.add(state.draw_piles[0].index(card))
    assert len(places) > 3


def test_tiebreaker_without_a_drawable_card_is_settled_without_one():
    # only a wild card is left to draw: there is no category card for the tie-breaker
    state = table(play=[[sym(2)], [sym(5)], [sym(2, 1)], []], piles=[[wild(0, 1)], []], rest=("won", 3))
    state.apply(["tie"])
    assert state.faceoff()["tiebreak"] and state.faceoff()["card"] is None
    assert state.draw_piles == [[wild(0, 1)], []]
    assert state.legal_actions() == [["win", 0], ["win", 2]]
    state.apply(["win", 0])
    assert state.draw_piles == [[wild(0, 1)], []] and state.faceoff() is None
    assert state.winning_piles[0] == [sym(2, 1)]


# -- the end ----------------------------------------------------------------

def test_game_ends_when_both_draw_piles_are_empty_after_the_last_faceoffs():
    state = table(play=[[sym(2)], [sym(5)], [], []], piles=[[sym(2, 1)], []], turn=2, rest=("won", 3))
    assert state.legal_actions() == [["draw", 0]]
    _illegal(state, ["draw", 1], "empty")
    state.apply(["draw", 0])
    assert not state.is_over() and state.current_player() == core.SIMULTANEOUS  # face-off still pending
    assert state.winners() == []
    state.apply(["win", 2])
    assert state.is_over() and state.current_player() == core.TERMINAL and state.legal_actions() == []
    _illegal(state, ["draw", 0], "game is over")


def test_scores_count_winning_piles_and_a_tie_for_most_shares_the_win():
    cards = [c for c in DECK.in_play if not DECK.is_wild(c)]
    shared = table(won=[cards[0:3], cards[3:8], cards[8:13], cards[13:14]], rest=("play", 3))
    assert shared.is_over() and shared.scores() == [3, 5, 5, 1]
    assert shared.winners() == [1, 2]
    single = table(won=[cards[0:3], cards[3:9], cards[9:13], cards[13:14]], rest=("play", 3))
    assert single.scores() == [3, 6, 4, 1] and single.winners() == [1]
    nobody = table(rest=("play", 0))
    assert nobody.winners() == [0, 1, 2, 3]  # 0 cards each: everybody ties for most


# -- API contract -----------------------------------------------------------

def test_illegal_actions_say_why_and_leave_the_state_unchanged():
    state = table(play=[[sym(2)], [], [], []], piles=[[sym(3)], []], rest=("won", 3))
    for action, why in (
        (["draw", 1], "empty"), (["draw", 2], "0 or 1"), (["draw"], "0 or 1"), (["draw", True], "0 or 1"),
        (["draw", "0"], "0 or 1"), ("draw", "an action is a list"), (None, "an action is a list"),
        ([], "an action is a list"), (["win", 0], "no face-off"), (["tie"], "no face-off"),
        (["fly", 1], "unknown action"),
    ):
        _illegal(state, action, why)
    faceoff = table(play=[[sym(2)], [], [sym(2, 1)], []])
    for action, why in ((["win", 3], "not in the face-off"), (["win", "0"], "player number"),
                        (["tie", 1], "no arguments"), (["win", 0, 2], "player number")):
        _illegal(faceoff, action, why)


def test_legal_actions_survive_a_json_round_trip_and_apply():
    states = [anomia.new_game(3, 5), table(play=[[sym(2)], [], [sym(2, 1)], []])]
    tb = copy(states[1])
    tb.apply(["tie"])
    states.append(tb)
    for state in states:
        actions = state.legal_actions()
        assert actions and json.loads(json.dumps(actions)) == actions
        for action in json.loads(json.dumps(actions)):
            c = copy(state)
            c.apply(action)
            assert c.digest() != state.digest()


def test_state_round_trips_and_digest_is_of_to_dict():
    state = anomia.new_game(9, 6)
    chooser = playout.RandomChooser(9)
    for _ in range(80):
        state.apply(chooser.choose(state))
    d = state.to_dict()
    assert state.digest() == digest_of(d)
    again = anomia.from_dict(json.loads(json.dumps(d)))
    assert again.to_dict() == d and again.digest() == state.digest()
    v = state.view(1)
    assert v["draw_piles"] == [len(p) for p in state.draw_piles] and "rng" not in v
    assert v["play_piles"] == d["play_piles"]
    raises(ValueError, state.view, 6)


def test_prng_state_is_saved_so_a_restored_game_continues_identically():
    state = anomia.new_game(4, 4)
    chooser = playout.RandomChooser(4)
    for _ in range(40):
        state.apply(chooser.choose(state))
    restored = anomia.from_dict(json.loads(json.dumps(state.to_dict())))
    seqs = []
    for s in (state, restored):
        seq = []
        ties = []

        def after(st, action, seq=seq, ties=ties):
            seq.append(st.digest())
            if action == ["tie"] and st.faceoff()["card"] is not None:
                ties.append(1)

        playout.run(s, 77, after=after)
        assert ties, "the continuation must use the PRNG (a tie-breaker with a card)"
        seqs.append(seq)
    assert seqs[0] == seqs[1] and len(seqs[0]) > 50


def test_bad_options_are_rejected_with_a_clear_error():
    for players in (2, 7, 0, "4", True, None):
        e = raises(ValueError, anomia.new_game, 1, players)
        assert "3-6 players" in str(e)
    raises(ValueError, anomia.new_game, "abc", 4)
    for options, why in (
        ({"deck": "green"}, "deck must be one of blue, red"),
        ({"deck": ["blue"]}, "deck must be one of blue, red"),
        ({"symbol_counts": [12, 12]}, "symbol_counts"),
        ({"symbol_counts": [12] * 9}, "symbol_counts"),
        ({"symbol_counts": [12, 0, 12, 12]}, "symbol_counts"),
        ({"symbol_counts": "12,12,12"}, "symbol_counts"),
        ({"symbol_counts": [12, 12, 12.5]}, "symbol_counts"),
        ({"wild_pairs": [[0, 0]]}, "two different symbols"),
        ({"wild_pairs": [[0, 8]]}, "not a symbol"),
        ({"wild_pairs": [[0]]}, "two different symbols"),
        ({"wild_pairs": "01"}, "wild_pairs"),
        ({"wild_pairs": [[0, 1]] * 17}, "at most 16"),
        ({"removed_symbols": [6, 7]}, "only to 3 players"),
        ({"colour": "blue"}, "unknown anomia option"),
    ):
        e = raises(ValueError, anomia.new_game, 1, 4, **options)
        assert why in str(e), (options, str(e))
    for removed in ([6, 6], [6], [6, 9], "67"):
        raises(ValueError, anomia.new_game, 1, 3, removed_symbols=removed)


def test_from_dict_rejects_garbage_with_bad_state():
    good = table(play=[[sym(2)], [], [sym(2, 1)], []]).to_dict()
    assert anomia.from_dict(good).faceoff()["players"] == [0, 2]

    def broken(**changes):
        d = json.loads(json.dumps(good))
        d.update(changes)
        return d

    p1 = good["draw_piles"][1]
    cases = [
        None, [], "anomia", broken(game="chess"), broken(version=2), broken(players=7),
        broken(players=3), broken(deck="green"), broken(rng=[0] * 8), broken(rng=["a"] * 8),
        broken(turn=4), broken(turn=True), broken(draw_piles=[p1]), broken(draw_piles=[[], {}]),
        broken(draw_piles=[[], p1 + [p1[0]]]),  # a card twice
        broken(draw_piles=[[], p1[1:]]),  # a card missing
        broken(draw_piles=[[], p1[:-1] + [100]]),  # no such card
        broken(draw_piles=[[], p1[:-1] + [True]]),
        broken(wild_pile=[sym(2)], play_piles=[[], [], [sym(2, 1)], []]),  # playing card on wild pile
        broken(tiebreak={"card": None, "pile": 0}),
        broken(tiebreak={"card": 5}),
        broken(tiebreak="yes"),
        broken(faceoff=None),  # disagrees with the table
    ]
    missing = json.loads(json.dumps(good))
    del missing["winning_piles"]
    cases.append(missing)
    wild_on_play = json.loads(json.dumps(good))
    w = [c for c in wild_on_play["draw_piles"][1] if c >= 92][0]
    wild_on_play["draw_piles"][1].remove(w)
    wild_on_play["play_piles"][1] = [w]
    cases.append(wild_on_play)
    no_faceoff = json.loads(json.dumps(good))
    no_faceoff["play_piles"][2] = []
    no_faceoff["draw_piles"][1].append(sym(2, 1))
    del no_faceoff["faceoff"]
    anomia.from_dict(no_faceoff)  # valid as it is ...
    no_faceoff["tiebreak"] = {"card": None, "pile": None}
    cases.append(no_faceoff)  # ... but a tie-breaker needs a face-off
    for i, d in enumerate(cases):
        raises(BadState, anomia.from_dict, d)
        assert isinstance(raises(ValueError, anomia.from_dict, d), BadState), i


def test_registry_imports_the_engine_by_game_name():
    assert games.get_game("anomia") is anomia
    for name in ("chess", "", None, "engine.anomia"):
        e = raises(ValueError, games.get_game, name)
        assert "unknown game" in str(e) and "anomia" in str(e)
