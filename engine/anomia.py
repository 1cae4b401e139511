"""Anomia rules engine: the whole card game, cards included (docs/anomia.md).

Players are numbered 0..N-1 clockwise from the oldest player (0), who starts;
messages call player p "P<p+1>". Draw piles are 0 and 1; every pile is a list
of card ids, bottom first, so the top card is the last element.

Actions (JSON-safe lists, exactly as legal_actions() returns them):
  ["draw", k]   the player to move draws the top card of draw pile k
  ["win", p]    player p won the pending face-off (or tie-breaker)
  ["tie"]       the pending face-off was a tie: start a tie-breaker

current_player() is the player to draw, core.SIMULTANEOUS while a face-off waits
for its result, core.TERMINAL at the end. faceoff() describes the pending
face-off for a UI.
"""

from engine import anomia_cards
from engine.core import SIMULTANEOUS, TERMINAL, BadState, IllegalAction, digest_of
from engine.data import load_checked
from engine.rng import Rng

MIN_PLAYERS = 3
MAX_PLAYERS = 6
STATE_VERSION = 1
# None: the rulebook's choice (engine.anomia_cards); removed_symbols applies to 3 players only.
OPTIONS = {"deck": anomia_cards.DEFAULT_DECK, "symbol_counts": None, "wild_pairs": None,
           "removed_symbols": None}
VARIANTS = ({"deck": "blue"}, {"deck": "red"})  # option sets the shared engine tests walk
MAX_SYMBOLS = len(anomia_cards.SYMBOL_NAMES)
MAX_CARDS_PER_SYMBOL = 40
MAX_WILDS = 16


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _symbol_list(value, what, n_symbols):
    if not isinstance(value, (list, tuple)):
        raise ValueError("%s must be a list of symbol numbers, got %r" % (what, value))
    out = []
    for s in value:
        if not _is_int(s) or not (0 <= s < n_symbols):
            raise ValueError("%s: %r is not a symbol 0-%d" % (what, s, n_symbols - 1))
        out.append(s)
    return out


class Deck:
    """What each card id shows, for one deck spec and player count (validated by make_deck)."""

    def __init__(self, name, symbol_counts, wild_pairs, removed):
        self.name = name
        self.symbol_counts = symbol_counts
        self.wild_pairs = wild_pairs
        self.removed = removed
        self.n_playing = sum(symbol_counts)
        self.size = self.n_playing + len(wild_pairs)
        # Per card id: symbol (-1 on a wild) and wild symbols (-1 on a playing card).
        self.sym = []
        for s in range(len(symbol_counts)):
            self.sym.extend([s] * symbol_counts[s])
        self.sym.extend([-1] * len(wild_pairs))
        self.wild_a = [-1] * self.n_playing + [p[0] for p in wild_pairs]
        self.wild_b = [-1] * self.n_playing + [p[1] for p in wild_pairs]
        self.in_play = [
            c for c in range(self.size)
            if self.sym[c] not in removed and self.wild_a[c] not in removed and self.wild_b[c] not in removed
        ]
        self.cat_first, cat_end = anomia_cards.DECK_CATEGORIES[name]
        self.cat_span = cat_end - self.cat_first

    def is_wild(self, card):
        return card >= self.n_playing

    def symbol(self, card):
        """The symbol of a playing card (-1 for a wild card)."""
        return self.sym[card]

    def wild_symbols(self, card):
        return [self.wild_a[card], self.wild_b[card]]

    def cards_with_symbol(self, symbol):
        return [c for c in range(self.n_playing) if self.sym[c] == symbol]

    def wild_card(self, a, b):
        """The id of the wild card showing symbols a and b (either order); ValueError if none."""
        for c in range(self.n_playing, self.size):
            if (self.wild_a[c], self.wild_b[c]) in ((a, b), (b, a)):
                return c
        raise ValueError("no wild card with symbols %d and %d" % (a, b))

    def category(self, card):
        """Index into engine.anomia_categories.CATEGORIES."""
        return self.cat_first + card % self.cat_span

    def category_text(self, card):
        from engine.anomia_categories import CATEGORIES  # display only: not loaded by the rules

        return CATEGORIES[self.category(card)]

    def symbol_name(self, symbol):
        return anomia_cards.SYMBOL_NAMES[symbol]

    def label(self, card):
        """A card as a person reads it: "[star] 'Famous bridge'" or "WILD [star|moon]"."""
        if self.is_wild(card):
            return "WILD [%s|%s]" % (self.symbol_name(self.wild_a[card]), self.symbol_name(self.wild_b[card]))
        return "[%s] '%s'" % (self.symbol_name(self.sym[card]), self.category_text(card))

    def spec(self):
        return {
            "deck": self.name,
            "symbol_counts": list(self.symbol_counts),
            "wild_pairs": [list(p) for p in self.wild_pairs],
            "removed_symbols": list(self.removed),
        }


def make_deck(players, deck=None, symbol_counts=None, wild_pairs=None, removed_symbols=None):
    """Validate a deck spec (defaults from engine.anomia_cards) and build the Deck; ValueError if bad."""
    if deck is None:
        deck = anomia_cards.DEFAULT_DECK
    if not isinstance(deck, str) or deck not in anomia_cards.DECK_CATEGORIES:
        names = ", ".join(sorted(anomia_cards.DECK_CATEGORIES))
        raise ValueError("deck must be one of %s, got %r" % (names, deck))
    if symbol_counts is None:
        symbol_counts = anomia_cards.SYMBOL_COUNTS
    if (
        not isinstance(symbol_counts, (list, tuple))
        or not (3 <= len(symbol_counts) <= MAX_SYMBOLS)
        or not all(_is_int(n) and 1 <= n <= MAX_CARDS_PER_SYMBOL for n in symbol_counts)
    ):
        raise ValueError(
            "symbol_counts must list 3-%d symbols, each with 1-%d cards, got %r"
            % (MAX_SYMBOLS, MAX_CARDS_PER_SYMBOL, symbol_counts)
        )
    n_symbols = len(symbol_counts)
    if wild_pairs is None:
        wild_pairs = anomia_cards.WILD_PAIRS
    if not isinstance(wild_pairs, (list, tuple)) or len(wild_pairs) > MAX_WILDS:
        raise ValueError("wild_pairs must be a list of at most %d symbol pairs, got %r"
                         % (MAX_WILDS, wild_pairs))
    pairs = []
    for p in wild_pairs:
        pair = _symbol_list(p, "wild_pairs", n_symbols)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise ValueError("wild_pairs: each wild card shows two different symbols, got %r" % (p,))
        pairs.append(pair)
    if players == 3:
        if removed_symbols is None:
            removed_symbols = anomia_cards.THREE_PLAYER_REMOVED
        removed = _symbol_list(removed_symbols, "removed_symbols", n_symbols)
        if len(removed) != 2 or removed[0] == removed[1]:
            raise ValueError("removed_symbols: 3 players remove exactly two different symbols, got %r"
                             % (removed_symbols,))
    else:
        if removed_symbols:
            raise ValueError("removed_symbols applies only to 3 players (all symbols play with %d)" % players)
        removed = []
    key = [deck, list(symbol_counts), pairs, removed]
    if _deck_cache[0] != key:
        # Every copy made with from_dict() names the same deck: build it once (it is never mutated).
        _deck_cache[0] = key
        _deck_cache[1] = Deck(deck, list(symbol_counts), pairs, removed)
    return _deck_cache[1]


_deck_cache = [None, None]  # [validated spec, Deck]


class AnomiaState:
    def __init__(self, deck, players, rng):
        self.deck = deck
        self.players = players
        self.rng = rng
        self.draw_piles = [[], []]
        self.play_piles = [[] for _ in range(players)]
        self.winning_piles = [[] for _ in range(players)]
        self.wild_pile = []
        self.turn = 0  # who draws next once no face-off is pending
        self.tiebreak = None  # [card or None, pile or None] during a tie-breaker
        self.pending = None  # [a, b, symbol_a, symbol_b, via_wild]: the face-off to settle

    # -- the rules -----------------------------------------------------------
    def _find_faceoff(self):
        """The first matching pair (a, b), a < b, by smallest a then smallest b, or None.

        A pair matches when both top cards show the same symbol, or when one shows
        symbol x and the other y of the top wild card (x, y). Cards under the top
        ones, and wild cards under the top wild, never count.
        """
        deck = self.deck
        tops = [deck.sym[p[-1]] if p else -1 for p in self.play_piles]
        wa = wb = -2
        if self.wild_pile:
            wa = deck.wild_a[self.wild_pile[-1]]
            wb = deck.wild_b[self.wild_pile[-1]]
        n = self.players
        for a in range(n):
            sa = tops[a]
            if sa < 0:
                continue
            for b in range(a + 1, n):
                sb = tops[b]
                if sb < 0:
                    continue
                if sa == sb:
                    return [a, b, sa, sb, False]
                if (sa == wa and sb == wb) or (sa == wb and sb == wa):
                    return [a, b, sa, sb, True]
        return None

    def _draw(self, k):
        card = self.draw_piles[k].pop()
        if self.deck.is_wild(card):
            self.wild_pile.append(card)  # same player draws again after the face-offs
        else:
            self.play_piles[self.turn].append(card)
            self.turn = (self.turn + 1) % self.players

    def _win(self, winner):
        a, b = self.pending[0], self.pending[1]
        loser = b if winner == a else a
        self.winning_piles[winner].append(self.play_piles[loser].pop())
        if self.tiebreak is not None:
            card, k = self.tiebreak
            if card is not None:
                self._shuffle_into(k, card)
            self.tiebreak = None

    def _tiebreak_pile(self):
        """The draw pile a tie-breaker card comes from: of the piles that still hold a
        playing card, the one with more cards (pile 0 if equal); -1 if neither does."""
        best = -1
        for k in (0, 1):
            pile = self.draw_piles[k]
            has_playing = False
            for c in pile:
                if not self.deck.is_wild(c):
                    has_playing = True
                    break
            if has_playing and (best < 0 or len(pile) > len(self.draw_piles[best])):
                best = k
        return best

    def _tie(self):
        k = self._tiebreak_pile()
        if k < 0:
            # No playing card left to draw: the tied pair re-shouts on the face-off
            # categories; the tie-breaker simply has no card.
            self.tiebreak = [None, None]
            return
        pile = self.draw_piles[k]
        while True:
            card = pile.pop()
            if not self.deck.is_wild(card):
                break
            self._shuffle_into(k, card)
        self.tiebreak = [card, k]

    def _shuffle_into(self, k, card):
        pile = self.draw_piles[k]
        pile.insert(self.rng.below(len(pile) + 1), card)

    # -- common API ----------------------------------------------------------
    def current_player(self):
        if self.pending is not None:
            return SIMULTANEOUS
        if self.is_over():
            return TERMINAL
        return self.turn

    def is_over(self):
        return self.pending is None and not self.draw_piles[0] and not self.draw_piles[1]

    def faceoff(self):
        """The pending face-off as a dict, or None.

        players: [a, b] (a < b); symbols: [symbol on a's top card, symbol on b's];
        wild: True when the top wild card links two different symbols; tiebreak:
        True during a tie-breaker; card: the tie-breaker card (None if no card
        could be drawn, or outside a tie-breaker).
        """
        fo = self.pending
        if fo is None:
            return None
        tb = self.tiebreak
        return {
            "players": [fo[0], fo[1]],
            "symbols": [fo[2], fo[3]],
            "wild": fo[4],
            "tiebreak": tb is not None,
            "card": tb[0] if tb is not None else None,
        }

    def legal_actions(self):
        fo = self.pending
        if fo is not None:
            acts = [["win", fo[0]], ["win", fo[1]]]
            if self.tiebreak is None:
                acts.append(["tie"])
            return acts
        return [["draw", k] for k in (0, 1) if self.draw_piles[k]]

    def apply(self, action):
        """Apply one action; IllegalAction (state unchanged) if it is not legal now."""
        op, arg = self._check(action)
        if op == "draw":
            self._draw(arg)
        elif op == "win":
            self._win(arg)
        else:
            self._tie()
        self.pending = self._find_faceoff()

    def _check(self, action):
        if not isinstance(action, (list, tuple)) or not action or not isinstance(action[0], str):
            raise IllegalAction('an action is a list like ["draw", 0], ["win", 1] or ["tie"], got %r'
                                % (action,))
        if self.is_over():
            raise IllegalAction("the game is over")
        op = action[0]
        fo = self.pending
        if op == "draw":
            if len(action) != 2 or not _is_int(action[1]) or action[1] not in (0, 1):
                raise IllegalAction("draw takes a draw pile number, 0 or 1: got %r" % (action,))
            if fo is not None:
                raise IllegalAction("the face-off P%d vs P%d must be settled before anyone draws"
                                    % (fo[0] + 1, fo[1] + 1))
            if not self.draw_piles[action[1]]:
                raise IllegalAction("draw pile %d is empty" % action[1])
            return op, action[1]
        if op == "win":
            if len(action) != 2 or not _is_int(action[1]):
                raise IllegalAction("win takes one player number: got %r" % (action,))
            if fo is None:
                raise IllegalAction("there is no face-off to win")
            if action[1] not in (fo[0], fo[1]):
                raise IllegalAction("player %r is not in the face-off P%d vs P%d"
                                    % (action[1], fo[0] + 1, fo[1] + 1))
            return op, action[1]
        if op == "tie":
            if len(action) != 1:
                raise IllegalAction("tie takes no arguments: got %r" % (action,))
            if fo is None:
                raise IllegalAction("there is no face-off to tie")
            if self.tiebreak is not None:
                raise IllegalAction("a tie-breaker cannot tie: name who won it (P%d or P%d)"
                                    % (fo[0] + 1, fo[1] + 1))
            return op, None
        raise IllegalAction("unknown action %r" % (action,))

    def scores(self):
        return [len(p) for p in self.winning_piles]

    def winners(self):
        """Every player with the most cards once the game is over (a shared win if several); [] before."""
        if not self.is_over():
            return []
        s = self.scores()
        best = max(s)
        return [p for p in range(self.players) if s[p] == best]

    def to_dict(self):
        tb = self.tiebreak
        d = self.deck.spec()
        d["game"] = "anomia"
        d["version"] = STATE_VERSION
        d["players"] = self.players
        d["rng"] = self.rng.state()
        d["draw_piles"] = [list(p) for p in self.draw_piles]
        d["play_piles"] = [list(p) for p in self.play_piles]
        d["winning_piles"] = [list(p) for p in self.winning_piles]
        d["wild_pile"] = list(self.wild_pile)
        d["turn"] = self.turn
        d["tiebreak"] = None if tb is None else {"card": tb[0], "pile": tb[1]}
        d["faceoff"] = self.faceoff()  # derived from the table, stored for UIs
        return d

    def digest(self):
        return digest_of(self.to_dict())

    def view(self, player):
        """What a player may see: the draw piles are face down (sizes only), no PRNG."""
        if not _is_int(player) or not (0 <= player < self.players):
            raise ValueError("no player %r in a %d-player game" % (player, self.players))
        d = self.to_dict()
        d["draw_piles"] = [len(p) for p in self.draw_piles]
        del d["rng"]
        return d


def new_game(seed, players, **options):
    """Shuffle the deck with the seeded engine PRNG and cut it into two draw piles.

    Options: deck ("blue" or "red"), symbol_counts, wild_pairs, removed_symbols
    (3 players only); defaults in engine.anomia_cards.
    """
    if not _is_int(seed):
        raise ValueError("seed must be an int, got %r" % (seed,))
    if not _is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ValueError("anomia needs %d-%d players, got %r" % (MIN_PLAYERS, MAX_PLAYERS, players))
    for name in options:
        if name not in OPTIONS:
            raise ValueError("unknown anomia option %r (known: %s)" % (name, ", ".join(sorted(OPTIONS))))
    deck = make_deck(players, **options)
    state = AnomiaState(deck, players, Rng(seed))
    cards = list(deck.in_play)
    state.rng.shuffle(cards)
    half = (len(cards) + 1) // 2  # pile 0 takes the odd card
    state.draw_piles = [cards[:half], cards[half:]]
    return state


def _bad(msg):
    raise BadState("bad anomia state: " + msg)


def _int_in(v, lo, hi, what):
    if not _is_int(v) or not (lo <= v <= hi):
        _bad("%s must be an int %d-%d, got %r" % (what, lo, hi, v))
    return v


def _cards(v, deck, what):
    if not isinstance(v, list):
        _bad("%s must be a list of card ids" % what)
    size = deck.size
    for c in v:
        # type() is int also rejects bools; inlined because from_dict runs on every copy
        if type(c) is not int or c < 0 or c >= size:
            _bad("%s: %r is not a card id 0-%d" % (what, c, size - 1))
    return list(v)


def _piles(v, count, deck, what):
    if not isinstance(v, list) or len(v) != count:
        _bad("%s must be a list of %d piles" % (what, count))
    return [_cards(p, deck, what) for p in v]


def from_dict(d):
    """Rebuild a state saved by to_dict() (after a JSON round trip too); BadState if it is not valid."""
    return load_checked(_load, d, "anomia")


def _load(d):
    if not isinstance(d, dict) or d.get("game") != "anomia":
        _bad("not an anomia state")
    if d.get("version") != STATE_VERSION:
        _bad("unknown version %r" % (d.get("version"),))
    players = _int_in(d["players"], MIN_PLAYERS, MAX_PLAYERS, "players")
    try:
        deck = make_deck(players, d["deck"], d["symbol_counts"], d["wild_pairs"], d["removed_symbols"])
    except ValueError as e:
        _bad(str(e))
    rng_state = d["rng"]
    if not isinstance(rng_state, list) or not all(_is_int(v) for v in rng_state):
        _bad("rng must be a list of ints")
    state = AnomiaState(deck, players, Rng(state=rng_state))
    state.draw_piles = _piles(d["draw_piles"], 2, deck, "draw_piles")
    state.play_piles = _piles(d["play_piles"], players, deck, "play_piles")
    state.winning_piles = _piles(d["winning_piles"], players, deck, "winning_piles")
    state.wild_pile = _cards(d["wild_pile"], deck, "wild_pile")
    state.turn = _int_in(d["turn"], 0, players - 1, "turn")
    placed = []
    for p in state.draw_piles:
        placed.extend(p)
    for piles in (state.play_piles, state.winning_piles):
        for p in piles:
            for c in p:
                if deck.is_wild(c):
                    _bad("wild card %d cannot lie on a play or winning pile" % c)
            placed.extend(p)
    for c in state.wild_pile:
        if not deck.is_wild(c):
            _bad("playing card %d cannot lie on the wild pile" % c)
    placed.extend(state.wild_pile)
    tb = d["tiebreak"]
    if tb is not None:
        if not isinstance(tb, dict):
            _bad("tiebreak must be null or {card, pile}")
        card, k = tb["card"], tb["pile"]
        if card is None:
            if k is not None:
                _bad("a tie-breaker without a card has no pile")
        else:
            _int_in(card, 0, deck.n_playing - 1, "tie-breaker card")
            _int_in(k, 0, 1, "tie-breaker pile")
            placed.append(card)
        state.tiebreak = [card, k]
    placed.sort()
    if placed != deck.in_play:
        _bad("every card in play must lie in exactly one place")
    state.pending = state._find_faceoff()
    if tb is not None and state.pending is None:
        _bad("a tie-breaker needs a pending face-off")
    if "faceoff" in d and d["faceoff"] != state.faceoff():
        _bad("faceoff does not match the cards on the table")
    return state
