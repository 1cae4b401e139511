"""`tablemate play GAME --players N --seed S`: a whole game in the terminal with random,
seeded decisions (engine.playout), narrated step by step, then the final score table.

The same seed always prints the same game. Engine options go in as --option KEY=VALUE
(VALUE read as JSON, else as a plain string), e.g. --option deck=red.
"""

import json

from engine import playout
from engine.core import CHANCE, SIMULTANEOUS
from engine.games import GAMES, game_name, get_game
from host.cli import CliError
from host.columns import table
from host.words import count


def add_parser(subparsers):
    p = subparsers.add_parser(
        "play",
        help="play a seeded random game and narrate it",
        description="Play a whole game with random decisions seeded by --seed and print what happens.",
    )
    p.add_argument("game", help="game to play (%s; a dash reads as _)" % ", ".join(sorted(GAMES)))
    p.add_argument("--players", type=int, default=None,
                   help="number of players (default 4, or the nearest count the game allows)")
    p.add_argument("--seed", type=int, default=0, help="seed for the shuffle and the decisions (default 0)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="engine option, VALUE as JSON or a plain word (repeatable), e.g. deck=red")
    p.set_defaults(func=run)


DEFAULT_PLAYERS = 4


def parse_options(pairs):
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CliError("--option needs KEY=VALUE, got %r" % pair)
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return options


def run(args):
    try:
        name = game_name(args.game)
        game = get_game(name)
        players = args.players
        if players is None:
            players = min(max(DEFAULT_PLAYERS, game.MIN_PLAYERS), game.MAX_PLAYERS)
        state = game.new_game(args.seed, players, **parse_options(args.option))
    except ValueError as e:
        raise CliError(str(e))
    narrator = NARRATORS.get(name, StepNarrator)(state, print)
    narrator.header(name, args.seed)
    steps = playout.run(state, args.seed, before=narrator.before, after=narrator.after)
    narrator.footer(steps)
    print_score_table(state, print)
    return 0


def player(p):
    return "P%d" % (p + 1)


def actor(state, action):
    """Who takes a step, in words: a seat, or the game itself for a chance step."""
    p = state.current_player()
    if p >= 0:
        return player(p)
    if p == CHANCE:
        return "deal" if isinstance(action, list) and action and action[0] == "deal" else "chance"
    if p == SIMULTANEOUS:
        return "all at once"
    return "game"


def print_score_table(state, write):
    scores = state.scores()
    winners = state.winners()
    write("")
    rows = [(player(p), score, "winner" if p in winners else "") for p, score in enumerate(scores)]
    for line in table(("player", "score", ""), rows, right=(1,)):
        write(line)
    if len(winners) == 1:
        write("winner: %s" % player(winners[0]))
    elif not winners:
        write("no winner")
    else:
        write("shared win: %s" % ", ".join(player(p) for p in winners))


class StepNarrator:
    """Any game: one line per action, in the engine's words when its states offer
    describe(action), else the seat (or "deal" / "chance") and the action as JSON."""

    def __init__(self, state, write):
        self.write = write
        self.step = 0

    def header(self, game, seed):
        self.write("%s, seed %d" % (game, seed))

    def before(self, state, action):
        self.step += 1
        describe = getattr(state, "describe", None)
        if describe is None:
            self.write("step %d  %s: %s" % (self.step, actor(state, action), json.dumps(action)))
        elif state.current_player() >= 0:  # the engine's sentence names the seat itself
            self.write("step %d  %s" % (self.step, describe(action)))
        else:
            self.write("step %d  %s: %s" % (self.step, actor(state, action), describe(action)))

    def after(self, state, action):
        pass

    def footer(self, steps):
        self.write("game over after %s" % count(steps, "action"))


class AnomiaNarrator:
    """Anomia as a person reads it: draws with card texts, face-offs, ties and takes."""

    def __init__(self, state, write):
        self.write = write
        self.deck = state.deck
        self.state = state
        self.turn = 0
        self.redraw = False  # the last draw was a wild card: the same player draws again
        self.drawer = None
        self.pending = None
        self.wilds_before = 0

    def header(self, game, seed):
        s = self.state
        self.write("anomia: %d players, %s deck, seed %d (random decisions seeded by --seed)"
                   % (s.players, self.deck.name, seed))
        if self.deck.removed:
            self.write("3 players: symbols %s and their wild cards are out of the game"
                       % " and ".join(self.deck.symbol_name(x) for x in self.deck.removed))
        self.write("draw piles: %d + %d cards" % (len(s.draw_piles[0]), len(s.draw_piles[1])))

    def before(self, state, action):
        self.drawer = state.current_player()
        self.pending = state.faceoff()
        self.wilds_before = len(state.wild_pile)

    def after(self, state, action):
        op = action[0]
        if op == "draw":
            self._draw(state, action[1])
        elif op == "tie":
            self._tie(state)
        else:
            self._win(state, action[1])
        fo = state.faceoff()
        if fo is not None and op != "tie":
            self._faceoff(state, fo)

    def _draw(self, state, pile):
        p = self.drawer
        if not self.redraw:
            self.turn += 1
        again = " again" if self.redraw else ""
        wild = len(state.wild_pile) > self.wilds_before
        card = state.wild_pile[-1] if wild else state.play_piles[p][-1]
        self.write("turn %d  %s draws%s %s from pile %d"
                   % (self.turn, player(p), again, self.deck.label(card), pile))
        if wild:
            self.write("  onto the wild pile; %s draws again" % player(p))
        self.redraw = wild

    def _faceoff(self, state, fo):
        a, b = fo["players"]
        if fo["wild"]:
            why = "wild %s|%s" % tuple(self.deck.symbol_name(x) for x in fo["symbols"])
        else:
            why = self.deck.symbol_name(fo["symbols"][0])
        ca = self.deck.category_text(state.play_piles[b][-1])
        cb = self.deck.category_text(state.play_piles[a][-1])
        # each names an example of the category on the other's card
        self.write('  FACE-OFF %s vs %s (%s): %s answers "%s", %s answers "%s"'
                   % (player(a), player(b), why, player(a), ca, player(b), cb))

    def _tie(self, state):
        a, b = self.pending["players"]
        card = state.faceoff()["card"]
        if card is None:
            self.write("  TIE %s %s -> no card left to draw: they shout again on the same cards"
                       % (player(a), player(b)))
        else:
            self.write("  TIE %s %s -> tie-breaker card %s" % (player(a), player(b), self.deck.label(card)))

    def _win(self, state, winner):
        a, b = self.pending["players"]
        loser = b if winner == a else a
        taken = self.deck.label(state.winning_piles[winner][-1])
        what = "wins the tie-breaker" if self.pending["tiebreak"] else "wins"
        self.write("  %s %s: takes %s's card %s" % (player(winner), what, player(loser), taken))

    def footer(self, steps):
        self.write("")
        self.write("game over after %s (%s): both draw piles are empty"
                   % (count(self.turn, "turn"), count(steps, "action")))


NARRATORS = {"anomia": AnomiaNarrator}
