"""Finding Anastasia (4-8 players): the numbers printed on the cards and player aid, and this
project's reading of every point the rulebook leaves open (docs/anastasia.md).

Both engines (engine.anastasia, the whole game, and engine.anastasia_ledger, its public
half) read their rules from here. The printed numbers are constants; each open point is
a rule option with a default in RULE_OPTIONS, and new_game(**options) may replace it.
"""

from engine import anastasia_cards as cards

MIN_PLAYERS = 4
MAX_PLAYERS = 8

# Printed numbers.
START_GEMS = 1  # every player
EMPRESS_GEMS = 4  # the Empress takes these on top of her starting gem
TOKENS_PER_PLAYER = 3
REVEAL_COST = 5  # reveal another player's role
SELF_REVEAL_COST = 7  # reveal your own role
LOOK_GEMS = 2  # "privately look at a clue" pays the active player 2 ...
LOOK_FEE = 1  # ... who then gives 1 of their own to the player they look at
EXCHANGE_GEMS = 1
QUESTION_GEMS = 1
COLLECTOR_GEMS = 10
FAMILY_FRIEND_GEMS = 4
MISINFORMANT_GEMS = 2
THIEF_STEAL = 1

# Roles that may not reveal themselves (the Empress is shown at the start anyway).
NO_SELF_REVEAL = (cards.ANASTASIA, cards.IMPOSTOR, cards.EMPRESS)
# Roles dealt in every game besides the guests drawn at random (the Empress from 5 players).
ALWAYS_DEALT = (cards.ANASTASIA, cards.RASPUTINS_AGENT)

# The rulebook's silences, as option name -> default. docs/anastasia.md gives the reasons.
RULE_OPTIONS = {
    # role key -> smallest player count that role's card is dealt at (anastasia_cards)
    "guest_min_players": None,  # None: anastasia_cards.GUEST_MIN_PLAYERS; a dict changes the marks it names
    # a payout or a refill the supply cannot cover in full: "partial" pays what is there
    # (refills go down the column from the top), "all_or_nothing" pays nothing at all
    "short_supply": "partial",
    # the Thief steals from a player with an empty purse: "nothing", or "supply" (1 from the supply)
    "thief_empty_purse": "nothing",
    # the Family Friend is revealed where no Empress plays: "skip" the Empress's clue,
    # or "family_friend" draws it
    "empress_clue_without_empress": "skip",
    # False: an undeclared Collector who holds all three categories when the game ends
    # still wins; True: only a declared set wins
    "collector_must_declare": False,
}

_CHOICES = {
    "short_supply": ("partial", "all_or_nothing"),
    "thief_empty_purse": ("nothing", "supply"),
    "empress_clue_without_empress": ("skip", "family_friend"),
    "collector_must_declare": (False, True),
}

# Guests that can be drawn at random: every role but these three.
RANDOM_GUESTS = tuple(r for r in range(cards.ROLE_COUNT)
                      if r not in (cards.ANASTASIA, cards.EMPRESS, cards.RASPUTINS_AGENT))


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def check_players(players, game):
    if not is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ValueError("%s needs %d-%d players, got %r" % (game, MIN_PLAYERS, MAX_PLAYERS, players))


def has_empress(players):
    """The 4-player game is played without the Empress."""
    return players >= 5


def random_guest_places(players):
    """How many guests are drawn at random: N-1 invites hold the Empress (from 5 players),
    Rasputin's Agent and one random guest each."""
    return players - 2 - (1 if has_empress(players) else 0)


def rule_options(players, options):
    """Validated rule options: every RULE_OPTIONS key, defaults filled in; ValueError on bad input.

    `options` may hold only RULE_OPTIONS keys (the caller removes its own).
    """
    out = {}
    for name in options:
        if name not in RULE_OPTIONS:
            raise ValueError("unknown option %r (known: %s)" % (name, ", ".join(sorted(RULE_OPTIONS))))
    for name in RULE_OPTIONS:
        value = options.get(name, RULE_OPTIONS[name])
        if name == "guest_min_players":
            value = _guest_table(players, value)
        elif value not in _CHOICES[name] or type(value) is not type(_CHOICES[name][0]):
            raise ValueError("%s must be one of %s, got %r"
                             % (name, ", ".join(repr(c) for c in _CHOICES[name]), value))
        out[name] = value
    return out


def _guest_table(players, table):
    # A given table changes only the marks it names: {"family_friend": 4} adds one guest at 4.
    if table is None:
        table = {}
    if not isinstance(table, dict):
        raise ValueError("guest_min_players must map role keys to player counts, got %r" % (table,))
    out = {}
    for key in cards.GUEST_MIN_PLAYERS:
        out[key] = cards.GUEST_MIN_PLAYERS[key]
    for key in table:
        if key not in cards.ROLE_KEYS or cards.role_id(key) not in RANDOM_GUESTS:
            raise ValueError("guest_min_players: %r is not a guest dealt at random (one of %s)"
                             % (key, ", ".join(cards.ROLE_KEYS[r] for r in RANDOM_GUESTS)))
        mark = table[key]
        if not is_int(mark) or not (MIN_PLAYERS <= mark <= MAX_PLAYERS + 1):
            raise ValueError("guest_min_players[%r] must be a player count %d-%d (%d: never dealt), got %r"
                             % (key, MIN_PLAYERS, MAX_PLAYERS + 1, MAX_PLAYERS + 1, mark))
        out[key] = mark
    places = random_guest_places(players)
    have = len(cards.eligible_guests(players, out))
    if have < places:
        raise ValueError("guest_min_players leaves %d guests for %d players, who need %d"
                         % (have, players, places))
    return out


def possible_roles(players, rules):
    """Every role that can be in a game of this size under these rules, ascending."""
    roles = list(ALWAYS_DEALT) + cards.eligible_guests(players, rules["guest_min_players"])
    if has_empress(players):
        roles.append(cards.EMPRESS)
    roles.sort()
    return roles


def player(p):
    """How a seat is named to people: P1..PN."""
    return "P%d" % (p + 1)


def role_name(r):
    return cards.ROLE_NAMES[r]


def the_role(r):
    """A role as a sentence names it: "the Thief", but "Anastasia" and "Rasputin's Agent"."""
    if r in (cards.ANASTASIA, cards.RASPUTINS_AGENT):
        return cards.ROLE_NAMES[r]
    return "the " + cards.ROLE_NAMES[r]
