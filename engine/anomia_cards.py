"""Anomia deck data: the one place that says what is printed on the cards.

The rulebook gives only the totals (per deck: 92 playing cards, 8 wild cards,
8 symbols). The split below is this project's interpretation, documented in
docs/anomia.md; new_game() options override every part of it.

Card ids inside a deck: playing cards first, grouped by symbol in symbol order
(with the default split: ids 0-11 carry symbol 0, 12-23 symbol 1, ..., 81-91
symbol 7), then the wild cards in WILD_PAIRS order (ids 92-99).
"""

# Names used when a card is shown to a person (the real cards use abstract shapes).
SYMBOL_NAMES = ("star", "moon", "wave", "bolt", "ring", "cross", "leaf", "drop")

# Playing cards per symbol: 4 x 12 + 4 x 11 = 92.
SYMBOL_COUNTS = (12, 12, 12, 12, 11, 11, 11, 11)

# One wild card per pair; the cycle puts every symbol on exactly two wild cards,
# each time with a different partner, and no two wild cards are alike.
WILD_PAIRS = ((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 0))

# Removed with 3 players: two 11-card symbols that are neighbours on the wild
# cycle, so only 3 wild cards go ((5,6), (6,7), (7,0)) and 5 stay in play.
THREE_PLAYER_REMOVED = (6, 7)

# Category ranges [first, end) in engine.anomia_categories.CATEGORIES.
# Playing card i of a deck shows category first + i % (end - first); the
# default 92 cards use the first 92 of each 100-wide range, a larger deck
# (symbol_counts option) uses the rest and then wraps around.
DECK_CATEGORIES = {"blue": (0, 100), "red": (100, 200)}

DEFAULT_DECK = "blue"
