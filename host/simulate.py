"""`tablemate simulate GAME --games N --seed S [--players P] [--bots NAME,...] [...]`: many
games played by bots, then a report of what happened.

Game i (0 first) is dealt with seed S+i; the bots decide, the game's chance steps come from a
random chooser seeded the same way (engine.playout). So the same arguments always print
the same report, and a game of interest can be looked at again on its own seed.

This module is the same for every game. What differs lives in one declaration module per
game (host.simulations: its bots, its own flags, its engine options and its report).
"""

import argparse
import json
import sys

from engine import playout
from engine.games import game_name, get_game
from host import simulations
from host.cli import CliError
from host.play import parse_options
from host.words import count

DEFAULT_GAMES = 1000
SEAT_SALT = 0x2545F491  # mixed into a game's seed per seat, so two random bots differ


def random_bot(seat, seed):
    """A bot that picks uniformly among the legal actions (any game's BOTS may list it)."""
    return playout.RandomChooser(seed + SEAT_SALT * (seat + 1))


class Setup:
    """One run's settings, as the declaration's Report sees them."""

    def __init__(self, name, engine, decl, games, seed, players, bots, options, args):
        self.name = name  # the game's registry name
        self.engine = engine  # its engine module
        self.decl = decl  # its declaration module (host.simulations)
        self.games = games
        self.seed = seed
        self.players = players
        self.bots = bots  # the BOTS name of each seat
        self.options = options  # the engine options every game is dealt with
        self.args = args  # the parsed arguments, the game's own flags included


class Seats:
    """Who decides: each seat's bot, and chance for the steps nobody chooses."""

    def __init__(self, bots, chance):
        self.bots = bots
        self.chance = chance

    def choose(self, state):
        p = state.current_player()
        return self.bots[p].choose(state) if p >= 0 else self.chance.choose(state)


def declarations():
    """{game name: declaration module} of every game simulate knows."""
    return {name: simulations.load(name) for name in simulations.SIMULATIONS}


def flag_dest(flags, keywords):
    return keywords.get("dest") or flags[0].lstrip("-").replace("-", "_")


def add_parser(subparsers):
    known = declarations()
    p = subparsers.add_parser(
        "simulate",
        help="play many games with bots and report win rates, game lengths and more",
        description="Play many seeded games with bots and print a report (the same arguments "
                    "always print the same report).",
    )
    p.add_argument("game", help="game to simulate (%s; a dash reads as _)" % ", ".join(sorted(known)))
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                   help="number of games (default %d)" % DEFAULT_GAMES)
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="game i is dealt with seed S+i (default 0)")
    p.add_argument("--players", type=int, default=None, metavar="P",
                   help="number of players (default: the game's usual count)")
    p.add_argument("--bots", default=None, metavar="NAME[,NAME...]",
                   help="one bot for every seat, or one per seat (default: the game's baseline)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="engine option, VALUE as JSON or a plain word (repeatable)")
    owners = {}  # dest of a game's own flag -> the games that declare it
    for name in sorted(known):
        decl = known[name]
        bots = ", ".join(sorted(decl.BOTS))
        group = p.add_argument_group("%s (bots: %s; default %s, %s)"
                                     % (name, bots, decl.DEFAULT_BOT, count(decl.DEFAULT_PLAYERS, "player")))
        for flags, keywords in decl.ARGUMENTS:
            dest = flag_dest(flags, keywords)
            if dest not in owners:  # a flag two games declare is one flag, meaning the same to both
                owners[dest] = []
                group.add_argument(*flags, default=argparse.SUPPRESS, **keywords)
            owners[dest].append(name)
    p.set_defaults(func=run, game_flags=owners)


def resolve_game(typed, known):
    """(name, declaration) for a game as typed; CliError listing the games simulate knows."""
    listing = ", ".join(sorted(known))
    try:
        name = game_name(typed)
    except ValueError:
        raise CliError("unknown game %r (simulate knows: %s)" % (typed, listing))
    if name not in known:
        raise CliError("%s has no simulation yet (simulate knows: %s)" % (name, listing))
    return name, known[name]


def check_game_flags(args, name):
    """A flag of another game is a mistake worth a clear word, not something to ignore."""
    for dest, games in sorted(args.game_flags.items()):
        if hasattr(args, dest) and name not in games:
            raise CliError("--%s is an option of %s, not of %s"
                           % (dest.replace("_", "-"), ", ".join(games), name))


def seat_bots(text, decl, players):
    """The BOTS name of each seat from --bots ("baseline" or "baseline,random,...")."""
    names = [decl.DEFAULT_BOT] if text is None else [n.strip() for n in text.split(",")]
    for n in names:
        if n not in decl.BOTS:
            raise CliError("unknown bot %r (known: %s)" % (n, ", ".join(sorted(decl.BOTS))))
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise CliError("--bots names one bot for every seat or one per seat (%d), got %d"
                       % (players, len(names)))
    return names


def header(setup):
    first, last = setup.seed, setup.seed + setup.games - 1
    seeds = "seed %d" % first if first == last else "seeds %d-%d" % (first, last)
    if len(set(setup.bots)) == 1:
        bots = "bot: %s" % setup.bots[0]
    else:
        bots = "bots: " + ", ".join("P%d %s" % (p + 1, b) for p, b in enumerate(setup.bots))
    given = ""
    pairs = sorted(setup.args.engine_options.items())
    if pairs:
        given = ", options: " + ", ".join("%s=%s" % (k, v if isinstance(v, str) else json.dumps(v))
                                          for k, v in pairs)  # as typed: true, not True
    return "%s: %s, %s, %s, %s%s" % (
        setup.name, count(setup.games, "game"), count(setup.players, "player"), seeds, bots, given)


def prepare(args):
    """The run's Setup from the arguments; CliError, one line, if any is wrong."""
    known = declarations()
    name, decl = resolve_game(args.game, known)
    check_game_flags(args, name)
    engine = get_game(name)
    if args.games < 1:
        raise CliError("--games must be 1 or more, got %d" % args.games)
    players = decl.DEFAULT_PLAYERS if args.players is None else args.players
    if not (engine.MIN_PLAYERS <= players <= engine.MAX_PLAYERS):
        raise CliError("%s needs %d-%d players, got %d"
                       % (name, engine.MIN_PLAYERS, engine.MAX_PLAYERS, players))
    bots = seat_bots(args.bots, decl, players)
    args.engine_options = parse_options(args.option)
    try:
        options = decl.options(args)
        engine.new_game(args.seed, players, **options)  # every option checked before the first game
    except ValueError as e:
        raise CliError(str(e))
    return Setup(name, engine, decl, args.games, args.seed, players, bots, options, args)


def simulate(setup, report, progress=None):
    """Play every game of the run into report; progress(i) after game i if given."""
    for i in range(setup.games):
        seed = setup.seed + i
        options = setup.decl.game_options(setup, i) if hasattr(setup.decl, "game_options") else setup.options
        state = setup.engine.new_game(seed, setup.players, **options)
        bots = [setup.decl.BOTS[b](p, seed) for p, b in enumerate(setup.bots)]
        seats = Seats(bots, playout.RandomChooser(seed))
        steps = playout.run(state, seed, before=getattr(report, "before", None), after=report.after,
                            chooser=seats)
        report.game_over(state, steps)
        if progress is not None:
            progress(i + 1)


def run(args):
    setup = prepare(args)
    report = setup.decl.Report(setup)
    progress = None
    if sys.stderr.isatty():
        step = max(1, setup.games // 100)

        def progress(done):
            if done % step == 0 or done == setup.games:
                end = "\r\033[K" if done == setup.games else ""  # the last one clears the line
                sys.stderr.write("\r%d/%d games%s" % (done, setup.games, end))
                sys.stderr.flush()

    simulate(setup, report, progress)
    print(header(setup))
    for line in report.lines():
        print(line)
    return 0
