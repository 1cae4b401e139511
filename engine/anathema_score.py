"""Anathema score keeper: the box keeps the deal and the score while the cards are physical.

The box cannot see the cards: the table tells it who deals and, after each hand, what each
side took, category by category. It scores them with the rules engine's own helpers
(engine.anathema_cards: most cards 3, most Familiars 1, a sweep 1, the point cards) to 21.
A side is a player, or with partners (4 players) a partnership: side 0 is P1+P3, side 1
P2+P4. Same API as every engine (docs/anathema-box.md).

A hand goes through these steps, each action in its step only:
  deal       ["deal", seat]      the dealer dealt one deal of the hand (6/4/3 deals for
                                 2/3/4 players). Before the game's first deal any seat may
                                 deal (and becomes the dealer); after it only the dealer.
  cards      ["most_cards", [side, ...]]      the side(s) with the most cards (ascending;
                                 two or more: a tie, scoring for none of them by default)
  familiars  ["most_familiars", [side, ...]]  the same for the Familiars
  sweeps     ["sweep", side]     one sweep, +1;  ["next"]  no more sweeps
  points     ["point", side]     one point of the point cards, +1 (they add up to the
                                 point cards' total, 7 by default); ["next"] once they
                                 all are entered closes the hand: the totals grow, a side
                                 at 21 or more alone at the top wins, else the deal
                                 passes to the left.
Any time: ["undo"] takes back the last entry (not once the game is won), ["end"] closes
the game early (no winner: nobody reached the target).

current_player() is core.SIMULTANEOUS while the game runs (anyone at the table enters)
and core.TERMINAL once it is over.
"""

from engine import anathema_cards as cards_data
from engine.core import SIMULTANEOUS, TERMINAL, IllegalAction, action_name, digest_of
from engine.rng import Rng

MIN_PLAYERS = 2
MAX_PLAYERS = 4
STATE_VERSION = 1
OPTIONS = {
    "partners": False,
    "dealer": 0,
    "target": cards_data.TARGET,
    "point_cards": cards_data.POINT_CARDS,
    "most_tie": cards_data.MOST_TIE,
    "top_tie": cards_data.TOP_TIE,
}
VARIANTS = ({"most_tie": "all", "top_tie": "share", "target": 11},)  # partners: 4 players only (tests)
UNDO_ACTION = ["undo"]
HISTORY_LIMIT = 64  # entries undo can take back (about four hands): a bounded state
MAX_TARGET = 999
MAX_SWEEPS = 48  # sweeps in one hand: a sweep is a capture, and a hand has 48 plays
STEPS = ("deal", "cards", "familiars", "sweeps", "points")
MOST = {"most_cards": "cards", "most_familiars": "familiars"}  # entry -> its step
RESULT_LISTS = ("most_cards", "most_familiars", "sweeps", "card_points", "points")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def side_name(side, partners):
    return "P%d+P%d" % (side + 1, side + 3) if partners else "P%d" % (side + 1)


def sides_problem(tops, n):
    """Why `tops` is not a list of the sides with the most (None if it is)."""
    if not isinstance(tops, list) or not tops:
        return "name the side(s) with the most: a list of 1-%d sides, got %r" % (n, tops)
    last = -1
    for s in tops:
        if not _is_int(s) or not (last < s < n):
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
        if not _is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError("anathema_score needs %d-%d players, got %r"
                             % (MIN_PLAYERS, MAX_PLAYERS, players))
        if not isinstance(opts["partners"], bool):
            raise ValueError("partners must be true or false, got %r" % (opts["partners"],))
        if opts["partners"] and players != 4:
            raise ValueError("partners play needs 4 players (two partnerships sitting opposite), got %d"
                             % players)
        if not _is_int(opts["dealer"]) or not (0 <= opts["dealer"] < players):
            raise ValueError("dealer must be a seat 0-%d, got %r" % (players - 1, opts["dealer"]))
        if not _is_int(opts["target"]) or not (1 <= opts["target"] <= MAX_TARGET):
            raise ValueError("target must be an int 1-%d, got %r" % (MAX_TARGET, opts["target"]))
        self.share_most, self.share_top = cards_data.check_ties(opts)
        self.point_total = sum(cards_data.point_values(opts["point_cards"]))
        self.players = players
        self.partners = opts["partners"]
        self.sides = 2 if self.partners else players
        self.target = opts["target"]
        self.deals = cards_data.deals_per_hand(players)
        opts["point_cards"] = dict(opts["point_cards"])
        self.options = opts

    def side(self, seat):
        return seat % 2 if self.partners else seat


class AnathemaScore:
    def __init__(self, rules, rng):
        n = rules.sides
        self.rules = rules
        self.players = rules.players
        self.rng = rng  # unused by the rules; kept so every engine saves a PRNG state
        self.dealer = rules.options["dealer"]
        self.deals = 0  # deals dealt in this hand
        self.step = "deal"
        self.most_cards = None  # the sides entered for this hand's "most", once entered
        self.most_familiars = None
        self.sweeps = [0] * n
        self.points = [0] * n  # point-card points entered this hand
        self.totals = [0] * n
        self.results = []  # one dict per finished hand
        self.history = []  # [op, side or dealer before] of each entry undo can take back
        self.winning = []  # the winning sides, once won
        self.over = False

    # -- common API --------------------------------------------------------
    def current_player(self):
        return TERMINAL if self.over else SIMULTANEOUS

    def is_over(self):
        return self.over

    def last_deal(self):
        """True once the hand's last deal is dealt (until the hand is scored)."""
        return self.deals == self.rules.deals

    def hand(self):
        """The number of the hand being dealt, played or scored (1 for the first)."""
        return len(self.results) + 1

    def legal_actions(self):
        if self.over:
            return []
        step = self.step
        sides = range(self.rules.sides)
        if step == "deal":
            seats = range(self.players) if self._dealer_free() else [self.dealer]
            acts = [["deal", s] for s in seats]
        elif step in ("cards", "familiars"):
            op = "most_" + step
            acts = [[op, [s for s in sides if mask >> s & 1]] for mask in range(1, 1 << self.rules.sides)]
        elif step == "sweeps":
            acts = [["sweep", s] for s in sides] if sum(self.sweeps) < MAX_SWEEPS else []
            acts.append(["next"])
        else:
            left = self.rules.point_total - sum(self.points)
            acts = [["point", s] for s in sides] if left else [["next"]]
        if self.history:
            acts.append(["undo"])
        acts.append(["end"])
        return acts

    def apply(self, action):
        op = self._check(action)
        if op == "deal":
            self._push(op, self.dealer)
            self.dealer = action[1]
            self.deals += 1
            if self.deals == self.rules.deals:
                self.step = "cards"
        elif op in MOST:
            self._push(op, -1)
            setattr(self, op, list(action[1]))
            self.step = "familiars" if op == "most_cards" else "sweeps"
        elif op == "sweep" or op == "point":
            self._push(op, action[1])
            (self.sweeps if op == "sweep" else self.points)[action[1]] += 1
        elif op == "next":
            self._push(op, -1)
            if self.step == "sweeps":
                self.step = "points"
            else:
                self._close_hand()
        elif op == "undo":
            self._undo(self.history.pop())
        else:
            self.over = True

    # -- a hand ------------------------------------------------------------
    def _dealer_free(self):
        return not self.results and self.deals == 0

    def hand_points(self):
        """This hand's points so far per side: the categories entered up to now."""
        return self._result()["points"]

    def _result(self):
        rules = self.rules
        n = rules.sides
        cards = self._award(self.most_cards, cards_data.MOST_CARDS)
        familiars = self._award(self.most_familiars, cards_data.MOST_FAMILIARS)
        return {
            "dealer": self.dealer,
            "cards_lead": self.most_cards,
            "familiars_lead": self.most_familiars,
            "most_cards": cards,
            "most_familiars": familiars,
            "sweeps": list(self.sweeps),
            "card_points": list(self.points),
            "points": [cards[s] + familiars[s] + self.sweeps[s] + self.points[s] for s in range(n)],
        }

    def _award(self, tops, worth):
        if tops is None:
            return [0] * self.rules.sides
        return cards_data.award_most(tops, self.rules.sides, worth, self.rules.share_most)

    def _close_hand(self):
        rules = self.rules
        result = self._result()
        self.results.append(result)
        for s in range(rules.sides):
            self.totals[s] += result["points"][s]
        self.winning = cards_data.winning_sides(self.totals, rules.target, rules.share_top)
        self._clear_hand()
        if self.winning:
            self.over = True
        else:
            self.dealer = (self.dealer + 1) % self.players  # the deal passes to the left

    def _clear_hand(self):
        n = self.rules.sides
        self.deals = 0
        self.step = "deal"
        self.most_cards = self.most_familiars = None
        self.sweeps = [0] * n
        self.points = [0] * n

    def _push(self, op, arg):
        self.history.append([op, arg])
        if len(self.history) > HISTORY_LIMIT:
            self.history.pop(0)

    def _undo(self, entry):
        op, arg = entry
        if op == "deal":
            self.deals -= 1
            self.dealer = arg
            self.step = "deal"
        elif op in MOST:
            setattr(self, op, None)
            self.step = MOST[op]
        elif op == "sweep":
            self.sweeps[arg] -= 1
        elif op == "point":
            self.points[arg] -= 1
        elif self.step == "points":
            self.step = "sweeps"  # the "next" that ended the sweeps (a closing one leaves "deal")
        else:
            self._reopen_hand()

    def _reopen_hand(self):
        r = self.results.pop()
        for s in range(self.rules.sides):
            self.totals[s] -= r["points"][s]
        self.dealer = r["dealer"]
        self.deals = self.rules.deals
        self.step = "points"
        self.most_cards = r["cards_lead"]
        self.most_familiars = r["familiars_lead"]
        self.sweeps = list(r["sweeps"])
        self.points = list(r["card_points"])

    # -- checks ------------------------------------------------------------
    def _check(self, action):
        op = action_name(action, self.over)
        want = {"deal": 2, "most_cards": 2, "most_familiars": 2, "sweep": 2, "point": 2,
                "next": 1, "undo": 1, "end": 1}.get(op)
        if want is None:
            raise IllegalAction("unknown action %r" % (action,))
        if len(action) != want:
            raise IllegalAction("%s takes %d argument%s, got %r"
                                % (op, want - 1, "" if want == 2 else "s", action))
        if op == "undo":
            if not self.history:
                raise IllegalAction("nothing to undo")
        elif op != "end":
            why = self._check_step(op, action)
            if why:
                raise IllegalAction(why)
        return op

    def _check_step(self, op, action):
        """Why `action` cannot be entered at this step (None if it can)."""
        step = self.step
        if op == "deal":
            seat = action[1]
            if not _is_int(seat) or not (0 <= seat < self.players):
                return "no seat %r in a %d-player game" % (seat, self.players)
            if step != "deal":
                return "the hand's %d deals are dealt: enter its scores" % self.rules.deals
            if seat != self.dealer and not self._dealer_free():
                return "P%d deals this hand, not P%d" % (self.dealer + 1, seat + 1)
            return None
        if step == "deal":
            return "P%d deals first (deal %d of %d)" % (self.dealer + 1, self.deals + 1, self.rules.deals)
        if op in MOST:
            if MOST[op] != step:
                return "%s is not entered now: the %s step is open" % (op, step)
            return sides_problem(action[1], self.rules.sides)
        if op == "next":
            left = self.rules.point_total - sum(self.points)
            if step == "points" and left:
                return "%d of the %d points of the point cards still to enter" \
                    % (left, self.rules.point_total)
            if step not in ("sweeps", "points"):
                return "enter the side with the most %s first" % step
            return None
        want = "sweeps" if op == "sweep" else "points"
        if step != want:
            return "%ss are not entered now: the %s step is open" % (op, step)
        side = action[1]
        if not _is_int(side) or not (0 <= side < self.rules.sides):
            return "no side %r (sides 0-%d)" % (side, self.rules.sides - 1)
        if op == "sweep" and sum(self.sweeps) >= MAX_SWEEPS:
            return "a hand has at most %d sweeps" % MAX_SWEEPS
        if op == "point" and sum(self.points) >= self.rules.point_total:
            return "the point cards are worth %d in all, all entered" % self.rules.point_total
        return None

    # -- results -------------------------------------------------------------
    def scores(self):
        """Points so far per seat (partners show their side's total)."""
        return [self.totals[self.rules.side(p)] for p in range(self.players)]

    def winners(self):
        out = []
        for p in range(self.players):
            if self.over and self.rules.side(p) in self.winning:
                out.append(p)
        return out

    def to_dict(self):
        opts = dict(self.rules.options)
        opts["point_cards"] = dict(opts["point_cards"])
        return {
            "game": "anathema_score",
            "version": STATE_VERSION,
            "players": self.players,
            "options": opts,
            "rng": self.rng.state(),
            "dealer": self.dealer,
            "deals": self.deals,
            "step": self.step,
            "most_cards": _copy(self.most_cards),
            "most_familiars": _copy(self.most_familiars),
            "sweeps": list(self.sweeps),
            "points": list(self.points),
            "totals": list(self.totals),
            "results": [copy_result(r) for r in self.results],
            "history": [list(h) for h in self.history],
            "winning": list(self.winning),
            "over": self.over,
        }

    def digest(self):
        return digest_of(self.to_dict())


def _copy(v):
    return None if v is None else list(v)


def copy_result(r):
    return {k: (list(v) if type(v) is list else v) for k, v in r.items()}


def new_game(seed, players, **options):
    """A game before its first deal. Options (OPTIONS): partners, dealer (the first dealer's
    seat; any seat dealing first takes the deal), target, point_cards (their total is the
    points entered per hand), most_tie, top_tie (engine.anathema_cards)."""
    if not _is_int(seed):
        raise ValueError("seed must be an int, got %r" % (seed,))
    return AnathemaScore(ScoreRules(players, options), Rng(seed))


def from_dict(d):
    """Rebuild a state saved by to_dict(); BadState for anything a game could not have reached
    (the checks live in engine/anathema_score_saved.py, loaded only when a state is read)."""
    from engine.anathema_score_saved import load

    return load(d)
