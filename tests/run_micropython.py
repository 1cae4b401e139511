"""Run every shared test module under micropython, each in its own process (CPython driver).

A fresh interpreter per module is what a board does after a reset, and keeps one
module's heap use from starving the next at a Pico-sized heap. Modules run two at a
time. Prints each failure's output and one summary line:
"micropython: N passed, F failed, S skipped (M modules)". Exit status 1 on any failure.

The device packages (engine/, firmware/, unixbox/) are first compiled with mpy-cross into a
fresh tree that the modules import ahead of the sources, as a flashed box imports .mpy: the
heap then holds what the code and the specs use, not the compiler's parse of each source.
--source runs them from the .py files instead.

A module that holds a whole box and a replayed copy of its game beside the test harness
may ask for more in a line of its own, with the reason:
    # micropython heapsize: 256k - why
(a 64-bit unix port's objects are twice a Pico's; what a box itself needs is measured by
the benches and the emulated Pico, not here).

Usage: python tests/run_micropython.py [--heapsize 192k] [--source] [module ...]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAP_LINE = re.compile(r"^# micropython heapsize: (\d+k) - \S", re.M)
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


def module_heapsize(name, default):
    """The heap a module asks for in its '# micropython heapsize:' line, else the default."""
    text = (ROOT / "tests" / "shared" / (name + ".py")).read_text()
    m = HEAP_LINE.search(text)
    return m.group(1) if m else default


def run_module(exe, heapsize, tree, run):
    label, name, game = run
    heapsize = module_heapsize(name, heapsize)
    env = dict(os.environ)
    if tree is not None:
        env["TABLEMATE_MPY_TREE"] = tree
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
    ap.add_argument("--source", action="store_true", help="import the device packages from their .py files")
    ap.add_argument("modules", nargs="*")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tree = None
        if not args.source:
            sys.path.insert(0, str(ROOT))
            from host.device_files import compile_tree

            tree = str(compile_tree(Path(tmp), backend="unix"))
        return run_all(args, tree)


def run_all(args, tree):
    passed = failed = skipped = 0
    broken = []
    with ThreadPoolExecutor(args.jobs) as pool:
        names = runs(args.modules or modules())
        results = pool.map(lambda r: run_module(args.micropython, args.heapsize, tree, r), names)
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
    asked = [module_heapsize(r[1], args.heapsize) for r in names]
    larger = sorted(set(asked) - {args.heapsize})
    heap_note = args.heapsize
    if larger:
        heap_note += " (%d at %s)" % (len([h for h in asked if h != args.heapsize]), "/".join(larger))
    if broken and not failed:
        failed = len(broken)  # a module that crashed before its summary counts as a failure
    print("micropython: %d passed, %d failed, %d skipped (%d modules, -X heapsize=%s, %s)"
          % (passed, failed, skipped, n, heap_note, "from source" if tree is None else "compiled"))
    return 1 if failed or broken else 0


if __name__ == "__main__":
    sys.exit(main())
