"""The "easy" automa deck of solo Finding Anastasia (option difficulty="easy"), one card a line
(format: engine.anastasia_automa); its design and measured win rates: docs/anastasia-solo.md.

The automa mostly helps: it turns clues face up, its only role reveals are "returns gems to
you" tiers below the first, and a guest leaves only when nothing else can be done.
"""

DECK = [
    "E1: reveal_clue 1, reveal_clue 4, exchange 2 3; draw 5, reveal_clue 6, leave 3",
    "E2: reveal_clue 2, reveal_clue 5, exchange 3 4; draw 6, reveal_clue 1, leave 4",
    "E3: reveal_clue 3, reveal_clue 6, exchange 4 5; draw 1, reveal_clue 2, leave 5",
    "E4: reveal_clue 4, reveal_clue 1, exchange 5 6; draw 2, reveal_clue 3, leave 6",
    "E5: reveal_clue 5, reveal_clue 2, exchange 6 1; draw 3, reveal_clue 4, leave 1",
    "E6: reveal_clue 6, reveal_clue 3, exchange 1 2; draw 4, reveal_clue 5, leave 2",
    "F1: exchange 2 5, reveal_clue 3, reveal_clue 6; draw 4, return_reveal 1 3 5, leave 2",
    "F2: exchange 3 6, reveal_clue 4, reveal_clue 1; draw 5, return_reveal 2 3 6, leave 3",
    "F3: exchange 4 1, reveal_clue 5, reveal_clue 2; draw 6, return_reveal 3 3 1, leave 4",
    "F4: exchange 5 2, reveal_clue 6, reveal_clue 3; draw 1, return_reveal 4 3 2, leave 5",
    "F5: exchange 6 3, reveal_clue 1, reveal_clue 4; draw 2, return_reveal 5 3 3, leave 6",
    "F6: exchange 1 4, reveal_clue 2, reveal_clue 5; draw 3, return_reveal 6 3 4, leave 1",
    "G1: reveal_clue 3, exchange 4 6, return_reveal 2 2 5; draw 5, reveal_clue 1, leave 4",
    "G2: reveal_clue 4, exchange 5 1, return_reveal 3 2 6; draw 6, reveal_clue 2, leave 5",
    "G3: reveal_clue 5, exchange 6 2, return_reveal 4 2 1; draw 1, reveal_clue 3, leave 6",
    "G4: reveal_clue 6, exchange 1 3, return_reveal 5 2 2; draw 2, reveal_clue 4, leave 1",
    "G5: reveal_clue 1, exchange 2 4, return_reveal 6 2 3; draw 3, reveal_clue 5, leave 2",
    "G6: reveal_clue 2, exchange 3 5, return_reveal 1 2 4; draw 4, reveal_clue 6, leave 3",
]
