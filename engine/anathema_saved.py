"""Loading a saved Anathema state: anathema.from_dict() checks every invariant of a real game
and raises core.BadState naming the first one broken (docs/anathema.md, "Saved state")."""

from engine import anathema
from engine.anathema_cards import CARD_OF_ID, REWARD_KINDS
from engine.anathema_groups import can_split
from engine.core import CHANCE, BadState
from engine.data import load_checked
from engine.rng import Rng

MAX_COUNT = 100000  # any tally or total of a saved game is far below this
RESULT_LISTS = ("cards", "familiars", "sweeps", "card_points", "most_cards", "most_familiars", "points")


def _bad(msg):
    raise BadState("bad anathema state: " + msg)


def _int_in(v, lo, hi, what):
    if type(v) is not int or not (lo <= v <= hi):
        _bad("%s must be an int %d-%d, got %r" % (what, lo, hi, v))
    return v


def _cards(v, what):
    if not isinstance(v, list):
        _bad("%s must be a list of card ids" % what)
    try:
        # Only str keys are in CARD_OF_ID: anything else fails the lookup.
        return [CARD_OF_ID[cid] for cid in v]
    except (KeyError, TypeError):
        pass
    for cid in v:
        if not isinstance(cid, str) or cid not in CARD_OF_ID:
            _bad("%s: %r is not a card id" % (what, cid))
    return _bad("%s: not a list of card ids" % what)


def _per_seat(v, n, what):
    if not isinstance(v, list) or len(v) != n:
        _bad("%s must be a list of %d card lists" % (what, n))
    return [_cards(x, what) for x in v]


def _ints(v, n, what):
    if not isinstance(v, list) or len(v) != n:
        _bad("%s must be a list of %d ints" % (what, n))
    for x in v:
        if type(x) is not int or x < 0 or x > MAX_COUNT:
            _bad("%s must hold ints 0-%d, got %r" % (what, MAX_COUNT, x))
    return list(v)


def load(d):
    return load_checked(_load, d, "anathema")


def _load(d):
    if not isinstance(d, dict) or d.get("game") != "anathema":
        _bad("not an anathema state")
    if d.get("version") != anathema.STATE_VERSION:
        _bad("unknown version %r" % (d.get("version"),))
    n = _int_in(d["players"], anathema.MIN_PLAYERS, anathema.MAX_PLAYERS, "players")
    if not isinstance(d["options"], dict):
        _bad("options must be a dict")
    try:
        rules = anathema.make_rules(n, d["options"])
    except ValueError as e:
        _bad(str(e))
    rng = d["rng"]
    if not isinstance(rng, list) or not all(type(v) is int for v in rng):
        _bad("rng must be a list of ints")
    s = anathema.AnathemaState(rules, Rng(state=rng))
    s.dealer = _int_in(d["dealer"], 0, n - 1, "dealer")
    s.deals = _int_in(d["deals"], 0, rules.deals_per_hand(), "deals")
    s.turn = _int_in(d["turn"], 0, n - 1, "turn")
    s.deck = _cards(d["deck"], "deck")
    s.hands = _per_seat(d["hands"], n, "hands")
    s.table = _cards(d["table"], "table")
    s.piles = _per_seat(d["piles"], n, "piles")
    s.sweeps = _per_seat(d["sweeps"], n, "sweeps")
    placed = s.deck + s.table
    for group in (s.hands, s.piles, s.sweeps):
        for cards in group:
            placed += cards
    s.builds = _builds(d["builds"], rules, n)
    for b in s.builds:
        placed += b[0]
    if sorted(placed) != list(range(52)):
        _bad("each of the 52 cards must lie in exactly one place")
    lc = d["last_capture"]
    s.last_capture = -1 if lc is None else _int_in(lc, 0, n - 1, "last_capture")
    s.pending = _pending(d["pending"], rules)
    s.peeks = _peeks(d["peeks"], n)
    _deal_shape(s, n)
    _hand_sizes(s, n)
    s.results = _results(d["results"], rules.sides, n)
    s.totals = _ints(d["totals"], rules.sides, "totals")
    for side in range(rules.sides):
        if s.totals[side] != sum(r["points"][side] for r in s.results):
            _bad("totals must be the sum of the hands' points")
    _ending(s, d, rules)
    return s


def _builds(v, rules, n):
    if not isinstance(v, list):
        _bad("builds must be a list")
    out = []
    for b in v:
        if not isinstance(b, dict):
            _bad("a build is {cards, value, multiple, last}")
        cards = _cards(b["cards"], "build cards")
        value = _int_in(b["value"], 1, 13, "build value")
        multiple = b["multiple"]
        last = _int_in(b["last"], 0, n - 1, "build last")
        if len(cards) < 2:
            _bad("a build holds at least two cards")
        values = [c // 4 + 1 for c in cards]
        if multiple is True:
            if not rules.advanced:
                _bad("multiple builds are an advanced rule")
            if sum(values) <= value or not can_split(values, value):
                _bad("multiple build %s does not split into sets of %d" % (b["cards"], value))
        elif multiple is False:
            if sum(values) != value:
                _bad("single build %s does not add up to %d" % (b["cards"], value))
        else:
            _bad("build multiple must be true or false")
        out.append([cards, value, multiple, last])
    return out


def _pending(v, rules):
    if not isinstance(v, list):
        _bad("pending must be a list")
    if v and not rules.advanced:
        _bad("capture rewards are an advanced rule")
    out = []
    for e in v:
        if not isinstance(e, list) or len(e) != 2 or e[0] not in REWARD_KINDS:
            _bad("a pending reward is [peek|swap|steal, card id], got %r" % (e,))
        out.append([e[0], _cards([e[1]], "pending")[0]])
    return out


def _peeks(v, n):
    if not isinstance(v, list):
        _bad("peeks must be a list")
    out = []
    for e in v:
        if not isinstance(e, list) or len(e) != 3:
            _bad("a peek is [viewer, target, cards], got %r" % (e,))
        viewer = _int_in(e[0], 0, n - 1, "peek viewer")
        target = _int_in(e[1], 0, n - 1, "peek target")
        if viewer == target:
            _bad("nobody peeks at their own hand")
        out.append([viewer, target, _cards(e[2], "peeked cards")])
    return out


def _deal_shape(s, n):
    """The deck holds what the deals so far left: 52 before the first deal of the game,
    52 - (4 + 4n) after a hand's first deal, 4n fewer after each later one."""
    if s.deals == 0:
        if len(s.deck) != 52:
            _bad("before the first deal all 52 cards are in the deck")
        return
    if len(s.deck) != 52 - anathema.FIRST_DEAL_TABLE - 4 * n * s.deals:
        _bad("%d cards in the deck after %d deals" % (len(s.deck), s.deals))


def _hand_sizes(s, n):
    """In turn order from the dealer's left, the players who already played this round
    hold one card fewer than the others; with a reward pending the player to move has played."""
    if s.pending and s.last_capture != s.turn:
        _bad("a reward pending belongs to the player who just captured")
    start = (s.dealer + 1) % n
    order = [(start + k) % n for k in range(n)]
    played = order.index(s.turn) + (1 if s.pending else 0)
    if not any(s.hands) and not s.pending:
        if s.turn != start:
            _bad("between deals the player left of the dealer, %d, plays first" % start)
        if not s.deck and s.deals and s.last_capture >= 0 and (s.table or s.builds):
            _bad("at the end of a hand the last capture takes the table")
        return
    full = len(s.hands[order[-1]]) + (1 if played == n else 0)
    for k in range(n):
        want = full - 1 if k < played else full
        if len(s.hands[order[k]]) != want:
            _bad("hand sizes do not match a round of play that reached seat %d" % s.turn)
    if full > 4:
        _bad("a hand holds at most 4 cards")


def _results(v, sides, n):
    if not isinstance(v, list):
        _bad("results must be a list")
    out = []
    for r in v:
        if not isinstance(r, dict) or len(r) != len(RESULT_LISTS) + 2:
            _bad("a hand result is a dict of %s, dealer and last_capture" % ", ".join(RESULT_LISTS))
        _int_in(r["dealer"], 0, n - 1, "result dealer")
        if r["last_capture"] is not None:
            _int_in(r["last_capture"], 0, n - 1, "result last_capture")
        copy = {"dealer": r["dealer"], "last_capture": r["last_capture"]}
        for k in RESULT_LISTS:
            copy[k] = _ints(r[k], sides, "result " + k)
        for s in range(sides):
            total = copy["most_cards"][s] + copy["most_familiars"][s] + copy["sweeps"][s]
            if copy["points"][s] != total + copy["card_points"][s]:
                _bad("a hand's points are the sum of its categories")
        out.append(copy)
    return out


def _ending(s, d, rules):
    if d["over"] is not True and d["over"] is not False:
        _bad("over must be true or false")
    best = max(s.totals)
    tops = [side for side in range(rules.sides) if s.totals[side] == best]
    if d["over"]:
        if best < rules.target or (len(tops) > 1 and not rules.share_top):
            _bad("the game is over only when one side leads at %d or more" % rules.target)
        if s.current_player() != CHANCE or s.deck:
            _bad("a game ends with a finished hand")
        s.over = True
        s.winning_sides = tops
    elif s.current_player() == CHANCE and not s.deck and s.deals:
        # Between hands: the last one did not reach an end.
        if best >= rules.target and (len(tops) == 1 or rules.share_top):
            _bad("a side has won: the game must be over")
    if d["winners"] != s.winners():
        _bad("winners must be %r" % (s.winners(),))
