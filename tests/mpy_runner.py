"""Runs the shared test modules under MicroPython (pytest collects the same files on CPython).

Usage: micropython tests/mpy_runner.py [module-name ...]
Test modules are plain: functions named test_* using assert. A test that cannot
run on MicroPython raises SkipTest (from tests.shared.compat) and is counted
as skipped. Prints one summary line: "micropython: N passed, F failed, S skipped".
"""

import os
import sys

ROOT = __file__.rsplit("/tests/", 1)[0] if "/tests/" in __file__ else "."
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
# The device packages compiled to .mpy (tests/run_micropython.py), found before the sources.
TREE = os.getenv("TABLEMATE_MPY_TREE")
if TREE:
    sys.path.insert(0, TREE)

from tests.shared.compat import SkipTest  # noqa: E402


def modules():
    names = []
    for name in sorted(os.listdir(ROOT + "/tests/shared")):
        if name.startswith("test_") and name.endswith(".py"):
            names.append(name[:-3])
    return names


def main(argv):
    wanted = argv[1:] or modules()
    passed = failed = skipped = 0
    for mod_name in wanted:
        mod = __import__("tests.shared." + mod_name, None, None, ["x"])
        for name in sorted(dir(mod)):
            if not name.startswith("test_"):
                continue
            fn = getattr(mod, name)
            if not callable(fn):
                continue
            label = mod_name + "::" + name
            try:
                fn()
            except SkipTest as e:
                skipped += 1
                print("SKIP", label, e)
            except Exception as e:  # noqa: BLE001 - report every failure and go on
                failed += 1
                print("FAIL", label)
                sys.print_exception(e)
            else:
                passed += 1
    print("micropython: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


sys.exit(main(sys.argv))
