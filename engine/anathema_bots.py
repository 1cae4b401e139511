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


def make_bot(name, seed):
    if name not in BOTS:
        raise ValueError("unknown bot %r (known: %s)" % (name, ", ".join(sorted(BOTS))))
    return RandomChooser(seed) if name == "random" else BOTS[name]()


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


def self_play(game, games, seed, players, bot_names, partners=False, **options):
    """Plays `games` games of the engine module `game` (engine.anathema), bot_names[p]
    playing seat p; game g starts from seed + g with the first dealer turning.

    Returns the sums a report needs, all ints: games, wins per seat (a shared win counts
    for each winner), points per seat summed over games and per category (the seat's
    side's points), hands and actions in all.
    """
    if len(bot_names) != players:
        raise ValueError("one bot per seat: %d names for %d players" % (len(bot_names), players))
    wins = [0] * players
    by_category = {}
    for name in CATEGORIES:
        by_category[name] = [0] * players
    hands = 0
    actions = 0
    for g in range(games):
        s = game.new_game(seed + g, players, partners=partners, dealer=g % players, **options)
        bots = [make_bot(bot_names[p], seed + g + 7919 * p) for p in range(players)]
        actions += play_game(s, bots, seed + g)
        hands += len(s.results)
        for p in s.winners():
            wins[p] += 1
        for r in s.results:
            for name in CATEGORIES:
                for p in range(players):
                    by_category[name][p] += r[name][s.rules.side(p)]
    return {"games": games, "wins": wins, "points": by_category, "hands": hands, "actions": actions}
