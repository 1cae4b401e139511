"""legal_actions() lists exactly the plays apply() accepts, and stays bounded on a crowded table."""

from engine import anathema, anathema_moves
from engine.anathema_cards import CARD_IDS
from engine.core import IllegalAction
from engine.playout import RandomChooser
from tests.shared.anathema_positions import position
from tests.shared.compat import IS_MICROPYTHON

POSITIONS = 6 if IS_MICROPYTHON else 100
MAX_ITEMS = 5 if IS_MICROPYTHON else 7


def _accepted(state, action):
    try:
        state.copy().apply(action)
    except IllegalAction:
        return False
    return True


def _every_play(state):
    """Every play apply() accepts, found by trying all of them: each hand card as a trail,
    as a capture of every subset of the table items, as a build of every value 1-13 with
    every subset holding at most one build. Items in table order, builds last."""
    items = [CARD_IDS[c] for c in state.table] + [CARD_IDS[b[0][0]] for b in state.builds]
    loose = len(state.table)
    subsets = [[]]
    for it in items:
        subsets = subsets + [s + [it] for s in subsets]
    found = []
    for h in sorted(state.hands[state.turn]):
        hid = CARD_IDS[h]
        for s in subsets[1:]:
            if _accepted(state, ["capture", hid, s]):
                found.append(["capture", hid, s])
        for value in range(1, 14):
            for s in subsets[1:]:
                builds = len([i for i in s if items.index(i) >= loose])
                if builds <= 1 and _accepted(state, ["build", hid, value, s]):
                    found.append(["build", hid, value, s])
    for h in sorted(state.hands[state.turn]):
        if _accepted(state, ["trail", CARD_IDS[h]]):
            found.append(["trail", CARD_IDS[h]])
    return found


def _key(action):
    return repr(action)


def test_the_listing_is_exactly_what_apply_accepts():
    checked = 0
    seed = 0
    kinds = set()
    while checked < POSITIONS:
        seed += 1
        s = anathema.new_game(seed, 2 + seed % 3, advanced=seed % 2 == 0)
        chooser = RandomChooser(seed)
        for _ in range(8 + seed % 30):
            s.apply(chooser.choose(s))
        if s.current_player() < 0 or s.pending or len(s.table) + len(s.builds) > MAX_ITEMS:
            continue
        listed = s.legal_actions()
        assert s.listed_all
        want = _every_play(s)
        assert sorted(map(_key, listed)) == sorted(map(_key, want)), (seed, s.to_dict())
        kinds.update(a[0] for a in listed)
        kinds.update("multiple" for a in listed if a[0] == "build" and _is_multiple(s, a))
        checked += 1
    assert kinds >= set(["capture", "build", "trail"])
    if not IS_MICROPYTHON:
        assert "multiple" in kinds


# Positions rich in builds: a card on a loose card of its own number, single builds that
# may turn into multiple ones of a higher, equal or lower value, a multiple build to add to.
RICH = [
    dict(hands=[["5a", "5b", "7c", "6d"], ["9a", "9b", "9c", "9d"]], table=["5c", "2a", "3a", "1b"]),
    dict(hands=[["4d", "6a", "7a", "3c"], ["9a", "9b", "9c", "9d"]], table=["2c", "1d", "3d"],
         builds=[(["3a", "3b"], 6, False, 1)]),
    dict(hands=[["3c", "6a", "7a", "2d"], ["9a", "9b", "9c", "9d"]], table=["2b", "4d", "1c"],
         builds=[(["3a", "4a"], 7, False, 1)]),
    dict(hands=[["5a", "7c", "2d", "6b"], ["9a", "9b", "9c", "9d"]], table=["2b", "5d", "1c"],
         builds=[(["3a", "4a", "7b"], 7, True, 1)]),
]


def test_the_listing_matches_apply_on_positions_rich_in_builds():
    for spec in RICH:
        multiple = 0
        for convert in ("not_lower", "higher"):
            s = position(advanced=True, convert=convert, **spec)
            listed = s.legal_actions()
            assert s.listed_all
            assert sorted(map(_key, listed)) == sorted(map(_key, _every_play(s))), (spec, convert)
            multiple += len([a for a in listed if a[0] == "build" and _is_multiple(s, a)])
        assert multiple, spec


def _is_multiple(state, action):
    c = state.copy()
    c.apply(action)
    return any(b[2] for b in c.builds)


# A table from a random 4-player game: 2,224 distinct plays for the hand below.
CROWDED = ["10b", "8b", "11a", "12d", "13c", "7d", "11d", "9c", "4b", "9d", "1a", "3a", "1d", "6a", "2c"]
HAND = ["11b", "10c", "10d", "12c"]


def _crowded(advanced):
    hands = [HAND, ["1b", "2b", "5a", "5b"], ["1c", "2a", "5c", "5d"], ["3b", "3c", "7a", "7b"]]
    return position(players=4, partners=True, advanced=advanced, hands=hands, table=CROWDED)


def _splits(values, target):
    """Whether values split into groups worth target each (a plain search, apart from the engine's)."""
    if not values:
        return True
    first, rest = values[0], values[1:]

    def pick(start, need, chosen):
        if need == 0:
            return _splits([rest[i] for i in range(len(rest)) if i not in chosen], target)
        for i in range(start, len(rest)):
            if rest[i] <= need and pick(i + 1, need - rest[i], chosen + [i]):
                return True
        return False

    return pick(0, target - first, []) if first <= target else False


def _most_cards_captured(values, target):
    best = 0
    for mask in range(1, 1 << len(values)):
        chosen = [values[i] for i in range(len(values)) if mask >> i & 1]
        if len(chosen) > best and sum(chosen) % target == 0 and _splits(chosen, target):
            best = len(chosen)
    return best


def test_a_crowded_table_gets_a_fair_bounded_listing():
    values = [int(c[:-1]) for c in CROWDED]
    for advanced in (False, True):
        s = _crowded(advanced)
        acts = s.legal_actions()
        assert not s.listed_all
        assert len(acts) <= anathema_moves.MAX_ACTIONS + 4
        for a in acts:
            s.copy().apply(a)
        # every hand card keeps its captures, its builds and its trail
        for hid in HAND:
            mine = [a for a in acts if a[1] == hid]
            assert [a for a in mine if a[0] == "capture"] and ["trail", hid] in mine
            if hid != "12c":  # the highest card in hand has no higher value to build
                assert [a for a in mine if a[0] == "build"]
        # the captures that take the most cards come first
        if not IS_MICROPYTHON or advanced:
            for hid in ("10c", "11b", "12c"):
                most = max(len(a[2]) for a in acts if a[0] == "capture" and a[1] == hid)
                assert most == _most_cards_captured(values, int(hid[:-1])), hid
        # a play the listing left out is still legal
        left_out = ["capture", "11b", ["11a", "11d"]]
        assert left_out not in acts
        s.apply(left_out)


def test_the_listing_is_bounded_even_on_an_absurd_table():
    # every card 1-5 face up: thousands of sets per value
    table = [CARD_IDS[c] for c in range(20)]
    s = position(hands=[["13a", "12b", "11c", "10d"], ["13b", "12c", "11d", "9d"]], table=table,
                 advanced=True)
    acts = s.legal_actions()
    assert not s.listed_all and len(acts) <= anathema_moves.MAX_ACTIONS + 4
    for hid in ("13a", "12b", "11c", "10d"):
        assert [a for a in acts if a[0] == "capture" and a[1] == hid]
    assert [a for a in acts if a[0] == "build"]
