"""Finding Anastasia saved states: the checks that rebuild them (from_dict of both engines).

A restore is rare, the checks are long: the box loads this module only when it restores a
game, so it does not hold these checks in its heap while the game is played.
"""

from engine import anastasia_cards as cards
from engine.anastasia_ledger import (
    END_REASONS,
    FRAME_ENTRIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROWS,
    SPACES,
    STATE_VERSION,
    LedgerState,
    setup,
)
from engine.anastasia_rules import role_name
from engine.core import BadState
from engine.data import load_checked


# -- the ledger ------------------------------------------------------------------------
def _bad(msg):
    raise BadState("bad anastasia_ledger state: " + msg)


def _ints(v, n, lo, hi, what):
    if not isinstance(v, list) or len(v) != n:
        _bad("%s must be a list of %d ints" % (what, n))
    for x in v:
        if type(x) is not int or x < lo or x > hi:
            _bad("%s: %r is not an int %d-%d" % (what, x, lo, hi))
    return list(v)


def _int(v, lo, hi, what):
    if type(v) is not int or v < lo or v > hi:
        _bad("%s must be an int %d-%d, got %r" % (what, lo, hi, v))
    return v


def _header(d, game):
    """The dict names the game and this STATE_VERSION (both engines share the version)."""
    if not isinstance(d, dict) or d.get("game") != game:
        raise BadState("bad %s state: not an %s state" % (game, game))
    if d.get("version") != STATE_VERSION:
        raise BadState("bad %s state: unknown version %r" % (game, d.get("version")))


def load_ledger(d):
    """anastasia_ledger.from_dict: rebuild a saved ledger state; BadState if it is not valid."""
    return load_checked(load, d, "anastasia_ledger")


def load(d):
    """A ledger state from its dict (also the public half nested in a whole game's dict)."""
    _header(d, "anastasia_ledger")
    n = _int(d["players"], MIN_PLAYERS, MAX_PLAYERS, "players")
    opts = d["rules"]
    if not isinstance(opts, dict):
        _bad("rules must be a dict")
    empress = d["empress"]
    opts = dict(opts)
    opts["empress"] = empress if empress != -1 else None
    try:
        r, empress, possible = setup(n, opts)
    except ValueError as e:
        _bad(str(e))
    s = LedgerState(n, r, empress, possible)
    total = cards.TOTAL_GEMS
    s.supply = _int(d["supply"], 0, total, "supply")
    s.purses = _ints(d["purses"], n, 0, total, "purses")
    s.spaces = _ints(d["spaces"], SPACES, 0, total, "spaces")
    if s.supply + sum(s.purses) + sum(s.spaces) != total:
        _bad("the gems must total %d" % total)
    tokens = d["tokens"]
    if not isinstance(tokens, list) or len(tokens) != n:
        _bad("tokens must list %d players" % n)
    s.tokens = [_ints(t, 3, -1, ROWS - 1, "tokens") for t in tokens]
    s.hands = _ints(d["hands"], n, 0, cards.CLUE_COUNT, "hands")
    s.deck = _int(d["deck"], 0, SPACES, "deck")
    if sum(s.hands) + s.deck != SPACES + 2 * (n - 1):
        _bad("hands and deck must hold the %d clue cards in play" % (SPACES + 2 * (n - 1)))
    s.face_up = _ints(d["face_up"], n, -1, SPACES - 1, "face_up")
    up = [c for c in s.face_up if c >= 0]
    if len(set(up)) != len(up):
        _bad("a clue card is face up in front of two players")
    s.roles = _ints(d["roles"], n, -1, cards.ROLE_COUNT - 1, "roles")
    s.revealed_by = _ints(d["revealed_by"], n, -1, n - 1, "revealed_by")
    s.poisoned = _ints(d["poisoned"], n, 0, 1, "poisoned")
    s.cleared = _ints(d["cleared"], n, 0, 1, "cleared")
    shown = [x for x in s.roles if x >= 0]
    if len(set(shown)) != len(shown):
        _bad("a role is shown in front of two players")
    for p in range(n):
        if s.roles[p] >= 0 and s.roles[p] not in s.possible:
            _bad("%s is not dealt with %d players" % (role_name(s.roles[p]), n))
        if (s.roles[p] == cards.EMPRESS) != (p == empress):
            _bad("the Empress must be shown at seat %d" % empress)
        if s.poisoned[p] and (s.roles[p] < 0 or s.roles[s.revealed_by[p]] != cards.RASPUTINS_AGENT):
            _bad("only Rasputin's Agent poisons, by revealing")
    s.allegiance = _int(d["allegiance"], -1, 1, "allegiance")
    if s.allegiance >= 0 and s._seat_of(cards.GOSSIP) < 0:
        _bad("an allegiance needs a shown Gossip")
    s.declared = _int(d["declared"], -1, n - 1, "declared")
    if s.declared >= 0 and s.roles[s.declared] != cards.COLLECTOR:
        _bad("the declaring player must be shown as the Collector")
    s.collector_set = _int(d["collector_set"], -1, 1, "collector_set")
    s.turn = _int(d["turn"], 0, n - 1, "turn")
    s.turn_no = _int(d["turn_no"], 0, 0x3FFFFFFF, "turn_no")
    s.spy_end = _int(d["spy_end"], -1, 0x3FFFFFFF, "spy_end")
    spy = s._seat_of(cards.RED_ARMY_SPY)
    if (s.spy_end >= 0) != (spy >= 0 and s.revealed_by[spy] >= 0):
        _bad("the Spy's countdown runs exactly when the Red Army Spy was shown")
    react = d["react"]
    if react is not None:
        s.react = _ints(react, 2, 0, SPACES - 1, "react")
        _int(s.react[1], 0, n - 1, "react responder")
    ended = d["ended"]
    if ended is not None and ended not in END_REASONS:
        _bad("ended must be null or one of %s" % ", ".join(END_REASONS))
    s.ended = ended
    stack = d["stack"]
    if not isinstance(stack, list) or len(stack) > 4 * n + 4:
        _bad("stack must be a list of decision frames")
    for f in stack:
        if not isinstance(f, list) or len(f) < 2 or f[0] not in FRAME_ENTRIES:
            _bad("unknown decision frame %r" % (f,))
        _int(f[1], 0, n - 1, "frame seat")
        want = 3 if f[0] in ("act", "choose") else 2
        if len(f) != want:
            _bad("frame %r must have %d fields" % (f, want))
        if want == 3:
            _int(f[2], 0 if f[0] == "act" else 1, 1 if f[0] == "act" else n, "frame count")
    s.stack = [list(f) for f in stack]
    if (ended is None) == (not stack):
        _bad("a game in play needs a decision frame, an ended one none")
    for i in range(len(stack)):
        f = stack[i]
        if (f[0] == "ask" and (i or f[1] != s.turn)) or (f[0] == "act" and not f[2] and f[1] != s.turn):
            _bad("only the active player asks and acts on their turn: %r" % (f,))
    return s
