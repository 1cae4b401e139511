"""Finding Anastasia ledger: what may be entered now, and why not (engine.anastasia_ledger).

The checks of LedgerState, kept in their own module: MicroPython compiles a module from
its whole parse tree, so two halves of the ledger load on a heap that could not compile
it in one piece. LedgerState inherits them; anastasia_ledger re-exports the tables.
"""

from engine import anastasia_cards as cards
from engine import anastasia_rules as rules
from engine.anastasia_rules import is_int, player, role_name, the_role
from engine.core import IllegalAction

SPACES = cards.FIRST_BLANK  # one board space per real clue card

# Entry name -> number of int arguments.
ARITY = {
    "answer": 2, "declare": 0, "look": 1, "exchange": 1, "question": 2, "draw": 0,
    "reveal": 2, "reveal_self": 1, "pass": 0, "gems": 0, "clue": 0, "snoop": 1,
    "allegiance": 1, "peek": 2, "poison": 2, "react": 1, "role": 2, "collector_set": 1,
}
# Decision frame kind -> the entries it takes.
FRAME_ENTRIES = {
    "ask": ("answer", "declare"),
    "act": ("look", "exchange", "question", "draw", "reveal", "reveal_self", "declare", "pass"),
    "collector": ("gems", "clue"),
    "choose": ("gems", "clue"),
    "snoop": ("snoop",),
    "allegiance": ("allegiance",),
    "peek": ("peek",),
    "poison": ("poison",),
}
FRAME_WORDS = {
    "ask": "ask a question",
    "act": "choose an action",
    "collector": "choose 10 gems or a clue (Collector)",
    "choose": "take 2 gems or a clue (Misinformant)",
    "snoop": "choose whose hand to look at (Gossip)",
    "allegiance": "announce an allegiance (Gossip)",
    "peek": "choose whose role to look at (Psychic)",
    "poison": "choose whom to reveal and poison (Rasputin's Agent)",
}
# Entries whose first argument is another player, and what choosing oneself would mean.
TARGETED = ("answer", "look", "exchange", "question", "reveal", "snoop", "peek", "poison")
SELF_WORDS = {
    "answer": "ask themselves", "question": "ask themselves", "look": "look at their own clue",
    "exchange": "exchange with themselves", "reveal": "reveal themselves for 5 (revealing oneself costs 7)",
    "snoop": "look at their own hand", "peek": "look at their own role", "poison": "poison themselves",
}
# The action entries, for gem statistics and menus.
ACTIONS = ("look", "exchange", "question", "draw", "reveal", "reveal_self")


def parse(entry, arity=ARITY, what="entry", example='["answer", 2, 7] or ["draw"]'):
    """(name, args) of a well-formed entry (or, with the whole game's arity table, action);
    IllegalAction naming the problem otherwise."""
    kind = type(entry)
    if (kind is not list and kind is not tuple) or not entry or type(entry[0]) is not str:
        raise IllegalAction("an %s is a list like %s, got %r" % (what, example, entry))
    name = entry[0]
    if name not in arity:
        raise IllegalAction("unknown %s %r (known: %s)" % (what, name, ", ".join(sorted(arity))))
    args = list(entry[1:])
    ok = len(args) == arity[name]
    for v in args:
        if type(v) is not int:  # not a bool either
            ok = False
    if not ok:
        raise IllegalAction("%s takes %d int argument(s), got %r" % (name, arity[name], list(entry)))
    return name, args


class LedgerChecks:
    """Methods of LedgerState (its fields are set there): the checks of every entry."""

    def role_problem(self, p, role):
        """Why p cannot be shown to hold role, given what the table has seen; None if p can."""
        if not is_int(role) or not (0 <= role < cards.ROLE_COUNT):
            return "%r is not a role (0-%d)" % (role, cards.ROLE_COUNT - 1)
        if role == cards.EMPRESS:
            if self.empress < 0:
                return "there is no Empress with 4 players"
            return "the Empress was shown at the start, by %s" % player(self.empress)
        if role not in self.possible:
            return "%s is not dealt with %d players" % (the_role(role), self.players)
        q = self._seat_of(role)
        if q >= 0:
            return "%s was already shown to be %s" % (player(q), the_role(role))
        if role == cards.ANASTASIA and self.cleared[p]:
            return "the Psychic saw that %s is not Anastasia" % player(p)
        return self._completion_problem(p, role, 0)

    def _completion_problem(self, p, role, clear):
        """Anastasia and Rasputin's Agent are always dealt: after p takes role (or, with
        clear, after p is seen not to be Anastasia) they must still fit the hidden seats."""
        hidden = 1 if clear else 0  # a cleared p stays hidden, but cannot be Anastasia
        uncleared = 0
        for q in range(self.players):
            if q != p and self.roles[q] < 0:
                hidden += 1
                if not self.cleared[q]:
                    uncleared += 1
        need_ana = role != cards.ANASTASIA and self._seat_of(cards.ANASTASIA) < 0
        need_agent = role != cards.RASPUTINS_AGENT and self._seat_of(cards.RASPUTINS_AGENT) < 0
        if need_ana and uncleared == 0:
            return "then nobody left could be Anastasia"
        if need_ana + need_agent > hidden:
            return "then Anastasia and Rasputin's Agent (always dealt) would not fit the hidden roles"
        return None

    def legal_actions(self):
        """Every entry that can be made now (the box never lists them: loaded on first use)."""
        from engine.anastasia_ledger_legal import legal_actions

        return legal_actions(self)

    def check(self, entry):
        """Raise IllegalAction (with the reason) unless entry can be applied now; changes nothing."""
        name, args = parse(entry)
        problem = self._problem(name, args)
        if problem is not None:
            raise IllegalAction(problem)
        return name, args

    def _problem(self, name, args):
        """Why entry name(args) cannot be applied now, or None."""
        if self.is_over():
            return "the game is over"
        n = self.players
        if name == "react":
            return self._react_problem(args[0])
        fr = self.frame()
        kind, p = fr[0], fr[1]
        if kind in ("role", "collector_set"):
            if name != kind:
                return "the game has ended (%s): %s enters %s" % (
                    self.ended, player(p), "their role" if kind == "role" else "whether they hold a full set")
            if kind == "role":
                if args[0] != p:
                    return "roles are entered in seat order: %s is next" % player(p)
                return self.role_problem(p, args[1])
            return None if args[0] in (0, 1) else "collector_set is 1 (a full set) or 0"
        if name not in FRAME_ENTRIES[kind]:
            return "%s must %s now; %s is not possible" % (player(p), FRAME_WORDS[kind], name)
        if name in TARGETED:
            t = args[0]
            if not (0 <= t < n):
                return "there is no player %d in a %d-player game" % (t, n)
            if t == p:
                return "%s cannot %s" % (player(p), SELF_WORDS[name])
        if name in ("answer", "question"):
            if not (0 <= args[1] < SPACES):
                return "%r is not a clue space (0-%d)" % (args[1], SPACES - 1)
        if name == "declare":
            return self._declare_problem(p, fr)
        if name == "pass":
            return None if fr[2] else "only the Thief's free action may be passed"
        if name == "look":
            gain = self._from_supply(rules.LOOK_GEMS, True)
            if self.purses[p] + gain < rules.LOOK_FEE:
                return "%s has no gem to give %s (looking costs 1 after the supply pays %d)" % (
                    player(p), player(args[0]), gain)
        if name == "draw" or name == "clue":
            if self.deck == 0:
                return "the clue deck is empty"
        if name == "reveal" or name == "poison":
            t = args[0]
            if self.roles[t] >= 0:
                return "%s's role was already shown (%s)" % (player(t), role_name(self.roles[t]))
            if name == "reveal" and self.purses[p] < rules.REVEAL_COST:
                return "%s has %d gems: revealing a role costs %d" % (
                    player(p), self.purses[p], rules.REVEAL_COST)
            return self.role_problem(t, args[1])
        if name == "reveal_self":
            if self.roles[p] >= 0:
                return "%s's role was already shown (%s)" % (player(p), role_name(self.roles[p]))
            if self.purses[p] < rules.SELF_REVEAL_COST:
                return "%s has %d gems: revealing your own role costs %d" % (
                    player(p), self.purses[p], rules.SELF_REVEAL_COST)
            r = args[0]
            if is_int(r) and r in rules.NO_SELF_REVEAL:
                return "%s cannot reveal themselves" % role_name(r)
            return self.role_problem(p, r)
        if name == "peek":
            t = args[0]
            if self.roles[t] >= 0:
                return "%s's role was already shown (%s)" % (player(t), role_name(self.roles[t]))
            if args[1] == 1:
                return self.role_problem(t, cards.ANASTASIA)
            if args[1] != 0:
                return "peek ends with 1 (it was Anastasia) or 0 (it was not)"
            return self._completion_problem(t, -1, 1)
        if name == "allegiance" and args[0] not in (0, 1):
            return "allegiance is 1 (wins if Anastasia wins) or 0 (wins if she does not)"
        return None

    def _react_problem(self, p):
        react = self.react
        if react is None or self.ended is not None:
            return "a Reaction follows a claimed answer, before anything else is entered"
        if not (0 <= p < self.players):
            return "there is no player %d in a %d-player game" % (p, self.players)
        if p == react[1]:
            return "%s gave the answer and cannot disprove it" % player(p)
        if self.face_up[p] >= 0:
            return "%s already used their Reaction (%s)" % (player(p), cards.clue_label(self.face_up[p]))
        if self.hands[p] == 0:
            return "%s holds no clue" % player(p)
        for q in range(self.players):
            if self.face_up[q] == react[0]:
                return "%s already shows %s face up" % (player(q), cards.clue_label(react[0]))
        return None

    def _declare_problem(self, p, fr):
        if fr[0] == "act" and fr[2]:
            return "the Collector declares on their own turn, not during the Thief's free action"
        if self.roles[p] >= 0:
            if self.roles[p] != cards.COLLECTOR:
                return "%s is %s, not the Collector" % (player(p), the_role(self.roles[p]))
            if self.poisoned[p]:
                return "%s is poisoned and cannot win" % player(p)
            return None
        return self.role_problem(p, cards.COLLECTOR)
