"""Finding Anastasia ledger: the 4-8 player game over public information only (docs/anastasia.md).

This is what the box keeps while the players hold their secret cards: the gems (supply,
purses, the 15 spaces), the tokens, how many clues each hand and the deck hold, the roles
that were shown, poison, the Gossip's allegiance, the Red Army Spy's countdown and whose
decision comes next. The table enters what it saw; the ledger refuses what cannot happen
and works out every gem flow itself. engine.anastasia (the whole game) keeps one of these
as its public half, so both always agree.

Seats 0..N-1 go clockwise; people see them as P1..PN. A clue card id (engine.anastasia_cards)
0-14 is also its board space: column id // 5 (Location, Trinket, Story), row id % 5.

Entries (JSON-safe lists). Who enters what is current_player()'s decision, except "react":
  ["answer", t, card]    start of the turn: player t, asked by the active player, claims card
  ["declare"]            the active player declares the Collector's set (start of turn or as
                         the action; not during the Thief's free action): the game ends
  action phase of the active player (also the Thief's free action after a reveal):
  ["look", t]            look at a clue of t: +2 from the supply, then 1 to t
  ["exchange", t]        exchange a clue with t: +1
  ["question", t, card]  ask t a further question, t claims card: +1
  ["draw"]               draw 2 clues, keep 1: the deck shrinks by one, the hand grows by one
  ["reveal", t, role]    pay 5: t's role card is shown; its reveal effect follows
  ["reveal_self", role]  pay 7: the active player's own role card is shown
  ["pass"]               the Thief's free action only: take none
  reveal effects:
  ["gems"] / ["clue"]    the Collector's choice (10 gems or a clue); in the Misinformant's
                         round, each player's choice (2 gems or a clue)
  ["snoop", t]           the Gossip looks at t's hand, then
  ["allegiance", 1 | 0]  wins if Anastasia wins (1) or if she does not (0)
  ["peek", t, 1 | 0]     the Psychic looked at t's role: 1 = it was Anastasia and is revealed
  ["poison", t, role]    Rasputin's Agent reveals t, who is poisoned
  any time after a claimed answer, before the next entry:
  ["react", p]           p shows the claimed clue face up (once per player per game)
  after an end effect:
  ["role", p, role]      each player whose role is still hidden enters it, in seat order
  ["collector_set", 1|0] an undeclared, unpoisoned Collector shows whether they hold all three
"""

from engine import anastasia_cards as cards
from engine import anastasia_rules as rules
from engine.anastasia_ledger_checks import (  # noqa: F401 - the ledger's tables, re-exported
    ACTIONS,
    ARITY,
    FRAME_ENTRIES,
    FRAME_WORDS,
    SELF_WORDS,
    TARGETED,
    parse,
)
from engine.anastasia_ledger_flows import LedgerFlows
from engine.anastasia_rules import is_int
from engine.core import TERMINAL, digest_of

MIN_PLAYERS = rules.MIN_PLAYERS
MAX_PLAYERS = rules.MAX_PLAYERS
STATE_VERSION = 1
OPTIONS = dict(rules.RULE_OPTIONS)
OPTIONS["empress"] = None  # the Empress's seat: she shows herself by pressing her buzzer

SPACES = cards.FIRST_BLANK  # one board space per real clue card
ROWS = cards.CLUES_PER_CATEGORY

# Why a game ended: the end effect that fired.
END_REASONS = ("anastasia", "impostor", "collector", "red_army_spy")

class LedgerState(LedgerFlows):
    def __init__(self, players, rule_opts, empress, possible):
        n = players
        self.players = n
        self.rules = rule_opts  # never changed, so states may share it
        self.empress = empress  # seat, or -1 in the 4-player game
        self.possible = possible  # the roles this game can hold (shared too)
        self.supply = cards.TOTAL_GEMS
        self.purses = [0] * n
        self.spaces = [0] * SPACES
        self.tokens = [[-1, -1, -1] for _ in range(n)]  # per player, per category: row or -1
        self.hands = [0] * n  # clue cards in each hand
        self.deck = 0
        self.face_up = [-1] * n  # the clue a player showed in a Reaction (once per game)
        self.roles = [-1] * n  # public roles; -1 while hidden
        self.revealed_by = [-1] * n
        self.poisoned = [0] * n
        self.cleared = [0] * n  # the Psychic saw this player is not Anastasia
        self.allegiance = -1  # the Gossip's: 1 wins with Anastasia, 0 against her
        self.declared = -1  # seat of the Collector who declared
        self.collector_set = -1  # 1/0 once the Collector's hand is known at the end
        self.turn = 0
        self.turn_no = 0  # turns begun, minus one
        self.spy_end = -1  # the game ends when turn number spy_end is over
        self.stack = []  # decision frames, the top one is decided next
        self.react = None  # [card, responder] of the last answer, while a Reaction may follow
        self.ended = None  # one of END_REASONS once an end effect fired

    # -- common API ----------------------------------------------------------------
    def is_over(self):
        return self.ended is not None and self.end_seat() < 0

    def current_player(self):
        if self.ended is not None:
            p = self.end_seat()
            return TERMINAL if p < 0 else p
        return self.stack[-1][1]

    def frame(self):
        """The decision waiting, as a list: ["ask", p], ["act", p, free], ["collector", p],
        ["choose", p, left], ["snoop", p], ["allegiance", p], ["peek", p], ["poison", p],
        ["role", p] or ["collector_set", p] after the end; None once the game is over."""
        if self.ended is None:
            return list(self.stack[-1])
        p = self._role_entry_seat()
        if p >= 0:
            return ["role", p]
        p = self._collector_question()
        return None if p < 0 else ["collector_set", p]

    def scores(self):
        """1 for each winner and 0 for everyone else once the game is over; all 0 before."""
        w = self.winners()
        return [1 if p in w else 0 for p in range(self.players)]

    def winners(self):
        if not self.is_over():
            return []
        return [p for p in range(self.players) if self._wins(p)]

    def apply(self, entry):
        """Apply one entry; IllegalAction (state unchanged) if it cannot happen now."""
        name, args = self.check(entry)
        self._do(name, args)

    def _do(self, name, args):
        if name == "react":
            self.face_up[args[0]] = self.react[0]
            self.react = None
            return
        self.react = None
        if name == "role":
            self.roles[args[0]] = args[1]
            return
        if name == "collector_set":
            self.collector_set = args[0]
            return
        fr = self.stack.pop()
        p = fr[1]
        if name == "answer":
            self._answer(args[0], args[1])
            self.react = [args[1], args[0]]
            self.stack.append(["act", p, 0])
            return
        if name == "declare":
            self.roles[p] = cards.COLLECTOR
            if self.revealed_by[p] < 0:
                self.revealed_by[p] = p
            self.declared = p
            self._end("collector")
            return
        if name == "look":
            self._receive(p, rules.LOOK_GEMS)
            self.purses[p] -= rules.LOOK_FEE
            self.purses[args[0]] += rules.LOOK_FEE
        elif name == "exchange":
            self._receive(p, rules.EXCHANGE_GEMS)
        elif name == "question":
            self._receive(p, rules.QUESTION_GEMS)
            self._answer(args[0], args[1])
            self.react = [args[1], args[0]]
        elif name == "draw":
            self._deal(p)
        elif name == "reveal":
            self._pay(p, rules.REVEAL_COST)
            self._reveal(args[0], args[1], p, 0)
        elif name == "reveal_self":
            self._pay(p, rules.SELF_REVEAL_COST)
            self._reveal(p, args[0], p, 0)
        elif name == "gems" or name == "clue":
            if name == "clue":
                self._deal(p)
            else:
                self._receive(p, rules.COLLECTOR_GEMS if fr[0] == "collector" else rules.MISINFORMANT_GEMS)
            if fr[0] == "choose" and fr[2] > 1:
                self.stack.append(["choose", (p + 1) % self.players, fr[2] - 1])
        elif name == "snoop":
            self.stack.append(["allegiance", p])
        elif name == "allegiance":
            self.allegiance = args[0]
        elif name == "peek":
            if args[1]:
                self._reveal(args[0], cards.ANASTASIA, p, 0)
            else:
                self.cleared[args[0]] = 1
        elif name == "poison":
            self._reveal(args[0], args[1], p, 1)
        self._finish()

    # -- narration --------------------------------------------------------------
    def describe(self, entry):
        """One line saying what entry does, for the table (call it before apply)."""
        from engine.anastasia_words import ledger_line  # display only: not loaded by the rules

        return ledger_line(self, entry)

    # -- saving ----------------------------------------------------------------------
    def to_dict(self):
        return {
            "game": "anastasia_ledger",
            "version": STATE_VERSION,
            "players": self.players,
            "rules": _rules_dict(self.rules),
            "empress": self.empress,
            "supply": self.supply,
            "purses": list(self.purses),
            "spaces": list(self.spaces),
            "tokens": [list(t) for t in self.tokens],
            "hands": list(self.hands),
            "deck": self.deck,
            "face_up": list(self.face_up),
            "roles": list(self.roles),
            "revealed_by": list(self.revealed_by),
            "poisoned": list(self.poisoned),
            "cleared": list(self.cleared),
            "allegiance": self.allegiance,
            "declared": self.declared,
            "collector_set": self.collector_set,
            "turn": self.turn,
            "turn_no": self.turn_no,
            "spy_end": self.spy_end,
            "stack": [list(f) for f in self.stack],
            "react": None if self.react is None else list(self.react),
            "ended": self.ended,
        }

    def digest(self):
        return digest_of(self.to_dict())

    def view(self, player_seat):
        """Everything in the ledger is public: every player sees the whole state."""
        if not is_int(player_seat) or not (0 <= player_seat < self.players):
            raise ValueError("no player %r in a %d-player game" % (player_seat, self.players))
        return self.to_dict()

    def options(self):
        """The new_game options that set up this game."""
        d = _rules_dict(self.rules)
        d["empress"] = None if self.empress < 0 else self.empress
        return d


def _rules_dict(r):
    """A copy of the rule options (two levels: guest_min_players is a dict). to_dict() runs
    after every action in the simulations; core.copy_data took 70% of its time there."""
    d = {}
    for k in r:
        v = r[k]
        d[k] = dict(v) if isinstance(v, dict) else v
    return d


_setup_cache = [None, None]  # [(players, options), result]: from_dict runs on every copy


def setup(players, options):
    """(rule options, Empress seat or -1, possible roles) from new_game options; ValueError on bad input."""
    key = [players, options]
    if _setup_cache[0] == key:
        return _setup_cache[1]
    result = _setup(players, options)
    _setup_cache[0] = [players, dict(options)]
    _setup_cache[1] = result
    return result


def _setup(players, options):
    rules.check_players(players, "anastasia")
    opts = {}
    for k in options:
        if k not in OPTIONS:
            raise ValueError("unknown option %r (known: %s)" % (k, ", ".join(sorted(OPTIONS))))
        if k != "empress":
            opts[k] = options[k]
    r = rules.rule_options(players, opts)
    possible = rules.possible_roles(players, r)
    empress = options.get("empress")
    if not rules.has_empress(players):
        if empress is not None:
            raise ValueError("4 players play without an Empress: leave empress out")
        return r, -1, possible
    if empress is None:
        empress = 0
    if not is_int(empress) or not (0 <= empress < players):
        raise ValueError("empress must be the Empress's seat 0-%d, got %r" % (players - 1, empress))
    return r, empress, possible


def new_game(seed, players, **options):
    """The table after setup. The ledger draws nothing, so seed only has to be an int.

    Options: empress (her seat, default 0; not with 4 players, where seat 0, the oldest,
    starts) and the rule options of engine.anastasia_rules.RULE_OPTIONS.
    """
    if not is_int(seed):
        raise ValueError("seed must be an int, got %r" % (seed,))
    r, empress, possible = setup(players, options)
    s = LedgerState(players, r, empress, possible)
    for p in range(players):
        s.purses[p] = rules.START_GEMS
        s.hands[p] = 3  # every invite holds 3 clues (Anastasia's 3 real ones, others 1 + 2 blanks)
    s.supply -= players * rules.START_GEMS
    # Anastasia's invite takes one clue of each category, every other invite one more.
    s.deck = SPACES - 3 - (players - 1)
    if empress >= 0:
        s.roles[empress] = cards.EMPRESS
        s.revealed_by[empress] = empress
        s._receive(empress, rules.EMPRESS_GEMS)
        s.turn = empress
    s.stack = [["ask", s.turn]]
    return s


def from_dict(d):
    """Rebuild a state saved by to_dict(); BadState if it is not a valid ledger state."""
    from engine.anastasia_saved import load_ledger  # only a restore needs the checks

    return load_ledger(d)
