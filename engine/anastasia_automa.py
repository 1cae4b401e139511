"""The automa of solo Finding Anastasia: its card format, the validation of a deck, and how a
card's tiers resolve against a table (docs/anastasia-solo.md).

A card is {"name": str, "actions": [action 1, action 2]}; an action is a list of one to
three tiers (primary, secondary, tertiary); a tier is a dict naming its verb in "do" and
its guests (1-6, as printed) and gem amounts:

  {"do": "reveal_clue",   "guest": N}                     Reveal Guest N's clue
  {"do": "exchange",      "guest": A, "with": B}          Guest A exchanges an unshown clue with Guest B
  {"do": "return_reveal", "guest": A, "gems": N, "reveal": B}
                                           Guest A returns N gems to you, revealing Guest B's Role
  {"do": "draw",          "guest": N}                     Guest N draws a clue
  {"do": "expend_reveal", "guest": A, "gems": N, "reveal": B}
                                           Guest A expends N gems to reveal Guest B
  {"do": "leave",         "guest": N}                     Guest N leaves the party

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

# verb -> the fields a tier of that verb has besides "do" (guests are "guest", "with",
# "reveal"; "gems" is an amount). The order is the order of the printed sentence.
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


# -- validation ---------------------------------------------------------------
def _card_label(index, card):
    name = card.get("name") if isinstance(card, dict) else None
    if isinstance(name, str):
        return "automa card %d (%r)" % (index + 1, name)
    return "automa card %d" % (index + 1)


def validate_tier(tier, where="tier"):
    """A clean copy of one tier; BadDeck naming `where` and the field if it is malformed."""
    if not isinstance(tier, dict):
        raise BadDeck("%s must be a table like {\"do\": \"draw\", \"guest\": 6}, got %r" % (where, tier))
    verb = tier.get("do")
    if verb not in VERBS:
        raise BadDeck("%s: field 'do' must be one of %s, got %r" % (where, ", ".join(VERB_ORDER), verb))
    fields = VERBS[verb]
    for key in tier:
        if key != "do" and key not in fields:
            raise BadDeck("%s: %s takes the fields %s; unknown field %r"
                          % (where, verb, ", ".join(fields), key))
    out = {"do": verb}
    for key in fields:
        if key not in tier:
            raise BadDeck("%s: %s needs the field %r" % (where, verb, key))
        v = tier[key]
        if key == "gems":
            if not _is_int(v) or not (1 <= v <= MAX_GEMS):
                raise BadDeck("%s: field 'gems' must be a whole number 1-%d, got %r" % (where, MAX_GEMS, v))
        elif not _is_int(v) or not (1 <= v <= GUESTS):
            raise BadDeck("%s: field %r must be a guest number 1-%d, got %r" % (where, key, GUESTS, v))
        out[key] = v
    other = out.get("with", out.get("reveal"))
    if other is not None and other == out["guest"]:
        raise BadDeck("%s: field %r names Guest %d, the same guest as field 'guest'"
                      % (where, "with" if "with" in out else "reveal", other))
    return out


def validate_card(card, index=0):
    """A clean copy of one card; BadDeck naming the card (number and name) and the field."""
    label = _card_label(index, card)
    if not isinstance(card, dict):
        raise BadDeck("%s must be a table with 'name' and 'actions', got %r" % (label, card))
    for key in card:
        if key not in ("name", "actions"):
            raise BadDeck("%s: unknown field %r (a card has 'name' and 'actions')" % (label, key))
    name = card.get("name")
    if not isinstance(name, str) or not (1 <= len(name) <= MAX_NAME):
        raise BadDeck("%s: field 'name' must be a text of 1-%d characters, got %r" % (label, MAX_NAME, name))
    actions = card.get("actions")
    if not isinstance(actions, (list, tuple)) or len(actions) != 2:
        raise BadDeck("%s: field 'actions' must list exactly 2 actions, got %r" % (label, actions))
    out = []
    for a in range(2):
        tiers = actions[a]
        if not isinstance(tiers, (list, tuple)) or not (1 <= len(tiers) <= len(TIER_NAMES)):
            raise BadDeck("%s, action %d: must list 1-3 tiers (primary, secondary, tertiary), got %r"
                          % (label, a + 1, tiers))
        out.append([validate_tier(tiers[t], "%s, action %d, %s tier" % (label, a + 1, TIER_NAMES[t]))
                    for t in range(len(tiers))])
    return {"name": name, "actions": out}


def validate_deck(cards):
    """A clean copy of a whole deck (a list of cards); BadDeck naming the first bad card and field."""
    if not isinstance(cards, (list, tuple)):
        raise BadDeck("an automa deck must be a list of cards, got %r" % (cards,))
    if not (1 <= len(cards) <= MAX_CARDS):
        raise BadDeck("an automa deck must list 1-%d cards, got %d" % (MAX_CARDS, len(cards)))
    out = []
    seen = {}
    for i in range(len(cards)):
        card = validate_card(cards[i], i)
        if card["name"] in seen:
            raise BadDeck("%s: the name is already used by automa card %d"
                          % (_card_label(i, card), seen[card["name"]] + 1))
        seen[card["name"]] = i
        out.append(card)
    return out


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
    verb = tier["do"]
    g = tier["guest"]
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
        b = tier["with"]
        if not table.present(b):
            return [ABSENT, b]
        for who in (g, b):
            if table.unshown_count(who) == 0:
                return [NO_UNSHOWN, who]
        return None
    # return_reveal, expend_reveal
    b = tier["reveal"]
    if not table.present(b):
        return [ABSENT, b]
    if not table.role_hidden(b):
        return [ROLE_SHOWN, b]
    need = table.return_need(tier["gems"]) if verb == "return_reveal" else tier["gems"]
    have = table.gems_beneath(g)
    if have < need:
        return [SHORT, g, have, need]
    return None


def _take(table, tier):
    """Carry out a tier that can be taken; returns what happened (a dict for the record)."""
    verb = tier["do"]
    g = tier["guest"]
    if verb == "reveal_clue":
        return table.automa_reveal_clue(g)
    if verb == "exchange":
        return table.automa_exchange(g, tier["with"])
    if verb == "draw":
        return table.automa_draw(g)
    if verb == "leave":
        return table.automa_leave(g)
    if verb == "return_reveal":
        did = table.automa_return(g, tier["gems"])
    else:
        did = table.automa_expend(g, tier["gems"])
    did.update(table.automa_reveal_role(tier["reveal"]))
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
    verb = tier["do"]
    g = tier["guest"]
    if verb == "reveal_clue":
        return "Reveal Guest %d's clue" % g
    if verb == "exchange":
        return "Guest %d exchanges an unshown clue with Guest %d" % (g, tier["with"])
    if verb == "return_reveal":
        return "Guest %d returns %d gems to you, revealing Guest %d's role" % (
            g, tier["gems"], tier["reveal"])
    if verb == "draw":
        return "Guest %d draws a clue" % g
    if verb == "expend_reveal":
        return "Guest %d expends %d gems to reveal Guest %d" % (g, tier["gems"], tier["reveal"])
    return "Guest %d leaves the party" % g


def describe_reason(reason):
    code = reason[0]
    if code == ABSENT:
        return "Guest %d is no longer at the party" % reason[1]
    if code == NO_FACEDOWN:
        return "Guest %d has no face-down clue" % reason[1]
    if code == NO_UNSHOWN:
        return "Guest %d has no unshown clue" % reason[1]
    if code == ROLE_SHOWN:
        return "Guest %d's role is already revealed" % reason[1]
    if code == SHORT:
        return "Guest %d holds %d gems, %d needed" % (reason[1], reason[2], reason[3])
    if code == DECK_EMPTY:
        return "the clue deck is empty"
    if code == GAME_OVER:
        return "the game is over"
    return "unknown reason %r" % (reason,)


def guests_involved(tier):
    """The guests a tier names, in printed order (what a box lights)."""
    return [tier[k] for k in ("guest", "with", "reveal") if k in tier]


def describe_action(tiers, outcome, outcome_text=None):
    """One line for one resolved action, e.g. "Guest 4 exchanges an unshown clue with Guest 5
    (primary could not be taken: Guest 3 has no face-down clue)". outcome_text, if given, is
    what the table saw (a revealed clue or role), added after a colon."""
    t = outcome["tier"]
    failed = outcome["failed"]
    if t < 0:
        if failed and failed[0][0] == GAME_OVER:
            return "not taken: the game is over"
        text = "skipped"
    else:
        text = tier_text(tiers[t])
        if outcome_text:
            text += ": " + outcome_text
    why = ["%s could not be taken: %s" % (TIER_NAMES[i], describe_reason(failed[i]))
           for i in range(len(failed))]
    if why:
        text += " (" + "; ".join(why) + ")"
    return text
