"""Hand-made Finding Anastasia tables for the rules tests (both runtimes)."""

from engine import anastasia, anastasia_ledger
from engine import anastasia_cards as C
from engine.rng import Rng

# Clue card ids by name (engine.anastasia_cards.CLUE_NAMES).
PARIS, BERLIN, LONDON, NEW_YORK, COPENHAGEN = 0, 1, 2, 3, 4
MUSIC_BOX, LOCKET, ICON, DIARY, TIARA = 5, 6, 7, 8, 9
TRAIN, SLEIGH, CART, RIVER, FOOT = 10, 11, 12, 13, 14
BLANK = C.FIRST_BLANK

# The real clue each guest's invite holds by default, in seat order.
GUEST_CLUES = (BERLIN, LOCKET, SLEIGH, LONDON, ICON, CART, NEW_YORK, DIARY)


def default_hands(roles):
    """Anastasia: Paris, Music Box, By train; every other seat one of GUEST_CLUES and 2 Blanks."""
    hands = []
    j = 0
    for r in roles:
        if r == C.ANASTASIA:
            hands.append([PARIS, MUSIC_BOX, TRAIN])
        else:
            hands.append([GUEST_CLUES[j], BLANK + 2 * j, BLANK + 2 * j + 1])
            j += 1
    return hands


def deal(roles, hands=None, purses=None, deck=None, turn=None, spaces=None, **options):
    """A state at the start of a turn with these roles (seat order), built through from_dict.

    hands: clue ids per seat (default default_hands); deck: the real clues left, top card
    last (default every real clue not in a hand, ascending, so the top one is the highest);
    purses and spaces set the gems (the supply holds the rest of the 50); turn: the active
    seat (default: the Empress, else seat 0).
    """
    n = len(roles)
    empress = roles.index(C.EMPRESS) if C.EMPRESS in roles else None
    table = anastasia_ledger.new_game(0, n, empress=empress, **options).to_dict()
    if hands is None:
        hands = default_hands(roles)
    held = []
    for h in hands:
        held.extend(h)
    if deck is None:
        deck = [c for c in range(C.FIRST_BLANK) if c not in held]
    box = [c for c in range(C.FIRST_BLANK, C.CLUE_COUNT) if c not in held]
    if purses is not None:
        table["purses"] = list(purses)
    if spaces is not None:
        table["spaces"] = list(spaces)
    table["supply"] = C.TOTAL_GEMS - sum(table["purses"]) - sum(table["spaces"])
    table["hands"] = [len(h) for h in hands]
    table["deck"] = len(deck)
    if turn is not None:
        table["turn"] = turn
        table["stack"] = [["ask", turn]]
    d = {"game": "anastasia", "version": anastasia.STATE_VERSION, "table": table, "rng": Rng(0).state(),
         "roles": list(roles), "hands": [list(h) for h in hands], "deck": list(deck), "box": box,
         "seen": [[] for _ in range(n)], "secret": None}
    return anastasia.from_dict(d)


def play(state, *actions):
    for a in actions:
        state.apply(a)
    return state


def question(state, target, category=0, card=None, react=False):
    """The active player asks target about category; target answers card (default: the first
    truthful answer); the holder of a lie's clue reacts or not. Ends in the action phase."""
    state.apply(["ask", target, category])
    if card is None:
        card = state.legal_actions()[0][1]
    state.apply(["answer", card])
    if state.secret is not None and state.secret[0] == "react":
        state.apply(["react"] if react else ["no_reaction"])
    return state


def copy(state):
    return anastasia.from_dict(state.to_dict())
