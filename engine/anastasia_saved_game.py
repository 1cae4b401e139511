"""Finding Anastasia saved states of the whole game: the checks of anastasia.from_dict.

Apart from the ledger's (engine.anastasia_saved): a box restores only ledger states and
compiles only that half; the host and the tests restore whole games too.
"""

from engine import anastasia_cards as cards
from engine.anastasia_rules import is_int, player, the_role
from engine.anastasia_saved import _header, load
from engine.core import BadState
from engine.data import copy_data, load_checked
from engine.rng import Rng


# -- the whole game ------------------------------------------------------------------------
def _bad_game(msg):
    raise BadState("bad anastasia state: " + msg)


def _cards(v, what):
    if not isinstance(v, list):
        _bad_game("%s must be a list of clue card ids" % what)
    for c in v:
        if type(c) is not int or c < 0 or c >= cards.CLUE_COUNT:
            _bad_game("%s: %r is not a clue card id 0-%d" % (what, c, cards.CLUE_COUNT - 1))
    return list(v)


def load_game(d):
    """anastasia.from_dict: rebuild a saved state of the whole game; BadState if it is not valid."""
    return load_checked(_load, d, "anastasia")


def _load(d):
    from engine.anastasia import MAX_SEEN, AnastasiaState  # the whole game only: the box never needs it

    _header(d, "anastasia")
    table = load(d["table"])
    n = table.players
    rng_state = d["rng"]
    if not isinstance(rng_state, list) or not all(is_int(v) for v in rng_state):
        _bad_game("rng must be a list of ints")
    s = AnastasiaState(table, Rng(state=rng_state))
    roles = d["roles"]
    if not isinstance(roles, list) or len(roles) != n:
        _bad_game("roles must list %d players" % n)
    for p in range(n):
        r = roles[p]
        if not is_int(r) or r not in table.possible:
            _bad_game("roles: %r is not dealt with %d players" % (r, n))
        if table.roles[p] >= 0 and table.roles[p] != r:
            _bad_game("%s is shown as %s but holds %s" % (
                player(p), the_role(table.roles[p]), the_role(r)))
    if len(set(roles)) != n or cards.ANASTASIA not in roles or cards.RASPUTINS_AGENT not in roles:
        _bad_game("roles must differ and include Anastasia and Rasputin's Agent")
    s.roles = list(roles)
    hands = d["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        _bad_game("hands must list %d players" % n)
    s.hands = [sorted(_cards(h, "hands")) for h in hands]
    s.deck = _cards(d["deck"], "deck")
    s.box = _cards(d["box"], "box")
    seen = d["seen"]
    if not isinstance(seen, list) or len(seen) != n:
        _bad_game("seen must list %d players" % n)
    for obs in seen:
        if not isinstance(obs, list) or len(obs) > MAX_SEEN:
            _bad_game("seen must hold at most %d observations per player" % MAX_SEEN)
        for o in obs:
            if not isinstance(o, list) or not o or o[0] not in OBSERVATIONS:
                _bad_game("unknown observation %r" % (o,))
    s.seen = copy_data(seen)
    s.secret = _load_secret(d["secret"], s)
    placed = s.deck + s.box
    for h in s.hands:
        placed = placed + h
    sec = s.secret
    if sec is not None and sec[0] == "keep":
        placed = placed + [sec[2], sec[3]]
    placed.sort()
    if placed != list(range(cards.CLUE_COUNT)):
        _bad_game("every clue card must lie in exactly one place")
    for c in s.box:
        if c < cards.FIRST_BLANK:
            _bad_game("only Blank clues stay in the box")
    keep = 1 if sec is not None and sec[0] == "keep" else 0
    for p in range(n):
        mine = len(s.hands[p]) + s.in_transit(p)
        if mine != table.hands[p]:
            _bad_game("%s holds %d clues, the table counts %d" % (player(p), mine, table.hands[p]))
        up = table.face_up[p]
        if up >= 0 and up not in s.hands[p]:
            _bad_game("%s shows %s face up but does not hold it" % (player(p), cards.clue_label(up)))
    if len(s.deck) + keep != table.deck:
        _bad_game("the deck holds %d clues, the table counts %d" % (len(s.deck) + keep, table.deck))
    if table.ended is not None and sec is None and not table.is_over():
        _bad_game("an ended game must have every role entered")
    return s


OBSERVATIONS = ("shown", "got", "gave", "returned", "hand", "role")
SECRET_SIZES = {"answer": 4, "react": 2, "show": 3, "give": 4, "keep": 4}


def _load_secret(sec, s):
    if sec is None:
        return None
    n = s.players
    if not isinstance(sec, list) or not sec or sec[0] not in SECRET_SIZES:
        _bad_game("unknown secret decision %r" % (sec,))
    size = SECRET_SIZES[sec[0]]
    if len(sec) != size or not all(is_int(v) for v in sec[1:]):
        _bad_game("secret decision %r must have %d fields" % (sec, size))
    if not (0 <= sec[1] < n):
        _bad_game("secret decision %r names no player" % (sec,))
    kind = sec[0]
    if kind == "answer" and (sec[2] not in cards.CATEGORIES or sec[3] not in (0, 1)):
        _bad_game("secret decision %r: bad category or kind" % (sec,))
    if kind in ("show", "give") and not (0 <= sec[2] < n):
        _bad_game("secret decision %r names no player" % (sec,))
    if kind == "give" and sec[3] not in s.hands[sec[1]]:
        _bad_game("the clue to hand back must be answered from the receiver's hand")
    if kind == "keep":
        for c in sec[2:]:
            if not (0 <= c < cards.FIRST_BLANK):
                _bad_game("only real clues are drawn")
    if kind == "react" and s.table.react is None:
        _bad_game("a Reaction needs a claimed answer")
    return list(sec)
