"""Grouping card values into sets of one value: the arithmetic behind captures and builds.

Pure functions over lists of card numbers (ints 1-13); indices refer to those lists.
A "group" is a set of cards whose numbers add up to the target value.

The searches that list moves (subsets_by_sum, grow) can meet many combinations on a crowded
table, so each one spends from a step budget, a one-element list [steps left] shared
by every search of one legal_actions() call. When it runs out the search stops, and
the caller learns it from budget[0] < 0. Checking one given move (can_split) needs no
budget: it looks at the few cards the move names.
"""


def can_split(values, target):
    """True when `values` (non-empty) split exactly into groups that each add up to target."""
    return _split(values, target, None)


def split(values, target):
    """One way to split `values` into groups adding up to target, as lists of indices
    into values (largest cards first), or None. For showing a move to a person."""
    groups = []
    order = sorted(range(len(values)), key=lambda i: -values[i])
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


def subsets_by_sum(values, top, cap, budget):
    """by_sum[t] for t in 0..top: the subsets of indices into values adding up to t, as
    tuples of ascending indices (by_sum[0] is [()]), at most `cap` for each t. One
    search serves every capture and build of a turn, since they all draw on one table."""
    by_sum = [[] for _ in range(top + 1)]
    by_sum[0].append(())
    order = sorted(range(len(values)), key=lambda i: values[i])
    _sums(values, order, 0, top, 0, [], by_sum, cap, budget)
    return by_sum


def _sums(values, order, start, top, total, chosen, by_sum, cap, budget):
    for k in range(start, len(order)):
        budget[0] -= 1
        if budget[0] < 0:
            return
        i = order[k]
        v = values[i]
        if total + v > top:
            return  # order is by value: every later card is too big as well
        chosen.append(i)
        if len(by_sum[total + v]) < cap:
            by_sum[total + v].append(tuple(sorted(chosen)))
        _sums(values, order, k + 1, top, total + v, chosen, by_sum, cap, budget)
        chosen.pop()


def sum_of(values, idx):
    t = 0
    for i in idx:
        t += values[i]
    return t


def grow(fixed, loose, target, pure, budget, limit):
    """Every distinct set S of indices into `loose` such that all of `fixed` plus the
    cards S split into groups that each add up to target (S may be empty when fixed
    splits alone, and when fixed is empty: then the result lists every union of
    disjoint groups of loose cards, the empty one included). `pure` lists the groups of
    loose cards alone (subsets_by_sum(loose, ...)[target]). The search stops once it
    has found `limit` sets.

    Returns sorted tuples of ascending indices, in ascending order.
    """
    for v in fixed:
        if v > target:
            return []
    items = sorted(fixed, reverse=True) + list(loose)
    nf = len(fixed)
    found = set()
    used = [False] * len(items)
    _open(items, nf, used, target, pure, 0, found, limit, budget)
    return sorted(found)


def _open(items, nf, used, target, pure, next_pure, found, limit, budget):
    if budget[0] < 0 or len(found) >= limit:
        return
    i = 0
    while i < nf and used[i]:
        i += 1
    if i < nf:
        # A fixed card is still free: it opens a group with other free cards.
        used[i] = True
        _close(items, nf, used, target, pure, i + 1, target - items[i], found, limit, budget)
        used[i] = False
        return
    # Every fixed card is grouped: the loose cards used so far are one answer.
    found.add(tuple([k - nf for k in range(nf, len(items)) if used[k]]))
    # More groups of loose cards alone, in the order of `pure` so each combination
    # of them is tried once.
    for p in range(next_pure, len(pure)):
        budget[0] -= 1
        if budget[0] < 0:
            return
        group = pure[p]
        free = True
        for k in group:
            if used[nf + k]:
                free = False
                break
        if free:
            for k in group:
                used[nf + k] = True
            _open(items, nf, used, target, pure, p + 1, found, limit, budget)
            for k in group:
                used[nf + k] = False


def _close(items, nf, used, target, pure, start, need, found, limit, budget):
    if need == 0:
        _open(items, nf, used, target, pure, 0, found, limit, budget)
        return
    for j in range(start, len(items)):
        budget[0] -= 1
        if budget[0] < 0:
            return
        v = items[j]
        if used[j] or v > need:
            continue
        used[j] = True
        _close(items, nf, used, target, pure, j + 1, need - v, found, limit, budget)
        used[j] = False

