"""Random simulation of Finding Anastasia (4-8 players), with its ledger replayed alongside.

Every step of every game: the gems total 50 and none is negative; every clue card lies
in exactly one place; every legal answer obeys the truth rule and a lie is refused;
from_dict(to_dict()) gives back the same state; and a ledger fed only the public entries
the game made (state.entries) holds the same public table, so the same gems, and at the
end names the same winners. Decisions are random by kind (engine.playout.KindChooser).
CPython plays 300 seeds for each player count 4-8; MicroPython 16 per count.
"""

from engine import anastasia, anastasia_ledger
from engine import anastasia_cards as cards
from engine.core import IllegalAction, digest_of
from engine.playout import KindChooser
from tests.shared.compat import IS_MICROPYTHON

SEEDS_PER_COUNT = 16 if IS_MICROPYTHON else 300
MAX_STEPS = 2000
ALL_CLUES = list(range(cards.CLUE_COUNT))


def clue_places(state):
    """Every clue card id where it lies: hands, deck, box and a pair being drawn."""
    places = list(state.deck) + list(state.box)
    for h in state.hands:
        places.extend(h)
    sec = state.secret
    if sec is not None and sec[0] == "keep":
        places.extend(sec[2:])
    return places


def check_truth_rule(state, actions):
    sec = state.secret
    if sec is None or sec[0] != "answer":
        return 0
    t, cat = sec[1], sec[2]
    own = [c for c in state.hands[t] if cards.clue_category(c) == cat]
    claimed = [a[1] for a in actions]
    if own:
        assert sorted(claimed) == sorted(own), (own, claimed)
        for lie in cards.category_clues(cat):
            if lie not in own:
                before = state.to_dict()
                try:
                    state.apply(["answer", lie])
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("the lie %d was accepted" % lie)
                assert state.to_dict() == before
                break
    else:
        assert claimed == cards.category_clues(cat), claimed
    return 1


def check_step(state, replay):
    g = state.gems()
    assert g["supply"] + sum(g["purses"]) + sum(g["spaces"]) == cards.TOTAL_GEMS, g
    assert min(g["purses"]) >= 0 and min(g["spaces"]) >= 0 and g["supply"] >= 0, g
    places = clue_places(state)
    places.sort()
    assert places == ALL_CLUES, places
    saved = state.to_dict()
    assert anastasia.from_dict(saved).to_dict() == saved
    for entry in state.entries:
        replay.apply(entry)
    assert replay.to_dict() == saved["table"]


def simulate(seed, players, stats):
    state = anastasia.new_game(seed, players)
    replay = anastasia_ledger.new_game(seed, players, **state.ledger_options())
    assert replay.to_dict() == state.table.to_dict()
    chooser = KindChooser(seed)
    steps = 0
    check_step(state, replay)
    while not state.is_over():
        assert steps < MAX_STEPS, (seed, players)
        actions = state.legal_actions()
        assert actions, (seed, players, steps)
        stats["truth"] = stats.get("truth", 0) + check_truth_rule(state, actions)
        action = chooser.pick(actions)
        stats[action[0]] = stats.get(action[0], 0) + 1
        state.apply(action)
        check_step(state, replay)
        steps += 1
    assert state.current_player() < 0 and state.legal_actions() == []
    assert replay.is_over() and replay.winners() == state.winners()
    assert replay.gems() == state.gems()
    digest_of(state.to_dict())  # JSON-safe through and through (raises ValueError otherwise)
    stats["end " + state.table.ended] = stats.get("end " + state.table.ended, 0) + 1
    return steps


def test_random_games_keep_every_invariant_and_the_ledger_agrees():
    stats = {}
    longest = 0
    total = 0
    for players in range(4, 9):
        for seed in range(SEEDS_PER_COUNT):
            steps = simulate(seed * 11 + players, players, stats)
            longest = max(longest, steps)
            total += steps
    # the games really reach every rule: each action, each kind of end
    for name in ("ask", "answer", "react", "no_reaction", "look", "show", "exchange", "give", "question",
                 "draw", "keep", "reveal", "gems", "poison", "peek", "snoop", "allegiance"):
        assert stats.get(name, 0) > 0, (name, stats)
    assert stats["truth"] > 0
    if not IS_MICROPYTHON:
        for name in ("reveal_self", "declare", "pass", "clue", "end anastasia", "end impostor",
                     "end collector", "end red_army_spy"):
            assert stats.get(name, 0) > 0, (name, stats)
    assert longest > 60, longest


def test_every_legal_action_applies_and_the_quick_menu_matches_the_rules():
    """legal_actions() takes shortcuts (one check per kind of action where the target does
    not matter); here every step compares it with each candidate checked in full, and
    applies every legal action to its own copy."""
    seeds = 1 if IS_MICROPYTHON else 6
    applied = 0
    for players in range(4, 9):
        for seed in range(seeds):
            state = anastasia.new_game(seed * 13 + players, players)
            chooser = KindChooser(seed)
            while not state.is_over():
                actions = state.legal_actions()
                assert actions == state._legal_by_rule(), (seed, players)
                saved = state.to_dict()
                for action in actions:
                    copy = anastasia.from_dict(saved)
                    copy.apply(action)
                    assert sorted(clue_places(copy)) == ALL_CLUES
                    applied += 1
                state.apply(chooser.pick(actions))
    assert applied > 500, applied
