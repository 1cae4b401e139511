"""Finding Anastasia for 1-3 players against the automa (docs/anastasia-solo.md). With cards
"dealt" (the default) it is the whole game with its hidden cards; with cards "table" the
cards are real and the state keeps what a box can know: where cards lie, gems, tokens,
face-up and looked-at clues, and the roles the table reports. The readings of what the
rulebook leaves open are options (engine.anastasia_solo_rules); the automa's cards and
tiers are engine.anastasia_automa, its turn engine.anastasia_solo_automa.

Seats 0..N-1 (shown as P1..PN) play in order, seat 0 (the youngest) first. Guests are
numbered 1-6 as on the automa cards; a guest's clues are a list of card ids
(engine.anastasia_cards) in the order of its fanned hand, and a clue is named by its
position in that list, its slot (0 first).

Actions (JSON-safe lists, exactly as legal_actions() returns them):
  ["remove", g]          remove Guest g from the party, taking the gems beneath it
  ["draw"]               draw the top 2 clues (the last one alone if only one is left)
  ["keep", i]            after a dealt draw of 2: keep card i (0: the top one), the other goes back on top
  ["reveal_clue", g, s]  turn Guest g's clue in slot s face up, paying its fee
  ["look", g, s]         spend a token to look privately at Guest g's clue in slot s
  ["reveal_role", g]     turn Guest g's role face up: Anastasia wins, anyone else puts you out
  ["automa"]             (chance) the automa's turn after a round: draw its top card, resolve it
  ["role_seen", x]       (chance, cards "table") the role just turned over is "anastasia" or "other"

A turn is two actions (a draw and its keep are one). After the last player of a round,
current_player() is core.CHANCE until ["automa"] is applied; while the table is to say
what a turned role is, core.CHANCE too; after the end, core.TERMINAL.
"""

from engine import anastasia_cards, anastasia_solo_rules
from engine.anastasia_solo_automa import AutomaTable
from engine.anastasia_solo_moves import ACTION_SIZES, ROLE_SEEN, SoloMoves  # noqa: F401 - names of this game
from engine.anastasia_solo_rules import (  # noqa: F401 - the state's names, for users of this module
    ALL_OUT,
    AUTOMA,
    AUTOMA_FOUND,
    FOUND,
    GUESTS,
    LEFT,
    NONE_HIDDEN,
    OTHER_ROLE,
    OVER,
    PARTY,
    PLAY,
    REMOVED,
    REVEAL,
    UNKNOWN,
    player_name,
    validate,
)
from engine.core import CHANCE, TERMINAL, IllegalAction, digest_of  # noqa: F401 - the error of apply()
from engine.data import copy_data
from engine.rng import Rng

MIN_PLAYERS = 1
MAX_PLAYERS = 3
STATE_VERSION = 1
OPTIONS = anastasia_solo_rules.OPTIONS  # the printed numbers and this project's readings, by name
# Readings of the open points the shared engine tests walk besides the defaults.
VARIANTS = (
    {"returned_gems": "each", "token_pool": "each", "unshown": "face_down"},
    {"automa_finds_anastasia": "players_win", "clue_fee_to": "supply", "deck_blanks": 5},
    {"automa_deck": ["one: reveal_clue 1, leave 2; draw 3, expend_reveal 4 1 5, return_reveal 6 1 2"]},
    {"cards": "table"},
    {"difficulty": "hard"},
    {"difficulty": "easy", "cards": "table"},
    {"away": [2, 5], "cards": "table"},
)
ACTIONS_PER_TURN = 2

SOLO_ROLES = [r for r in range(anastasia_cards.ROLE_COUNT)
              if r not in (anastasia_cards.ANASTASIA, anastasia_cards.EMPRESS)]

def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class Guest:
    """One of the six invites on the table."""

    def __init__(self, role, clues):
        self.role = role
        self.status = PARTY
        self.role_shown = False
        self.clues = clues  # card ids, in the order of the fan
        self.revealed = [False] * len(clues)  # face up, per slot
        self.looked = [0] * len(clues)  # per slot: bit p set once player p looked at it
        self.gems = 0  # beneath the guest

    def facedown_slots(self):
        return [s for s in range(len(self.clues)) if not self.revealed[s]]

    def shown_count(self):
        return len(self.clues) - len(self.facedown_slots())

    def add_clue(self, card):
        self.clues.append(card)
        self.revealed.append(False)
        self.looked.append(0)
        return len(self.clues) - 1


class SoloState(AutomaTable, SoloMoves):
    def __init__(self, players, options, rng):
        self.players = players
        self.options = options
        # A built-in deck is shared, never copied: it is the bulk of a state's memory on the board.
        deck = options["automa_deck"]
        if deck is None:
            from engine.anastasia_automa_deck import builtin_deck  # not loaded while a deck of your own plays

            deck = builtin_deck(options["difficulty"])
        self.deck_cards = deck
        self.rng = rng
        self.guests = []
        self.purses = [0] * players
        self.tokens = [0] * (1 if options["token_pool"] == "shared" else players)
        self.hands = [[] for _ in range(players)]  # clues a player drew and kept
        self.out = [False] * players
        self.supply = 0
        self.clue_deck = []  # top last
        self.box = []  # clue cards out of the game (unused Blanks)
        self.automa_deck = []  # card indexes into deck_cards, top last
        self.automa_discard = []  # the card of the automa turn under way is already here
        self.phase = PLAY
        self.turn = 0
        self.actions_left = ACTIONS_PER_TURN
        self.drawn = None  # the two cards of a draw waiting for ["keep", i]
        self.turned = None  # cards "table": [guest, seat or -1 for the automa] of a role being shown
        self.round = 1
        self.share_next = 0  # the seat that receives the next returned gem ("share")
        self.result = None  # {"reason", "winners", "guest", "by"} once over
        self.last_automa = None  # the record of the latest automa turn (describe_automa)

    # -- reading the table -----------------------------------------------------
    def guest(self, g):
        return self.guests[g - 1]

    def players_in(self):
        return [p for p in range(self.players) if not self.out[p]]

    def on_table(self):
        """True when the cards are real and the engine knows only what it is told (cards "table")."""
        return self.options["cards"] == "table"

    def shared_tokens(self):
        return self.options["token_pool"] == "shared"

    def token_slot(self, p):
        """Where player p's tokens are counted in self.tokens: the table's one pool, or p's own."""
        return 0 if self.shared_tokens() else p

    def tokens_of(self, p):
        return self.tokens[self.token_slot(p)]

    def clue_fee(self, g):
        """The fee for one more of Guest g's clues: 1 for its first face-up clue, 2 for the second..."""
        return self.guest(g).shown_count() + 1

    def gems(self):
        """Where every gem is; "total" never changes during a game (it is option gem_total)."""
        beneath = [x.gems for x in self.guests]
        return {
            "supply": self.supply,
            "purses": list(self.purses),
            "beneath": beneath,
            "total": self.supply + sum(self.purses) + sum(beneath),
        }

    def all_clues(self):
        """Every clue card in the game with where it lies (for checks): [(card, place)]."""
        from engine.anastasia_solo_words import all_clues

        return all_clues(self)

    # -- the rules ---------------------------------------------------------------
    def end(self, reason, winners, guest, by):
        self.phase = OVER
        self.drawn = None
        self.result = {"reason": reason, "winners": list(winners), "guest": guest, "by": by}

    def check_end(self):
        """The game also ends when nobody can act or nobody is left to find."""
        if self.phase == OVER:
            return
        if not self.players_in():
            self.end(ALL_OUT, [], 0, -1)
            return
        for x in self.guests:
            if x.status == PARTY and not x.role_shown:
                return
        self.end(NONE_HIDDEN, [], 0, -1)

    def turn_role(self, g, by):
        """Guest g's role is turned over by seat `by` (-1: the automa). Returns the role: known
        with dealt cards, UNKNOWN on a table until ["role_seen", ...] says what it is."""
        x = self.guest(g)
        x.role_shown = True
        if self.on_table():
            self.turned = [g, by]
            self.phase = REVEAL
            return UNKNOWN
        self.settle_role(g, by, x.role == anastasia_cards.ANASTASIA)
        return x.role

    def settle_role(self, g, by, anastasia):
        """What a turned role means: Anastasia ends the game; anyone else puts the player out."""
        if anastasia:
            if by >= 0:
                self.end(FOUND, [by], g, by)
            else:
                win = self.options["automa_finds_anastasia"] == "players_win"
                self.end(AUTOMA_FOUND, self.players_in() if win else [], g, -1)
        elif by >= 0:
            self.out[by] = True

    def _role_seen(self, seen):
        g, by = self.turned
        self.turned = None
        anastasia = seen == "anastasia"
        role = anastasia_cards.ANASTASIA if anastasia else OTHER_ROLE
        self.guest(g).role = role
        self.phase = AUTOMA if by < 0 else PLAY  # back where the turn-over stopped
        self.settle_role(g, by, anastasia)
        if by < 0:
            self.role_seen_by_automa(role)
        elif self.phase != OVER:
            self._action_done()

    def _next_turn(self):
        """Pass the turn on; after the last player still in, the automa's turn comes."""
        self.actions_left = ACTIONS_PER_TURN
        for p in range(self.turn + 1, self.players):
            if not self.out[p]:
                self.turn = p
                return
        self.phase = AUTOMA

    def start_round(self):
        self.round += 1
        self.phase = PLAY
        self.turn = self.players_in()[0]
        self.actions_left = ACTIONS_PER_TURN

    def _action_done(self):
        self.check_end()
        if self.phase == OVER:
            return
        self.actions_left -= 1
        if self.actions_left == 0 or self.out[self.turn]:
            self._next_turn()

    def _play(self, op, args):
        p = self.turn
        if op == "keep":
            i = args[0]
            keep = self.drawn[i]
            self.clue_deck.append(self.drawn[1 - i])  # the other card goes back on top
            self.hands[p].append(keep)
            self.drawn = None
        elif op == "draw":
            if len(self.clue_deck) >= 2 and not self.on_table():
                self.drawn = [self.clue_deck.pop(), self.clue_deck.pop()]
                return  # the same action goes on with ["keep", i]
            # the last card, or a real table: the player keeps one there, the other goes back
            self.hands[p].append(self.clue_deck.pop())
        elif op == "remove":
            x = self.guest(args[0])
            x.status = REMOVED
            self.purses[p] += x.gems
            x.gems = 0
        elif op == "reveal_clue":
            g, s = args
            fee = self.clue_fee(g)
            x = self.guest(g)
            self.purses[p] -= fee
            if self.options["clue_fee_to"] == "guest":
                x.gems += fee
            else:
                self.supply += fee
            x.revealed[s] = True
        elif op == "look":
            g, s = args
            self.tokens[self.token_slot(p)] -= 1
            self.guest(g).looked[s] |= 1 << p
        else:  # reveal_role
            self.turn_role(args[0], p)
            if self.phase in (OVER, REVEAL):
                return
        self._action_done()

    # -- common API ----------------------------------------------------------------
    def current_player(self):
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (AUTOMA, REVEAL):
            return CHANCE  # the automa's card, or the card the table turned over
        return self.turn

    def apply(self, action):
        """Apply one action; IllegalAction (state unchanged) if it is not legal now."""
        op, args = self._check(action)
        if op == "automa":
            self.start_automa_turn()
        elif op == "role_seen":
            self._role_seen(args)
        else:
            self._play(op, args)

    def scores(self):
        """1 for each winner, 0 for everyone else (0 for all until the end)."""
        won = self.winners()
        return [1 if p in won else 0 for p in range(self.players)]

    def winners(self):
        return list(self.result["winners"]) if self.result is not None else []

    def to_dict(self):
        gs = self.guests
        return {
            "game": "anastasia_solo",
            "version": STATE_VERSION,
            "players": self.players,
            "options": copy_data(self.options),
            "rng": self.rng.state(),
            "roles": [x.role for x in gs],
            "status": [x.status for x in gs],
            "role_shown": [x.role_shown for x in gs],
            "clues": [list(x.clues) for x in gs],
            "revealed": [list(x.revealed) for x in gs],
            "looked": [list(x.looked) for x in gs],
            "beneath": [x.gems for x in gs],
            "purses": list(self.purses),
            "tokens": list(self.tokens),
            "hands": [list(h) for h in self.hands],
            "out": list(self.out),
            "supply": self.supply,
            "clue_deck": list(self.clue_deck),
            "box": list(self.box),
            "automa_deck": list(self.automa_deck),
            "automa_discard": list(self.automa_discard),
            "phase": self.phase,
            "turn": self.turn,
            "actions_left": self.actions_left,
            "drawn": None if self.drawn is None else list(self.drawn),
            "turned": None if self.turned is None else list(self.turned),
            "round": self.round,
            "share_next": self.share_next,
            "result": None if self.result is None else dict(self.result),
            "last_automa": copy_data(self.last_automa),
        }

    def digest(self):
        return digest_of(self.to_dict())

    def view(self, player):
        """What player `player` may see (engine.anastasia_solo_words.view)."""
        from engine.anastasia_solo_words import view

        return view(self, player)


def new_game(seed, players, **options):
    """Deal the six invites as the 1-3 player set-up says; options: engine.anastasia_solo_rules.OPTIONS.

    With cards "table" the invites are dealt at the table: the state knows how many cards
    lie where, not which."""
    if not _is_int(seed):
        raise ValueError("seed must be an int, got %r" % (seed,))
    if not _is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
        raise ValueError("anastasia_solo needs %d-%d players, got %r" % (MIN_PLAYERS, MAX_PLAYERS, players))
    opts = validate(players, options)
    rng = Rng(seed)
    state = SoloState(players, opts, rng)
    cards = anastasia_cards
    # Anastasia's invite: the top card of each shuffled category deck.
    by_category = []
    for c in cards.CATEGORIES:
        pile = cards.category_clues(c)
        rng.shuffle(pile)
        by_category.append(pile)
    anastasia_clues = [pile.pop() for pile in by_category]
    rest = by_category[0] + by_category[1] + by_category[2]
    rng.shuffle(rest)
    blanks = list(range(cards.FIRST_BLANK, cards.CLUE_COUNT))  # Blanks are all alike
    roles = list(SOLO_ROLES)
    rng.shuffle(roles)
    invites = [[cards.ANASTASIA, anastasia_clues]]
    for i in range(GUESTS - 1):
        invites.append([roles[i], [rest.pop(), rest.pop(), blanks.pop()]])
    rng.shuffle(invites)
    for role, clues in invites:
        rng.shuffle(clues)  # the order of a fan says nothing about which card is which
        guest = Guest(role, clues)
        if len(state.guests) + 1 in opts["away"]:
            guest.status = LEFT  # gone before the game began: its gems stay in the supply
        else:
            guest.gems = opts["guest_gems"]
        state.guests.append(guest)
    keep = opts["deck_blanks"]
    state.clue_deck = rest + blanks[:keep]
    rng.shuffle(state.clue_deck)
    state.box = blanks[keep:]
    purse = opts["purse_solo"] if players == 1 else opts["purse_group"]
    state.purses = [purse] * players
    tokens = opts["tokens_solo"] if players == 1 else opts["tokens_group"]
    state.tokens = [tokens] * len(state.tokens)
    state.supply = opts["gem_total"] - purse * players - opts["guest_gems"] * (GUESTS - len(opts["away"]))
    state.automa_deck = list(range(len(state.deck_cards)))
    rng.shuffle(state.automa_deck)
    if state.on_table():
        _forget_cards(state)
    return state


def _forget_cards(state):
    """Cards "table": the real cards are on the table, so the engine keeps where cards are
    but not what they are. Dealt the same way first, so the PRNG is where a dealt game's is."""
    for x in state.guests:
        x.role = UNKNOWN
        x.clues = [UNKNOWN] * len(x.clues)
    state.clue_deck = [UNKNOWN] * len(state.clue_deck)
    state.box = [UNKNOWN] * len(state.box)


def from_dict(d):
    """Rebuild a state saved by to_dict() (after a JSON round trip too); BadState if it is not valid."""
    from engine.anastasia_solo_load import load  # only a restore needs the checks: not loaded before

    return load(d)
