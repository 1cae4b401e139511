"""Counting helpers for the reports of `tablemate simulate`: a spread of whole numbers
(mean, median, max), a rate with its 95% interval, counts as shares. Plain arithmetic, so
the same games always print the same figures."""

import math

Z95 = 1.959963984540054  # the standard normal quantile for a two-sided 95% interval


def wilson_interval(k, n, z=Z95):
    """(low, high) of the Wilson score interval for k successes in n trials, as fractions.

    Wilson rather than the normal approximation: it stays inside 0-1 and is honest for
    rates near 0 or 1 and for small n."""
    if n <= 0:
        raise ValueError("an interval needs at least one trial")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percent(k, n):
    """k of n as "12.3%" ("-" when n is 0)."""
    return "%.1f%%" % (100.0 * k / n) if n else "-"


def rate(k, n):
    """k of n with its share and 95% interval, e.g. "812 of 2000  40.6%  (95% CI 38.5-42.8%)"."""
    low, high = wilson_interval(k, n)
    return "%d of %d  %s  (95%% CI %.1f-%.1f%%)" % (k, n, percent(k, n), 100 * low, 100 * high)


class Spread:
    """Whole numbers seen one at a time (a game length per game): mean, median and max."""

    def __init__(self):
        self.values = []

    def add(self, value):
        self.values.append(value)

    def median(self):
        v = sorted(self.values)
        mid = len(v) // 2
        return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2

    def text(self):
        """ "mean 4.21, median 4, max 11" (a median between two values ends in .5)."""
        if not self.values:
            return "none"
        median = self.median()
        return "mean %.2f, median %s, max %d" % (sum(self.values) / len(self.values),
                                                 "%g" % median, max(self.values))


def table(rows, total, indent="  "):
    """Lines "label  count  share" for [(label, count)], the labels padded to one width."""
    width = max(len(label) for label, _ in rows)
    return ["%s%-*s  %6d  %6s" % (indent, width, label, count, percent(count, total))
            for label, count in rows]
