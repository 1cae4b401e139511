"""Bisection for the bounds `make bench` and the tests measure: a delay, a gap, a heap
size past which something stops working."""


def longest_passing(ok, lo, hi, resolution=1):
    """The largest x in lo..hi (to resolution) for which ok(x) holds, ok being true up to
    some bound and false past it: hi when ok(hi), None when not even ok(lo)."""
    if not ok(lo):
        return None
    if ok(hi):
        return hi
    while hi - lo > resolution:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def smallest_passing(ok, lo, hi, resolution=1):
    """The smallest x in lo..hi (to resolution) for which ok(x) holds, ok being false below
    some bound and true from it: lo when ok(lo), None when not even ok(hi)."""
    d = longest_passing(lambda d: ok(hi - d), 0, hi - lo, resolution)
    return None if d is None else hi - d
