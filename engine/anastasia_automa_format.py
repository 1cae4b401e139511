"""Checking a solo Finding Anastasia automa deck and writing its cards as lines (format:
engine.anastasia_automa). Loaded only when a deck is checked: a game on the box keeps the
lines already checked."""

from engine.anastasia_automa import MAX_CARDS, MAX_NAME, TIER_NAMES, BadDeck, _split_line, validate_tier


def validate_card(card, index=0):
    """The card as its canonical line; BadDeck naming the card (number and name) and the field."""
    label = "automa card %d" % (index + 1)
    if isinstance(card, str):
        split = _split_line(card)
        if split is None:
            raise BadDeck("%s must read \"name: tier, tier; tier, tier\", got %r" % (label, card))
        name, actions = split
    elif isinstance(card, dict):
        for key in card:
            if key not in ("name", "actions"):
                raise BadDeck("%s: unknown field %r (a card has 'name' and 'actions')" % (label, key))
        name = card.get("name")
        actions = card.get("actions")
    else:
        raise BadDeck("%s must be a line of text or a table with 'name' and 'actions', got %r"
                      % (label, card))
    if not isinstance(name, str) or not (1 <= len(name) <= MAX_NAME) or ":" in name or name != name.strip():
        raise BadDeck("%s: the name must be 1-%d characters without ':' or outer spaces, got %r"
                      % (label, MAX_NAME, name))
    label = "automa card %d (%r)" % (index + 1, name)
    if not isinstance(actions, (list, tuple)) or len(actions) != 2:
        raise BadDeck("%s: a card has exactly 2 actions, got %s"
                      % (label, len(actions) if isinstance(actions, (list, tuple)) else repr(actions)))
    out = []
    for a in range(2):
        tiers = actions[a]
        if not isinstance(tiers, (list, tuple)) or not (1 <= len(tiers) <= len(TIER_NAMES)):
            raise BadDeck("%s, action %d: must list 1-3 tiers (primary, secondary, tertiary), got %r"
                          % (label, a + 1, tiers))
        out.append([validate_tier(tiers[t], "%s, action %d, %s tier" % (label, a + 1, TIER_NAMES[t]))
                    for t in range(len(tiers))])
    return format_card(name, out)


def format_card(name, actions):
    """The one-line form of a card from its name and two lists of list tiers."""
    return "%s: %s" % (name, "; ".join(", ".join(" ".join(str(x) for x in t) for t in tiers)
                                       for tiers in actions))


def validate_deck(cards):
    """A whole deck (a list of cards, lines or tables) as a list of canonical lines; BadDeck
    naming the first bad card and field."""
    if not isinstance(cards, (list, tuple)):
        raise BadDeck("an automa deck must be a list of cards, got %r" % (cards,))
    if not (1 <= len(cards) <= MAX_CARDS):
        raise BadDeck("an automa deck must list 1-%d cards, got %d" % (MAX_CARDS, len(cards)))
    out = []
    seen = {}
    for i in range(len(cards)):
        line = validate_card(cards[i], i)
        name = line.partition(":")[0]
        if name in seen:
            raise BadDeck("automa card %d (%r): the name is already used by automa card %d"
                          % (i + 1, name, seen[name] + 1))
        seen[name] = i
        out.append(line)
    return out
