"""Anathema moves in words, for narration on the box's display and the host tools.

describe(state, action) says what a legal action does from that state, before it is
applied: the sets a capture takes, a sweep, the table taken in at the end of a hand,
the kind of build, "last deal". Seats read P1..PN. Not used by the rules.
"""

from engine.anathema_cards import CARD_IDS, CARD_OF_ID
from engine.anathema_groups import split

REWARD_NAMES = {"peek": "Peek", "swap": "Swap", "steal": "Steal"}


def _p(seat):
    return "P%d" % (seat + 1)


def _listing(words):
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _build_index(state, cid):
    c = CARD_OF_ID.get(cid)
    for b in range(len(state.builds)):
        if state.builds[b][0][0] == c:
            return b
    return -1


def _build_words(state, b):
    cards, value, multiple, _last = state.builds[b]
    return "%s build %s (%d: %s)" % ("multiple" if multiple else "single", CARD_IDS[cards[0]], value,
                                     "+".join(CARD_IDS[c] for c in cards))


def describe(state, action):
    if not isinstance(action, (list, tuple)) or not action:
        return "not an action: %r" % (action,)
    op = action[0]
    who = _p(state.turn)
    if op == "deal":
        return _deal(state)
    if op == "trail":
        return "%s trails %s" % (who, action[1])
    if op == "capture":
        return _capture(state, who, action[1], action[2])
    if op == "build":
        return _build(state, who, action[1], action[2], action[3])
    if op == "pass":
        kind = state.pending[0][0] if state.pending else "reward"
        return "%s does not use the %s reward" % (who, REWARD_NAMES.get(kind, kind))
    if op == "peek":
        return "%s peeks at %s's hand" % (who, _p(action[1]))
    if op == "swap":
        return "%s swaps: takes %s from the table into the hand and puts %s face up there" % (
            who, action[1], action[2])
    if op == "steal":
        return "%s steals a random face-down card from %s's capture pile" % (who, _p(action[1]))
    return "unknown action %r" % (action,)


def _deal(state):
    n = state.players
    dealer = _p(state.dealer)
    if not state.deck or len(state.deck) == 52:
        text = "%s shuffles and deals hand %d: 4 cards to each player and 4 face up to the table" % (
            dealer, len(state.results) + 1)
        left = 52 - 4 - 4 * n
    else:
        text = "%s deals 4 more cards to each player" % dealer
        left = len(state.deck) - 4 * n
    if left == 0:
        text += " - last deal!"
    return text


def _capture(state, who, cid, items):
    value = CARD_OF_ID[cid] // 4 + 1
    loose = [CARD_OF_ID[i] for i in items if CARD_OF_ID[i] in state.table]
    sets = []
    groups = split([c // 4 + 1 for c in loose], value) if loose else []
    for g in groups or []:
        sets.append("+".join(CARD_IDS[loose[k]] for k in g))
    taken = len(loose)
    for i in items:
        b = _build_index(state, i)
        if b >= 0:
            sets.append(_build_words(state, b))
            taken += len(state.builds[b][0])
    text = "%s captures %s with %s" % (who, _listing(sets), cid)
    on_table = len(state.table)
    for b in state.builds:
        on_table += len(b[0])
    last_play = not state.deck and sum(len(h) for h in state.hands) == 1
    if taken == on_table and (state.rules.last_play_sweep or not last_play):
        text += ": a sweep"
    elif last_play and taken < on_table:
        text += "; last capture: %s also takes the %d cards left on the table" % (who, on_table - taken)
    if state.rules.advanced:
        earned = state.rules.rewards[CARD_OF_ID[cid]] or []
        won = []
        for target, kind in earned:
            if CARD_IDS[target] in items or _in_builds(state, target, items):
                usable = "" if _usable(state, kind, cid, loose) else ", nothing to use it on"
                won.append("%s: %s%s" % (CARD_IDS[target], REWARD_NAMES[kind], usable))
        if won:
            text += " (reward %s)" % _listing(won)
    return text


def _usable(state, kind, cid, loose):
    """Whether a reward earned by this capture can do anything (else the engine skips it)."""
    p = state.turn
    if kind == "swap":
        return len(state.table) > len(loose) and len(state.hands[p]) > 1
    for q in range(state.players):
        if q != p and (state.hands[q] if kind == "peek" else state.piles[q]):
            return True
    return False


def _in_builds(state, card, items):
    for i in items:
        b = _build_index(state, i)
        if b >= 0 and card in state.builds[b][0]:
            return True
    return False


def _build(state, who, cid, value, items):
    loose = [i for i in items if CARD_OF_ID[i] in state.table]
    builds = [_build_index(state, i) for i in items if _build_index(state, i) >= 0]
    on = " on %s" % "+".join(loose) if loose else ""
    if not builds:
        total = CARD_OF_ID[cid] // 4 + 1
        for i in loose:
            total += CARD_OF_ID[i] // 4 + 1
        kind = "single" if total == value else "multiple"
        return "%s builds a %s %d: %s%s" % (who, kind, value, cid, on)
    b = builds[0]
    cards, w, multiple, _last = state.builds[b]
    name = CARD_IDS[cards[0]]
    with_ = "%s%s" % (cid, " and " + "+".join(loose) if loose else "")
    if multiple:
        return "%s adds %s to multiple build %s (stays %d)" % (who, with_, name, w)
    total = w + CARD_OF_ID[cid] // 4 + 1
    for i in loose:
        total += CARD_OF_ID[i] // 4 + 1
    if total == value:
        return "%s raises build %s from %d to %d with %s" % (who, name, w, value, with_)
    return "%s turns build %s (%d) into a multiple %d with %s" % (who, name, w, value, with_)
