"""The rules of an Anathema score keeper game: its options checked (ScoreRules), and why an
entry is refused at the step a hand is at (check). Apart from engine/anathema_score.py so
that each module compiles on a Pico-sized heap."""

from engine import anathema_scoring as scoring
from engine.core import IllegalAction, action_name

MIN_PLAYERS = 2
MAX_PLAYERS = 4
OPTIONS = {
    "partners": False,
    "dealer": 0,
    "target": scoring.TARGET,
    "point_cards": scoring.POINT_CARDS,
    "most_tie": scoring.MOST_TIE,
    "top_tie": scoring.TOP_TIE,
}
MAX_TARGET = 999
MAX_SWEEPS = 48  # sweeps in one hand: a sweep is a capture, and a hand has 48 plays
MOST = {"most_cards": "cards", "most_familiars": "familiars"}  # entry -> its step
ARITY = {"deal": 2, "most_cards": 2, "most_familiars": 2, "sweep": 2, "point": 2,
         "next": 1, "end": 1}  # items of each entry, its name included


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def sides_problem(tops, n):
    """Why `tops` is not a list of the sides with the most (None if it is)."""
    if not isinstance(tops, list) or not tops:
        return "name the side(s) with the most: a list of 1-%d sides, got %r" % (n, tops)
    last = -1
    for s in tops:
        if not is_int(s) or not (last < s < n):
            return "the sides must be distinct, ascending, 0-%d: got %r" % (n - 1, tops)
        last = s
    return None


class ScoreRules:
    """The options of one game, validated."""

    def __init__(self, players, options):
        for name in options:
            if name not in OPTIONS:
                raise ValueError("unknown anathema_score option %r (known: %s)"
                                 % (name, ", ".join(sorted(OPTIONS))))
        opts = {}
        for name in OPTIONS:
            opts[name] = options[name] if name in options else OPTIONS[name]
        if not is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError("anathema_score needs %d-%d players, got %r"
                             % (MIN_PLAYERS, MAX_PLAYERS, players))
        if not isinstance(opts["partners"], bool):
            raise ValueError("partners must be true or false, got %r" % (opts["partners"],))
        if opts["partners"] and players != 4:
            raise ValueError("partners play needs 4 players (two partnerships sitting opposite), got %d"
                             % players)
        if not is_int(opts["dealer"]) or not (0 <= opts["dealer"] < players):
            raise ValueError("dealer must be a seat 0-%d, got %r" % (players - 1, opts["dealer"]))
        if not is_int(opts["target"]) or not (1 <= opts["target"] <= MAX_TARGET):
            raise ValueError("target must be an int 1-%d, got %r" % (MAX_TARGET, opts["target"]))
        self.share_most, self.share_top = scoring.check_ties(opts)
        self.point_total = sum(scoring.point_values(opts["point_cards"]))
        self.players = players
        self.partners = opts["partners"]
        self.sides = 2 if self.partners else players
        self.target = opts["target"]
        self.deals = scoring.deals_per_hand(players)
        opts["point_cards"] = dict(opts["point_cards"])
        self.options = opts

    def side(self, seat):
        return seat % 2 if self.partners else seat




def check(state, action):
    """The name of `action` if it can be applied to `state` now; else IllegalAction says why."""
    op = action_name(action, state.over)
    want = ARITY.get(op)
    if want is None:
        raise IllegalAction("unknown action %r" % (action,))
    if len(action) != want:
        raise IllegalAction("%s takes %d argument%s, got %r"
                            % (op, want - 1, "" if want == 2 else "s", action))
    if op != "end":
        why = _check_step(state, op, action)
        if why:
            raise IllegalAction(why)
    return op


def _check_step(state, op, action):
    """Why `action` cannot be entered at this step (None if it can)."""
    step = state.step
    if op == "deal":
        seat = action[1]
        if not is_int(seat) or not (0 <= seat < state.players):
            return "no seat %r in a %d-player game" % (seat, state.players)
        if step != "deal":
            return "the hand's %d deals are dealt: enter its scores" % state.rules.deals
        if seat != state.dealer and not state.dealer_free():
            return "P%d deals this hand, not P%d" % (state.dealer + 1, seat + 1)
        return None
    if step == "deal":
        return "P%d deals first (deal %d of %d)" % (state.dealer + 1, state.deals + 1, state.rules.deals)
    if op in MOST:
        if MOST[op] != step:
            return "%s is not entered now: the %s step is open" % (op, step)
        return sides_problem(action[1], state.rules.sides)
    if op == "next":
        left = state.rules.point_total - sum(state.points)
        if step == "points" and left:
            return "%d of the %d card points still to enter" % (left, state.rules.point_total)
        if step not in ("sweeps", "points"):
            return "enter the side with the most %s first" % step
        return None
    want = "sweeps" if op == "sweep" else "points"
    if step != want:
        return "%ss are not entered now: the %s step is open" % (op, step)
    side = action[1]
    if not is_int(side) or not (0 <= side < state.rules.sides):
        return "no side %r (sides 0-%d)" % (side, state.rules.sides - 1)
    if op == "sweep" and sum(state.sweeps) >= MAX_SWEEPS:
        return "a hand has at most %d sweeps" % MAX_SWEEPS
    if op == "point" and sum(state.points) >= state.rules.point_total:
        return "the point cards are worth %d in all, all entered" % state.rules.point_total
    return None
