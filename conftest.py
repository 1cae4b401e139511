# pytest puts this file's directory (the repository root) on sys.path, so tests import
# `tests.shared...` the same way tests/mpy_runner.py does under MicroPython.
