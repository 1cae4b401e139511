"""What `tablemate simulate` knows of each game: game name (engine.games) -> the module that
declares its bots and its report. Adding a game to simulate is one such module and one line here.

A declaration module defines

  DEFAULT_PLAYERS      the player count without --players
  BOTS                 {name: factory(seat, seed) -> bot}; a bot's choose(state) returns a legal
                       action for its seat (it should read only what state.view(seat) shows)
  DEFAULT_BOT          the BOTS name every seat gets without --bots
  ARGUMENTS            ((flags, argparse keywords), ...) the game's own flags, e.g.
                       (("--deck",), {"metavar": "FILE", "help": "..."}); parsed only for it
  options(args)        the engine options (dict for new_game) from the parsed arguments, with
                       args.engine_options holding --option KEY=VALUE; ValueError, one line, if bad
  Report(setup)        the tally of one run; setup is a host.simulate.Setup. It offers
                         after(state, action)       after every applied action (chance ones too)
                         game_over(state, steps)    once per game, with its number of actions
                         lines()                    the report's lines, printed after the header
                       and optionally before(state, action).
  game_options(setup, i) optional: the engine options of game i (0 first) when they change
                       from game to game, e.g. a first dealer that turns; else setup.options

host.simulations.tally has the counting helpers (rates with a 95% interval, spreads, tables)
and host.simulate.random_bot a uniformly random bot any game can list.
"""

import importlib

SIMULATIONS = {
    "anastasia": "host.simulations.anastasia",
    "anastasia_solo": "host.simulations.anastasia_solo",
    "anathema": "host.simulations.anathema",
}


def load(name):
    """The declaration module of a game name already made canonical (engine.games.game_name)."""
    return importlib.import_module(SIMULATIONS[name])
