"""Finding Anastasia card catalogue: the one place that says what is in the box.

Shared by the 4-8 player engine (engine.anastasia), its ledger and the 1-3 player
engine. Everything is a small int so a state stays JSON-safe and cheap on the board.

Clue cards (29): ids 0-14 are the real clues, five per category in category order
(0-4 Location, 5-9 Trinket, 10-14 Story), ids 15-28 are the Blank clues. A real clue's
id is also its space on the game board: column = category, row = id % 5.

Roles (11): ids in the rulebook's order. The printed count marks that filter the
guests by player count are not in the rulebook's text; GUEST_MIN_PLAYERS is this
project's reading of them (docs/anastasia.md) and the engines let options replace it.
"""

# Clue categories; BLANK is the category of a Blank clue (it answers nothing).
LOCATION = 0
TRINKET = 1
STORY = 2
BLANK = 3
CATEGORIES = (LOCATION, TRINKET, STORY)
CATEGORY_NAMES = ("Location", "Trinket", "Story", "Blank")

CLUES_PER_CATEGORY = 5
BLANK_COUNT = 14
FIRST_BLANK = 15  # = len(CATEGORIES) * CLUES_PER_CATEGORY
CLUE_COUNT = 29  # every clue card, Blanks included

# What the clue cards say, per category (row order on the board). Kept short: the
# box shows them on a 128-pixel-wide OLED.
CLUE_NAMES = (
    ("Paris", "Berlin", "London", "New York", "Copenhagen"),
    ("Music Box", "Locket", "Icon", "Diary", "Tiara"),
    ("By train", "By sleigh", "In a cart", "By river", "On foot"),
)

# Roles. ANASTASIA and EMPRESS are not guests; RASPUTINS_AGENT is a guest that is
# always dealt; the others are dealt at random among those the player count allows.
ANASTASIA = 0
COLLECTOR = 1
EMPRESS = 2
FAMILY_FRIEND = 3
GOSSIP = 4
IMPOSTOR = 5
MISINFORMANT = 6
PSYCHIC = 7
RASPUTINS_AGENT = 8
RED_ARMY_SPY = 9
THIEF = 10
ROLE_COUNT = 11
ROLE_NAMES = (
    "Anastasia",
    "Collector",
    "Empress",
    "Family Friend",
    "Gossip",
    "Impostor",
    "Misinformant",
    "Psychic",
    "Rasputin's Agent",
    "Red Army Spy",
    "Thief",
)
# Stable lower-case keys for options, files and the wire (same order as ROLE_NAMES).
ROLE_KEYS = (
    "anastasia",
    "collector",
    "empress",
    "family_friend",
    "gossip",
    "impostor",
    "misinformant",
    "psychic",
    "rasputins_agent",
    "red_army_spy",
    "thief",
)

# The count mark on each guest card: the smallest player count it is dealt at
# ("remove any Guests above the player count"). Rasputin's Agent is always dealt.
# Family Friend needs an Empress, who sits out the 4-player game; the two roles
# that only work against a crowd (Misinformant, Red Army Spy) join from 6.
# With N players the dealt guests besides the Agent number N-3 (N-2 at 4 players);
# this table leaves 4, 6, 8, 8, 8 candidates for 2, 2, 3, 4, 5 places.
GUEST_MIN_PLAYERS = {
    "collector": 4,
    "family_friend": 5,
    "gossip": 5,
    "impostor": 4,
    "misinformant": 6,
    "psychic": 4,
    "red_army_spy": 6,
    "thief": 4,
}

# Components.
TOTAL_GEMS = 50
TOKEN_SHAPES = 8  # 24 player tokens, 3 of each shape


def clue_category(card):
    """LOCATION, TRINKET, STORY or BLANK for a clue card id."""
    if card >= FIRST_BLANK:
        return BLANK
    return card // CLUES_PER_CATEGORY


def clue_name(card):
    """What a clue card says, e.g. "Music Box" or "Blank"."""
    if card >= FIRST_BLANK:
        return "Blank"
    return CLUE_NAMES[card // CLUES_PER_CATEGORY][card % CLUES_PER_CATEGORY]


def clue_label(card):
    """The card with its category, e.g. "Trinket: Music Box"; a Blank is just "Blank"."""
    if card >= FIRST_BLANK:
        return "Blank"
    return CATEGORY_NAMES[card // CLUES_PER_CATEGORY] + ": " + clue_name(card)


def category_clues(category):
    """The clue card ids of one category, in board row order."""
    first = category * CLUES_PER_CATEGORY
    return list(range(first, first + CLUES_PER_CATEGORY))


def role_id(key):
    """Role id for a ROLE_KEYS key; ValueError naming the keys if there is none."""
    for i in range(ROLE_COUNT):
        if ROLE_KEYS[i] == key:
            return i
    raise ValueError("unknown role %r (known: %s)" % (key, ", ".join(ROLE_KEYS)))


def eligible_guests(players, min_players=None):
    """Role ids of the random guests allowed at this player count, ascending.

    min_players: a GUEST_MIN_PLAYERS-shaped dict (role key -> mark); default the table above.
    """
    table = GUEST_MIN_PLAYERS if min_players is None else min_players
    out = []
    for key in table:
        if table[key] <= players:
            out.append(role_id(key))
    out.sort()
    return out
