"""Small helpers so one test file runs under pytest (CPython) and tests/mpy_runner.py (MicroPython)."""

import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"


class SkipTest(Exception):
    pass


def skip(reason):
    if IS_MICROPYTHON:
        raise SkipTest(reason)
    import pytest

    pytest.skip(reason)


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raised; fail if it raised nothing or something else."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("expected %s from %r" % (exc_type.__name__, fn))


def heap_lock_supported():
    if not IS_MICROPYTHON:
        return False
    import micropython

    return hasattr(micropython, "heap_lock")


_NONE = object()


def no_alloc(fn, a=_NONE, b=_NONE):
    """Run fn(a, b) under micropython.heap_lock(): any allocation raises MemoryError.

    MicroPython only. Fixed positional slots, because a *args call would itself allocate.
    """
    import micropython

    micropython.heap_lock()
    try:
        if a is _NONE:
            return fn()
        if b is _NONE:
            return fn(a)
        return fn(a, b)
    finally:
        micropython.heap_unlock()
