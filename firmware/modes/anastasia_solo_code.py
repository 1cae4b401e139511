"""How the box says one automa action of solo Finding Anastasia: in words on the OLED, and
as the LED code a box without an OLED shows (docs/anastasia-solo-card.md, the printable card).

The LED code, one action at a time (ok steps to the next):
- LED 7 lit white: action 1 is shown; LED 8: action 2. Nothing else lit: the action was skipped.
- The guests the action names light in its verb's colour (VERB_COLOURS).
- A guest that blinks counts something: for a clue verb the card of its fan the automa
  picked (1 = the first card), for a gem verb the gems it gives. A steady guest is the one
  the verb acts on without a count (drawing, leaving, having its role revealed).

Both come from the engine's record of the turn (state.last_automa), so what the box
shows is exactly what the engine resolved.
"""

from engine import anastasia_automa as automa
from engine.anastasia_cards import ANASTASIA
from engine.anastasia_solo_rules import UNKNOWN, player_name

GUESTS = 6
STEP_SEAT = 6  # LED 7 marks action 1, LED 8 action 2
WHITE = (255, 255, 255)
VERB_COLOURS = {
    "reveal_clue": (255, 255, 0),  # yellow
    "exchange": (0, 255, 255),  # cyan
    "return_reveal": (0, 255, 0),  # green: gems come to you
    "draw": (0, 0, 255),  # blue
    "expend_reveal": (255, 0, 255),  # magenta: gems go back to the supply
    "leave": (255, 0, 0),  # red
}


def taken_tier(tiers, outcome):
    """The tier an outcome took, or None when the action was skipped."""
    return tiers[outcome["tier"]] if outcome["tier"] >= 0 else None


def led_code(tiers, outcome, step):
    """The LEDs for action `step` (0 or 1): (colours per seat, lit mask, blinks per seat)."""
    colours = [None] * (STEP_SEAT + 2)
    blinks = bytearray(STEP_SEAT + 2)
    seat = STEP_SEAT + step
    colours[seat] = WHITE
    mask = 1 << seat
    tier = taken_tier(tiers, outcome)
    if tier is None:
        return colours, mask, blinks
    verb = tier[0]
    did = outcome["did"] or {}
    counts = {}
    if verb == "reveal_clue":
        counts[tier[1]] = did["slot"] + 1
    elif verb == "exchange":
        counts[tier[1]] = did["slots"][0] + 1
        counts[tier[2]] = did["slots"][1] + 1
    elif verb in ("return_reveal", "expend_reveal"):
        counts[tier[1]] = tier[2]
    for g in automa.guests_involved(tier):
        colours[g - 1] = VERB_COLOURS[verb]
        mask |= 1 << (g - 1)
        blinks[g - 1] = counts.get(g, 0)
    return colours, mask, blinks


def wrap(text, width):
    """text in lines of at most width characters, broken at spaces."""
    lines = []
    line = ""
    for word in text.split():
        while len(word) > width:  # a word longer than a line is cut
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def action_words(tiers, outcome):
    """One automa action in words: what it does, what the table saw, why tiers above failed."""
    tier = taken_tier(tiers, outcome)
    failed = outcome["failed"]
    if tier is None:
        if failed and failed[0][0] == automa.GAME_OVER:
            return "Not taken: the game is over."
        text = "Skipped: no tier can be taken."
    else:
        text = automa.tier_text(tier) + "."
        seen = table_words(tier, outcome["did"] or {})
        if seen:
            text = text[:-1] + ": " + seen + "."
    if failed and failed[0][0] != automa.GAME_OVER:
        text += " (no %s: %s)" % (automa.TIER_NAMES[len(failed) - 1], short_reason(failed[-1]))
    return text


def table_words(tier, did):
    """What the table does or saw, short enough for the OLED: which card of a fan (card 1 is
    the first), who receives the gems, the role, the gems back to the supply; "" if nothing."""
    parts = []
    if "slots" in did:
        a, b = did["slots"]
        parts.append("G%d card %d <> G%d card %d" % (tier[1], a + 1, tier[2], b + 1))
    elif "clue" in did:
        parts.append("card %d" % (did["slot"] + 1))
    if "paid" in did:
        paid = did["paid"]
        parts.append(" ".join("%s +%d" % (player_name(p), paid[p]) for p in range(len(paid)) if paid[p]))
    if "role" in did:
        role = did["role"]
        if role == UNKNOWN:
            parts.append("Anastasia?")
        else:
            parts.append("it is Anastasia" if role == ANASTASIA else "not Anastasia")
    if did.get("gems"):
        parts.append("%d gems to supply" % did["gems"])
    return ", ".join(parts)


def short_reason(reason):
    """Why a tier could not be taken, short enough for the OLED (engine: describe_reason)."""
    what = reason[0]
    if what == automa.DECK_EMPTY:
        return "clue deck empty"
    g = reason[1]
    if what == automa.ABSENT:
        return "G%d is gone" % g
    if what == automa.NO_FACEDOWN:
        return "G%d has no face-down clue" % g
    if what == automa.NO_UNSHOWN:
        return "G%d has no unshown clue" % g
    if what == automa.ROLE_SHOWN:
        return "G%d's role is up" % g
    if what == automa.SHORT:
        return "G%d has %d gems, needs %d" % (g, reason[2], reason[3])
    return automa.describe_reason(reason)


def action_screen(card_name, tiers, outcome, step, width=16, rows=7):
    """(title, lines) for the OLED: the card and action number, then the action in words."""
    title = ("AUTOMA %s %d/2" % (card_name, step + 1))[:width]
    return title, wrap(action_words(tiers, outcome), width)[:rows]
