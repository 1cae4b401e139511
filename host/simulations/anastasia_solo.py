"""`tablemate simulate anastasia-solo`: solo Finding Anastasia (1-3 players) against the automa.

Bots: "baseline" (host.simulations.anastasia_solo_bot) and "random". Flags: --deck FILE (a
user's automa deck, host.automa_deck_file) or --difficulty easy|normal|hard (a built-in deck).
The report: how often the players won (with a 95% interval, and per seat with several
players), the game length in rounds and in player actions, how often each automa tier
fired and how often an action was skipped, what the automa did, and how games ended.
"""

from engine import anastasia_automa, anastasia_solo
from engine.anastasia_automa_deck import DIFFICULTIES
from host.automa_deck_file import load_deck
from host.simulate import random_bot
from host.simulations import tally
from host.simulations.anastasia_solo_bot import BaselineBot
from host.words import count

DEFAULT_PLAYERS = 1
BOTS = {"baseline": BaselineBot, "random": random_bot}
DEFAULT_BOT = "baseline"
ARGUMENTS = (
    (("--deck",), {"metavar": "FILE", "help": "your automa deck: one card a line, or a .toml/.json "
                                              "settings file with automa_deck"}),
    (("--difficulty",), {"choices": DIFFICULTIES, "help": "the built-in automa deck (default normal)"}),
)

# How games ended (result["reason"]), in the report's words and order.
ENDINGS = (
    (anastasia_solo.FOUND, "a player found Anastasia"),
    (anastasia_solo.AUTOMA_FOUND, "the automa revealed Anastasia"),
    (anastasia_solo.ALL_OUT, "every player was out"),
    (anastasia_solo.NONE_HIDDEN, "Anastasia left or was removed unseen"),
)
TIERS = ("primary", "secondary", "tertiary")


def options(args):
    """Engine options: --option pairs, then --deck or --difficulty."""
    opts = dict(args.engine_options)
    deck = getattr(args, "deck", None)
    difficulty = getattr(args, "difficulty", None)
    if deck is not None:
        if difficulty is not None:
            raise ValueError("--deck brings its own cards: it cannot go with --difficulty")
        if "automa_deck" in opts:
            raise ValueError("--deck and --option automa_deck both give a deck: give one")
        opts["automa_deck"] = load_deck(deck)
    if difficulty is not None:
        opts["difficulty"] = difficulty
    if opts.get("cards", "dealt") != "dealt":
        raise ValueError("simulate deals the cards itself: option cards must stay \"dealt\"")
    return opts


def deck_words(setup):
    deck = getattr(setup.args, "deck", None)
    cards = anastasia_solo.new_game(setup.seed, setup.players, **setup.options).deck_cards
    if setup.options.get("automa_deck") is None:
        level = setup.options.get("difficulty", "normal")
        return "automa deck: %s (built in, %d cards)" % (level, len(cards))
    return "automa deck: %s (%d cards)" % (deck or "given with --option", len(cards))


class Report:
    def __init__(self, setup):
        self.setup = setup
        self.games = 0
        self.won = 0  # games some player won
        self.seat_wins = [0] * setup.players
        self.endings = {}
        self.rounds = tally.Spread()
        self.actions = tally.Spread()  # player actions per game (a draw and its keep are one)
        self.player_actions = 0
        self.tiers = [0, 0, 0]
        self.skipped = 0
        self.not_taken = 0  # action 2 after action 1 ended the game
        self.verbs = {}  # verb -> how often a tier with it was taken
        self.automa_turns = 0

    def after(self, state, action):
        op = action[0]
        if op == "automa":
            self.automa_turn(state)
        elif op != "keep":
            self.player_actions += 1

    def automa_turn(self, state):
        rec = state.last_automa
        card = anastasia_automa.parse_card(state.deck_cards[rec["card"]])
        self.automa_turns += 1
        for a, outcome in enumerate(rec["actions"]):
            tier = outcome["tier"]
            if tier >= 0:
                self.tiers[tier] += 1
                verb = card["actions"][a][tier][0]
                self.verbs[verb] = self.verbs.get(verb, 0) + 1
            elif outcome["failed"] and outcome["failed"][0][0] == anastasia_automa.GAME_OVER:
                self.not_taken += 1
            else:
                self.skipped += 1

    def game_over(self, state, steps):
        self.games += 1
        winners = state.winners()
        if winners:
            self.won += 1
        for p in winners:
            self.seat_wins[p] += 1
        reason = state.result["reason"]
        self.endings[reason] = self.endings.get(reason, 0) + 1
        self.rounds.add(state.round)
        self.actions.add(self.player_actions)
        self.player_actions = 0

    def lines(self):
        n = self.games
        out = [deck_words(self.setup), ""]
        out.append("players won        %s" % tally.rate(self.won, n))
        if self.setup.players > 1:
            for p in range(self.setup.players):
                out.append("  P%d won           %s" % (p + 1, tally.rate(self.seat_wins[p], n)))
        out.append("rounds per game    %s" % self.rounds.text())
        out.append("player actions     %s" % self.actions.text())
        judged = sum(self.tiers) + self.skipped
        out.append("")
        out.append("automa: %s, %s judged%s" % (
            count(self.automa_turns, "turn"), count(judged, "action"),
            ", %d not taken (the game had ended)" % self.not_taken if self.not_taken else ""))
        rows = [(TIERS[t] + " tier", self.tiers[t]) for t in range(3)] + [("skipped", self.skipped)]
        out.extend(tally.table(rows, judged))
        out.append("automa did (tiers taken)")
        taken = sum(self.tiers)
        out.extend(tally.table([(v, self.verbs.get(v, 0)) for v in anastasia_automa.VERB_ORDER], taken))
        out.append("")
        out.append("how games ended")
        out.extend(tally.table([(words, self.endings.get(reason, 0)) for reason, words in ENDINGS], n))
        return out
