"""`tablemate simulate anastasia`: Finding Anastasia for 4-8 players, the whole game.

Bots: "kinds" (each kind of action as likely as any other, then uniform among that kind:
engine.playout.KindChooser; reveals and declarations happen, games stay short) and
"random" (uniform among the legal actions). The report: win rates by role (games the role
was dealt, how often it won, with a 95% interval), which end effect ended the games, the
game length in turns and in actions, and the gems each action took from its players
or paid them (a reveal costs 5, a look pays 2 and gives 1 away ..., the reveal's effects
included), read off the public ledger around each action.
"""

from engine import anastasia_cards as cards
from engine.playout import KindChooser
from host.simulate import SEAT_SALT, random_bot
from host.simulations import tally

DEFAULT_PLAYERS = 5


def kinds_bot(seat, seed):
    return KindChooser(seed + SEAT_SALT * (seat + 1))


BOTS = {"kinds": kinds_bot, "random": random_bot}
DEFAULT_BOT = "kinds"
ARGUMENTS = ()
ACTIONS = ("look", "exchange", "question", "draw", "reveal", "reveal_self")
ENDINGS = (("anastasia", "Anastasia revealed"), ("impostor", "the Impostor revealed"),
           ("collector", "a Collector declared"), ("red_army_spy", "the Red Army Spy's last round"))


def options(args):
    return dict(args.engine_options)


class Report:
    def __init__(self, setup):
        self.setup = setup
        self.games = 0
        self.dealt = [0] * cards.ROLE_COUNT
        self.won = [0] * cards.ROLE_COUNT
        self.endings = {}
        self.turns = tally.Spread()
        self.steps = tally.Spread()
        self.taken = {a: 0 for a in ACTIONS}
        self.net = {a: 0 for a in ACTIONS}  # gems the actor's purse gained (+) or spent (-)
        self._pending = None  # (action, actor, purse) until the ledger records the action

    def before(self, state, action):
        table = state.table
        frame = table.frame()
        if frame is not None and frame[0] == "act" and action[0] in ACTIONS:
            self._pending = (action[0], frame[1], table.purses[frame[1]])

    def after(self, state, action):
        if self._pending is None:
            return
        name, p, purse = self._pending
        for entry in state.entries:  # a further question is recorded once it is answered
            if entry[0] == name:
                self.taken[name] += 1
                self.net[name] += state.table.purses[p] - purse
                self._pending = None
                return

    def game_over(self, state, steps):
        self.games += 1
        winners = state.winners()
        for p in range(state.players):
            role = state.roles[p]
            self.dealt[role] += 1
            if p in winners:
                self.won[role] += 1
        ended = state.table.ended
        self.endings[ended] = self.endings.get(ended, 0) + 1
        self.turns.add(state.table.turn_no + 1)
        self.steps.add(steps)

    def lines(self):
        n = self.games
        out = ["role               dealt  won"]
        for r in range(cards.ROLE_COUNT):
            if self.dealt[r]:
                won = tally.rate(self.won[r], self.dealt[r])
                out.append("  %-16s %5d  %s" % (cards.ROLE_NAMES[r], self.dealt[r], won))
        out.append("")
        out.append("ended by")
        for key, words in ENDINGS:
            out.append("  %-30s %s" % (words, tally.rate(self.endings.get(key, 0), n)))
        out.append("")
        out.append("turns per game     %s" % self.turns.text())
        out.append("actions per game   %s" % self.steps.text())
        out.append("")
        out.append("action        taken  gems to the player who acted, in all and per action")
        for a in ACTIONS:
            k = self.taken[a]
            out.append("  %-11s %6d  %+6d  %+6.2f" % (a, k, self.net[a], self.net[a] / k if k else 0.0))
        return out
