"""Finding Anastasia in words: one line per ledger entry or game action, for narration.

Loaded only to show a game to people (the host's narrator, the box's display), never by
the rules, so the box's heap does not hold these strings while it keeps the ledger.
"""

from engine import anastasia_cards as cards
from engine import anastasia_rules as rules
from engine.anastasia_rules import player, the_role


def ledger_line(s, entry):
    """What a ledger entry does, in words (s: the ledger state before the entry)."""
    name, args = s.check(entry)  # IllegalAction, with the reason, for an entry that cannot be made
    if name == "react":
        shown = cards.clue_label(s.react[0]) if s.react else "the claimed clue"
        return "%s reacts: shows %s face up" % (player(args[0]), shown)
    fr = s.frame()
    p = fr[1] if fr else -1
    who = player(p)
    if name == "answer" or name == "question":
        lead = "%s asks %s" % (who, player(args[0])) if name == "answer" else \
            "%s asks %s a further question (+%d)" % (who, player(args[0]), rules.QUESTION_GEMS)
        gems = s.spaces[args[1]]
        return "%s: %s claims %s (%d gem%s on the space)" % (
            lead, player(args[0]), cards.clue_label(args[1]), gems, "" if gems == 1 else "s")
    if name == "role":
        return "%s was %s" % (player(args[0]), the_role(args[1]))
    if name == "collector_set":
        return "%s (Collector) %s" % (who, "holds all three categories" if args[0] else "has no full set")
    if name == "reveal":
        return "%s pays %d to reveal %s: %s" % (
            who, rules.REVEAL_COST, player(args[0]), the_role(args[1]))
    if name == "reveal_self":
        return "%s pays %d to reveal themselves: %s" % (
            who, rules.SELF_REVEAL_COST, the_role(args[0]))
    if name == "poison":
        return "%s (Rasputin's Agent) reveals and poisons %s: %s" % (
            who, player(args[0]), the_role(args[1]))
    if name == "peek":
        return "%s (Psychic) looks at %s's role: %s" % (
            who, player(args[0]), "Anastasia! revealed" if args[1] else "not Anastasia")
    if name == "allegiance":
        side = "if Anastasia wins" if args[0] else "if Anastasia does not win"
        return "%s (Gossip) wins %s" % (who, side)
    if name in ("gems", "clue"):
        if fr[0] == "collector":
            what = "%d gems" % rules.COLLECTOR_GEMS if name == "gems" else "a clue"
            return "%s (Collector) takes %s" % (who, what)
        what = "%d gems" % rules.MISINFORMANT_GEMS if name == "gems" else "a clue"
        return "%s takes %s (Misinformant)" % (who, what)
    words = {
        "declare": "declares the Collector's set: one clue of each category",
        "look": "looks at a clue of %s (+%d, gives %d)" % (
            player(args[0]) if args else "", rules.LOOK_GEMS, rules.LOOK_FEE),
        "exchange": "exchanges a clue with %s (+%d)" % (
            player(args[0]) if args else "", rules.EXCHANGE_GEMS),
        "draw": "draws 2 clues and keeps 1",
        "pass": "takes no free action",
        "snoop": "(Gossip) looks at the hand of %s" % (player(args[0]) if args else ""),
    }
    return "%s %s" % (who, words[name])


def game_line(s, action):
    """What an action of the whole game does, for a spectator who sees every card
    (s: the engine.anastasia state before the action)."""
    name, args, entry = s.plan(action)
    sec = s.secret
    if sec is not None:
        t = sec[1]
        if name == "answer":
            return ledger_line(s.table, entry)
        if name == "react":
            return "%s reacts: shows %s face up, the answer was a lie" % (
                player(t), cards.clue_label(s.table.react[0]))
        if name == "no_reaction":
            return "%s keeps %s hidden" % (player(t), cards.clue_label(s.table.react[0]))
        if name == "show":
            return "%s privately shows %s: %s" % (player(t), player(sec[2]), cards.clue_label(args[0]))
        if name == "give":
            return "%s hands %s back: %s" % (player(t), player(sec[2]), cards.clue_label(args[0]))
        return "%s keeps %s, puts %s back on the deck" % (
            player(t), cards.clue_label(args[0]), cards.clue_label(sec[3] if args[0] == sec[2] else sec[2]))
    p = s.table.frame()[1]
    if name == "ask" or name == "question":
        more = " (further question, +%d)" % rules.QUESTION_GEMS if name == "question" else ""
        return "%s asks %s about their %s%s" % (
            player(p), player(args[0]), cards.CATEGORY_NAMES[args[1]], more)
    if name == "exchange":
        return "%s exchanges a clue with %s (+%d), giving %s" % (
            player(p), player(args[0]), rules.EXCHANGE_GEMS, cards.clue_label(args[1]))
    if name == "peek":
        return "%s (Psychic) looks at %s's role: %s%s" % (
            player(p), player(args[0]), the_role(s.roles[args[0]]),
            ", revealed!" if entry[2] else "")
    if name == "snoop":
        hand = ", ".join(cards.clue_label(c) for c in s.hands[args[0]])
        return "%s (Gossip) looks at %s's hand: %s" % (player(p), player(args[0]), hand)
    return ledger_line(s.table, entry)
