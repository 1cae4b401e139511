"""The suite's buzzer scripts (tests/host/buzzer_scripts.py) on both virtual boxes, their
decisions compared.

A boot and a mode start cost the emulated Pico seconds of wall time each, so the scripts
of one game (the same options) are joined into one session script, each played after the
one before has settled; after a script that ends in a tie (but the last), a separator
face-off (every player, 5 ms apart) settles the tie-breaker, so the next script starts
at an open face-off as on a fresh box. The session script is played with `tablemate sim --script`
on both boxes (`--board pico`: one boot), and the two outputs must be equal line for
line (a gap may differ by the capture's resolution: GAP_RESOLUTION_US). Each script's
part of the unix box's session must also decide what the script decides alone on a fresh
box (winner, tied players, gap, tie-breaker, the scores it changes): the session is the
scripts, nothing else.

    python -m tests.host.pico_compare [--capture irq] [NAME ...]

plays every script (default) or the named ones and prints each difference; with the pin
IRQs only the scripts within their resolution (irq_unresolved says why the others are
not). tests/host/test_pico_scripts.py plays a subset in make test.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from firmware import settings
from host import pico_script
from host.serial_client import TIMEOUT_SCALE_ENV
from host.sim_script import parse_script
from tests.host.buzzer_scripts import SCRIPTS, Script, play_on_unix

SEPARATOR_STEP_US = 5000  # between the separator's presses: far outside any tie window
HOLD_US = 50000
BIN = Path(sys.executable).parent


def game_options(script):
    """The options a script's game runs with: its own over the mode's defaults (a fresh box
    has the registry's)."""
    from firmware import modes

    out = {k: v[1] for k, v in modes.find("anomia").schema().items()}
    out.update(script.options())
    return out


def groups(names):
    """The names split by the game they play (one session each), in order of first appearance."""
    out = {}
    for name in names:
        out.setdefault(tuple(sorted(game_options(SCRIPTS[name]).items())), []).append(name)
    return list(out.values())


def edges_of(script, tmp):
    """The script's edges as `tablemate sim --script` reads them (the same checks)."""
    path = Path(tmp) / "part.txt"
    path.write_text("\n".join(script.lines) + "\n")
    return parse_script(path, script.players)


def separator(t, players):
    """Every player presses, SEPARATOR_STEP_US apart: whatever tie-breaker is pending, its
    first eligible player wins it, and the next face-off is open to all."""
    lines = []
    for p in range(players):
        lines.append("%d %d down" % (t + p * SEPARATOR_STEP_US, p + 1))
    for p in range(players):
        lines.append("%d %d up" % (t + (players - 1) * SEPARATOR_STEP_US + HOLD_US, p + 1))
    return lines


class Session:
    """One script that plays the named scripts (one game's) one after another.
    parts: [(name, decisions of the script alone on a fresh unix box)] in session order,
    "separator" parts included (one decision each)."""

    def __init__(self, names, tmp):
        first = SCRIPTS[names[0]]
        game = game_options(first)
        timed = {k: game[k] for k in pico_script.TIMED_KEYS}
        self.parts = []
        lines = []
        start = 0
        for i, name in enumerate(names):
            script = SCRIPTS[name]
            assert game_options(script) == game, "%s plays another game" % name
            alone = play_on_unix(Path(tmp), script)
            edges = edges_of(script, tmp)
            shift = start - edges[0][0]
            lines += ["%d %d %s" % (t + shift, p, "down" if down else "up") for t, p, down in edges]
            start = edges[-1][0] + shift + pico_script.settle_after(edges, timed)
            self.parts.append((name, alone))
            if alone and alone[-1]["event"] == "tie" and i + 1 < len(names):
                sep = separator(start, first.players)
                lines += sep
                start = int(sep[-1].split()[0]) + pico_script.settle_after(
                    [(int(line.split()[0]), 0, line.endswith("down")) for line in sep], timed)
                self.parts.append(("separator", None))
        self.script = Script(lines, first.players, first.window)

    def split(self, decisions):
        """The session's decisions as [(name, its decisions, scores before it)]."""
        out = []
        i = 0
        scores = [0] * self.script.players
        for name, alone in self.parts:
            n = 1 if alone is None else len(alone)
            part = decisions[i:i + n]
            out.append((name, part, scores))
            i += n
            scores = next((d["scores"] for d in reversed(part) if "scores" in d), scores)
        assert i == len(decisions), "%d decisions beyond the scripts' own" % (len(decisions) - i)
        return out


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


def play_on_pico(tmp, script, capture=None, timeout=1800):
    """(decision lines, wall seconds) of `tablemate sim --board pico --script` on a scratch box."""
    import os

    from tests.host.pico_box import TIMEOUT_SCALE
    from tests.host.test_sim_boot import sim_env

    path = Path(tmp) / "session.txt"
    path.write_text("\n".join(script.lines) + "\n")
    cmd = [str(BIN / "tablemate"), "sim", "--board", "pico", "--players", str(script.players),
           "--script", str(path)]
    if script.window is not None:
        cmd += ["--tie-window-us", str(script.window)]
    if capture is not None:
        cmd += ["--capture", capture]
    env = sim_env(tmp)
    env[TIMEOUT_SCALE_ENV] = os.environ.get(TIMEOUT_SCALE_ENV) or str(TIMEOUT_SCALE)
    started = time.monotonic()
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                         stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("serial: /dev/pts/"), lines
    return [json.loads(line) for line in lines[1:]], time.monotonic() - started


def differences(session, unix, pico, capture=None):
    """[(name, what differs)]: the session's parts against the scripts alone, and the Pico's
    decisions against the unix box's (a gap within the capture's resolution)."""
    out = []
    for name, part, before in session.split(unix):
        alone = dict(session.parts).get(name)
        if alone is not None and comparable(part, before) != comparable(alone, [0] * len(before)):
            out.append((name, "in the session %s, alone %s" % (part, alone)))
    tolerance = GAP_RESOLUTION_US[capture or "pio"]
    for i in range(max(len(unix), len(pico))):
        u = unix[i] if i < len(unix) else None
        p = pico[i] if i < len(pico) else None
        if not same_decision(u, p, tolerance):
            out.append(("decision %d" % (i + 1), "unix %s, pico %s" % (u, p)))
    return out


# How far a gap between two presses may read from the unix box's on the Pico; the decision
# itself (win or tie, who, the tie-breaker, the scores) must be the same.
# - pio: each edge is stamped 0 to +1 us after the true press (docs/virtual-device.md).
# - irq: each stamp lags its edge by the interrupt latency (15-25 us), by a close earlier
#   press's handler (~150 us) or by a NeoPixel write that holds interrupts off (270 us for
#   9 LEDs): two stamps' lags differ by less than IRQ_SPREAD_US.
IRQ_SPREAD_US = 300
DEBOUNCE_US = settings.SCHEMA["debounce_ms"]() * 1000  # the box's default
GAP_RESOLUTION_US = {"pio": 1, "irq": IRQ_SPREAD_US}


def same_decision(u, p, tolerance=GAP_RESOLUTION_US["pio"]):
    """u and p equal, but for a gap_us within tolerance."""
    if u is None or p is None or set(u) != set(p):
        return u == p
    for key in u:
        a, b = u[key], p[key]
        if key == "gap_us" and isinstance(a, int) and isinstance(b, int):
            if abs(a - b) > tolerance:
                return False
        elif a != b:
            return False
    return True


def irq_unresolved(script):
    """Why the pin IRQs cannot be held to the unix box's decisions on this script, or None.
    Their stamps may be off by up to IRQ_SPREAD_US, so every two presses of different
    players that can meet in one face-off (closer than the lockout plus the tie window)
    must be at least that far apart (their order), and their gap at least that far from
    the tie window (tie or not). A contact's chatter (a down edge within the debounce time
    of the same button's last edge) is no press. The PIO is held to every script."""
    game = game_options(script)
    window = game["tie_window_us"]
    span = game["lockout_ms"] * 1000 + window
    presses = []
    last = {}
    for t, p, edge in (line.split() for line in script.lines):
        if edge == "down" and int(t) - last.get(p, -DEBOUNCE_US) >= DEBOUNCE_US:
            presses.append((int(t), p))
        last[p] = int(t)
    for i, (t, p) in enumerate(presses):
        for u, q in presses[i + 1:]:
            gap = u - t
            if gap >= span:
                break
            if p != q and (gap < IRQ_SPREAD_US or abs(gap - window) < IRQ_SPREAD_US):
                return "P%s and P%s %d us apart, tie window %d us" % (p, q, gap, window)
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--capture", choices=("pio", "irq"), default=None)
    ap.add_argument("names", nargs="*", help="scripts (default: every one the capture is held to)")
    args = ap.parse_args(argv)
    names = args.names or list(SCRIPTS)
    unknown = [n for n in names if n not in SCRIPTS]
    if unknown:
        sys.exit("no such script: %s (scripts: %s)" % (", ".join(unknown), ", ".join(SCRIPTS)))
    if args.capture == "irq":
        for name in names:
            why = irq_unresolved(SCRIPTS[name])
            if why:
                print("%s: not played, beyond the pin IRQs' resolution (%s)" % (name, why))
        names = [n for n in names if irq_unresolved(SCRIPTS[n]) is None]
    agree = total = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tablemate-compare-") as tmp:
        for group in groups(names):
            session = Session(group, tmp)
            unix = play_on_unix(Path(tmp), session.script)
            pico, wall = play_on_pico(tmp, session.script, args.capture)
            diffs = differences(session, unix, pico, args.capture)
            total += max(len(unix), len(pico))
            agree += max(len(unix), len(pico)) - len([d for d in diffs if d[0].startswith("decision")])
            print("%s: %d decisions on the unix box, %d on the Pico (%.0f s wall)"
                  % (", ".join(group), len(unix), len(pico), wall))
            for name, what in diffs:
                print("  DIFFERENT %s: %s" % (name, what))
    print("capture %s: %d/%d decisions the same on both boxes, %.0f s wall"
          % (args.capture or "pio", agree, total, time.monotonic() - started))
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
