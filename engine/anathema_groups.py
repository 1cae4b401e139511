"""Grouping card values into sets of one value: the arithmetic behind captures and builds.

Pure functions over lists of card numbers (ints 1-13); indices refer to those lists.
A "group" is a set of cards whose numbers add up to the target value.

The searches that list moves (subsets_by_sum, grow) name sets of loose table cards
by bit masks (bit i for card i), small ints for up to MASK_CARDS cards, so a set
costs no heap. They can meet many combinations on a crowded table, so each one
spends from a step budget, a one-element list [steps left] shared by the searches of
one listing; when it runs out the search stops, and the caller learns it from
budget[0] < 0. Checking one given move (can_split) needs no budget: it looks at the
few cards the move names.
"""

# Masks stay below 2**30: small ints on every port.
MASK_CARDS = 30


def can_split(values, target):
    """True when `values` (non-empty) split exactly into groups that each add up to target."""
    return _split(values, target, None)


def split(values, target):
    """One way to split `values` into groups adding up to target, as lists of indices
    into values (largest cards first), or None. For showing a move to a person."""
    groups = []
    # Largest first, then by index: a total order (MicroPython's sort is not stable).
    order = sorted(range(len(values)), key=lambda i: (14 - values[i]) * 256 + i)
    if not _split(values, target, groups):
        return None
    return [[order[k] for k in g] for g in groups]


def _split(values, target, groups):
    if not values or target <= 0:
        return False
    total = 0
    for v in values:
        if v > target or v <= 0:
            return False
        total += v
    if total % target:
        return False
    vs = sorted(values, reverse=True)
    return _fill(vs, [False] * len(vs), target, groups)


def _fill(vs, used, target, groups):
    # The first free card (the largest left) opens the next group.
    n = len(vs)
    i = 0
    while i < n and used[i]:
        i += 1
    if i == n:
        return True
    used[i] = True
    if groups is not None:
        groups.append([i])
    ok = _complete(vs, used, i + 1, target - vs[i], target, groups)
    if not ok:
        used[i] = False
        if groups is not None:
            groups.pop()
    return ok


def _complete(vs, used, start, need, target, groups):
    if need == 0:
        return _fill(vs, used, target, groups)
    prev = 0
    for j in range(start, len(vs)):
        v = vs[j]
        # vs is sorted: an equal card already tried here fails the same way.
        if used[j] or v > need or v == prev:
            continue
        prev = v
        used[j] = True
        if groups is not None:
            groups[-1].append(j)
        if _complete(vs, used, j + 1, need - v, target, groups):
            return True
        used[j] = False
        if groups is not None:
            groups[-1].pop()
    return False


def subsets_by_sum(values, top, room, budget):
    """by_sum[t] for t in 0..top: the masks of the subsets of `values` (at most
    MASK_CARDS of them) adding up to t; by_sum[0] is [0]. One search serves every capture
    and build of a turn, since they all draw on one table. Each subset kept takes one
    from room[0]; the search stops when none is left (or the budget is spent)."""
    by_sum = [[] for _ in range(top + 1)]
    by_sum[0].append(0)
    # By value, then by index: a total order, so both runtimes search alike
    # (MicroPython's sort is not stable).
    order = sorted(range(len(values)), key=lambda i: values[i] * 256 + i)
    _sums(values, order, 0, top, 0, 0, by_sum, room, budget)
    return by_sum


def _sums(values, order, start, top, total, mask, by_sum, room, budget):
    for k in range(start, len(order)):
        budget[0] -= 1
        if budget[0] < 0 or room[0] <= 0:
            return
        i = order[k]
        v = values[i]
        if total + v > top:
            return  # order is by value: every later card is too big as well
        m = mask | (1 << i)
        by_sum[total + v].append(m)
        room[0] -= 1
        _sums(values, order, k + 1, top, total + v, m, by_sum, room, budget)


def members(mask):
    """The indices in a mask, ascending."""
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def count(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


def sum_of(values, mask):
    t = 0
    i = 0
    while mask:
        if mask & 1:
            t += values[i]
        mask >>= 1
        i += 1
    return t


class Found:
    """Collects every distinct set grow() finds, until `limit` of them."""

    def __init__(self, limit):
        self.sets = set()
        self.limit = limit
        self.stop = False

    def add(self, mask):
        self.sets.add(mask)
        self.stop = len(self.sets) >= self.limit

    def result(self):
        return sorted(self.sets)


class Largest:
    """Keeps the `k` sets with the most cards that grow() finds (the first found among
    equals); the search itself is bounded by its budget."""

    def __init__(self, k):
        self.best = []  # masks, most cards first
        self.sizes = []
        self.k = k
        self.stop = False

    def add(self, mask):
        n = count(mask)
        sizes = self.sizes
        if len(sizes) == self.k and n <= sizes[-1]:
            return
        if mask in self.best:
            return
        i = len(sizes)
        while i > 0 and sizes[i - 1] < n:
            i -= 1
        self.best.insert(i, mask)
        sizes.insert(i, n)
        if len(sizes) > self.k:
            self.best.pop()
            sizes.pop()

    def result(self):
        return sorted(self.best)


def grow(fixed, loose, target, pure, budget, keep):
    """The distinct sets S of loose cards (masks over `loose`) such that all of `fixed`
    plus the cards S split into groups that each add up to target (S may be empty when
    fixed splits alone; with fixed empty they are the unions of disjoint groups of loose
    cards, the empty one included). `pure` lists the groups of loose cards alone
    (subsets_by_sum(loose, ...)[target]). `keep` (Found or Largest) collects them, and
    can stop the search. Returns keep.result(): ascending masks.
    """
    for v in fixed:
        if v > target:
            return []
    fx = sorted(fixed, reverse=True)
    _open(fx, [False] * len(fx), loose, target, pure, 0, 0, keep, budget)
    return keep.result()


def _open(fx, used, loose, target, pure, next_pure, taken, keep, budget):
    if budget[0] < 0 or keep.stop:
        return
    i = 0
    while i < len(fx) and used[i]:
        i += 1
    if i < len(fx):
        # A fixed card is still free: it opens a group with other free cards.
        used[i] = True
        _close(fx, used, loose, target, pure, i + 1, 0, target - fx[i], taken, keep, budget)
        used[i] = False
        return
    # Every fixed card is grouped: the loose cards taken so far are one answer.
    keep.add(taken)
    # More groups of loose cards alone, in the order of `pure` so each combination
    # of them is tried once.
    for p in range(next_pure, len(pure)):
        budget[0] -= 1
        if budget[0] < 0:
            return
        if not pure[p] & taken:
            _open(fx, used, loose, target, pure, p + 1, taken | pure[p], keep, budget)


def _close(fx, used, loose, target, pure, fstart, lstart, need, taken, keep, budget):
    if need == 0:
        _open(fx, used, loose, target, pure, 0, taken, keep, budget)
        return
    # Cards join a group in one order (fixed ones first, each list by index), so every
    # group is built once.
    for j in range(fstart, len(fx)):
        budget[0] -= 1
        if budget[0] < 0:
            return
        if used[j] or fx[j] > need:
            continue
        used[j] = True
        _close(fx, used, loose, target, pure, j + 1, lstart, need - fx[j], taken, keep, budget)
        used[j] = False
    for j in range(lstart, len(loose)):
        budget[0] -= 1
        if budget[0] < 0:
            return
        bit = 1 << j
        if taken & bit or loose[j] > need:
            continue
        _close(fx, used, loose, target, pure, len(fx), j + 1, need - loose[j], taken | bit, keep, budget)
