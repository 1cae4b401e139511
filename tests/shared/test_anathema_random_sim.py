"""OpenSpiel-style random simulation of the Anathema engine, whole games to 21.

Layouts: 2, 3 and 4 players and two partnerships; every other seed plays the advanced
rules (capture rewards, multiple builds). At every step: from_dict(to_dict()) gives
back the same game, every legal action applies to its own copy of that reloaded
state, each of the 52 cards lies in exactly one place, and the game ends within a
bound on hands and steps. CPython plays 300 seeds per layout (1,200 games); MicroPython
10 per layout, as the same checks run far slower there.
"""

from engine import anathema
from engine.core import CHANCE, TERMINAL
from engine.playout import RandomChooser
from tests.shared.compat import IS_MICROPYTHON

SEEDS_PER_LAYOUT = 10 if IS_MICROPYTHON else 300
LAYOUTS = ((2, False), (3, False), (4, False), (4, True))
# Every hand hands out at least the 7 points of the point cards, so some side reaches
# 21 within 12 hands even split four ways; ties at the top can add a few more.
MAX_HANDS = 30
# A hand is at most 13 deals' worth of plays and deals plus one reward step per capture.
MAX_STEPS_PER_HAND = 52 * 2 + 13


def all_cards(state):
    cards = list(state.deck) + list(state.table)
    for group in (state.hands, state.piles, state.sweeps):
        for cards_of_seat in group:
            cards.extend(cards_of_seat)
    for b in state.builds:
        cards.extend(b[0])
    return cards


def same_state(a, b):
    """Whether two states hold the same game: every field (to_dict() is made of them alone,
    so a field that to_dict() forgot shows up here as a difference)."""
    fa = dict(a.__dict__)
    fb = dict(b.__dict__)
    for f in (fa, fb):
        f["rules"] = f["rules"].options
        f["rng"] = f["rng"].state()
        del f["listed_all"]  # how the last listing went, not part of the game
    return fa == fb


def _check_turn(state, actions):
    cp = state.current_player()
    if state.is_over():
        assert cp == TERMINAL and actions == []
    elif cp == CHANCE:
        assert actions == [["deal"]]
    else:
        assert 0 <= cp < state.players and actions
        ops = set(a[0] for a in actions)
        if state.pending:
            assert ops <= set(["peek", "swap", "steal", "pass"]) and ["pass"] in actions
        else:
            assert ops <= set(["capture", "build", "trail"])
            # Trailing is refused to a player who last played on a build, unless nothing else is possible.
            if state.owns_build(cp) and ops != set(["trail"]):
                assert "trail" not in ops


def simulate(seed, players, partners, stats):
    advanced = seed % 2 == 1
    state = anathema.new_game(seed, players, partners=partners, advanced=advanced, dealer=seed % players)
    chooser = RandomChooser(seed)
    steps = 0
    while not state.is_over():
        assert len(state.results) < MAX_HANDS, (seed, players, partners)
        assert steps < MAX_HANDS * MAX_STEPS_PER_HAND
        actions = state.legal_actions()
        _check_turn(state, actions)
        if not state.listed_all:
            stats["cut listings"] = stats.get("cut listings", 0) + 1
        back = anathema.from_dict(state.to_dict())
        assert same_state(back, state), (seed, players, steps)
        chosen = actions[chooser.rng.below(len(actions))]  # what chooser.choose() picks, listed once
        following = None
        last = len(actions) - 1
        for k in range(len(actions)):
            # Each action on its own copy of the reloaded state; the last one needs no copy.
            copy = back if k == last else back.copy()
            copy.apply(actions[k])
            stats[actions[k][0]] = stats.get(actions[k][0], 0) + 1
            if actions[k] == chosen:
                following = copy
        state = following
        assert sorted(all_cards(state)) == list(range(52)), (seed, players, steps)
        steps += 1
    totals = state.totals
    best = max(totals)
    assert best >= 21
    assert state.winners() and all(state.scores()[p] == best for p in state.winners())
    assert sum(len(r["points"]) for r in state.results) == len(state.results) * state.rules.sides
    stats["hands"] = stats.get("hands", 0) + len(state.results)
    stats["sweeps"] = stats.get("sweeps", 0) + sum(sum(r["sweeps"]) for r in state.results)
    return steps


def test_random_games_to_21_keep_every_invariant():
    stats = {}
    longest = 0
    for players, partners in LAYOUTS:
        for seed in range(SEEDS_PER_LAYOUT):
            longest = max(longest, simulate(seed * 11 + players, players, partners, stats))
    # the playouts really reach every kind of action
    for op in ("deal", "trail", "capture", "build", "peek", "swap", "steal", "pass"):
        assert stats.get(op, 0) > 0, (op, stats)
    assert stats["sweeps"] > 0 and stats["hands"] >= 4 * SEEDS_PER_LAYOUT
    assert longest > 100
