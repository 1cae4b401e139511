"""Counts in the words a person reads: "1 file", "2 files", "1 face-off won"."""


def count(n, noun, plural=None):
    """n and the noun, singular for exactly 1; plural defaults to noun + "s"."""
    return "%d %s" % (n, noun if n == 1 else (plural or noun + "s"))
