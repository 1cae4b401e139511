"""The automa deck of solo Finding Anastasia as data: one card a line (format:
engine.anastasia_automa).

PRINTED is the example card of the rulebook, tier for tier. DEFAULT_DECK is this
project's deck of 18 cards built around it; docs/anastasia-solo.md gives its design.
A user deck in the same format replaces it (option automa_deck).
"""

PRINTED = "printed: reveal_clue 3, exchange 4 5, return_reveal 1 3 2; draw 6, expend_reveal 5 3 2, leave 3"

DEFAULT_DECK = [
    "A1: reveal_clue 1, exchange 2 3, return_reveal 5 3 6; draw 4, expend_reveal 3 3 6, leave 1",
    "A2: reveal_clue 2, exchange 3 4, return_reveal 6 3 1; draw 5, expend_reveal 4 3 1, leave 2",
    PRINTED,
    "A4: reveal_clue 4, exchange 5 6, return_reveal 2 3 3; draw 1, expend_reveal 6 3 3, leave 4",
    "A5: reveal_clue 5, exchange 6 1, return_reveal 3 3 4; draw 2, expend_reveal 1 3 4, leave 5",
    "A6: reveal_clue 6, exchange 1 2, return_reveal 4 3 5; draw 3, expend_reveal 2 3 5, leave 6",
    "B1: exchange 1 4, reveal_clue 2, expend_reveal 5 4 3; draw 6, return_reveal 4 2 2, leave 5",
    "B2: exchange 2 5, reveal_clue 3, expend_reveal 6 4 4; draw 1, return_reveal 5 2 3, leave 6",
    "B3: exchange 3 6, reveal_clue 4, expend_reveal 1 4 5; draw 2, return_reveal 6 2 4, leave 1",
    "B4: exchange 4 1, reveal_clue 5, expend_reveal 2 4 6; draw 3, return_reveal 1 2 5, leave 2",
    "B5: exchange 5 2, reveal_clue 6, expend_reveal 3 4 1; draw 4, return_reveal 2 2 6, leave 3",
    "B6: exchange 6 3, reveal_clue 1, expend_reveal 4 4 2; draw 5, return_reveal 3 2 1, leave 4",
    "C1: reveal_clue 3, exchange 6 2, return_reveal 1 2 5; draw 5, leave 4, expend_reveal 6 4 3",
    "C2: reveal_clue 4, exchange 1 3, return_reveal 2 2 6; draw 6, leave 5, expend_reveal 1 4 4",
    "C3: reveal_clue 5, exchange 2 4, return_reveal 3 2 1; draw 1, leave 6, expend_reveal 2 4 5",
    "C4: reveal_clue 6, exchange 3 5, return_reveal 4 2 2; draw 2, leave 1, expend_reveal 3 4 6",
    "C5: reveal_clue 1, exchange 4 6, return_reveal 5 2 3; draw 3, leave 2, expend_reveal 4 4 1",
    "C6: reveal_clue 2, exchange 5 1, return_reveal 6 2 4; draw 4, leave 3, expend_reveal 5 4 2",
]
