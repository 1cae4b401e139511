"""What the Finding Anastasia mode shows on the OLED (16 columns): the short words and lines.

Loaded with the mode; display-only, no rules.
"""

from engine import anastasia_cards as cards

WIDTH = 16
COLUMNS = ("Location", "Trinket", "Story")
# The action menu: (label, entry name). Pass only during the Thief's free action.
ACTIONS = (("Look", "look"), ("Exchange", "exchange"), ("Question", "question"), ("Draw", "draw"),
           ("Reveal 5", "reveal"), ("Reveal self 7", "reveal_self"), ("Declare set", "declare"))
PASS = ("Pass", "pass")
# Entry name -> the prompt while its target's buzzer is awaited.
TARGET_WORDS = {"answer": "WHO ANSWERS?", "look": "LOOK AT?", "exchange": "EXCHANGE WITH?",
                "question": "ASK WHOM?", "reveal": "REVEAL WHOM?", "snoop": "GOSSIP: WHOSE?",
                "peek": "PSYCHIC: WHOSE?", "poison": "POISON WHOM?"}
FRAME_TITLES = {"collector": "COLLECTOR", "choose": "MISINFORMANT", "allegiance": "GOSSIP SIDES",
                "role": "ROLE OF", "collector_set": "FULL SET?"}
# Two-way choices: (labels, values).
CHOICES = {
    "collector": (("10 gems", "A clue"), ("gems", "clue")),
    "choose": (("2 gems", "A clue"), ("gems", "clue")),
    "allegiance": (("With Anastasia", "Against her"), (1, 0)),
    "peek": (("Not Anastasia", "Anastasia"), (0, 1)),
    "collector_set": (("Full set", "No full set"), (1, 0)),
}
END_WORDS = {"anastasia": "Anastasia found", "impostor": "Impostor shown", "collector": "Collector's set",
             "red_army_spy": "Spy's last round"}


def wrap(text, width=WIDTH):
    """text cut into lines of at most width characters, at spaces where it can be."""
    lines = []
    line = ""
    for word in str(text).split(" "):
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = line + " " + word if line else word
    if line:
        lines.append(line)
    return lines


def short(name, n=6):
    return str(name)[:n]


def purse(names, game, p):
    return "%s %d gems" % (short(names[p], 8), game.purses[p])


def column(game, col):
    """'Loc 0 1 1 2 1': the gems on the column's five spaces, top down."""
    first = col * cards.CLUES_PER_CATEGORY
    spaces = game.spaces[first: first + cards.CLUES_PER_CATEGORY]
    return COLUMNS[col][:5] + " " + " ".join(str(n) for n in spaces)


def space_labels(col):
    return ["%d %s" % (row + 1, cards.CLUE_NAMES[col][row]) for row in range(cards.CLUES_PER_CATEGORY)]


def role_labels(roles):
    return [cards.ROLE_NAMES[r] for r in roles]


def status_lines(names, game, p):
    """The decider's purse, the supply and the clue deck."""
    return [purse(names, game, p), "supply %d deck %d" % (game.supply, game.deck)]


def answered(names, game, entry):
    """After an answer (or a further question): the responder's new purse and the column."""
    t, card = entry[-2], entry[-1]
    return ["%s: %s" % (short(names[t]), cards.CLUE_NAMES[card // 5][card % 5])[:WIDTH],
            purse(names, game, t), column(game, card // 5)]


def shown(game, p):
    """The clue p shows face up (their Reaction)."""
    card = game.face_up[p]
    return cards.CLUE_NAMES[card // 5][card % 5] if 0 <= card < cards.FIRST_BLANK else "a clue"


def end_lines(names, game):
    """The result: why the game ended and who won."""
    won = game.winners()
    lines = [END_WORDS.get(game.ended, str(game.ended))]
    lines.append("won: " + (" ".join(short(names[p], 4) for p in won) if won else "nobody"))
    return lines
