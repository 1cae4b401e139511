"""The automa of solo Finding Anastasia: its card format, the validation of a deck, and how a
card's tiers resolve against a table (docs/anastasia-solo.md).

A card has a name and two actions; an action has one to three tiers (primary, secondary,
tertiary); a tier is a verb and then its guests (1-6, as printed) and gem amounts, in the
order the card's sentence names them:

  reveal_clue N            Reveal Guest N's clue
  exchange A B             Guest A exchanges an unshown clue with Guest B
  return_reveal A N B      Guest A returns N gems to you, revealing Guest B's Role
  draw N                   Guest N draws a clue
  expend_reveal A N B      Guest A expends N gems to reveal Guest B
  leave N                  Guest N leaves the party

A card is written on one line: name, colon, the tiers of action 1 separated by commas, a
semicolon, the tiers of action 2. The printed example card reads
  "printed: reveal_clue 3, exchange 4 5, return_reveal 1 3 2; draw 6, expend_reveal 5 3 2, leave 3"
The same card as a table is also accepted (JSON or TOML files):
  {"name": "printed", "actions": [[["reveal_clue", 3], ["exchange", 4, 5], ...], [...]]}
and validate_deck() turns either into the line, the form a game keeps (a deck of lines
takes a few KB of the board's heap, the same deck as nested lists four times more).

Resolution asks a *table* only public questions (who is at the party, whose role is
face up, how many face-down and unshown clues a guest has, the gems beneath a guest,
the clue deck's size), so the same code decides for the full engine and for a box that
tracks only what the table shows. The table does the effects:

  table.present(g), role_hidden(g), facedown_count(g), unshown_count(g), gems_beneath(g),
  clue_deck_size(), return_need(n), is_over()
  table.automa_reveal_clue(g), automa_exchange(a, b), automa_return(a, n),
  automa_reveal_role(g), automa_draw(g), automa_expend(a, n), automa_leave(g)
  (each returns a small dict of what happened, kept in the resolution record)
"""

GUESTS = 6
MAX_GEMS = 20  # per tier: more than the whole table could hold beneath one guest in play
MAX_CARDS = 60
MAX_NAME = 24
TIER_NAMES = ("primary", "secondary", "tertiary")

# verb -> the names of the items that follow it in a tier, in order (guests are "guest",
# "with", "reveal"; "gems" is an amount). Errors and field() use these names.
VERBS = {
    "reveal_clue": ("guest",),
    "exchange": ("guest", "with"),
    "return_reveal": ("guest", "gems", "reveal"),
    "draw": ("guest",),
    "expend_reveal": ("guest", "gems", "reveal"),
    "leave": ("guest",),
}
VERB_ORDER = ("reveal_clue", "exchange", "return_reveal", "draw", "expend_reveal", "leave")


class BadDeck(ValueError):
    """An automa card or deck that does not follow the format; the message names the card and field."""


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def field(tier, name):
    """A tier's item by name, e.g. field(["exchange", 4, 5], "with") == 5; None if it has none."""
    names = VERBS[tier[0]]
    return tier[1 + names.index(name)] if name in names else None


# -- reading and checking cards ------------------------------------------------
def _number(word):
    """An int from a word of digits, else the word itself (so the error shows what was written)."""
    if word and len(word) <= 4 and word.isdigit():
        return int(word)
    return word


def validate_tier(tier, where="tier"):
    """A tier as a list [verb, int...] from "exchange 4 5" or ["exchange", 4, 5]; BadDeck naming
    `where` and the field if it is malformed."""
    if isinstance(tier, str):
        words = tier.split()
        tier = words[:1] + [_number(w) for w in words[1:]]
    if not isinstance(tier, (list, tuple)) or not tier:
        raise BadDeck("%s must be a verb and its numbers, like \"draw 6\", got %r" % (where, tier))
    verb = tier[0]
    if verb not in VERBS:
        raise BadDeck("%s: the verb must be one of %s, got %r" % (where, ", ".join(VERB_ORDER), verb))
    names = VERBS[verb]
    if len(tier) != 1 + len(names):
        raise BadDeck("%s: %s takes %d number%s (%s), got %d"
                      % (where, verb, len(names), "" if len(names) == 1 else "s", ", ".join(names),
                         len(tier) - 1))
    out = [verb]
    for i in range(len(names)):
        key = names[i]
        v = tier[1 + i]
        if key == "gems":
            if not _is_int(v) or not (1 <= v <= MAX_GEMS):
                raise BadDeck("%s: %s's gems must be a whole number 1-%d, got %r"
                              % (where, verb, MAX_GEMS, v))
        elif not _is_int(v) or not (1 <= v <= GUESTS):
            raise BadDeck("%s: %s's %s must be a guest number 1-%d, got %r" % (where, verb, key, GUESTS, v))
        out.append(v)
    for key in ("with", "reveal"):
        if field(out, key) == out[1]:
            raise BadDeck("%s: %s names Guest %d twice (%s and guest)" % (where, verb, out[1], key))
    return out


def _split_line(line):
    """(name, [action 1 tier texts], [action 2 tier texts]) of a card line; None if not shaped so."""
    head, colon, body = line.partition(":")
    if not colon:
        return None
    actions = body.split(";")
    return head.strip(), [[x.strip() for x in a.split(",")] for a in actions]


def validate_card(card, index=0):
    """The card as its canonical line; BadDeck naming the card (number and name) and the field
    (engine.anastasia_automa_format, loaded only to check a deck)."""
    from engine.anastasia_automa_format import validate_card

    return validate_card(card, index)


def format_card(name, actions):
    """The one-line form of a card from its name and two lists of list tiers."""
    from engine.anastasia_automa_format import format_card

    return format_card(name, actions)


def parse_card(line):
    """A card line (already validated) as {"name": str, "actions": [[tier, ...], [tier, ...]]}
    with list tiers, the form resolve_card() takes."""
    name, actions = _split_line(line)
    return {"name": name, "actions": [[validate_tier(t) for t in tiers] for tiers in actions]}


def validate_deck(cards):
    """A whole deck (a list of cards, lines or tables) as a list of canonical lines; BadDeck
    naming the first bad card and field (engine.anastasia_automa_format)."""
    from engine.anastasia_automa_format import validate_deck

    return validate_deck(cards)


# -- "can it be taken?" -----------------------------------------------------
# A reason a tier cannot be taken is a small list: [code, guest, ...]. describe_reason()
# says it in words; a box can also light the guest it names.
ABSENT = "absent"  # [ABSENT, g]: Guest g is no longer at the party
NO_FACEDOWN = "no_facedown"  # [NO_FACEDOWN, g]: every clue of Guest g is face up
NO_UNSHOWN = "no_unshown"  # [NO_UNSHOWN, g]: Guest g has no unshown clue
ROLE_SHOWN = "role_shown"  # [ROLE_SHOWN, g]: Guest g's role is already face up
SHORT = "short"  # [SHORT, g, have, need]: Guest g holds fewer gems than the tier needs
DECK_EMPTY = "deck_empty"  # [DECK_EMPTY]: no clue left to draw
GAME_OVER = "over"  # [GAME_OVER]: the first action ended the game


def blocker(table, tier):
    """None if the tier can be taken on this table now, else the first reason it cannot."""
    verb = tier[0]
    g = tier[1]
    if not table.present(g):
        return [ABSENT, g]
    if verb == "reveal_clue":
        if table.facedown_count(g) == 0:
            return [NO_FACEDOWN, g]
        return None
    if verb == "draw":
        if table.clue_deck_size() == 0:
            return [DECK_EMPTY]
        return None
    if verb == "leave":
        return None
    if verb == "exchange":
        b = tier[2]
        if not table.present(b):
            return [ABSENT, b]
        for who in (g, b):
            if table.unshown_count(who) == 0:
                return [NO_UNSHOWN, who]
        return None
    # return_reveal, expend_reveal: [verb, giver, gems, revealed guest]
    b = tier[3]
    if not table.present(b):
        return [ABSENT, b]
    if not table.role_hidden(b):
        return [ROLE_SHOWN, b]
    need = table.return_need(tier[2]) if verb == "return_reveal" else tier[2]
    have = table.gems_beneath(g)
    if have < need:
        return [SHORT, g, have, need]
    return None


def _take(table, tier):
    """Carry out a tier that can be taken; returns what happened (a dict for the record)."""
    verb = tier[0]
    g = tier[1]
    if verb == "reveal_clue":
        return table.automa_reveal_clue(g)
    if verb == "exchange":
        return table.automa_exchange(g, tier[2])
    if verb == "draw":
        return table.automa_draw(g)
    if verb == "leave":
        return table.automa_leave(g)
    if verb == "return_reveal":
        did = table.automa_return(g, tier[2])
    else:
        did = table.automa_expend(g, tier[2])
    did.update(table.automa_reveal_role(tier[3]))
    return did


def resolve_action(table, tiers):
    """Take the first tier that can be taken: {"tier": 0-2 or -1 (skipped), "failed": [reasons
    of the tiers above it, in order], "did": what happened or None}."""
    failed = []
    if table.is_over():
        return {"tier": -1, "failed": [[GAME_OVER]], "did": None}
    for t in range(len(tiers)):
        reason = blocker(table, tiers[t])
        if reason is None:
            return {"tier": t, "failed": failed, "did": _take(table, tiers[t])}
        failed.append(reason)
    return {"tier": -1, "failed": failed, "did": None}


def resolve_card(table, card):
    """Both actions of a card in order (the second is judged after the first took effect)."""
    return [resolve_action(table, card["actions"][0]), resolve_action(table, card["actions"][1])]


# -- words ----------------------------------------------------------------
def tier_text(tier):
    """The tier as the card prints it, e.g. "Guest 4 exchanges an unshown clue with Guest 5"."""
    verb = tier[0]
    g = tier[1]
    if verb == "reveal_clue":
        return "Reveal Guest %d's clue" % g
    if verb == "exchange":
        return "Guest %d exchanges an unshown clue with Guest %d" % (g, tier[2])
    if verb == "return_reveal":
        return "Guest %d returns %d gems to you, revealing Guest %d's role" % (g, tier[2], tier[3])
    if verb == "draw":
        return "Guest %d draws a clue" % g
    if verb == "expend_reveal":
        return "Guest %d expends %d gems to reveal Guest %d" % (g, tier[2], tier[3])
    return "Guest %d leaves the party" % g


def describe_reason(reason):
    """Why a tier could not be taken, in words (engine.anastasia_automa_words)."""
    from engine.anastasia_automa_words import describe_reason

    return describe_reason(reason)


def guests_involved(tier):
    """The guests a tier names, in printed order (what a box lights)."""
    return [field(tier, k) for k in ("guest", "with", "reveal") if k in VERBS[tier[0]]]


def describe_action(tiers, outcome, outcome_text=None):
    """One line for one resolved action (engine.anastasia_automa_words)."""
    from engine.anastasia_automa_words import describe_action

    return describe_action(tiers, outcome, outcome_text)
