"""Finding Anastasia, 4-8 players: the whole game with the secret cards (docs/anastasia.md).

The state holds the hidden half (roles, hands, the deck and what each player saw) on top
of an engine.anastasia_ledger state, the public half: every gem, token, shown role and
turn lives there and nowhere else. Each action is checked against the secret cards (the
truth rule, who may reveal themselves, which clue may be handed back), turned into the
ledger entry the table would record, and applied to the ledger; `entries` lists the
ledger entries the last apply() made, so the same game can be replayed on a ledger.

Seats 0..N-1 go clockwise; people see them as P1..PN. Actions (JSON-safe lists):
  the active player, start of the turn:
    ["ask", t, category]     ask player t about a Location (0), Trinket (1) or Story (2)
    ["declare"]              the Collector shows one clue of each category: the game ends
  the asked player:
    ["answer", card]         claim a clue card of the asked category (truthfully if they
                             hold one of that category)
  the player holding the claimed clue, if it was a lie and they have not reacted yet:
    ["react"] / ["no_reaction"]
  the active player's action (also the Thief's free action, which may ["pass"]):
    ["look", t]  ["exchange", t, card]  ["question", t, category]  ["draw"]
    ["reveal", t]  ["reveal_self"]  ["declare"]
  the player looked at: ["show", card]; the exchange partner: ["give", card];
  the drawing player: ["keep", card] (one of the two drawn)
  reveal effects: ["gems"] / ["clue"] (Collector, and everyone in the Misinformant's
    round), ["snoop", t] then ["allegiance", 1 | 0] (Gossip), ["peek", t] (Psychic),
    ["poison", t] (Rasputin's Agent)
When an end effect fires the hidden roles are entered on the ledger automatically; the
winners are the ledger's, who then knows every role.
"""

from engine import anastasia_cards as cards
from engine import anastasia_ledger as ledger
from engine import anastasia_rules as rules
from engine.anastasia_rules import is_int, player
from engine.core import TERMINAL, IllegalAction, digest_of
from engine.data import copy_data
from engine.rng import Rng

MIN_PLAYERS = rules.MIN_PLAYERS
MAX_PLAYERS = rules.MAX_PLAYERS
STATE_VERSION = 1
OPTIONS = dict(rules.RULE_OPTIONS)

ROWS = cards.CLUES_PER_CATEGORY
ARITY = {
    "ask": 2, "declare": 0, "answer": 1, "react": 0, "no_reaction": 0, "look": 1, "exchange": 2,
    "question": 2, "draw": 0, "reveal": 1, "reveal_self": 0, "pass": 0, "show": 1, "give": 1,
    "keep": 1, "gems": 0, "clue": 0, "snoop": 1, "allegiance": 1, "peek": 1, "poison": 1,
}
# Secret decision frames -> the action each takes.
SECRET_ACTIONS = {"answer": ("answer",), "react": ("react", "no_reaction"), "show": ("show",),
                  "give": ("give",), "keep": ("keep",)}
SECRET_NAMES = ("answer", "react", "no_reaction", "show", "give", "keep")
# Observations kept per player, oldest dropped first: the longest of 300 uniformly random
# games made 66, so a real game keeps all of its own.
MAX_SEEN = 400


def has_full_set(hand):
    """One clue of each of the three categories (what the Collector needs)."""
    got = [0, 0, 0, 0]
    for c in hand:
        got[cards.clue_category(c)] = 1
    return got[0] and got[1] and got[2]


class AnastasiaState:
    def __init__(self, table, rng):
        n = table.players
        self.table = table  # engine.anastasia_ledger state: the public half
        self.players = n
        self.rng = rng
        self.roles = [-1] * n
        self.hands = [[] for _ in range(n)]  # clue card ids, ascending
        self.deck = []  # face down; the top card is the last one
        self.box = []  # Blank clues left in the box at setup
        self.seen = [[] for _ in range(n)]  # what each player saw in private, oldest first
        # A secret decision before the table can go on, or None:
        # ["answer", t, category, via] via 0: the turn's question, 1: the question action
        # ["react", holder]             the holder of the clue just claimed by a liar
        # ["show", t, looker]           t shows looker a clue
        # ["give", t, giver, received]  t hands giver a clue back
        # ["keep", p, a, b]             p drew a and b and keeps one
        self.secret = None
        self.entries = []  # ledger entries made by the last apply()

    # -- helpers ---------------------------------------------------------------
    def holder_of(self, card):
        for p in range(self.players):
            if card in self.hands[p]:
                return p
        return -1

    def _take(self, p, card):
        self.hands[p].remove(card)

    def _put(self, p, card):
        h = self.hands[p]
        h.append(card)
        h.sort()

    def _note(self, p, obs):
        s = self.seen[p]
        s.append(obs)
        if len(s) > MAX_SEEN:
            del s[0]

    def truthful_answers(self, t, category):
        """The cards t may claim when asked about category: theirs if they hold any, else all five."""
        own = [c for c in self.hands[t] if cards.clue_category(c) == category]
        return own if own else cards.category_clues(category)

    def returnable(self, t, received):
        """The clues t may hand back after receiving `received` in an exchange: one of the same
        category if t has one, else any; never the card received, never a face-up clue."""
        up = self.table.face_up[t]
        pool = [c for c in self.hands[t] if c != received and c != up]
        # clue_category gives a Blank its own category: a Blank asks for a Blank back
        same = [c for c in pool if cards.clue_category(c) == cards.clue_category(received)]
        return same if same else pool

    def _giveable(self, p):
        up = self.table.face_up[p]
        return [c for c in self.hands[p] if c != up]

    # -- common API ------------------------------------------------------------
    def is_over(self):
        return self.secret is None and self.table.is_over()

    def current_player(self):
        if self.secret is not None:
            return self.secret[1]
        if self.table.is_over():
            return TERMINAL
        return self.table.current_player()

    def scores(self):
        """1 for each winner and 0 for everyone else once the game is over; all 0 before."""
        return self.table.scores() if self.is_over() else [0] * self.players

    def winners(self):
        return self.table.winners() if self.is_over() else []

    def gems(self):
        """Where every gem is: {"supply": n, "purses": [per seat], "spaces": [15, by card id]}."""
        return self.table.gems()

    def decision(self):
        """The decision waiting, as a list: a secret frame (see __init__) or the ledger's frame."""
        if self.secret is not None:
            return list(self.secret)
        return self.table.frame()

    def legal_actions(self):
        sec = self.secret
        if sec is not None:
            return self._candidates()  # built from the secret cards: each one is legal
        if self.table.is_over():
            return []
        out = []
        checked = {}  # kind -> legal, for kinds whose legality does not depend on the target
        for a in self._candidates():
            kind = a[0]
            if kind in ("ask", "question", "exchange", "look", "snoop"):
                # the target only has to be another player (true of every candidate); the
                # rest is the same for every target: check one of each kind
                ok = checked.get(kind)
                if ok is None:
                    ok = checked[kind] = self._problem(a) is None
            else:
                ok = self._problem(a) is None
            if ok:
                out.append(a)
        return out

    def _legal_by_rule(self):
        """legal_actions() the slow way, every candidate through the full check (for tests)."""
        return [a for a in self._candidates() if self._problem(a) is None]

    def _candidates(self):
        """Every action of the right shape for the decision waiting (not all of them legal)."""
        sec = self.secret
        n = self.players
        if sec is not None:
            kind = sec[0]
            if kind == "answer":
                return [["answer", c] for c in self.truthful_answers(sec[1], sec[2])]
            if kind == "react":
                return [["react"], ["no_reaction"]]
            if kind == "show":
                return [["show", c] for c in self.hands[sec[1]]]
            if kind == "give":
                return [["give", c] for c in self.returnable(sec[1], sec[3])]
            return [["keep", sec[2]], ["keep", sec[3]]]
        if self.table.is_over():
            return []
        fr = self.table.frame()
        kind, p = fr[0], fr[1]
        others = [t for t in range(n) if t != p]
        if kind == "ask":
            return [["ask", t, c] for t in others for c in cards.CATEGORIES] + [["declare"]]
        if kind == "act":
            out = [["look", t] for t in others]
            out += [["exchange", t, c] for t in others for c in self._giveable(p)]
            out += [["question", t, c] for t in others for c in cards.CATEGORIES]
            out += [["draw"]] + [["reveal", t] for t in others]
            return out + [["reveal_self"], ["declare"], ["pass"]]
        if kind in ("collector", "choose"):
            return [["gems"], ["clue"]]
        if kind == "allegiance":
            return [["allegiance", 1], ["allegiance", 0]]
        return [[kind, t] for t in others]  # snoop, peek, poison

    def _problem(self, action):
        """Why action cannot be taken now, or None."""
        try:
            self.plan(action)
        except IllegalAction as e:
            return str(e)
        return None

    def plan(self, action):
        """(name, args, ledger entry or None) for a legal action; IllegalAction otherwise."""
        name, args = ledger.parse(action, ARITY, "action", '["ask", 2, 1] or ["draw"]')
        if self.is_over():
            raise IllegalAction("the game is over")
        sec = self.secret
        if sec is not None:
            if name not in SECRET_ACTIONS[sec[0]]:
                raise IllegalAction("%s must first %s; %s is not possible" % (
                    player(sec[1]), SECRET_WORDS[sec[0]], name))
            return name, args, self._secret_entry(name, args)
        if name in SECRET_NAMES:
            raise IllegalAction("%s only follows a question, look, exchange or draw" % name)
        table = self.table
        fr = table.frame()
        p = fr[1]
        entry = None
        if name == "ask" or name == "question":
            t, cat = args
            if cat not in cards.CATEGORIES:
                raise IllegalAction("ask about a Location (0), Trinket (1) or Story (2), not %r" % cat)
            # any card of the category stands for the answer still to come
            table.check(["answer" if name == "ask" else "question", t, cat * ROWS])
            return name, args, None
        if name == "exchange":
            t, card = args
            table.check(["exchange", t])
            if card not in self.hands[p]:
                raise IllegalAction("%s holds no %s to give" % (player(p), _label(card)))
            if card == table.face_up[p]:
                raise IllegalAction("%s lies face up in front of %s and stays there" % (
                    cards.clue_label(card), player(p)))
            return name, args, ["exchange", t]
        if name == "reveal":
            t = args[0]
            if 0 <= t < self.players:
                entry = ["reveal", t, self.roles[t]]
            else:
                entry = ["reveal", t, 0]
        elif name == "reveal_self":
            entry = ["reveal_self", self.roles[p]]
        elif name == "peek":
            t = args[0]
            is_ana = 1 if 0 <= t < self.players and self.roles[t] == cards.ANASTASIA else 0
            entry = ["peek", t, is_ana]
        elif name == "poison":
            t = args[0]
            entry = ["poison", t, self.roles[t] if 0 <= t < self.players else 0]
        elif name == "declare":
            if self.roles[p] != cards.COLLECTOR:
                raise IllegalAction("%s is not the Collector" % player(p))
            if not has_full_set(self.hands[p]):
                raise IllegalAction("%s does not hold one clue of each category" % player(p))
            entry = ["declare"]
        else:
            entry = [name] + args
        table.check(entry)
        return name, args, entry

    def _secret_entry(self, name, args):
        sec = self.secret
        t = sec[1]
        if name == "answer":
            card = args[0]
            if card not in cards.category_clues(sec[2]):
                raise IllegalAction("%s was asked about their %s: %s is not one" % (
                    player(t), cards.CATEGORY_NAMES[sec[2]], _label(card)))
            if card not in self.truthful_answers(t, sec[2]):
                raise IllegalAction("%s holds a %s and must name it truthfully" % (
                    player(t), cards.CATEGORY_NAMES[sec[2]]))
            return ["question" if sec[3] else "answer", t, card]
        if name == "react":
            return ["react", t]
        if name == "no_reaction":
            return None
        card = args[0]
        if name == "show":
            if card not in self.hands[t]:
                raise IllegalAction("%s holds no %s to show" % (player(t), _label(card)))
        elif name == "give":
            if card not in self.returnable(t, sec[3]):
                raise IllegalAction("%s cannot hand back %s: %s" % (
                    player(t), _label(card), self._give_rule(t, card, sec[3])))
        elif card not in (sec[2], sec[3]):
            raise IllegalAction("%s drew %s and %s and keeps one of them" % (
                player(t), _label(sec[2]), _label(sec[3])))
        return None

    def _give_rule(self, t, card, received):
        """Why t may not hand back card after receiving `received` (card is not returnable)."""
        if card not in self.hands[t]:
            return "it is not in their hand"
        if card == received:
            return "it is the clue just received"
        if card == self.table.face_up[t]:
            return "it lies face up in front of them"
        return "it must be a %s, as received" % cards.CATEGORY_NAMES[cards.clue_category(received)]

    def apply(self, action):
        """Apply one action; IllegalAction (state unchanged) if it is not legal now."""
        name, args, entry = self.plan(action)
        self.entries = []
        table = self.table
        sec = self.secret
        actor = self.current_player()
        if entry is not None:
            table.apply(entry)
            self.entries.append(entry)
        if sec is not None:
            self.secret = None
            self._after_secret(sec, name, args)
        else:
            self._after_public(actor, name, args)
        self._deal_to_counts()
        self._enter_the_end()

    def _after_secret(self, sec, name, args):
        t = sec[1]
        if name == "answer":
            self._open_reaction(t, args[0])
        elif name == "show":
            self._note(sec[2], ["shown", t, args[0]])
        elif name == "give":
            giver = sec[2]
            self._take(t, args[0])
            self._put(giver, args[0])
            self._note(giver, ["got", t, args[0]])
            self._note(t, ["gave", giver, args[0]])
        elif name == "keep":
            other = sec[3] if args[0] == sec[2] else sec[2]
            self._put(t, args[0])
            self.deck.append(other)
            self._note(t, ["returned", other])

    def _after_public(self, p, name, args):
        if name == "ask" or name == "question":
            self.secret = ["answer", args[0], args[1], 1 if name == "question" else 0]
        elif name == "look":
            self.secret = ["show", args[0], p]
        elif name == "exchange":
            t, card = args
            self._take(p, card)
            self._put(t, card)
            self._note(p, ["gave", t, card])
            self._note(t, ["got", p, card])
            self.secret = ["give", t, p, card]
        elif name == "draw" and len(self.deck) >= 2:
            a = self.deck.pop()
            b = self.deck.pop()
            self.secret = ["keep", p, a, b]
        elif name == "snoop":
            self._note(p, ["hand", args[0], list(self.hands[args[0]])])
        elif name == "peek":
            self._note(p, ["role", args[0], self.roles[args[0]]])

    def _open_reaction(self, responder, card):
        if self.table.ended is not None:
            return
        h = self.holder_of(card)
        if h >= 0 and h != responder and self.table.face_up[h] < 0:
            self.secret = ["react", h]

    def in_transit(self, p):
        """How many clues p's hand lacks against the table's count while a secret step runs:
        the drawn clue not kept yet, or in an exchange the clue not handed back yet."""
        sec = self.secret
        if sec is None:
            return 0
        if sec[0] == "keep":
            return 1 if sec[1] == p else 0
        if sec[0] == "give":
            return (p == sec[2]) - (p == sec[1])
        return 0

    def _deal_to_counts(self):
        """Clues the ledger counted into a hand come off the top of the deck."""
        for p in range(self.players):
            want = self.table.hands[p] - self.in_transit(p)
            while len(self.hands[p]) < want:
                self._put(p, self.deck.pop())

    def _enter_the_end(self):
        """After an end effect (and any secret step still due), enter the hidden roles."""
        table = self.table
        if self.secret is not None or table.ended is None:
            return
        while not table.is_over():
            fr = table.frame()
            p = fr[1]
            if fr[0] == "role":
                entry = ["role", p, self.roles[p]]
            else:
                entry = ["collector_set", 1 if has_full_set(self.hands[p]) else 0]
            table.apply(entry)
            self.entries.append(entry)

    # -- narration ---------------------------------------------------------------
    def describe(self, action):
        """One line for a spectator who sees every card (call it before apply)."""
        from engine.anastasia_words import game_line  # display only: not loaded by the rules

        return game_line(self, action)

    # -- views and saving ------------------------------------------------------
    def view(self, p):
        """What player p knows: the public table, their role, hand and private observations."""
        if not is_int(p) or not (0 <= p < self.players):
            raise ValueError("no player %r in a %d-player game" % (p, self.players))
        return {
            "game": "anastasia",
            "you": p,
            "role": self.roles[p],
            "hand": list(self.hands[p]),
            "seen": copy_data(self.seen[p]),
            "table": self.table.to_dict(),
            "decision": self._decision_for(p),
        }

    def _decision_for(self, p):
        sec = self.secret
        if sec is None:
            return self.table.frame()
        if sec[1] == p:
            return list(sec)
        kind = sec[0]
        if kind == "answer":
            return list(sec[:3])
        if kind == "react":
            return ["react"]  # who holds the claimed clue is secret
        if kind == "give":
            return ["give", sec[1], sec[2]]
        return list(sec[:3]) if kind == "show" else ["keep", sec[1]]

    def to_dict(self):
        return {
            "game": "anastasia",
            "version": STATE_VERSION,
            "table": self.table.to_dict(),
            "rng": self.rng.state(),
            "roles": list(self.roles),
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "box": list(self.box),
            "seen": copy_data(self.seen),  # a Gossip's look holds a list of cards
            "secret": None if self.secret is None else list(self.secret),
        }

    def digest(self):
        return digest_of(self.to_dict())

    def ledger_options(self):
        """The options of anastasia_ledger.new_game that set up this game's public half."""
        return self.table.options()


SECRET_WORDS = {
    "answer": "answer the question",
    "react": "decide whether to react",
    "show": "show a clue",
    "give": "hand a clue back",
    "keep": "keep one of the two clues drawn",
}


def _label(card):
    if is_int(card) and 0 <= card < cards.CLUE_COUNT:
        return cards.clue_label(card)
    return "card %r" % (card,)


def new_game(seed, players, **options):
    """Deal the invites with the seeded engine PRNG.

    Options: the rule options of engine.anastasia_rules.RULE_OPTIONS (docs/anastasia.md).
    """
    if not is_int(seed):
        raise ValueError("seed must be an int, got %r" % (seed,))
    rules.check_players(players, "anastasia")
    for k in options:
        if k not in OPTIONS:
            raise ValueError("unknown option %r (known: %s)" % (k, ", ".join(sorted(OPTIONS))))
    rule_opts = rules.rule_options(players, options)
    rng = Rng(seed)
    # Anastasia's invite: the top card of each category's own shuffled deck.
    ana_clues = []
    rest = []
    for cat in cards.CATEGORIES:
        pile = rng.shuffle(cards.category_clues(cat))
        ana_clues.append(pile.pop())
        rest.extend(pile)
    rng.shuffle(rest)  # the three decks shuffled together
    guests = rng.shuffle(cards.eligible_guests(players, rule_opts["guest_min_players"]))
    dealt = [cards.RASPUTINS_AGENT] + guests[:rules.random_guest_places(players)]
    if rules.has_empress(players):
        dealt.insert(0, cards.EMPRESS)
    invites = [[cards.ANASTASIA, ana_clues]]
    blank = cards.FIRST_BLANK
    for role in dealt:
        invites.append([role, [rest.pop(), blank, blank + 1]])
        blank += 2
    rng.shuffle(invites)
    empress = None
    for p in range(players):
        if invites[p][0] == cards.EMPRESS:
            empress = p
    table = ledger.new_game(0, players, empress=empress, **rule_opts)
    state = AnastasiaState(table, rng)
    for p in range(players):
        state.roles[p] = invites[p][0]
        state.hands[p] = sorted(invites[p][1])
    state.deck = rest
    state.box = list(range(blank, cards.CLUE_COUNT))
    return state


def from_dict(d):
    """Rebuild a state saved by to_dict(); BadState if it is not a valid state."""
    from engine.anastasia_saved_game import load_game  # only a restore needs the checks

    return load_game(d)
