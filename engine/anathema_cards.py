"""Anathema card data: the one place that says what the cards carry and which rules fill
the rulebook's gaps (docs/anathema.md explains every choice; new_game() options override them).

Card ids: the number 1-13 followed by one letter per suit, as the rulebook writes
"7a" or "11a". Inside the engine a card is the int 4 * (number - 1) + suit, so
card // 4 + 1 is its number and card % 4 its suit.
"""

SUIT_LETTERS = "abcd"
# In the order the rulebook first lists them; "d" is the suit counted for "most Familiars".
SUIT_NAMES = ("Witch", "Spell", "Village", "Familiar")
FAMILIAR = 3

CARD_IDS = tuple("%d%s" % (c // 4 + 1, SUIT_LETTERS[c % 4]) for c in range(52))
CARD_OF_ID = {}
for _c in range(52):
    CARD_OF_ID[CARD_IDS[_c]] = _c


def number(card):
    return card // 4 + 1


def card_of(card_id, what):
    """The card of an id such as "7a"; ValueError naming `what` for anything else."""
    c = CARD_OF_ID.get(card_id) if isinstance(card_id, str) else None
    if c is None:
        raise ValueError("%s: %r is not a card id (1a .. 13d)" % (what, card_id))
    return c


def name(card):
    """A card as a person reads it: "7 of Witch (7a)"."""
    return "%d of %s (%s)" % (card // 4 + 1, SUIT_NAMES[card % 4], CARD_IDS[card])


# Cards worth points when a hand is scored (the large 1 or 2 printed on them). The
# rulebook does not list them; these are classic Casino's, with the suits matched in
# bridge order (clubs, diamonds, hearts, spades = a, b, c, d), which puts spades on
# the Familiars, the suit counted for "most": every 1 scores 1 (the aces), the 2 of
# Familiar 1 (little casino, 2 of spades), the 10 of Spell 2 (big casino, 10 of diamonds).
POINT_CARDS = {"1a": 1, "1b": 1, "1c": 1, "1d": 1, "2d": 1, "10b": 2}

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

# The other gaps, each an option of new_game() with the values it accepts.
TARGET = 21  # points that end the game
# Sides tied for most cards (or most Familiars): "none" of them scores it (classic
# Casino), or "all" of them score it.
MOST_TIE = "none"
MOST_TIE_CHOICES = ("none", "all")
# Two or more sides tied for the lead at or above the target when a hand ends:
# "play_on" (another hand, until one side leads alone) or "share" (they all win).
TOP_TIE = "play_on"
TOP_TIE_CHOICES = ("play_on", "share")
# Turning a single build into a multiple one: the new value must be "not_lower" than
# the old (the rulebook's Example 16 turns a 6 into a multiple 6, Example 17 refuses
# a 7 into a multiple 6), or strictly "higher" (the rulebook's sentence, word for word).
CONVERT = "not_lower"
CONVERT_CHOICES = ("not_lower", "higher")
# A capture that clears the table on the last play of a hand is a sweep (the rulebook
# counts every capture of all face-up cards); False follows the Casino tables that do not.
LAST_PLAY_SWEEP = True


# ---- scoring shared by the rules engine and the box's score keeper (engine/anathema_score.py)

MOST_CARDS = 3  # points for the most cards captured in a hand
MOST_FAMILIARS = 1  # points for the most Familiars
FIRST_DEAL_TABLE = 4  # cards face up on the table at the first deal of a hand


def deals_per_hand(players):
    """Deals in one hand: 4 to the table and 4 per player first, 4 per player after (52 cards:
    6 with 2 players, 4 with 3, 3 with 4)."""
    return 1 + (52 - FIRST_DEAL_TABLE - 4 * players) // (4 * players)


def leaders(counts):
    """The sides holding the biggest count, ascending; [] when every count is 0."""
    best = max(counts)
    if best <= 0:
        return []
    return [s for s in range(len(counts)) if counts[s] == best]


def award_most(tops, sides, worth, share):
    """Points per side for a "most" category won by the sides in `tops`: one side scores
    `worth`; sides tied for most score it all (`share`, most_tie "all") or none of them."""
    out = [0] * sides
    if len(tops) == 1 or share:
        for s in tops:
            out[s] = worth
    return out


def winning_sides(totals, target, share):
    """After a hand: the sides that won the game ([] while it goes on). The one side with the
    most points at or above the target wins; sides tied at the top play on another hand,
    or all win (`share`, top_tie "share")."""
    best = max(totals)
    if best < target:
        return []
    tops = [s for s in range(len(totals)) if totals[s] == best]
    if len(tops) == 1 or share:
        return tops
    return []


# ---- options both engines take (validated the same way)

MAX_CARD_POINTS = 13


def point_values(table):
    """The points of each card (a list of 52) from a point_cards option; ValueError if bad."""
    if not isinstance(table, dict):
        raise ValueError("point_cards must map card ids to points, got %r" % (table,))
    points = [0] * 52
    for cid in table:
        c = card_of(cid, "point_cards")
        v = table[cid]
        if type(v) is not int or not (0 <= v <= MAX_CARD_POINTS):
            raise ValueError("point_cards: %s is worth %r, not an int 0-%d" % (cid, v, MAX_CARD_POINTS))
        points[c] = v
    return points


def check_choice(opts, name, choices):
    if opts[name] not in choices:
        raise ValueError("%s must be one of %s, got %r" % (name, ", ".join(choices), opts[name]))


def check_ties(opts):
    """(share_most, share_top) from the most_tie and top_tie options; ValueError if bad."""
    check_choice(opts, "most_tie", MOST_TIE_CHOICES)
    check_choice(opts, "top_tie", TOP_TIE_CHOICES)
    return opts["most_tie"] == "all", opts["top_tie"] == "share"
