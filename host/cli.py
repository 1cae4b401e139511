"""The `tablemate` command. Each subcommand lives in its own module with
add_parser(subparsers) and run(args) -> exit status."""

import argparse
import importlib
import sys

from host import __version__

# subcommand name -> module under host/
COMMANDS = {
    "play": "host.play",
    "sim": "host.sim",
    "status": "host.status",
    "doctor": "host.doctor",
    "bench": "host.bench_box",
    "flash": "host.flash",
    "sync": "host.sync",
    "config": "host.config_cmd",
    "games": "host.stored_games",
    "replay": "host.replay",
    "stats": "host.stats",
    "simulate": "host.simulate",
}


class CliError(Exception):
    """A user error: printed as one line, exit status 2 (bad arguments) or as given."""

    def __init__(self, message, status=2):
        Exception.__init__(self, message)
        self.status = status


class Interrupted(CliError):
    """Ctrl-C in the middle of a command's work: one line says what was kept and how to go
    on, exit status 130 (as a shell reports SIGINT)."""

    def __init__(self, message):
        CliError.__init__(self, message, 130)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        # One clear line, exit status 2 (argparse's own convention), no usage dump.
        sys.stderr.write("tablemate: error: %s\n" % message)
        sys.exit(2)


def build_parser():
    parser = _Parser(prog="tablemate", description="tabletop companion box: firmware and host tools")
    parser.add_argument("--version", action="version", version="tablemate " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for modname in COMMANDS.values():
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name == modname:
                continue  # subcommand not built yet
            raise
        mod.add_parser(sub)
    return parser


def main(argv=None):
    try:
        parser = build_parser()  # imports every command: a second or more on a busy machine
    except KeyboardInterrupt:
        return 130  # nothing was started
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.func(args) or 0
    except CliError as e:
        sys.stderr.write("tablemate: %s%s\n" % ("" if isinstance(e, Interrupted) else "error: ", e))
        return e.status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `tablemate play ... | head`): stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    # Run through the package so subcommands and this module share one CliError class.
    from host.cli import main as package_main

    sys.exit(package_main())
