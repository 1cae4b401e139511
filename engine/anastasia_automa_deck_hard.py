"""The "hard" automa deck of solo Finding Anastasia (option difficulty="hard"), one card a line
(format: engine.anastasia_automa); its design and measured win rates: docs/anastasia-solo.md.

The automa hunts: a role reveal or a departure is in the first two tiers of most actions,
and its reveals pay the players nothing (it expends gems, it never returns them).
"""

DECK = [
    "H1: exchange 1 4, reveal_clue 2, expend_reveal 3 3 5; expend_reveal 6 2 2, leave 4, draw 5",
    "H2: exchange 2 5, reveal_clue 3, expend_reveal 4 3 6; expend_reveal 1 2 3, leave 5, draw 6",
    "H3: exchange 3 6, reveal_clue 4, expend_reveal 5 3 1; expend_reveal 2 2 4, leave 6, draw 1",
    "H4: exchange 4 1, reveal_clue 5, expend_reveal 6 3 2; expend_reveal 3 2 5, leave 1, draw 2",
    "H5: exchange 5 2, reveal_clue 6, expend_reveal 1 3 3; expend_reveal 4 2 6, leave 2, draw 3",
    "H6: exchange 6 3, reveal_clue 1, expend_reveal 2 3 4; expend_reveal 5 2 1, leave 3, draw 4",
    "I1: reveal_clue 2, exchange 3 6, expend_reveal 1 3 5; draw 4, expend_reveal 5 3 3, leave 6",
    "I2: reveal_clue 3, exchange 4 1, expend_reveal 2 3 6; draw 5, expend_reveal 6 3 4, leave 1",
    "I3: reveal_clue 4, exchange 5 2, expend_reveal 3 3 1; draw 6, expend_reveal 1 3 5, leave 2",
    "I4: reveal_clue 5, exchange 6 3, expend_reveal 4 3 2; draw 1, expend_reveal 2 3 6, leave 3",
    "I5: reveal_clue 6, exchange 1 4, expend_reveal 5 3 3; draw 2, expend_reveal 3 3 1, leave 4",
    "I6: reveal_clue 1, exchange 2 5, expend_reveal 6 3 4; draw 3, expend_reveal 4 3 2, leave 5",
    "J1: exchange 3 6, expend_reveal 2 2 5, reveal_clue 1; leave 4, expend_reveal 1 3 3, draw 6",
    "J2: exchange 4 1, expend_reveal 3 2 6, reveal_clue 2; leave 5, expend_reveal 2 3 4, draw 1",
    "J3: exchange 5 2, expend_reveal 4 2 1, reveal_clue 3; leave 6, expend_reveal 3 3 5, draw 2",
    "J4: exchange 6 3, expend_reveal 5 2 2, reveal_clue 4; leave 1, expend_reveal 4 3 6, draw 3",
    "J5: exchange 1 4, expend_reveal 6 2 3, reveal_clue 5; leave 2, expend_reveal 5 3 1, draw 4",
    "J6: exchange 2 5, expend_reveal 1 2 4, reveal_clue 6; leave 3, expend_reveal 6 3 2, draw 5",
]
