"""Automa actions in words: why a tier could not be taken, one line per resolved action (the
narration of engine.anastasia_solo_automa.describe_automa). Loaded only to tell a turn."""

from engine.anastasia_automa import (
    ABSENT,
    DECK_EMPTY,
    GAME_OVER,
    NO_FACEDOWN,
    NO_UNSHOWN,
    ROLE_SHOWN,
    SHORT,
    TIER_NAMES,
    tier_text,
)


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
