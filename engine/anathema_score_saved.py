"""Reading a saved anathema_score state: every invariant a game keeps, checked (BadState).

Kept apart from engine/anathema_score.py so that only reading a state loads these checks (the
box resumes a game by replaying its records, and reads a kept state only when the journal no
longer holds the whole game).
"""

from engine import anathema_score as score
from engine import anathema_score_rules as rules_mod
from engine import anathema_scoring as scoring
from engine.core import BadState
from engine.data import load_checked
from engine.rng import Rng

MAX_COUNT = 100000  # any total of a saved game is far below this


def _bad(msg):
    raise BadState("bad anathema_score state: " + msg)


def _int_in(v, lo, hi, what):
    if not rules_mod.is_int(v) or not (lo <= v <= hi):
        _bad("%s must be an int %d-%d, got %r" % (what, lo, hi, v))
    return v


def _ints(v, n, hi, what):
    if not isinstance(v, list) or len(v) != n:
        _bad("%s must be a list of %d ints" % (what, n))
    for x in v:
        _int_in(x, 0, hi, what)
    return list(v)


def _tops(v, rules, what, may_be_none):
    if v is None and may_be_none:
        return None
    why = rules_mod.sides_problem(v, rules.sides)
    if why:
        _bad("%s: %s" % (what, why))
    return list(v)


def load(d):
    return load_checked(_load, d, "anathema_score")


def _load(d):
    if not isinstance(d, dict) or d.get("game") != "anathema_score":
        _bad("not an anathema_score state")
    if d.get("version") != score.STATE_VERSION:
        _bad("unknown version %r" % (d.get("version"),))
    n = _int_in(d["players"], rules_mod.MIN_PLAYERS, rules_mod.MAX_PLAYERS, "players")
    if not isinstance(d["options"], dict):
        _bad("options must be a dict")
    try:
        rules = rules_mod.ScoreRules(n, d["options"])
    except ValueError as e:
        _bad(str(e))
    rng = d["rng"]
    if not isinstance(rng, list) or not all(rules_mod.is_int(v) for v in rng):
        _bad("rng must be a list of ints")
    s = score.AnathemaScore(rules, Rng(state=rng))
    sides = rules.sides
    s.dealer = _int_in(d["dealer"], 0, n - 1, "dealer")
    s.deals = _int_in(d["deals"], 0, rules.deals, "deals")
    s.step = d["step"]
    if s.step not in score.STEPS:
        _bad("step must be one of %s, got %r" % (", ".join(score.STEPS), s.step))
    if (s.step == "deal") != (s.deals < rules.deals):
        _bad("step %s after %d of %d deals" % (s.step, s.deals, rules.deals))
    k = score.STEPS.index(s.step)
    s.most_cards = _tops(d["most_cards"], rules, "most_cards", k < 2)
    s.most_familiars = _tops(d["most_familiars"], rules, "most_familiars", k < 3)
    if (s.most_cards is None) != (k < 2) or (s.most_familiars is None) != (k < 3):
        _bad("the most entries do not fit step %s" % s.step)
    s.sweeps = _ints(d["sweeps"], sides, rules_mod.MAX_SWEEPS, "sweeps")
    s.points = _ints(d["points"], sides, rules.point_total, "points")
    if sum(s.sweeps) > rules_mod.MAX_SWEEPS or sum(s.points) > rules.point_total:
        _bad("more sweeps or points than a hand holds")
    if (k < 3 and sum(s.sweeps)) or (k < 4 and sum(s.points)):
        _bad("sweeps or points entered before their step (%s)" % s.step)
    s.totals = _ints(d["totals"], sides, MAX_COUNT, "totals")
    s.results = _results(d["results"], rules)
    _check_totals(s)
    s.over = d["over"]
    if s.over is not True and s.over is not False:
        _bad("over must be true or false, got %r" % (s.over,))
    s.winning = d["winning"]
    if not isinstance(s.winning, list) or (s.winning and not s.over):
        _bad("winning lists the winning sides of a game that is over, got %r" % (s.winning,))
    won = scoring.winning_sides(s.totals, rules.target, rules.share_top)
    if s.winning and s.winning != won or (not s.winning and won):
        _bad("winning %r does not follow from the totals %r" % (s.winning, s.totals))
    if s.winning and (k or s.deals):
        _bad("a won game stops at the end of its last hand")
    _check_dealers(s)
    return s


def _results(v, rules):
    if not isinstance(v, list) or len(v) > MAX_COUNT:
        _bad("results must be a list of hands")
    out = []
    sides = rules.sides
    for r in v:
        if not isinstance(r, dict):
            _bad("a hand's result must be a dict")
        got = {"dealer": _int_in(r["dealer"], 0, rules.players - 1, "result dealer"),
               "cards_lead": _tops(r["cards_lead"], rules, "cards_lead", False),
               "familiars_lead": _tops(r["familiars_lead"], rules, "familiars_lead", False)}
        for key in score.RESULT_LISTS:
            got[key] = _ints(r[key], sides, MAX_COUNT, key)
        if len(r) != len(got):
            _bad("a hand's result has fields %s" % ", ".join(sorted(r)))
        _check_hand(got, rules)
        out.append(got)
    return out


def _check_hand(r, rules):
    """A finished hand adds up as the score keeper scores it: its result is the one a state
    holding its entries gives."""
    t = score.AnathemaScore(rules, None)
    t.dealer, t.most_cards, t.most_familiars = r["dealer"], r["cards_lead"], r["familiars_lead"]
    t.sweeps, t.points = r["sweeps"], r["card_points"]
    if t._result() != r:
        _bad("a hand's points do not follow from its entries")
    if sum(r["card_points"]) != rules.point_total or sum(r["sweeps"]) > rules_mod.MAX_SWEEPS:
        _bad("a hand's point cards must add up to %d" % rules.point_total)


def _check_totals(s):
    if s.totals != _totals_after(s.results, len(s.results) - 1, s.rules.sides):
        _bad("totals must be the sum of the hands' points")


def _check_dealers(s):
    """The deal passes to the left after every hand, except after the one that won."""
    n = s.players
    rs = s.results
    for i in range(1, len(rs)):
        if rs[i]["dealer"] != (rs[i - 1]["dealer"] + 1) % n:
            _bad("hand %d's dealer is not left of the dealer before" % (i + 1))
    if rs and s.dealer != (rs[-1]["dealer"] + (0 if s.winning else 1)) % n:
        _bad("the dealer after hand %d is not left of its dealer" % len(rs))
    for i in range(len(rs) - 1):
        if scoring.winning_sides(_totals_after(rs, i, s.rules.sides), s.rules.target, s.rules.share_top):
            _bad("hand %d won the game, yet hands follow it" % (i + 1))


def _totals_after(results, i, sides):
    return [sum(r["points"][side] for r in results[: i + 1]) for side in range(sides)]
