"""How an Anathema hand is scored and a game won, shared by the rules engine
(engine/anathema.py) and the box's score keeper (engine/anathema_score.py): the point
cards, the awards for most cards and most Familiars, the target and the tie rules (the
data that fills those gaps of the rulebook, docs/anathema.md; new_game() options override
it), and the helpers that apply them. engine/anathema_cards.py holds the rest of the card
data and names these too. Kept apart so that the box's score keeper never holds the card
tables and capture rewards.
"""

SUIT_LETTERS = "abcd"  # a card id is its number 1-13 and one of these (engine/anathema_cards.py)

# Cards worth points when a hand is scored (the large 1 or 2 printed on them). The
# rulebook does not list them; these are classic Casino's, with the suits matched in
# bridge order (clubs, diamonds, hearts, spades = a, b, c, d), which puts spades on
# the Familiars, the suit counted for "most": every 1 scores 1 (the aces), the 2 of
# Familiar 1 (little casino, 2 of spades), the 10 of Spell 2 (big casino, 10 of diamonds).
POINT_CARDS = {"1a": 1, "1b": 1, "1c": 1, "1d": 1, "2d": 1, "10b": 2}

TARGET = 21  # points that end the game
# Sides tied for most cards (or most Familiars): "none" of them scores it (classic
# Casino), or "all" of them score it.
MOST_TIE = "none"
MOST_TIE_CHOICES = ("none", "all")
# Two or more sides tied for the lead at or above the target when a hand ends:
# "play_on" (another hand, until one side leads alone) or "share" (they all win).
TOP_TIE = "play_on"
TOP_TIE_CHOICES = ("play_on", "share")

MOST_CARDS = 3  # points for the most cards captured in a hand
MOST_FAMILIARS = 1  # points for the most Familiars
FIRST_DEAL_TABLE = 4  # cards face up on the table at the first deal of a hand
MAX_CARD_POINTS = 13


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


def card_of(card_id, what):
    """The card (4 * (number - 1) + suit) of an id such as "7a"; ValueError naming `what`
    for anything else."""
    if isinstance(card_id, str) and 2 <= len(card_id) <= 3:
        number, suit = card_id[:-1], SUIT_LETTERS.find(card_id[-1])
        if suit >= 0 and number.isdigit() and number[0] != "0" and 1 <= int(number) <= 13:
            return 4 * (int(number) - 1) + suit
    raise ValueError("%s: %r is not a card id (1a .. 13d)" % (what, card_id))


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
