"""Scripted timing for the virtual device: `tablemate sim [--mode NAME] --players N --script FILE`.

A script is lines of `<t_us> <player> <down|up>`. The edges go over the world channel
on the script's own clock (virtual time) to the mode (default: the Anomia buzzers) started
with the options given (--players, --option KEY=VALUE, --tie-window-us), and each
decision event, each entry a mode's buttons made (an "action" event) and each refused
entry comes back as one JSON line on stdout.
"""

import json
import sys
import time
from pathlib import Path

from host.cli import CliError

SCRIPT_MODE = "anomia"  # the mode a script plays unless --mode names another
DECISION_KIND = "decision"
PRINTED_KINDS = (DECISION_KIND, "action", "refused")  # what a script prints of the events
SYNC_TIMEOUT_S = 10.0  # the longest the device may go without taking in a window of edges
MARK_EVERY = 64  # edges between two marks: the host is never more than two windows ahead
SETTLE_MARGIN_US = 200000  # past the last lockout: debounce releases and the final DONE


def parse_script(path, players):
    """[(t_us, player 1..players, down bool)] from a script file; CliError naming the line on any mistake.

    Lines: `<t_us> <player> <down|up>`; blank lines and `#` comments are skipped. Times
    never go back, a player is pressed before released, and not pressed twice.
    """
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeError) as e:
        raise CliError("cannot read script %s: %s" % (path, e))
    edges = []
    held = set()
    last_t = 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = "script %s line %d" % (path, n)
        fields = line.split()
        if len(fields) != 3:
            raise CliError("%s: expected '<t_us> <player> <down|up>', got %r" % (where, raw.strip()))
        t_text, p_text, what = fields
        if not t_text.isdigit():
            raise CliError("%s: time %r is not a whole number of microseconds" % (where, t_text))
        t = int(t_text)
        if t < last_t:
            raise CliError("%s: time %d goes back (previous edge at %d)" % (where, t, last_t))
        if not p_text.isdigit() or not 1 <= int(p_text) <= players:
            raise CliError("%s: player %r is not 1..%d" % (where, p_text, players))
        player = int(p_text)
        if what not in ("down", "up"):
            raise CliError("%s: %r is neither down nor up" % (where, what))
        down = what == "down"
        if down and player in held:
            raise CliError("%s: player %d pressed again without a release" % (where, player))
        if not down and player not in held:
            raise CliError("%s: player %d released without a press" % (where, player))
        (held.add if down else held.discard)(player)
        edges.append((t, player, down))
        last_t = t
    if not edges:
        raise CliError("script %s has no edges" % path)
    return edges


def _option_value(text):
    """An option's value from the command line: JSON (5, true, [1, 2]) or else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def script_options(args):
    """The mode options for a script run, checked as the mode's registry entry declares them."""
    from firmware import modes

    name = getattr(args, "mode", None) or SCRIPT_MODE
    entry = modes.find(name)
    if entry is None:
        raise CliError("--mode %r: no such mode (modes: %s)" % (name, ", ".join(modes.names())))
    if args.players is None or args.script is None:
        raise CliError("--script FILE and --players N go together (--mode, --option and "
                       "--tie-window-us set up a script's games, so they need both)")
    options = {"players": args.players}
    for item in getattr(args, "option", None) or ():
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise CliError("--option %r: write it as KEY=VALUE" % item)
        options[key] = _option_value(value)
    if args.tie_window_us is not None:
        options["tie_window_us"] = args.tie_window_us
    schema = entry.schema()
    for key in options:
        flag = {"players": "--players", "tie_window_us": "--tie-window-us"}.get(key, "--option " + key)
        if key not in schema:
            raise CliError("%s: mode %s has no such option (options: %s)"
                           % (flag, name, ", ".join(sorted(schema))))
        why = schema[key][0](options[key])
        if why:
            raise CliError("%s %s" % (flag, why))
    return options


def emit_json(msg):
    out = {k: v for k, v in msg.items() if k != "t"}
    sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def settle_us(options):
    """How far past the last edge the clock must run for every decision and release to land."""
    lockout_us = options.get("lockout_ms", 10000) * 1000
    return lockout_us + options.get("tie_window_us", 50000) + SETTLE_MARGIN_US


def run_script(device, edges, options, mode=SCRIPT_MODE):
    """Feed timed edges on the script's own clock to `mode`, print each decision event; 0 when
    the device answered all."""
    world = device.world

    def handle(messages):
        for msg in messages:
            t = msg.get("t")
            if t == "event" and msg.get("kind") in PRINTED_KINDS:
                emit_json(msg)
            elif t == "event" and msg.get("kind") == "error":  # the mode raised: the box left it
                raise CliError("the mode failed during the script: %s" % msg.get("msg"), 1)
            elif t == "error":
                raise CliError("the device refused: %s" % msg.get("msg"), 1)

    world.send({"t": "mode", "name": mode, "options": options})
    deadline = time.monotonic() + SYNC_TIMEOUT_S
    started = False
    while not started:
        if world.closed or time.monotonic() > deadline:
            raise CliError("the device did not start mode %r" % mode, 1)
        for msg in world.wait(deadline - time.monotonic()):
            if msg.get("t") == "event" and msg.get("kind") == "mode" and msg.get("name") == mode:
                started = True
            elif msg.get("t") == "error":
                raise CliError("the device cannot run the script: %s" % msg.get("msg"), 1)
            else:
                handle([msg])
    # Virtual time: the device's clock is the script's clock, set just before each edge,
    # so the script runs as fast as the link allows and every decision falls due at
    # exactly the stamp where it would on a real box. Flow control: a mark every
    # MARK_EVERY edges, and the host waits for the one before last, so what the device
    # still has to take in after the last edge is at most two windows, whatever the
    # script's length (the wait for the final sync is then bounded too).
    last = 0
    marks = [0]  # the highest mark id answered
    sent = 0
    for i, (t_us, player, down) in enumerate(edges, 1):
        world.send({"t": "clock", "us": t_us})
        world.edge(player - 1, down, t_us)
        last = t_us
        handle(_marks(world.read(), marks))
        if i % MARK_EVERY == 0:
            sent += 1
            world.send({"t": "mark", "id": sent})
            _wait_mark(world, sent - 1, marks, handle)
    world.send({"t": "clock", "us": last + settle_us(options)})
    world.send({"t": "sync", "id": 1})
    deadline = time.monotonic() + SYNC_TIMEOUT_S
    while True:
        if world.closed:
            raise CliError("the device hung up before answering the script", 1)
        if time.monotonic() > deadline:
            raise CliError("the device did not settle within %.0f s after the script" % SYNC_TIMEOUT_S, 1)
        messages = world.wait(deadline - time.monotonic())
        synced = [m for m in messages if m.get("t") == "sync" and m.get("id") == 1]
        handle(messages)
        if synced:
            return 0


def _marks(messages, marks):
    """The messages less the mark answers, whose highest id goes into marks[0]."""
    out = []
    for msg in messages:
        if msg.get("t") == "mark" and isinstance(msg.get("id"), int):
            marks[0] = max(marks[0], msg["id"])
        else:
            out.append(msg)
    return out


def _wait_mark(world, want, marks, handle):
    """Until the device answered mark `want`: it has taken in every edge before it."""
    deadline = time.monotonic() + SYNC_TIMEOUT_S
    while marks[0] < want:
        if world.closed:
            raise CliError("the device hung up during the script", 1)
        if time.monotonic() > deadline:
            raise CliError("the device took in no edge for %.0f s during the script" % SYNC_TIMEOUT_S, 1)
        handle(_marks(world.wait(deadline - time.monotonic()), marks))
