"""A second game's `tablemate simulate` declaration, for the tests only: Anomia with random bots
and a report of one line. It shows that a game joins simulate with one module and one line in
host.simulations.SIMULATIONS (the tests add that line with monkeypatch)."""

from host.simulate import random_bot

DEFAULT_PLAYERS = 4
BOTS = {"random": random_bot}
DEFAULT_BOT = "random"
ARGUMENTS = ((("--deck-colour",), {"choices": ("blue", "red"), "help": "the Anomia deck"}),)


def options(args):
    opts = dict(args.engine_options)
    if hasattr(args, "deck_colour"):
        opts["deck"] = args.deck_colour
    return opts


class Report:
    def __init__(self, setup):
        self.setup = setup
        self.games = 0
        self.steps = 0
        self.decks = set()

    def after(self, state, action):
        pass

    def game_over(self, state, steps):
        self.games += 1
        self.steps += steps
        self.decks.add(state.deck.name)

    def lines(self):
        return ["%d games, %d actions, decks: %s" % (self.games, self.steps, ", ".join(sorted(self.decks)))]
