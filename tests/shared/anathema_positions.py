"""Hand-made Anathema positions for the rule tests, loaded through from_dict (so every
position also passes the engine's saved-state checks)."""

from engine import anathema
from engine.anathema_cards import CARD_IDS
from engine.core import IllegalAction
from tests.shared.compat import raises


def position(players=2, hands=None, table=(), builds=(), turn=0, dealer=None, piles=None, sweeps=None,
             last_deal=False, last_capture=None, results=(), totals=None, seed=1, **options):
    """A state with seat `turn` to play.

    hands: card id lists per seat; builds: (card ids, value, multiple, last seat) tuples.
    dealer defaults to the seat before `turn` (turn plays first in the round, so all
    hands hold the same number of cards). Every card placed nowhere goes to the deck,
    as many as the deals so far leave there (none with last_deal), the rest to the
    face-down pile of the seat after `turn`.
    """
    base = anathema.new_game(seed, players, **options).to_dict()
    hands = [list(h) for h in (hands or [[]] * players)]
    piles = [list(p) for p in (piles or [[]] * players)]
    sweeps = [list(p) for p in (sweeps or [[]] * players)]
    placed = set(table)
    for group in (hands, piles, sweeps):
        for cards in group:
            placed.update(cards)
    for b in builds:
        placed.update(b[0])
    left = [c for c in CARD_IDS if c not in placed]
    assert len(placed) == 52 - len(left), "a card is placed twice"
    per_deal = 4 * players
    deals = 1
    while 52 - 4 - per_deal * deals > len(left) or (last_deal and 52 - 4 - per_deal * deals > 0):
        deals += 1
    deck_size = 52 - 4 - per_deal * deals
    piles[(turn + 1) % players] += left[deck_size:]
    side_count = 2 if options.get("partners") else players
    base.update(
        dealer=(turn - 1) % players if dealer is None else dealer,
        deals=deals,
        turn=turn,
        deck=left[:deck_size],
        hands=hands,
        table=list(table),
        builds=[{"cards": list(b[0]), "value": b[1], "multiple": b[2], "last": b[3]} for b in builds],
        piles=piles,
        sweeps=sweeps,
        last_capture=last_capture,
        results=list(results),
        totals=list(totals) if totals is not None else [sum(r["points"][s] for r in results)
                                                          for s in range(side_count)],
    )
    return anathema.from_dict(base)


def result(points, sides):
    """A finished hand worth `points` per side, all of it in card points."""
    return {"dealer": 0, "last_capture": 0, "cards": [0] * sides, "familiars": [0] * sides,
            "sweeps": [0] * sides, "card_points": list(points), "most_cards": [0] * sides,
            "most_familiars": [0] * sides, "points": list(points)}


def build_of(state, name):
    """The build named `name` as (card ids, value, multiple, last seat), or None."""
    for cards, value, multiple, last in state.builds:
        if CARD_IDS[cards[0]] == name:
            return [CARD_IDS[c] for c in cards], value, multiple, last
    return None


def ids(cards):
    return [CARD_IDS[c] for c in cards]


def refused(state, action, expect_in_message):
    """apply(action) raises IllegalAction naming the reason, and changes nothing."""
    before = state.digest()
    e = raises(IllegalAction, state.apply, action)
    assert expect_in_message in str(e), (action, str(e))
    assert state.digest() == before, action
    return str(e)


def plays_of(state, card):
    """The legal actions that play `card`."""
    return [a for a in state.legal_actions() if len(a) > 1 and a[1] == card]
