"""Anathema score keeper: the box keeps the deal and the score while the cards are physical.

The box cannot see the cards: the table tells it who deals and, after each hand, what each
side took, category by category. It scores them with the rules engine's own helpers
(engine.anathema_scoring: most cards 3, most Familiars 1, a sweep 1, the point cards) to 21.
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
Any time: ["end"] closes the game early (no winner: nobody reached the target). The engine
has no undo of its own: the box takes an entry back by replaying the game's standing
entries from its seed (firmware/session.py), as the host's replay does, so the state keeps
no history and an undo reaches back to the first deal.

current_player() is core.SIMULTANEOUS while the game runs (anyone at the table enters)
and core.TERMINAL once it is over.
"""

from engine import anathema_scoring as scoring
from engine.anathema_score_rules import (  # noqa: F401 - declared here
    MAX_PLAYERS,
    MAX_SWEEPS,
    MIN_PLAYERS,
    MOST,
    OPTIONS,
    ScoreRules,
    check,
    is_int,
)
from engine.core import SIMULTANEOUS, TERMINAL, digest_of
from engine.rng import Rng

STATE_VERSION = 1
VARIANTS = ({"most_tie": "all", "top_tie": "share", "target": 11},)  # partners: 4 players only (tests)
STEPS = ("deal", "cards", "familiars", "sweeps", "points")
RESULT_LISTS = ("most_cards", "most_familiars", "sweeps", "card_points", "points")


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
            seats = range(self.players) if self.dealer_free() else [self.dealer]
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
        acts.append(["end"])
        return acts

    def apply(self, action):
        op = check(self, action)
        if op == "deal":
            self.dealer = action[1]
            self.deals += 1
            if self.deals == self.rules.deals:
                self.step = "cards"
        elif op in MOST:
            setattr(self, op, list(action[1]))
            self.step = "familiars" if op == "most_cards" else "sweeps"
        elif op == "sweep" or op == "point":
            (self.sweeps if op == "sweep" else self.points)[action[1]] += 1
        elif op == "next":
            if self.step == "sweeps":
                self.step = "points"
            else:
                self._close_hand()
        else:
            self.over = True

    # -- a hand ------------------------------------------------------------
    def dealer_free(self):
        return not self.results and self.deals == 0

    def hand_points(self):
        """This hand's points so far per side: the categories entered up to now."""
        return self._result()["points"]

    def _result(self):
        rules = self.rules
        n = rules.sides
        cards = self._award(self.most_cards, scoring.MOST_CARDS)
        familiars = self._award(self.most_familiars, scoring.MOST_FAMILIARS)
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
        return scoring.award_most(tops, self.rules.sides, worth, self.rules.share_most)

    def _close_hand(self):
        rules = self.rules
        result = self._result()
        self.results.append(result)
        for s in range(rules.sides):
            self.totals[s] += result["points"][s]
        self.winning = scoring.winning_sides(self.totals, rules.target, rules.share_top)
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
    points entered per hand), most_tie, top_tie (engine.anathema_scoring)."""
    if not is_int(seed):
        raise ValueError("seed must be an int, got %r" % (seed,))
    return AnathemaScore(ScoreRules(players, options), Rng(seed))


def from_dict(d):
    """Rebuild a state saved by to_dict(); BadState for anything a game could not have reached
    (the checks live in engine/anathema_score_saved.py, loaded only when a state is read)."""
    from engine.anathema_score_saved import load

    return load(d)
