"""Listing the plays of the player to move: captures, builds and trails, within fixed bounds.

A crowded table has a great many distinct plays (a capture may take any union of
disjoint sets: fifteen loose cards gave 2,224 plays in one random game), more than a
Pico's heap holds and more than anyone reads. So the listing is bounded, counted in
steps and items, never in time, so both runtimes list the same plays:
  SUBSET_BUDGET  search steps for the sets of table cards worth each sum 1-13;
  MAX_SUBSETS    such sets kept (all sums together);
  SEARCH_BUDGET  search steps for combining them into plays;
  MAX_ACTIONS    captures and builds listed (the trails come on top).
A listing that fits is complete. One that does not is cut fairly: the plays are
sorted into buckets (the captures with one hand card; the builds of one value with
one hand card onto the table or onto one build), every bucket gets an equal share of
the search and of the list, and within a bucket the plays that use the most table
cards come first. Trails are always listed when allowed. apply() checks any play by
the rules themselves, listed or not. docs/anathema.md gives the measured figures.
"""

from engine.anathema_cards import CARD_IDS
from engine.anathema_groups import MASK_CARDS, Found, Largest, count, grow, members, subsets_by_sum, sum_of

SUBSET_BUDGET = 5000
MAX_SUBSETS = 300
SEARCH_BUDGET = 20000
MAX_ACTIONS = 120


def plays(state):
    """(actions, complete): the plays of state.turn, and whether that is all of them."""
    p = state.turn
    hand = sorted(state.hands[p])
    # The searches look at the first MASK_CARDS loose cards (a table never seen in play).
    lv = [c // 4 + 1 for c in state.table[:MASK_CARDS]]
    budget = [SUBSET_BUDGET]
    room = [MAX_SUBSETS]
    # No play needs a sum above the highest card in hand.
    by_sum = subsets_by_sum(lv, hand[-1] // 4 + 1, room, budget)
    complete = budget[0] >= 0 and room[0] > 0 and len(state.table) <= MASK_CARDS
    buckets = _buckets(state, hand, by_sum)
    budget = [SEARCH_BUDGET]
    found = _collect(state, buckets, lv, by_sum, budget, 0)
    if found is None or budget[0] < 0:
        complete = False
        share = MAX_ACTIONS // len(buckets)
        found = None  # free the first search before the second
        found = _collect(state, buckets, lv, by_sum, None, share if share > 0 else 1)
    # Only now the plays become action lists (the searches keep small tuples).
    acts = []
    for k, mask, builds in found:
        h, value, _b = buckets[k]
        items = [CARD_IDS[state.table[i]] for i in members(mask)]
        for b in builds:
            items.append(CARD_IDS[state.builds[b][0][0]])
        acts.append(["capture", CARD_IDS[h], items] if value == 0 else ["build", CARD_IDS[h], value, items])
    if not acts or not state.owns_build(p):
        for h in hand:
            acts.append(["trail", CARD_IDS[h]])
    return acts, complete


def has_capture_or_build(state):
    """Whether the player to move can capture or build (cheap when they can take a build)."""
    for h in state.hands[state.turn]:
        for b in state.builds:
            if b[1] == h // 4 + 1:
                return True
    acts = plays(state)[0]
    return bool(acts) and acts[0][0] != "trail"


def _buckets(state, hand, by_sum):
    """[(hand card, value, build index)] that may hold plays: value 0 means captures,
    build -1 a new build. Buckets that cannot hold any play are left out."""
    out = []
    builds = state.builds
    advanced = state.rules.advanced
    higher = state.rules.convert_higher
    for h in hand:
        a = h // 4 + 1
        if by_sum[a] or any(b[1] == a for b in builds):
            out.append((h, 0, -1))
        values = []
        for c in hand:
            v = c // 4 + 1
            if c != h and v not in values:
                values.append(v)
        values.sort()
        for v in values:
            # A multiple build needs a group of table cards alone worth v.
            if (v > a and by_sum[v - a]) or (advanced and by_sum[v]):
                out.append((h, v, -1))
            for k in range(len(builds)):
                w = builds[k][1]
                if builds[k][2]:
                    may = advanced and v == w
                else:
                    raising = v >= w + a and by_sum[v - w - a]
                    may = raising or (advanced and (v > w or (v == w and not higher)))
                if may:
                    out.append((h, v, k))
    return out


def _collect(state, buckets, lv, by_sum, budget, share):
    """[(bucket index, mask of loose cards, build indices)]. share 0: the plays of every bucket,
    all drawing on `budget`, or None when there are more than MAX_ACTIONS. Otherwise at
    most `share` plays per bucket, each bucket with an equal part of SEARCH_BUDGET."""
    acts = []
    for k in range(len(buckets)):
        h, value, b = buckets[k]
        if share:
            budget = [SEARCH_BUDGET // len(buckets)]
        limit = share or MAX_ACTIONS + 1 - len(acts)
        found = _candidates(state, h, value, b, lv, by_sum, budget, limit, share > 0)
        if share and len(found) > share:
            # Most table cards first, search order among equals (a total order: MicroPython's
            # sort is not stable); the ones kept stay in search order.
            ranked = sorted(range(len(found)), key=lambda j: j - _size(state, found[j]) * 65536)
            keep = sorted(ranked[:share])
            found = [found[j] for j in keep]
        for mask, builds in found:
            acts.append((k, mask, builds))
        if not share and (len(acts) > MAX_ACTIONS or budget[0] < 0):
            return None
    return acts


def _size(state, found):
    n = count(found[0])
    for b in found[1]:
        n += len(state.builds[b][0])
    return n


def _candidates(state, h, value, b, lv, by_sum, budget, limit, largest):
    """[(mask of loose cards, build indices)] of one bucket: with `largest` the searches keep
    the `limit` sets with the most cards, otherwise they stop after `limit` sets."""
    a = h // 4 + 1

    def keep():
        return Largest(limit) if largest else Found(limit)

    out = []
    if value == 0:
        # Captures: any union of disjoint sets worth a, with any of the builds worth a.
        build_sets = [()]
        for k in range(len(state.builds)):
            if state.builds[k][1] == a:
                build_sets = build_sets + [s + (k,) for s in build_sets]
        for s in grow([], lv, a, by_sum[a], budget, keep()):
            for bs in build_sets:
                if (s or bs) and (largest or len(out) < limit):
                    out.append((s, bs))
        return out
    advanced = state.rules.advanced
    if b < 0:
        # A new single build: the hand card on table cards adding up to value.
        if value > a:
            for s in by_sum[value - a]:
                out.append((s, ()))
        if advanced:
            # A new multiple build: two groups worth value or more.
            for s in grow([a], lv, value, by_sum[value], budget, keep()):
                if a + sum_of(lv, s) > value:
                    out.append((s, ()))
        return out
    cards, w, multiple, _last = state.builds[b]
    fixed = [c // 4 + 1 for c in cards] + [a]
    if multiple:
        # Adding to a multiple build: its value stays.
        if advanced and value == w:
            for s in grow(fixed, lv, value, by_sum[value], budget, keep()):
                out.append((s, (b,)))
        return out
    if value >= w + a:
        # Raising a single build: everything added counts towards the new value.
        for s in by_sum[value - w - a]:
            out.append((s, (b,)))
    if advanced and value >= w:
        # Turning it into a multiple build, its cards regrouped with the new ones (a value
        # equal to the single build's comes here only when the rules allow it: _buckets).
        for s in grow(fixed, lv, value, by_sum[value], budget, keep()):
            if w + a + sum_of(lv, s) > value:
                out.append((s, (b,)))
    return out
