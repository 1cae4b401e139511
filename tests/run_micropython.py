"""Run every shared test module under micropython, each in its own process (CPython driver).

A fresh interpreter per module is what a board does after a reset, and keeps one
module's heap use from starving the next at a Pico-sized heap. Modules run two at a
time. Prints each failure's output and one summary line:
"micropython: N passed, F failed, S skipped (M modules)". Exit status 1 on any failure.

Usage: python tests/run_micropython.py [--heapsize 192k] [module ...]
"""

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"^micropython: (\d+) passed, (\d+) failed, (\d+) skipped$", re.M)


# Modules that walk every registered game: one process per game and setup (a Pico-sized
# heap holds one engine and what one setup loads, as a box does), named in
# $TABLEMATE_ENGINE as "game:k" (k: the defaults, then each of the engine's VARIANTS).
PER_GAME = ("test_engine_conformance",)


def modules():
    return sorted(p.stem for p in (ROOT / "tests" / "shared").glob("test_*.py"))


def runs(names):
    """(label, module, game or None) for every process to run."""
    sys.path.insert(0, str(ROOT))
    from engine.games import GAMES

    out = []
    for name in names:
        if name in PER_GAME:
            from engine.games import get_game

            for game in sorted(GAMES):
                setups = 1 + len([v for v in getattr(get_game(game), "VARIANTS", None) or () if v])
                out.extend(("%s[%s:%d]" % (name, game, k), name, "%s:%d" % (game, k)) for k in range(setups))
        else:
            out.append((name, name, None))
    return out


def run_module(exe, heapsize, run):
    label, name, game = run
    env = dict(os.environ)
    if game is not None:
        env["TABLEMATE_ENGINE"] = game
    res = subprocess.run([exe, "-X", "heapsize=" + heapsize, "tests/mpy_runner.py", name],
                         cwd=ROOT, capture_output=True, text=True, env=env)
    return label, res


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--heapsize", default="192k")
    ap.add_argument("--micropython", default=str(Path(sys.executable).parent / "micropython"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("modules", nargs="*")
    args = ap.parse_args(argv)
    passed = failed = skipped = 0
    broken = []
    with ThreadPoolExecutor(args.jobs) as pool:
        names = runs(args.modules or modules())
        results = pool.map(lambda r: run_module(args.micropython, args.heapsize, r), names)
        for name, res in results:
            m = SUMMARY.search(res.stdout)
            if m is None or res.returncode != 0:
                broken.append(name)
                sys.stdout.write("---- %s (exit %d)\n%s%s" % (name, res.returncode, res.stdout, res.stderr))
            if m is not None:
                passed += int(m.group(1))
                failed += int(m.group(2))
                skipped += int(m.group(3))
            for line in res.stdout.splitlines():
                if line.startswith("SKIP"):
                    print(name, line)
    n = len(args.modules or modules())
    if broken and not failed:
        failed = len(broken)  # a module that crashed before its summary counts as a failure
    print("micropython: %d passed, %d failed, %d skipped (%d modules, -X heapsize=%s)"
          % (passed, failed, skipped, n, args.heapsize))
    return 1 if failed or broken else 0


if __name__ == "__main__":
    sys.exit(main())
