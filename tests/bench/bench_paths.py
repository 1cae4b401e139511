"""The import path of a bench script run from tests/bench (its own folder is on the path): the
repository, and before it --root DIR when given (compiled .mpy files, as a box imports them)."""

import sys

REPO = __file__.rsplit("/tests/", 1)[0] if "/tests/" in __file__ else "."
ROOT = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv else REPO
sys.path.insert(0, REPO)
sys.path.insert(0, ROOT)
