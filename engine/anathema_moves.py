"""Listing the plays of the player to move: captures, builds and trails, within fixed bounds.

A crowded table has a great many distinct plays (a capture may take any union of
disjoint sets: fifteen loose cards gave 2,224 plays in one random game), more than a
Pico's heap holds and more than anyone reads. So the listing is bounded three ways,
all counted in steps and items, never in time, so both runtimes list the same plays:
  SEARCH_BUDGET  search steps one listing may spend;
  MAX_GROUPS     subsets of table cards kept for each sum 1-13;
  MAX_ACTIONS    plays listed.
A listing that fits is complete. One that does not is cut fairly: the plays are
sorted into buckets (the captures with one hand card; the builds of one value with
one hand card onto the table or onto one build), every bucket gets an equal share,
and within a bucket the plays that use the most table cards come first. Trails are
always listed when allowed. apply() checks any play by the rules themselves, listed
or not. docs/anathema.md gives the measured figures.
"""

from engine.anathema_cards import CARD_IDS
from engine.anathema_groups import grow, subsets_by_sum, sum_of

SEARCH_BUDGET = 20000
MAX_GROUPS = 64
MAX_ACTIONS = 200
# In a cut listing a bucket looks at this many times its share before it keeps the best.
LOOK_AHEAD = 4


def plays(state):
    """(actions, complete): the plays of state.turn, and whether that is all of them."""
    p = state.turn
    hand = sorted(state.hands[p])
    lv = [c // 4 + 1 for c in state.table]
    budget = [SEARCH_BUDGET]
    # No play needs a sum above the highest card in hand.
    by_sum = subsets_by_sum(lv, hand[-1] // 4 + 1, MAX_GROUPS, budget)
    complete = True
    for subsets in by_sum:
        if len(subsets) >= MAX_GROUPS:
            complete = False
    buckets = _buckets(state, hand, by_sum)
    acts = _collect(state, buckets, lv, by_sum, budget, 0)
    if acts is None:
        complete = False
        share = (MAX_ACTIONS - len(hand)) // len(buckets)
        acts = _collect(state, buckets, lv, by_sum, [SEARCH_BUDGET], share if share > 0 else 1)
    elif budget[0] < 0:
        complete = False
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
    """The plays of every bucket, or None when there are more than MAX_ACTIONS (share 0);
    with a share, at most that many per bucket."""
    acts = []
    for h, value, b in buckets:
        limit = share * LOOK_AHEAD if share else MAX_ACTIONS + 1 - len(acts)
        found = _candidates(state, h, value, b, lv, by_sum, budget, limit)
        if share and len(found) > share:
            # Most table cards first; the sort is stable, so search order breaks ties.
            ranked = sorted(found, key=lambda f: -_size(state, f))
            found = [f for f in found if f in ranked[:share]]
        hid = CARD_IDS[h]
        for idx, builds in found:
            items = [CARD_IDS[state.table[i]] for i in idx]
            for k in builds:
                items.append(CARD_IDS[state.builds[k][0][0]])
            acts.append(["capture", hid, items] if value == 0 else ["build", hid, value, items])
        if not share and len(acts) > MAX_ACTIONS:
            return None
    return acts


def _size(state, found):
    n = len(found[0])
    for b in found[1]:
        n += len(state.builds[b][0])
    return n


def _candidates(state, h, value, b, lv, by_sum, budget, limit):
    """[(loose indices, build indices)] of one bucket, at most about `limit`."""
    a = h // 4 + 1
    out = []
    if value == 0:
        # Captures: any union of disjoint sets worth a, with any of the builds worth a.
        build_sets = [()]
        for k in range(len(state.builds)):
            if state.builds[k][1] == a:
                build_sets = build_sets + [s + (k,) for s in build_sets]
        for s in grow([], lv, a, by_sum[a], budget, limit):
            for bs in build_sets:
                if (s or bs) and len(out) < limit:
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
            for s in grow([a], lv, value, by_sum[value], budget, limit):
                if a + sum_of(lv, s) > value:
                    out.append((s, ()))
        return out
    cards, w, multiple, _last = state.builds[b]
    fixed = [c // 4 + 1 for c in cards] + [a]
    if multiple:
        # Adding to a multiple build: its value stays.
        if advanced and value == w:
            for s in grow(fixed, lv, value, by_sum[value], budget, limit):
                out.append((s, (b,)))
        return out
    if value >= w + a:
        # Raising a single build: everything added counts towards the new value.
        for s in by_sum[value - w - a]:
            out.append((s, (b,)))
    if advanced and (value > w or (value == w and not state.rules.convert_higher)):
        # Turning it into a multiple build, its cards regrouped with the new ones.
        for s in grow(fixed, lv, value, by_sum[value], budget, limit):
            if w + a + sum_of(lv, s) > value:
                out.append((s, (b,)))
    return out
