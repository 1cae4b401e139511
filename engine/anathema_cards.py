"""Anathema card data: the one place that says what the cards carry and which rules fill
the rulebook's gaps (docs/anathema.md explains every choice; new_game() options override them).

Card ids: the number 1-13 followed by one letter per suit, as the rulebook writes
"7a" or "11a". Inside the engine a card is the int 4 * (number - 1) + suit, so
card // 4 + 1 is its number and card % 4 its suit.
"""

from engine.anathema_scoring import (  # noqa: F401 - the scoring data, named here with the rest
    MOST_TIE,
    MOST_TIE_CHOICES,
    POINT_CARDS,
    SUIT_LETTERS,
    TARGET,
    TOP_TIE,
    TOP_TIE_CHOICES,
)

# In the order the rulebook first lists them; "d" is the suit counted for "most Familiars".
SUIT_NAMES = ("Witch", "Spell", "Village", "Familiar")
FAMILIAR = 3

CARD_IDS = tuple("%d%s" % (c // 4 + 1, SUIT_LETTERS[c % 4]) for c in range(52))
CARD_OF_ID = {}
for _c in range(52):
    CARD_OF_ID[CARD_IDS[_c]] = _c


def number(card):
    return card // 4 + 1


def name(card):
    """A card as a person reads it: "7 of Witch (7a)"."""
    return "%d of %s (%s)" % (card // 4 + 1, SUIT_NAMES[card % 4], CARD_IDS[card])


# Capture rewards, keyed by the capturing card, written as the card prints them:
# "<card>: <reward>" (several separated by commas) means capturing that card with this
# one earns the reward. The rulebook shows "7a: Peek" on the 7d and a card reading
# "11a: Steal". Here every card names the card of its number in the next suit
# (a -> b -> c -> d -> a), and the reward follows the number: 1 4 7 10 13 Peek,
# 2 5 8 11 Steal, 3 6 9 12 Swap. This puts both rulebook texts on cards (7d and 11d).
REWARDS = {
    "1a": "1b: Peek", "1b": "1c: Peek", "1c": "1d: Peek", "1d": "1a: Peek",
    "2a": "2b: Steal", "2b": "2c: Steal", "2c": "2d: Steal", "2d": "2a: Steal",
    "3a": "3b: Swap", "3b": "3c: Swap", "3c": "3d: Swap", "3d": "3a: Swap",
    "4a": "4b: Peek", "4b": "4c: Peek", "4c": "4d: Peek", "4d": "4a: Peek",
    "5a": "5b: Steal", "5b": "5c: Steal", "5c": "5d: Steal", "5d": "5a: Steal",
    "6a": "6b: Swap", "6b": "6c: Swap", "6c": "6d: Swap", "6d": "6a: Swap",
    "7a": "7b: Peek", "7b": "7c: Peek", "7c": "7d: Peek", "7d": "7a: Peek",
    "8a": "8b: Steal", "8b": "8c: Steal", "8c": "8d: Steal", "8d": "8a: Steal",
    "9a": "9b: Swap", "9b": "9c: Swap", "9c": "9d: Swap", "9d": "9a: Swap",
    "10a": "10b: Peek", "10b": "10c: Peek", "10c": "10d: Peek", "10d": "10a: Peek",
    "11a": "11b: Steal", "11b": "11c: Steal", "11c": "11d: Steal", "11d": "11a: Steal",
    "12a": "12b: Swap", "12b": "12c: Swap", "12c": "12d: Swap", "12d": "12a: Swap",
    "13a": "13b: Peek", "13b": "13c: Peek", "13c": "13d: Peek", "13d": "13a: Peek",
}
REWARD_KINDS = ("peek", "swap", "steal")

# The point cards, the target and the tie rules: engine/anathema_scoring.py. The other
# gaps, each an option of new_game() with the values it accepts:
# Turning a single build into a multiple one: the new value must be "not_lower" than
# the old (the rulebook's Example 16 turns a 6 into a multiple 6, Example 17 refuses
# a 7 into a multiple 6), or strictly "higher" (the rulebook's sentence, word for word).
CONVERT = "not_lower"
CONVERT_CHOICES = ("not_lower", "higher")
# A capture that clears the table on the last play of a hand is a sweep (the rulebook
# counts every capture of all face-up cards); False follows the Casino tables that do not.
LAST_PLAY_SWEEP = True
