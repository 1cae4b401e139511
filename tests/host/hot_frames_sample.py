"""Functions whose frames test_hot_path_frames.py knows the place of (never imported)."""


def small(a, b):
    return a + b


def many_locals(a, b, c, d):
    e, f, g, h = a + 1, b + 1, c + 1, d + 1
    i, j, k, m = e + f, g + h, a + h, b + g
    return i + j + k + m


def guarded(a):
    try:
        return a()
    except Exception as e:  # noqa: BLE001 - the shape under test
        return e
