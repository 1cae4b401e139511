"""The suite's buzzer scripts (tests/host/buzzer_scripts.py) on both virtual boxes, their
decisions compared: the unix box plays each script on a fresh box of its own
(`tablemate sim --script`); the emulated Pico plays them one after another in one game
on one boot (a mode start costs it seconds of wall time), with host/pico_script.py's
player; after a script that ends in a tie, a press of back takes the tie back (the box's
undo), so the next script starts at an open face-off as on a fresh box.

A decision is compared by what it decides: event, winner, tied players (as a set), gap,
tie-breaker, and the scores it changed (the Pico's game carries the scripts before).

    python -m tests.host.pico_compare [--capture irq] [NAME ...]

plays every script that fits in minutes (default) or the named ones and prints each
difference; tests/host/test_pico_scripts.py runs a subset in make test.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from firmware.buttons import BACK_BIT
from host import pico_script
from host.sim_script import parse_script
from tests.host.buzzer_scripts import SCRIPTS, play_on_unix

# What the emulated Pico cannot play in minutes: 40 minutes of virtual time.
TOO_LONG = ("long_pauses",)
LINK_TIMEOUT_S = 30.0
BACK_HOLD_US = 50_000


def edges_of(script, tmp):
    """The script's edges as `tablemate sim --script` reads them (the same checks)."""
    path = Path(tmp) / "pico-script.txt"
    path.write_text("\n".join(script.lines) + "\n")
    return parse_script(path, script.players)


def comparable(decisions, scores_before):
    """What each decision decides; scores as the change from scores_before."""
    out = []
    for d in decisions:
        c = {k: d.get(k) for k in ("kind", "event", "winner", "gap_us", "tiebreak")}
        c["players"] = sorted(d["players"]) if "players" in d else None
        if "scores" in d:
            c["scores"] = [a - b for a, b in zip(d["scores"], scores_before, strict=True)]
        out.append(c)
    return out


def game_options(script):
    """The options a script's game runs with: its own over the mode's defaults (a fresh box
    has the registry's)."""
    from firmware import modes

    out = {k: v[1] for k, v in modes.find("anomia").schema().items()}
    out.update(script.options())
    return out


def take_back(clock, client, timed):
    """Press back: the box's undo takes the tie (and its tie-breaker) back."""
    undo = []
    back = BACK_BIT + 1  # play() numbers buttons from 1, as a script numbers players
    pico_script.play(clock, client, [(0, back, True), (BACK_HOLD_US, back, False)], timed, undo.append)
    assert [d.get("event") for d in undo] == ["undo"], undo


def play_on_pico(box, names, tmp):
    """{name: ([decision], scores before)} of the scripts played in order in one game on a
    running PicoBox; every script must play the first one's game (the same options)."""
    options = SCRIPTS[names[0]].options()
    game = game_options(SCRIPTS[names[0]])
    out = {}
    with box.client(timeout=LINK_TIMEOUT_S) as client:
        clock = pico_script.PicoClock(box.world)
        timed = pico_script.start_mode(client, "anomia", options)
        scores = [0] * options["players"]
        for name in names:
            script = SCRIPTS[name]
            assert game_options(script) == game, "%s needs a game of its own" % name
            edges = edges_of(script, tmp)
            got = []
            pico_script.play(clock, client, edges, timed, got.append)
            out[name] = (got, scores)
            scores = next((d["scores"] for d in reversed(got) if "scores" in d), scores)
            if got and got[-1].get("event") == "tie":
                take_back(clock, client, timed)
    return out


def compare(box, names, tmp):
    """([(name, unix decisions, pico decisions)], decisions that agree, decisions in all)."""
    pico = play_on_pico(box, names, tmp)
    rows = []
    agree = total = 0
    for name in names:
        unix = comparable(play_on_unix(Path(tmp), SCRIPTS[name]), [0] * SCRIPTS[name].players)
        got, before = pico[name]
        mine = comparable(got, before)
        total += max(len(unix), len(mine))
        agree += sum(1 for a, b in zip(unix, mine, strict=False) if a == b)
        rows.append((name, unix, mine))
    return rows, agree, total


def groups(names):
    """The names split by the game they play (one game each), in order of first appearance."""
    out = {}
    for name in names:
        out.setdefault(tuple(sorted(game_options(SCRIPTS[name]).items())), []).append(name)
    return list(out.values())


def main(argv=None):
    from host.serial_client import TIMEOUT_SCALE_ENV
    from tests.host.pico_box import TIMEOUT_SCALE, PicoBox

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--capture", choices=("pio", "irq"), default=None)
    ap.add_argument("names", nargs="*", help="scripts (default: all but %s)" % ", ".join(TOO_LONG))
    args = ap.parse_args(argv)
    names = args.names or [n for n in SCRIPTS if n not in TOO_LONG]
    unknown = [n for n in names if n not in SCRIPTS]
    if unknown:
        sys.exit("no such script: %s (scripts: %s)" % (", ".join(unknown), ", ".join(SCRIPTS)))
    os.environ.setdefault(TIMEOUT_SCALE_ENV, str(TIMEOUT_SCALE))
    started = time.monotonic()
    agree = total = 0
    with tempfile.TemporaryDirectory(prefix="tablemate-compare-") as tmp:
        box = PicoBox(Path(tmp) / "pico-flash.img", capture=args.capture)
        try:
            for group in groups(names):
                rows, a, t = compare(box, group, tmp)
                agree += a
                total += t
                for name, unix, mine in rows:
                    same = unix == mine
                    print("%-30s %s, %d decisions" % (name, "same" if same else "DIFFERENT", len(unix)))
                    if not same:
                        print("   unix: %s\n   pico: %s" % (unix, mine))
        finally:
            box.stop()
    print("capture %s: %d/%d decisions agree, %.0f s wall"
          % (args.capture or "pio", agree, total, time.monotonic() - started))
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
