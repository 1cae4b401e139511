"""Anathema players for self-play: a random bot and a greedy bot, and the tallies of a series
of games (win counts, points by category, hands and actions) for a report to print.

A bot is any object with choose(state) -> one of state.legal_actions(). "random" is
engine.playout.RandomChooser. GreedyBot values each play by what it wins at once,
in hundredths of a point: a card is worth 3/26 of a point towards most cards (12),
a Familiar 1/7 more towards most Familiars (14), a point card its points, a sweep 1.
It captures the most it can, builds what it could take next turn (worth half, as an
opponent may take it first), and trails its least valuable card. Ints only, ties go
to the first play listed, so a bot's games are the same on both runtimes.
"""

from engine.anathema_cards import CARD_OF_ID, FAMILIAR
from engine.playout import RandomChooser

CARD = 12
FAMILIAR_BONUS = 14
POINT = 100
SWEEP = 100


def card_worth(state, card):
    """What one captured card is worth to its side, in hundredths of a point."""
    w = CARD + POINT * state.rules.points[card]
    if card % 4 == FAMILIAR:
        w += FAMILIAR_BONUS
    return w


class GreedyBot:
    def choose(self, state):
        actions = state.legal_actions()
        best = actions[0]
        best_value = None
        for action in actions:
            v = self.value(state, action)
            if best_value is None or v > best_value:
                best, best_value = action, v
        return best

    def value(self, state, action):
        op = action[0]
        if op in ("deal", "peek"):
            return 0
        if op == "pass":
            return -1 if state.pending[0][0] != "swap" else 0
        if op == "steal":
            return CARD  # a random card: at least one more card
        if op == "swap":
            return card_worth(state, CARD_OF_ID[action[1]]) - card_worth(state, CARD_OF_ID[action[2]]) - 1
        card = CARD_OF_ID[action[1]]
        if op == "trail":
            return -card_worth(state, card)
        taken = self._cards(state, action[-1])
        worth = 0
        for c in taken + [card]:
            worth += card_worth(state, c)
        if op == "capture":
            on_table = len(state.table) + sum(len(b[0]) for b in state.builds)
            return worth + (SWEEP if len(taken) == on_table else 0)
        return worth // 2  # a build: taken next turn, unless someone else takes it first

    def _cards(self, state, items):
        out = []
        for cid in items:
            c = CARD_OF_ID[cid]
            if c in state.table:
                out.append(c)
                continue
            for b in state.builds:
                if b[0][0] == c:
                    out.extend(b[0])
        return out


BOTS = {"random": None, "greedy": GreedyBot}
SEAT_STRIDE = 7919  # seat p's bot is seeded seed + SEAT_STRIDE * p, so two random bots differ


def make_bot(name, seed):
    if name not in BOTS:
        raise ValueError("unknown bot %r (known: %s)" % (name, ", ".join(sorted(BOTS))))
    return RandomChooser(seed) if name == "random" else BOTS[name]()


def seat_bot(name, seat, seed):
    """The bot `name` for `seat` in the game dealt with `seed`."""
    return make_bot(name, seed + SEAT_STRIDE * seat)


def play_game(state, bots, seed):
    """Plays `state` to the end, seat p choosing with bots[p] (deals need no bot).
    Returns the number of actions."""
    steps = 0
    dealer = RandomChooser(seed)
    while not state.is_over():
        p = state.current_player()
        bot = bots[p] if p >= 0 else dealer
        state.apply(bot.choose(state))
        steps += 1
    return steps


CATEGORIES = ("most_cards", "most_familiars", "sweeps", "card_points", "points")


class Tally:
    """What a series of finished games adds up to, all ints: games, wins per seat (a shared
    win counts for each winner), points per category and seat summed over games (a seat
    counts its side's points), and the hands and actions of each game."""

    def __init__(self, players):
        self.players = players
        self.games = 0
        self.wins = [0] * players
        self.points = {}
        for name in CATEGORIES:
            self.points[name] = [0] * players
        self.hands = []  # per game
        self.actions = []  # per game, deals included

    def add(self, state, actions):
        """One finished game, played in `actions` actions."""
        self.games += 1
        self.actions.append(actions)
        self.hands.append(len(state.results))
        for p in state.winners():
            self.wins[p] += 1
        for r in state.results:
            for name in CATEGORIES:
                for p in range(self.players):
                    self.points[name][p] += r[name][state.rules.side(p)]

    def sums(self):
        return {"games": self.games, "wins": list(self.wins), "points": self.points,
                "hands": _sum(self.hands), "actions": _sum(self.actions)}


def _sum(values):
    t = 0
    for v in values:
        t += v
    return t


def first_dealer(game_index, players):
    """The first dealer of a series' game `game_index`: it turns, so no seat deals first more."""
    return game_index % players


def self_play(game, games, seed, players, bot_names, partners=False, **options):
    """Plays `games` games of the engine module `game` (engine.anathema), bot_names[p]
    playing seat p; game g starts from seed + g with the first dealer turning.

    Returns Tally.sums(): games, wins per seat, points per category and seat, hands and
    actions in all.
    """
    if len(bot_names) != players:
        raise ValueError("one bot per seat: %d names for %d players" % (len(bot_names), players))
    tally = Tally(players)
    for g in range(games):
        s = game.new_game(seed + g, players, partners=partners, dealer=first_dealer(g, players), **options)
        bots = [seat_bot(bot_names[p], p, seed + g) for p in range(players)]
        tally.add(s, play_game(s, bots, seed + g))
    return tally.sums()
