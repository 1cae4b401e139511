"""Anathema rules engine: the Casino variant of the Anathema rulebook, basic and advanced
rules, 2-4 players or two partnerships, hands to 21 (docs/anathema.md).

Seats are 0..N-1 clockwise; messages call seat p "P<p+1>". The player to the left of
seat p is p + 1. Cards are ints inside the engine and ids such as "7a" everywhere
else (engine.anathema_cards). A build is named by the id of its first card.

Actions (JSON-safe lists, as legal_actions() returns them):
  ["deal"]                          the dealer deals (shuffling first at a new hand)
  ["trail", card]                   put a card from the hand face up on the table
  ["capture", card, [item, ...]]    take table cards and builds with a card
  ["build", card, value, [item, ...]]  build `value` from a hand card and table items
  ["peek", seat] ["swap", take, give] ["steal", seat] ["pass"]
                                    use (or not) a capture reward, advanced rules only
An item is the id of a loose table card or the name of a build.

current_player() is the seat to play, core.CHANCE when a deal is due and
core.TERMINAL once a side has won.
"""

from engine import anathema_cards as cards_data
from engine import anathema_moves
from engine import anathema_scoring as scoring
from engine.anathema_cards import CARD_IDS, CARD_OF_ID, FAMILIAR
from engine.anathema_groups import can_split
from engine.core import CHANCE, TERMINAL, IllegalAction, digest_of
from engine.rng import Rng

MIN_PLAYERS = 2
MAX_PLAYERS = 4
STATE_VERSION = 1
OPTIONS = {
    "partners": False,
    "advanced": False,
    "dealer": 0,
    "target": cards_data.TARGET,
    "point_cards": cards_data.POINT_CARDS,
    "rewards": cards_data.REWARDS,
    "most_tie": cards_data.MOST_TIE,
    "top_tie": cards_data.TOP_TIE,
    "convert": cards_data.CONVERT,
    "last_play_sweep": cards_data.LAST_PLAY_SWEEP,
}
MAX_TARGET = 999
MAX_REWARDS_PER_CARD = 4
FIRST_DEAL_TABLE = scoring.FIRST_DEAL_TABLE


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


_card = scoring.card_of


def _seat_name(p):
    return "P%d" % (p + 1)


class Rules:
    """The options of one game, validated, with the lookups the engine needs."""

    def __init__(self, players, options):
        opts = {}
        for name in options:
            if name not in OPTIONS:
                raise ValueError("unknown anathema option %r (known: %s)"
                                 % (name, ", ".join(sorted(OPTIONS))))
        for name in OPTIONS:
            opts[name] = options[name] if name in options else OPTIONS[name]
        if not _is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError("anathema needs %d-%d players, got %r" % (MIN_PLAYERS, MAX_PLAYERS, players))
        self.players = players
        for flag in ("partners", "advanced", "last_play_sweep"):
            if not isinstance(opts[flag], bool):
                raise ValueError("%s must be true or false, got %r" % (flag, opts[flag]))
        self.partners = opts["partners"]
        if self.partners and players != 4:
            raise ValueError("partners play needs 4 players (two partnerships sitting opposite), got %d"
                             % players)
        self.advanced = opts["advanced"]
        self.last_play_sweep = opts["last_play_sweep"]
        dealer = opts["dealer"]
        if not _is_int(dealer) or not (0 <= dealer < players):
            raise ValueError("dealer must be a seat 0-%d, got %r" % (players - 1, dealer))
        target = opts["target"]
        if not _is_int(target) or not (1 <= target <= MAX_TARGET):
            raise ValueError("target must be an int 1-%d, got %r" % (MAX_TARGET, target))
        self.target = target
        self.share_most, self.share_top = scoring.check_ties(opts)
        scoring.check_choice(opts, "convert", cards_data.CONVERT_CHOICES)
        self.convert_higher = opts["convert"] == "higher"
        self.points = scoring.point_values(opts["point_cards"])
        # Rewards are an advanced rule: a basic game keeps none (and saves none).
        if not self.advanced:
            opts["rewards"] = {}
        self.rewards = self._rewards(opts["rewards"])
        self.sides = 2 if self.partners else players
        self.options = copy_options(opts)  # validated, and shared with no caller

    def _rewards(self, table):
        if not isinstance(table, dict):
            raise ValueError('rewards must map card ids to card texts such as "7a: Peek", got %r' % (table,))
        rewards = [None] * 52
        for cid in table:
            c = _card(cid, "rewards")
            text = table[cid]
            parts = text.split(",") if isinstance(text, str) else []
            if not (1 <= len(parts) <= MAX_REWARDS_PER_CARD):
                raise ValueError('rewards: %s needs a text such as "7a: Peek" (1-%d, comma separated), got %r'
                                 % (cid, MAX_REWARDS_PER_CARD, text))
            out = []
            for part in parts:
                pair = part.split(":")
                if len(pair) != 2:
                    raise ValueError('rewards: %s: %r is not "<card>: <reward>"' % (cid, part.strip()))
                t = _card(pair[0].strip(), "rewards of %s" % cid)
                kind = pair[1].strip().lower()
                if t == c:
                    raise ValueError("rewards: %s cannot capture itself" % cid)
                if kind not in cards_data.REWARD_KINDS:
                    raise ValueError("rewards: %s: %r is not Peek, Swap or Steal" % (cid, pair[1].strip()))
                out.append((t, kind))
            rewards[c] = out
        return rewards

    def side(self, seat):
        return seat % 2 if self.partners else seat

    def side_seats(self, side):
        if self.partners:
            return [side, side + 2]
        return [side]

    def deals_per_hand(self):
        return scoring.deals_per_hand(self.players)


_rules_cache = [None, None, None]  # [players, options, Rules]


def make_rules(players, options):
    """Rules for these options (cached: every copy made by from_dict names the same ones)."""
    if _rules_cache[0] == players and _rules_cache[1] == options:
        return _rules_cache[2]
    rules = Rules(players, options)
    _rules_cache[0] = players
    _rules_cache[1] = copy_options(rules.options)  # the caller may change its dict later
    _rules_cache[2] = rules
    return rules


class AnathemaState:
    def __init__(self, rules, rng):
        n = rules.players
        self.rules = rules
        self.players = n
        self.rng = rng
        self.deck = []  # face down, top card last
        self.hands = [[] for _ in range(n)]
        self.table = []  # loose face-up cards
        self.builds = []  # [cards, value, multiple, last seat to play on it]
        self.piles = [[] for _ in range(n)]  # face-down capture piles
        self.sweeps = [[] for _ in range(n)]  # face-up sweep cards
        self.dealer = rules.options["dealer"]
        self.deals = 0  # deals made in the current hand
        self.turn = 0
        self.last_capture = -1
        self.pending = []  # [kind, captured card] rewards the seat to play may still use
        self.peeks = []  # [viewer, target, cards seen]
        self.totals = [0] * rules.sides
        self.results = []  # one dict per finished hand
        self.over = False
        self.winning_sides = []
        self.listed_all = True  # whether the last legal_actions() listed every play

    # -- whose turn ----------------------------------------------------------
    def current_player(self):
        if self.over:
            return TERMINAL
        if self.pending:
            return self.turn
        for h in self.hands:
            if h:
                return self.turn
        return CHANCE

    def is_over(self):
        return self.over

    def last_deal(self):
        """True while the cards of a hand's last deal are played (the deck is empty)."""
        return not self.deck and self.deals > 0 and not self._hand_done()

    def _hand_done(self):
        if self.deck or self.pending:
            return False
        for h in self.hands:
            if h:
                return False
        return True

    def build_name(self, b):
        return CARD_IDS[self.builds[b][0][0]]

    def owns_build(self, seat):
        """True when `seat` was the last to play on a build still on the table (no trailing)."""
        for b in self.builds:
            if b[3] == seat:
                return True
        return False

    # -- listing the moves ---------------------------------------------------
    def legal_actions(self):
        cp = self.current_player()
        if cp == TERMINAL:
            return []
        if cp == CHANCE:
            return [["deal"]]
        if self.pending:
            return self._reward_actions()
        acts, self.listed_all = anathema_moves.plays(self)
        return acts

    def _reward_actions(self):
        kind = self.pending[0][0]
        p = self.turn
        acts = []
        if kind == "peek":
            for q in range(self.players):
                if q != p and self.hands[q]:
                    acts.append(["peek", q])
        elif kind == "steal":
            for q in range(self.players):
                if q != p and self.piles[q]:
                    acts.append(["steal", q])
        else:
            hand = sorted(self.hands[p])
            for t in self.table:
                for g in hand:
                    acts.append(["swap", CARD_IDS[t], CARD_IDS[g]])
        acts.append(["pass"])
        return acts

    def _reward_usable(self, kind):
        p = self.turn
        if kind == "swap":
            return bool(self.table) and bool(self.hands[p])
        for q in range(self.players):
            if q != p and (self.hands[q] if kind == "peek" else self.piles[q]):
                return True
        return False

    # -- checking a move -----------------------------------------------------
    def apply(self, action):
        """Apply one action; IllegalAction (state unchanged) if it is not legal now."""
        if not isinstance(action, (list, tuple)) or not action or not isinstance(action[0], str):
            raise IllegalAction('an action is a list such as ["trail", "7a"], got %r' % (action,))
        op = action[0]
        cp = self.current_player()
        if cp == TERMINAL:
            raise IllegalAction("the game is over")
        if cp == CHANCE:
            if op != "deal" or len(action) != 1:
                raise IllegalAction('the dealer deals now: the only action is ["deal"], got %r' % (action,))
            self._deal()
            return
        if op == "deal":
            raise IllegalAction("%s still has cards to play: no deal now" % _seat_name(self.turn))
        if self.pending:
            self._apply_reward(op, action)
            return
        if op == "trail":
            self._arity(action, 2, '["trail", card]')
            h = self._hand_card(action[1])
            if self.owns_build(self.turn) and anathema_moves.has_capture_or_build(self):
                raise IllegalAction("%s was the last to play on a build still on the table: capture or "
                                    "build, no trailing" % _seat_name(self.turn))
            self._trail(h)
        elif op == "capture":
            self._arity(action, 3, '["capture", card, [item, ...]]')
            h = self._hand_card(action[1])
            loose, builds = self._parse_items(action[2])
            self._check_capture(h, loose, builds)
            self._capture(h, loose, builds)
        elif op == "build":
            self._arity(action, 4, '["build", card, value, [item, ...]]')
            h = self._hand_card(action[1])
            value = action[2]
            if not _is_int(value) or not (1 <= value <= 13):
                raise IllegalAction("a build value is a number 1-13, got %r" % (value,))
            loose, builds = self._parse_items(action[3])
            multiple = self._check_build(h, value, loose, builds)
            self._build(h, value, loose, builds, multiple)
        elif op in ("peek", "swap", "steal", "pass"):
            raise IllegalAction("no capture reward to use now")
        else:
            raise IllegalAction("unknown action %r" % (op,))

    def _arity(self, action, n, shape):
        if len(action) != n:
            raise IllegalAction("%s is written %s, got %r" % (action[0], shape, action))

    def _hand_card(self, cid):
        c = CARD_OF_ID.get(cid) if isinstance(cid, str) else None
        if c is None:
            raise IllegalAction("%r is not a card id (1a .. 13d)" % (cid,))
        if c not in self.hands[self.turn]:
            raise IllegalAction("%s is not in %s's hand: every turn plays one card from the hand"
                                % (cid, _seat_name(self.turn)))
        return c

    def _items(self, loose):
        return [CARD_IDS[self.table[i]] for i in loose]

    def _parse_items(self, items):
        """[loose table indices], [build indices] named by an action (each once)."""
        if not isinstance(items, (list, tuple)):
            raise IllegalAction("table items are a list of card ids and build names, got %r" % (items,))
        loose = []
        builds = []
        for cid in items:
            c = CARD_OF_ID.get(cid) if isinstance(cid, str) else None
            if c is None:
                raise IllegalAction("%r is not a card id (1a .. 13d)" % (cid,))
            if c in self.table:
                i = self.table.index(c)
                if i in loose:
                    raise IllegalAction("%s is named twice" % cid)
                loose.append(i)
                continue
            for b in range(len(self.builds)):
                bc = self.builds[b][0]
                if c in bc:
                    if c != bc[0]:
                        raise IllegalAction("%s lies in build %s: name a build by its first card, %s"
                                            % (cid, CARD_IDS[bc[0]], CARD_IDS[bc[0]]))
                    if b in builds:
                        raise IllegalAction("build %s is named twice" % cid)
                    builds.append(b)
                    break
            else:
                raise IllegalAction("%s is not face up on the table" % cid)
        loose.sort()
        builds.sort()
        return loose, builds

    def _check_capture(self, h, loose, builds):
        a = h // 4 + 1
        if not loose and not builds:
            raise IllegalAction("a capture takes at least one card or build from the table")
        for b in builds:
            w = self.builds[b][1]
            if w != a:
                raise IllegalAction("build %s is worth %d, not %d: a build is captured whole, at its own "
                                    "value (no card is added to a build and the build taken in one turn)"
                                    % (self.build_name(b), w, a))
        if loose:
            vals = [self.table[i] // 4 + 1 for i in loose]
            if not can_split(vals, a):
                raise IllegalAction("%s cannot be split into sets that each add up to %d"
                                    % (" ".join(self._items(loose)), a))

    def _check_build(self, h, value, loose, builds):
        """Whether the build is multiple; IllegalAction if it is no build at all."""
        a = h // 4 + 1
        p = self.turn
        holds = False
        for c in self.hands[p]:
            if c != h and c // 4 + 1 == value:
                holds = True
        if not holds:
            raise IllegalAction("%s holds no other %d: a build needs a card in hand to capture it"
                                % (_seat_name(p), value))
        if len(builds) > 1:
            raise IllegalAction("one build at a time: a card goes onto a new build or one existing build")
        vals = [self.table[i] // 4 + 1 for i in loose] + [a]
        advanced = self.rules.advanced
        if not builds:
            if not loose:
                raise IllegalAction("a build puts the hand card on table cards: name at least one")
            total = _total(vals)
            if total == value:
                return False
            if advanced and total > value and can_split(vals, value):
                return True
            raise IllegalAction(self._not_value(h, loose, value, vals, ""))
        cards, w, multiple, _last = self.builds[builds[0]]
        name = self.build_name(builds[0])
        vals = vals + [c // 4 + 1 for c in cards]
        if multiple:
            # Only an advanced game holds multiple builds (from_dict checks it).
            if value != w:
                raise IllegalAction("build %s is a multiple %d: its value cannot change" % (name, w))
            if not can_split(vals, value):
                raise IllegalAction("the cards added to multiple build %s do not make sets of %d"
                                    % (name, value))
            return True
        total = _total(vals)
        if total == value:
            return False
        if advanced and total > value and can_split(vals, value):
            if value < w or (value == w and self.rules.convert_higher):
                raise IllegalAction("single build %s is worth %d: as a multiple build it must be worth %s %d"
                                    % (name, w, "more than" if self.rules.convert_higher else "at least", w))
            return True
        raise IllegalAction(self._not_value(h, loose, value, vals, "build %s (%d) + " % (name, w)))

    def _not_value(self, h, loose, value, vals, base):
        named = base + " + ".join([CARD_IDS[h]] + self._items(loose))
        advanced = self.rules.advanced
        if not advanced and _total(vals) > value and can_split(vals, value):
            return "%s would be a multiple build of %d: multiple builds are an advanced rule" % (named, value)
        if advanced:
            return "%s neither adds up to %d nor splits into sets of %d" % (named, value, value)
        return "%s does not add up to %d" % (named, value)

    # -- playing a move ------------------------------------------------------
    def _deal(self):
        n = self.players
        if not self.deck:
            # The hand before is over: every card comes back and the deck is shuffled.
            self.deck = list(range(52))
            self.table = []
            self.builds = []
            self.piles = [[] for _ in range(n)]
            self.sweeps = [[] for _ in range(n)]
            self.deals = 0
            self.last_capture = -1
        if self.deals == 0:
            self.rng.shuffle(self.deck)
        deck = self.deck
        first = len(deck) == 52
        for _ in range(2):
            for k in range(1, n):
                hand = self.hands[(self.dealer + k) % n]
                hand.append(deck.pop())
                hand.append(deck.pop())
            if first:
                self.table.append(deck.pop())
                self.table.append(deck.pop())
            hand = self.hands[self.dealer]
            hand.append(deck.pop())
            hand.append(deck.pop())
        self.deals += 1
        self.peeks = []
        self.turn = (self.dealer + 1) % n

    def _trail(self, h):
        self.hands[self.turn].remove(h)
        self.table.append(h)
        self._next_turn()

    def _take(self, loose, builds):
        """Remove the named items from the table; the cards they hold."""
        taken = [self.table[i] for i in loose]
        for b in builds:
            taken.extend(self.builds[b][0])
        for i in reversed(loose):
            self.table.pop(i)
        for b in reversed(builds):
            self.builds.pop(b)
        return taken

    def _capture(self, h, loose, builds):
        p = self.turn
        self.hands[p].remove(h)
        taken = self._take(loose, builds)
        self.piles[p].extend(taken)
        self.last_capture = p
        if not self.table and not self.builds and (self.rules.last_play_sweep or not self._hand_done()):
            self.sweeps[p].append(h)
        else:
            self.piles[p].append(h)
        if self.rules.advanced:
            earned = self.rules.rewards[h]
            if earned:
                for target, kind in earned:
                    if target in taken:
                        self.pending.append([kind, target])
                self._skip_unusable()
                if self.pending:
                    return
        self._next_turn()

    def _build(self, h, value, loose, builds, multiple):
        p = self.turn
        self.hands[p].remove(h)
        added = [self.table[i] for i in loose] + [h]
        if builds:
            b = self.builds[builds[0]]
            b[0].extend(added)
            b[1] = value
            b[2] = multiple
            b[3] = p
        else:
            self.builds.append([[self.table[i] for i in loose] + [h], value, multiple, p])
        for i in reversed(loose):
            self.table.pop(i)
        self._next_turn()

    def _skip_unusable(self):
        while self.pending and not self._reward_usable(self.pending[0][0]):
            self.pending.pop(0)

    def _apply_reward(self, op, action):
        kind = self.pending[0][0]
        p = self.turn
        if op == "pass":
            self._arity(action, 1, '["pass"]')
        elif op != kind:
            raise IllegalAction("the reward to use now is %s (or pass), not %r" % (kind, op))
        elif op == "swap":
            self._arity(action, 3, '["swap", table card, hand card]')
            take = CARD_OF_ID.get(action[1]) if isinstance(action[1], str) else None
            give = CARD_OF_ID.get(action[2]) if isinstance(action[2], str) else None
            if take is None or take not in self.table:
                raise IllegalAction("swap takes a loose face-up card from the table, got %r" % (action[1],))
            if give is None or give not in self.hands[p]:
                raise IllegalAction("swap gives a card from %s's hand, got %r" % (_seat_name(p), action[2]))
            hand = self.hands[p]
            hand.remove(give)
            hand.append(take)
            i = self.table.index(take)
            self.table[i] = give
        else:
            self._arity(action, 2, '["%s", seat]' % op)
            q = action[1]
            if not _is_int(q) or not (0 <= q < self.players) or q == p:
                raise IllegalAction("%s names another player's seat 0-%d, got %r" % (op, self.players - 1, q))
            if op == "peek":
                if not self.hands[q]:
                    raise IllegalAction("%s holds no cards to peek at" % _seat_name(q))
                self.peeks = [k for k in self.peeks if not (k[0] == p and k[1] == q)]
                self.peeks.append([p, q, sorted(self.hands[q])])
            else:
                pile = self.piles[q]
                if not pile:
                    raise IllegalAction("%s has no face-down capture pile to steal from" % _seat_name(q))
                self.piles[p].append(pile.pop(self.rng.below(len(pile))))
        self.pending.pop(0)
        self._skip_unusable()
        if not self.pending:
            self._next_turn()

    def _next_turn(self):
        n = self.players
        self.turn = (self.turn + 1) % n
        if self._hand_done():
            if not self.deck:
                self._end_hand()
            else:
                self.turn = (self.dealer + 1) % n

    def _end_hand(self):
        p = self.last_capture
        if p >= 0:
            # The last capture takes what is left; this is no sweep.
            self.piles[p].extend(self.table)
            for b in self.builds:
                self.piles[p].extend(b[0])
            self.table = []
            self.builds = []
        result = self._score_hand()
        self.results.append(result)
        for s in range(self.rules.sides):
            self.totals[s] += result["points"][s]
        self._check_end()
        if not self.over:
            self.dealer = (self.dealer + 1) % self.players
            self.turn = (self.dealer + 1) % self.players

    def _score_hand(self):
        rules = self.rules
        ns = rules.sides
        counted = [0] * ns
        familiars = [0] * ns
        sweeps = [0] * ns
        card_points = [0] * ns
        for p in range(self.players):
            s = rules.side(p)
            sweeps[s] += len(self.sweeps[p])
            for pile in (self.piles[p], self.sweeps[p]):
                counted[s] += len(pile)
                for c in pile:
                    if c % 4 == FAMILIAR:
                        familiars[s] += 1
                    card_points[s] += rules.points[c]
        share = rules.share_most
        award, leaders = scoring.award_most, scoring.leaders
        most_cards = award(leaders(counted), ns, scoring.MOST_CARDS, share)
        most_familiars = award(leaders(familiars), ns, scoring.MOST_FAMILIARS, share)
        points = [most_cards[s] + most_familiars[s] + sweeps[s] + card_points[s] for s in range(ns)]
        return {
            "dealer": self.dealer,
            "last_capture": self.last_capture if self.last_capture >= 0 else None,
            "cards": counted,
            "familiars": familiars,
            "sweeps": sweeps,
            "card_points": card_points,
            "most_cards": most_cards,
            "most_familiars": most_familiars,
            "points": points,
        }

    def _check_end(self):
        tops = scoring.winning_sides(self.totals, self.rules.target, self.rules.share_top)
        if tops:
            self.over = True
            self.winning_sides = tops

    # -- results -------------------------------------------------------------
    def scores(self):
        """Points so far per seat (partners show their side's total)."""
        return [self.totals[self.rules.side(p)] for p in range(self.players)]

    def winners(self):
        if not self.over:
            return []
        out = []
        for s in self.winning_sides:
            out.extend(self.rules.side_seats(s))
        out.sort()
        return out

    # -- saving --------------------------------------------------------------
    def to_dict(self):
        ids = CARD_IDS
        return {
            "game": "anathema",
            "version": STATE_VERSION,
            "players": self.players,
            "options": copy_options(self.rules.options),
            "rng": self.rng.state(),
            "dealer": self.dealer,
            "deals": self.deals,
            "turn": self.turn,
            "deck": [ids[c] for c in self.deck],
            "hands": [[ids[c] for c in h] for h in self.hands],
            "table": [ids[c] for c in self.table],
            "builds": [{"cards": [ids[c] for c in b[0]], "value": b[1], "multiple": b[2], "last": b[3]}
                       for b in self.builds],
            "piles": [[ids[c] for c in p] for p in self.piles],
            "sweeps": [[ids[c] for c in p] for p in self.sweeps],
            "last_capture": self.last_capture if self.last_capture >= 0 else None,
            "pending": [[k, ids[c]] for k, c in self.pending],
            "peeks": [[v, t, [ids[c] for c in seen]] for v, t, seen in self.peeks],
            "totals": list(self.totals),
            "results": [copy_result(r) for r in self.results],
            "over": self.over,
            "winners": self.winners(),
        }

    def copy(self):
        """An independent copy (what from_dict(to_dict()) gives, without the checks)."""
        s = object.__new__(AnathemaState)  # no __init__: every field is set below
        s.rules = self.rules
        s.players = self.players
        s.rng = self.rng.copy()
        s.deck = list(self.deck)
        s.hands = [list(h) for h in self.hands]
        s.table = list(self.table)
        s.builds = [[list(b[0]), b[1], b[2], b[3]] for b in self.builds]
        s.piles = [list(p) for p in self.piles]
        s.sweeps = [list(p) for p in self.sweeps]
        s.dealer = self.dealer
        s.deals = self.deals
        s.turn = self.turn
        s.last_capture = self.last_capture
        s.pending = [list(k) for k in self.pending]
        s.peeks = [[v, t, list(seen)] for v, t, seen in self.peeks]
        s.totals = list(self.totals)
        s.results = list(self.results)  # finished hands are never changed
        s.over = self.over
        s.winning_sides = list(self.winning_sides)
        s.listed_all = self.listed_all
        return s

    def digest(self):
        return digest_of(self.to_dict())

    def view(self, player):
        """What one player may see: the own hand, the face-up table and sweep cards, every
        count, the hands that player peeked at (the cards seen that are still held);
        no deck order, no other hand, no face-down pile, no PRNG."""
        if not _is_int(player) or not (0 <= player < self.players):
            raise ValueError("no seat %r in a %d-player game" % (player, self.players))
        d = self.to_dict()
        del d["rng"]
        d["deck"] = len(self.deck)
        d["hands"] = [d["hands"][p] if p == player else len(self.hands[p]) for p in range(self.players)]
        d["piles"] = [len(p) for p in self.piles]
        seen = {}
        for v, t, cards in self.peeks:
            if v == player:
                seen[_seat_name(t)] = [CARD_IDS[c] for c in cards if c in self.hands[t]]
        d["peeked"] = seen
        del d["peeks"]
        return d

    def describe(self, action):
        """One sentence saying what `action` does from this state (for narration)."""
        from engine.anathema_text import describe  # display only: not loaded by the rules

        return describe(self, action)


def copy_options(opts):
    """A copy of a validated options dict that shares no dict with it (the values are
    immutable: bools, ints, strs)."""
    out = dict(opts)
    out["point_cards"] = dict(opts["point_cards"])
    out["rewards"] = dict(opts["rewards"])
    return out


def copy_result(r):
    return {k: (list(v) if type(v) is list else v) for k, v in r.items()}


def _total(values):
    t = 0
    for v in values:
        t += v
    return t


def new_game(seed, players, **options):
    """A game before its first deal (current_player() is CHANCE: apply ["deal"]).

    Options (defaults in OPTIONS, the gaps from engine.anathema_cards): partners (4 players
    in two partnerships), advanced (capture rewards and multiple builds), dealer (first
    dealer's seat), target, point_cards, rewards, most_tie, top_tie, convert,
    last_play_sweep; docs/anathema.md.
    """
    if not _is_int(seed):
        raise ValueError("seed must be an int, got %r" % (seed,))
    rules = make_rules(players, options)
    state = AnathemaState(rules, Rng(seed))
    state.deck = list(range(52))
    state.turn = (state.dealer + 1) % players
    return state


def from_dict(d):
    """Rebuild a state saved by to_dict() (after a JSON round trip too); BadState if it is not valid."""
    from engine.anathema_saved import load

    return load(d)
