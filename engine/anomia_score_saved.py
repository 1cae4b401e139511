"""Reading a saved anomia_score state: every invariant a game keeps, checked (BadState).

Kept apart from engine/anomia_score.py so that only reading a state (a resume, a replay
check) loads these checks; the rules and the box's decision path never do.
"""

from engine.anomia_score import (
    HISTORY_LIMIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NOBODY,
    STATE_VERSION,
    AnomiaScore,
    _is_int,
    pack_entry,
)
from engine.core import BadState
from engine.rng import Rng


def _bad(msg):
    raise BadState("bad anomia_score state: " + msg)


def _int_in(v, lo, hi, what):
    if not _is_int(v) or not (lo <= v <= hi):
        _bad("%s must be an int %d..%d, got %r" % (what, lo, hi, v))
    return v


def _tied(v, players, what):
    """A list of two or more distinct players, ascending."""
    if not isinstance(v, list) or len(v) < 2:
        _bad("%s must list two or more players, got %r" % (what, v))
    last = NOBODY
    for p in v:
        _int_in(p, last + 1, players - 1, what + " player (ascending)")
        last = p
    return list(v)


def _history_entry(h, players):
    if not isinstance(h, list) or len(h) != 4 or h[0] not in ("win", "tie"):
        _bad("history entries are [win|tie, a, b, mask], got %r" % (h,))
    _int_in(h[1], 0, players - 1, "history player")
    if h[0] == "win":
        _int_in(h[2], NOBODY, players - 1, "history loser")
        if h[2] == h[1]:
            _bad("a history win names the same player twice: %r" % (h,))
    else:
        _int_in(h[2], h[1] + 1, players - 1, "history tied player")
    mask = _int_in(h[3], 0, (1 << players) - 1, "history tie-breaker mask")
    if mask and not mask & (mask - 1):
        _bad("a tie-breaker holds two or more players, history has mask %d" % mask)
    return [h[0], h[1], h[2], mask]


def load(d):
    try:
        return _load(d)
    except BadState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise BadState("bad anomia_score state: %r" % (e,))


def _load(d):
    if not isinstance(d, dict) or d.get("game") != "anomia_score":
        _bad("not an anomia_score state")
    if d.get("version", STATE_VERSION) != STATE_VERSION:
        _bad("unknown version %r" % (d.get("version"),))
    players = _int_in(d["players"], MIN_PLAYERS, MAX_PLAYERS, "players")
    rng = d["rng"]
    if not isinstance(rng, list) or not all(_is_int(v) for v in rng):
        _bad("rng must be a list of ints")
    s = AnomiaScore(players, Rng(state=rng))
    piles = d["piles"]
    if not isinstance(piles, list) or len(piles) != players:
        _bad("piles must list one count per player (%d)" % players)
    for p in piles:
        _int_in(p, 0, 1 << 20, "pile")
    s.piles = list(piles)
    tb = d["tiebreak"]
    s.tiebreak = None if tb is None else _tied(tb, players, "tiebreak")
    history = d["history"]
    if not isinstance(history, list) or len(history) > HISTORY_LIMIT:
        _bad("history must be a list of at most %d entries" % HISTORY_LIMIT)
    entries = [_history_entry(h, players) for h in history]
    wins = [0] * players
    for h in entries:
        if h[0] == "win":
            wins[h[1]] += 1
    for p in range(players):
        if wins[p] > s.piles[p]:
            _bad("history takes back more wins of P%d than its pile holds" % (p + 1))
    s.history = [pack_entry(*h) for h in entries]
    s.faceoffs = _int_in(d["faceoffs"], 0, 1 << 20, "faceoffs")
    if s.faceoffs != sum(s.piles):
        _bad("faceoffs (%d) must equal the cards won (%d)" % (s.faceoffs, sum(s.piles)))
    over = d["over"]
    if over is not True and over is not False:
        _bad("over must be true or false, got %r" % (over,))
    s.over = over
    return s
