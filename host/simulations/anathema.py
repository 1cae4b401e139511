"""`tablemate simulate anathema`: the Casino variant played to 21 by bots.

Bots: "greedy" and "random", the ones of engine.anathema_bots (seeded as its self_play
seeds them). Flags: --partners (4 players in two partnerships sitting opposite) and
--advanced (capture rewards). The first dealer turns from game to game, as in self_play,
unless --option dealer=SEAT fixes it.
The report: wins per seat (or per partnership) and per bot with a 95% interval, the
average points a game brings by scoring category, and the game length in hands and actions.
"""

import json

from engine import anathema_bots
from host.simulations import tally

DEFAULT_PLAYERS = 2
BOTS = {name: (lambda seat, seed, name=name: anathema_bots.seat_bot(name, seat, seed))
        for name in anathema_bots.BOTS}
DEFAULT_BOT = "greedy"
ARGUMENTS = (
    (("--partners",), {"action": "store_true",
                       "help": "anathema: 4 players in two partnerships (P1+P3 against P2+P4)"}),
    (("--advanced",), {"action": "store_true", "help": "anathema: the advanced rules (capture rewards)"}),
)

# The report's rows: a Tally category and its words.
CATEGORIES = (
    ("most_cards", "most cards"),
    ("most_familiars", "most Familiars"),
    ("sweeps", "sweeps"),
    ("card_points", "point cards"),
    ("points", "total"),
)


def options(args):
    """Engine options: --option pairs, then --partners and --advanced."""
    opts = dict(args.engine_options)
    for flag in ("partners", "advanced"):
        if getattr(args, flag, False):
            if opts.get(flag, True) is not True:
                raise ValueError("--%s and --option %s=%s contradict each other: give one"
                                 % (flag, flag, json.dumps(args.engine_options[flag])))
            opts[flag] = True
    if opts.get("partners") is True and args.players != 4:
        got = "the default %d" % DEFAULT_PLAYERS if args.players is None else "%d" % args.players
        raise ValueError("--partners plays two partnerships of two: it needs --players 4, got %s" % got)
    return opts


def game_options(setup, i):
    """Game i's options: the first dealer turns, unless the user fixed it."""
    if "dealer" in setup.options:
        return setup.options
    opts = dict(setup.options)
    opts["dealer"] = anathema_bots.first_dealer(i, setup.players)
    return opts


def seat_name(p):
    return "P%d" % (p + 1)


class Report:
    def __init__(self, setup):
        self.setup = setup
        self.partners = setup.options.get("partners") is True
        self.tally = anathema_bots.Tally(setup.players)
        self.bot_wins = {}  # bot name -> games a seat it played won
        self.shared = 0  # games won by more than one side

    def after(self, state, action):
        pass

    def game_over(self, state, steps):
        self.tally.add(state, steps)
        winners = state.winners()
        for name in set(self.setup.bots[p] for p in winners):
            self.bot_wins[name] = self.bot_wins.get(name, 0) + 1
        if len(set(state.rules.side(p) for p in winners)) > 1:
            self.shared += 1

    def sides(self):
        """[(label, first seat)] of each side: a seat, or a partnership P1+P3 / P2+P4."""
        bots = self.setup.bots
        if self.partners:
            out = []
            for first in (0, 1):
                seats = (first, first + 2)
                names = sorted(set(bots[p] for p in seats))
                out.append(("%s (%s)" % ("+".join(seat_name(p) for p in seats), ", ".join(names)), first))
            return out
        return [("%s (%s)" % (seat_name(p), bots[p]), p) for p in range(self.setup.players)]

    def lines(self):
        t = self.tally
        n = t.games
        rules = "advanced rules" if self.setup.options.get("advanced") is True else "basic rules"
        dealer = ("first dealer %s in every game" % seat_name(self.setup.options["dealer"])
                  if "dealer" in self.setup.options else "the first dealer turns from game to game")
        layout = "two partnerships" if self.partners else "each for themselves"
        out = ["%s, %s, %s" % (layout, rules, dealer), ""]
        sides = self.sides()
        width = max(len(label) for label, _ in sides)
        out.append("wins")
        for label, p in sides:
            out.append("  %-*s  %s" % (width, label, tally.rate(t.wins[p], n)))
        if len(set(self.setup.bots)) > 1:
            out.append("wins by bot (games a seat it played won)")
            bot_width = max(len(b) for b in self.setup.bots)
            for name in sorted(set(self.setup.bots)):
                out.append("  %-*s  %s" % (bot_width, name, tally.rate(self.bot_wins.get(name, 0), n)))
        if self.shared:
            out.append("shared wins (a tie at the top, each counted above): %d" % self.shared)
        out.append("")
        out.append("average points a game")
        cells = ["%*s" % (max(len(label), 7), label) for label, _ in sides]
        label_width = max(len(words) for _, words in CATEGORIES)
        out.append("  %-*s  %s" % (label_width, "", "  ".join(cells)))
        for name, words in CATEGORIES:
            row = ["%*.2f" % (len(cells[k]), t.points[name][p] / n) for k, (_, p) in enumerate(sides)]
            out.append("  %-*s  %s" % (label_width, words, "  ".join(row)))
        out.append("")
        hands = tally.Spread()
        actions = tally.Spread()
        for g in range(n):
            hands.add(t.hands[g])
            actions.add(t.actions[g])
        out.append("hands per game     %s" % hands.text())
        out.append("actions per game   %s  (deals and rewards included)" % actions.text())
        return out
