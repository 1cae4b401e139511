"""Hand-made solo Finding Anastasia tables for the rules and automa tests (built through from_dict,
so every table the tests use passes the engine's own checks)."""

from engine import anastasia_cards as cards
from engine import anastasia_solo
from engine.anastasia_automa_deck import PRINTED

BLANK = cards.FIRST_BLANK  # any Blank: they are all alike
ANASTASIA_CLUES = [0, 5, 10]  # Paris, Music Box, By train
# Guests who are not Anastasia: two real clues and a Blank each, in this order.
OTHER_CLUES = [[1, 6, 15], [2, 7, 16], [3, 8, 17], [4, 11, 18], [9, 12, 19]]
SPARE = [13, 14]  # the two real clues no guest holds: the clue deck by default


def tier(*items):
    """A tier as a list: tier("exchange", 4, 5)."""
    return list(items)


def card(name, action1, action2):
    """A card as a table (the engine keeps it as its one-line form)."""
    return {"name": name, "actions": [action1, action2]}


def table(players=1, anastasia=1, clues=None, revealed=None, looked=None, status=None, shown=None,
          beneath=None, deck=None, purses=None, tokens=None, automa=None, discard=None, turn=0,
          actions_left=2, phase="play", out=None, hands=None, seed=0, **options):
    """A state with the given table; guests are given as 6-lists (Guest 1 first), None keeps the default.

    Default: Anastasia is Guest `anastasia` with ANASTASIA_CLUES, the others hold OTHER_CLUES in
    turn, the clue deck is SPARE (top last), every other card is in the box, nothing is face up,
    every guest at the party with the option's gems beneath, the purses and tokens as dealt.
    The gem supply takes whatever makes the total right. `automa` and `discard` are automa card
    indexes (top last); by default the deck is the option's (a one-card deck of PRINTED if the
    options name no deck).
    """
    if "automa_deck" not in options:
        options["automa_deck"] = [PRINTED]
    d = anastasia_solo.new_game(seed, players, **options).to_dict()
    roles = list(anastasia_solo.SOLO_ROLES[:5])
    roles.insert(anastasia - 1, cards.ANASTASIA)
    d["roles"] = roles
    if clues is None:
        others = [list(c) for c in OTHER_CLUES]
        clues = [list(ANASTASIA_CLUES) if g == anastasia else others.pop(0) for g in range(1, 7)]
    d["clues"] = [list(c) for c in clues]
    d["revealed"] = revealed or [[False] * len(c) for c in clues]
    d["looked"] = looked or [[0] * len(c) for c in clues]
    d["status"] = status or [0] * 6
    d["role_shown"] = shown or [False] * 6
    if beneath is not None:
        d["beneath"] = list(beneath)
    d["clue_deck"] = list(SPARE if deck is None else deck)
    d["hands"] = [list(h) for h in (hands or [[]] * players)]
    used = set(d["clue_deck"])
    for c in d["clues"] + d["hands"]:
        used.update(c)
    d["box"] = [c for c in range(cards.CLUE_COUNT) if c not in used]
    if purses is not None:
        d["purses"] = list(purses)
    if tokens is not None:
        d["tokens"] = list(tokens)
    if automa is not None:
        d["automa_deck"] = list(automa)
        d["automa_discard"] = list(discard or [])
    d["supply"] = d["options"]["gem_total"] - sum(d["purses"]) - sum(d["beneath"])
    d["turn"] = turn
    d["actions_left"] = actions_left
    d["phase"] = phase
    d["out"] = out or [False] * players
    return anastasia_solo.from_dict(d)


def copy(state):
    return anastasia_solo.from_dict(state.to_dict())
