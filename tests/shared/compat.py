"""Small helpers so one test file runs under pytest (CPython) and tests/mpy_runner.py (MicroPython)."""

import os
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


def assert_alloc_free(make):
    """make() returns a fresh no-argument run(); run() must allocate nothing.

    Measured twice: unlocked with micropython.mem_total() (which also counts the heap
    frames MicroPython gives functions of more than 11 slots, then frees), and under
    micropython.heap_lock(), where any allocation raises MemoryError. A build without
    mem_total (a Pico's) counts the unlocked run with gc.mem_alloc(), the collector held
    off: what it misses are only those heap frames, freed on return.
    """
    if not IS_MICROPYTHON:
        skip("allocation is measured under MicroPython")
    import gc

    import micropython

    run = make()
    if hasattr(micropython, "mem_total"):
        before = micropython.mem_total()
        run()
        used = micropython.mem_total() - before
    else:
        gc.disable()
        try:
            before = gc.mem_alloc()
            run()
            used = gc.mem_alloc() - before
        finally:
            gc.enable()
    assert used == 0, "allocated %d bytes" % used
    no_alloc(make())


def remove_tree(path):
    for name in os.listdir(path):
        sub = path + "/" + name
        if os.stat(sub)[0] & 0x4000:  # S_IFDIR
            remove_tree(sub)
        else:
            os.remove(sub)
    os.rmdir(path)


_counter = [0]


class tmp_dir:
    """A fresh empty directory under /tmp, removed with everything in it on exit (both runtimes)."""

    def __enter__(self):
        _counter[0] += 1
        tag = "".join("%02x" % b for b in os.urandom(4))
        self.path = "/tmp/tablemate-test-%s-%d" % (tag, _counter[0])
        os.mkdir(self.path)
        return self.path

    def __exit__(self, *exc):
        remove_tree(self.path)
        return False
