"""Solo Finding Anastasia read out: an automa turn in words, a player's view, every clue card
with where it lies. Methods of engine.anastasia_solo.SoloState kept apart, loaded only when
asked for (a box that runs the game does not hold them)."""

from engine import anastasia_automa
from engine.anastasia_solo_automa import outcome_text
from engine.anastasia_solo_rules import GUESTS, OVER, player_name


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def describe_automa(state):
    """The latest automa turn in words, one line per item, e.g. ["Automa card 'printed'",
    "1: Reveal Guest 3's clue: card 2, Trinket: Locket", "2: Guest 6 draws a clue"]. While the
    table is to say what a turned role is, the last line ends with that question."""
    rec = state.last_automa
    if rec is None:
        return []
    card = anastasia_automa.parse_card(state.deck_cards[rec["card"]])
    lines = ["Automa card %r%s" % (card["name"], " (deck reshuffled)" if rec["reshuffled"] else "")]
    for a in range(len(rec["actions"])):
        outcome = rec["actions"][a]
        tiers = card["actions"][a]
        taken = tiers[outcome["tier"]] if outcome["tier"] >= 0 else None
        lines.append("%d: %s" % (a + 1, anastasia_automa.describe_action(
            tiers, outcome, outcome_text(taken, outcome["did"]))))
    return lines


def all_clues(state):
    """Every clue card in the game with where it lies (for checks): [(card, place)]."""
    out = [(c, "deck") for c in state.clue_deck] + [(c, "box") for c in state.box]
    for i in range(GUESTS):
        out.extend((c, "guest %d" % (i + 1)) for c in state.guests[i].clues)
    for p in range(state.players):
        out.extend((c, "hand %s" % player_name(p)) for c in state.hands[p])
    if state.drawn:
        out.extend((c, "drawn") for c in state.drawn)
    return out


def view(state, player):
    """What player `player` may see: face-up cards, counts of face-down ones, the clues they
    looked at or drew themselves; no PRNG, no automa deck order. Every role shows once the
    game is over."""
    if not _is_int(player) or not (0 <= player < state.players):
        raise ValueError("no player %r in a %d-player game" % (player, state.players))
    d = state.to_dict()
    del d["rng"]
    bit = 1 << player
    over = state.phase == OVER
    d["roles"] = [x.role if (x.role_shown or over) else None for x in state.guests]
    d["clues"] = [[x.clues[s] if (x.revealed[s] or x.looked[s] & bit) else None
                   for s in range(len(x.clues))] for x in state.guests]
    d["hands"] = [list(state.hands[p]) if p == player else len(state.hands[p]) for p in range(state.players)]
    d["clue_deck"] = len(state.clue_deck)
    d["box"] = len(state.box)
    d["automa_deck"] = len(state.automa_deck)
    if state.drawn is not None and state.turn != player:
        d["drawn"] = len(state.drawn)
    return d
