"""The numbers, readings and names of solo Finding Anastasia, in one place (docs/anastasia-solo.md).

OPTIONS holds every number of the 1-3 player rules and this project's reading of each
point the rulebook leaves open; new_game(seed, players, **options) replaces any of them.
validate() checks a whole set of options and returns a clean copy. The names below are
the values a saved state uses.
"""

from engine import anastasia_automa

GUESTS = 6

# Where a guest is.
PARTY = 0
REMOVED = 1  # removed by a player, role set aside unrevealed
LEFT = 2  # sent away by the automa ("leaves the party")

# Phases.
PLAY = "play"
AUTOMA = "automa"  # the round is over: the automa's turn is next
REVEAL = "reveal"  # cards "table": a role was turned over and the table says what it is
OVER = "over"

# How a game ended (result["reason"]).
FOUND = "found"  # a player revealed Anastasia
AUTOMA_FOUND = "automa_found"  # the automa revealed her
ALL_OUT = "all_out"  # every player revealed a guest who was not Anastasia
NONE_HIDDEN = "none_hidden"  # no guest at the party still has a face-down role

# With cards "table" the engine does not know the cards: a card or role it has not been
# told is UNKNOWN, and a role the table saw that was not Anastasia is OTHER_ROLE.
UNKNOWN = -1
OTHER_ROLE = -2

# Readings of the open points, each with the values an option may take (default first).
CHOICES = {
    # Who receives "Guest A returns N gems to you" with several players: "share" deals the N
    # gems one at a time to the players still in, in turn, going on where the last share
    # stopped; "each" gives N to every player still in (Guest A must hold N per player).
    "returned_gems": ("share", "each"),
    # The automa reveals Anastasia: the automa found her first and the players lose, or the
    # table found her together and every player still in wins.
    "automa_finds_anastasia": ("players_lose", "players_win"),
    # The 2-3 player tokens: one pool the table shares, or that many for each player.
    "token_pool": ("shared", "each"),
    # "An unshown clue": one that has been neither revealed nor privately looked at (looking
    # is the rulebook's "privately shows"), or any face-down clue.
    "unshown": ("unlooked", "face_down"),
    # Where the gems paid to reveal a guest's clue go: beneath that guest (so "the gems
    # beneath a guest" are its starting gems plus what its clues earned), or the supply.
    "clue_fee_to": ("guest", "supply"),
    # Who holds the cards: "dealt", the engine deals and knows them all (a whole game, for
    # simulations and tests); "table", the cards are real and on a table, the engine knows
    # only what it is told (what a box keeps): a draw is kept at once, and a role turned over,
    # by a player or by the automa, waits for ["role_seen", "anastasia" | "other"].
    "cards": ("dealt", "table"),
    # Which built-in automa deck plays when no automa_deck is given (engine.anastasia_automa_deck).
    "difficulty": ("normal", "easy", "hard"),
}

OPTIONS = {
    "purse_solo": 10,  # gems in the purse of a solo player (printed)
    "purse_group": 6,  # gems in each purse with 2-3 players (printed)
    "tokens_solo": 2,  # tokens of a solo player (printed)
    "tokens_group": 4,  # tokens with 2-3 players (printed; see token_pool)
    "guest_gems": 3,  # gems from the supply beneath each guest at the start
    "gem_total": 50,  # gems in the box (printed: 50 red gems)
    "deck_blanks": 0,  # unused Blank clues shuffled into the clue deck (printed: back to the box)
    "returned_gems": "share",
    "automa_finds_anastasia": "players_lose",
    "token_pool": "shared",
    "unshown": "unlooked",
    "clue_fee_to": "guest",
    "cards": "dealt",
    "automa_deck": None,  # a list of automa cards (engine.anastasia_automa format); None: a built-in deck
    "difficulty": "normal",  # the built-in deck: "easy", "normal" (DEFAULT_DECK) or "hard"
    "away": [],  # guests (1-6) no longer at the party at the set-up: no gems beneath, never in play
}

# name -> (lowest, highest) for the number options.
RANGES = {
    "purse_solo": (0, 50),
    "purse_group": (0, 50),
    "tokens_solo": (0, 20),
    "tokens_group": (0, 20),
    "guest_gems": (0, 20),
    "gem_total": (1, 200),
    "deck_blanks": (0, 9),  # 14 Blanks, 5 of them dealt to the guests
}


def player_name(p):
    """How a person sees seat p: P1, P2, P3."""
    return "P%d" % (p + 1)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _away(value):
    """The guests away at the set-up as a sorted list; ValueError unless distinct guests 1-6,
    at least one left at the party."""
    if not isinstance(value, list) or len(value) >= GUESTS:
        raise ValueError("option away must be a list of at most %d guests, got %r" % (GUESTS - 1, value))
    for g in value:
        if not _is_int(g) or not (1 <= g <= GUESTS) or value.count(g) > 1:
            raise ValueError("option away must name different guests 1-%d, got %r" % (GUESTS, value))
    return sorted(value)


def validate(players, options):
    """Every option filled in and checked; ValueError naming the option if one is wrong.

    A user's automa deck comes back as a validated copy (anastasia_automa.BadDeck, a
    ValueError, names the card and field); None stands for the built-in deck."""
    for name in options:
        if name not in OPTIONS:
            raise ValueError("unknown anastasia_solo option %r (known: %s)"
                             % (name, ", ".join(sorted(OPTIONS))))
    out = {}
    for name in OPTIONS:
        value = options[name] if name in options else OPTIONS[name]
        if name in RANGES:
            lo, hi = RANGES[name]
            if not _is_int(value) or not (lo <= value <= hi):
                raise ValueError("option %s must be a whole number %d-%d, got %r" % (name, lo, hi, value))
        elif name in CHOICES:
            if value not in CHOICES[name]:
                raise ValueError("option %s must be one of %s, got %r"
                                 % (name, ", ".join(CHOICES[name]), value))
        out[name] = value
    out["away"] = _away(out["away"])
    if out["automa_deck"] is not None:
        if out["difficulty"] != "normal":
            raise ValueError("option difficulty picks a built-in automa deck; it cannot go with your own "
                             "automa_deck (difficulty %r)" % out["difficulty"])
        out["automa_deck"] = anastasia_automa.validate_deck(out["automa_deck"])
    purse = out["purse_solo"] if players == 1 else out["purse_group"]
    needed = purse * players + out["guest_gems"] * GUESTS
    if needed > out["gem_total"]:
        raise ValueError("the set-up needs %d gems (%d in each of %d purses, %d beneath each guest) but "
                         "gem_total is %d" % (needed, purse, players, out["guest_gems"], out["gem_total"]))
    return out
