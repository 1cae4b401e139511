"""The face-off arbiter: who pressed first, ties, lockout, tie-breakers, undo.

A pure state machine over debounced press events (player, tick); no hardware, and
press(), release() and poll() allocate nothing (preallocated lists, small ints).

    ARMED --press--> DECIDING --poll(now >= first + window)--> LOCKOUT --poll(now >=
    first + lockout)--> ARMED (again at once: cascading face-offs)

- Order is by timestamp only, never by arrival: a press delivered late but stamped
  earlier becomes the first. The decision waits in DECIDING until now - first >=
  tie_window_us, because until then another press may still tie.
- Tie: every press with press - first <= tie_window_us ties with the first (the
  boundary W itself ties; W = 0 ties only presses in the same sample). Two or more
  such presses -> TIE, else WIN for the first.
- Lockout: until first + max(lockout_us, tie_window_us), presses of eligible players are
  ranked (2nd, 3rd ... with their gap to the first) for the record; they change nothing.
  A press stamped after the lockout starts the next face-off, even before poll() saw
  the lockout end.
- After a TIE the next face-off is a tie-breaker: only the tied players are eligible
  (others' presses are counted in excluded_presses). Its WIN is a normal WIN and lifts
  the restriction; another TIE narrows it again.
- A press is a down edge: a player still holding the button from before the re-arm makes
  no new press, so it cannot count. Ignored players (held at boot, stuck: set_ignored)
  are refused and counted.

Contract for poll(now): every press stamped at or before now has been fed (read the
clock before draining the capture ring, then feed, then poll with that reading).
Call poll() until it returns NONE: it reports one event per call (DONE before the next
decision when both are due).
"""

from firmware.buttons import SEATS
from firmware.ticks import TICKS_HALF, TICKS_MASK, ticks_add, ticks_diff

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# poll() results (also .code for WIN / TIE)
NONE = const(0)
WIN = const(1)
TIE = const(2)
DONE = const(3)  # the lockout of the last decision is over: its record is complete

# .state
ARMED = const(0)
DECIDING = const(1)
LOCKOUT = const(2)


class Arbiter:
    """Decision fields (valid from a WIN/TIE until the next decision):

    code (WIN / TIE / NONE after undo), winner (0-based, -1 on a tie), tied (players in
    press order, n_tied of them), tied_mask, gap_us (2nd press - 1st, -1 if nobody else
    pressed), first_tick, ranked / rank_gap (every counted press in time order with its
    gap to the first, n_ranked of them; grows during the lockout), decided_round (0 = a
    normal face-off, k = the k-th tie-breaker in a row).
    """

    def __init__(self, n_players, tie_window_us=1000, lockout_us=800000):
        if not 0 <= tie_window_us < (1 << 28) or not 0 <= lockout_us < (1 << 28):
            raise ValueError("tie_window_us and lockout_us must be 0 .. 2**28 - 1")
        self.tie_window_us = tie_window_us
        self.lockout_us = lockout_us
        self._lockout = max(lockout_us, tie_window_us)
        # the face-off being decided
        self._ticks = [0] * SEATS
        self._pressed = 0
        self._first = 0
        # the face-off's only press so far, while deciding: its decision is known but for the
        # window (a mode may show it the moment the window ends, Leds.ahead); -1 otherwise
        self.lone = -1
        # the decision
        self.code = NONE
        self.winner = -1
        self.tied = [0] * SEATS
        self.n_tied = 0
        self.tied_mask = 0
        self.gap_us = -1
        self.first_tick = 0
        self.ranked = [0] * SEATS
        self.rank_gap = [0] * SEATS
        self.n_ranked = 0
        self.decided_round = 0
        self._decided_eligible = 0
        self._tiebreak_next = False  # the lockout in progress ends in a tie-breaker
        # counters (for the record and the UI)
        self.excluded_presses = 0  # not eligible (tie-breaker, restrict)
        self.ignored_presses = 0  # ignored players (held at boot, stuck)
        self.repeat_presses = 0  # a player's second press in one face-off
        self.late_presses = 0  # delivered after the decision although stamped within the window
        self.held_mask = 0
        self.ignored_mask = 0
        self.n_players = 0
        self.set_players(n_players)

    # -- configuration (not hot) --

    def set_players(self, n):
        if not 1 <= n <= SEATS:
            raise ValueError("players must be 1..%d" % SEATS)
        self.n_players = n
        self.base_mask = (1 << n) - 1
        self.reset()

    def reset(self):
        """Forget the face-off in progress, any tie-breaker and the undo; re-arm for everyone."""
        self.state = ARMED
        self._pressed = 0
        self.lone = -1
        self.eligible = self.base_mask
        self.round = 0
        self.code = NONE
        self._tiebreak_next = False
        self.done_pending = False
        self._undo_ok = False

    def restrict(self, mask):
        """Only these players may take part from now on (e.g. the two whose symbols match).

        Cancels a tie-breaker and drops an undecided face-off; a lockout runs to its end.
        """
        mask &= (1 << self.n_players) - 1
        self.base_mask = mask
        self.eligible = mask
        self.round = 0
        self._tiebreak_next = False
        if self.state == DECIDING:
            self.state = ARMED
            self._pressed = 0
            self.lone = -1

    def resume_tiebreak(self, mask):
        """Re-open a pending tie-breaker among the players in mask (a game resumed after a
        reset): armed, only they are eligible, and its WIN lifts the restriction."""
        self.reset()
        self.eligible = mask & self.base_mask
        self.round = 1

    def set_ignored(self, mask):
        """Players whose presses are refused (the debouncer's held-at-boot | stuck)."""
        self.ignored_mask = mask & ((1 << SEATS) - 1)  # the player seats' bits only

    # -- hot path --

    def press(self, player, t):
        """A debounced press of player (0-based) stamped t. True if it counts."""
        bit = 1 << player
        self.held_mask |= bit
        t &= TICKS_MASK
        if self.state == LOCKOUT:
            if ticks_diff(t, self.first_tick) < self._lockout:
                return self._rank(player, bit, t)
            self._rearm()  # this press belongs to the next face-off
        if not self.eligible & bit or (self.ignored_mask | self._pressed) & bit:
            return self._accepts(bit, self.eligible)  # refused: counted by its reason
        self._ticks[player] = t
        self._pressed |= bit
        if self.state == ARMED:
            self.state = DECIDING
            self._first = t
            self.lone = player
            return True
        self.lone = -1
        if ticks_diff(t, self._first) < 0:
            self._first = t  # arrived late, pressed earlier
        return True

    def release(self, player, t):
        """A debounced release: only held_mask changes (a held button is never a press)."""
        self.held_mask &= ~(1 << player)

    def poll(self, now):
        """NONE, WIN / TIE (a decision was just made) or DONE (the lockout just ended)."""
        if self.done_pending:
            self.done_pending = False
            return DONE
        if self.state == DECIDING:
            # ticks_diff(now, first) >= window, without its Python frame: a decision's pass
            d = (now - self._first) & TICKS_MASK
            if self.tie_window_us <= d < TICKS_HALF:
                return self._decide()
        elif self.state == LOCKOUT:
            if ticks_diff(now & TICKS_MASK, self.first_tick) >= self._lockout:
                self._rearm()
                self.done_pending = False
                return DONE
        return NONE

    def due(self):
        """The tick at which poll() next has something to report (a decision, a lockout's
        end), or -1 while armed: the caller may sleep until then."""
        # ticks_add, not (a + b) & TICKS_MASK: the sum of a tick near the wrap and a window
        # is past a 32-bit port's small ints, and this is asked after every input pass
        if self.done_pending or self.state == LOCKOUT:
            return ticks_add(self.first_tick, self._lockout)
        if self.state == DECIDING:
            return ticks_add(self._first, self.tie_window_us)
        return -1

    def undo(self):
        """Take back the last decision; True if there was one. The caller reverts scores.

        The arbiter re-arms for the face-off that decision came from, with the eligibility
        it had: undoing a tie-breaker's WIN replays that tie-breaker among the same tied
        players; undoing a TIE (also while its tie-breaker is armed or under way) forgets
        the tie, so the original face-off is replayed by everyone who was eligible for it.
        Presses of a face-off in progress are dropped. One level only: a second undo
        returns False until the next decision. The decision fields other than code keep
        their values, so the caller can still read what was undone.
        """
        if not self._undo_ok:
            return False
        self._undo_ok = False
        self.state = ARMED
        self._pressed = 0
        self.lone = -1
        self.done_pending = False
        self.eligible = self._decided_eligible  # what the undone decision's face-off had
        self.round = self.decided_round
        self._tiebreak_next = False
        self.code = NONE
        return True

    # -- helpers (small frames: see firmware/buttons.py) --

    def _accepts(self, bit, eligible):
        if not eligible & bit:
            self.excluded_presses += 1
            return False
        if self.ignored_mask & bit:
            self.ignored_presses += 1
            return False
        if self._pressed & bit:
            self.repeat_presses += 1
            return False
        return True

    def _decide(self):
        first = self._first
        p = self.lone
        if p < 0:
            self._rank_all(first, self._pressed)
        else:
            # One player pressed, the usual face-off: what _rank_all finds, without its loops
            # and calls (a call less on the path to the winner's LED, too)
            self.ranked[0] = self.tied[0] = p
            self.rank_gap[0] = 0
            self.n_ranked = self.n_tied = 1
            self.tied_mask = 1 << p
        self.first_tick = first
        self.gap_us = self.rank_gap[1] if self.n_ranked > 1 else -1
        if self.n_tied > 1:
            self.code = TIE
            self.winner = -1
        else:
            self.code = WIN
            self.winner = self.ranked[0]
        self.decided_round = self.round
        self._decided_eligible = self.eligible
        self._tiebreak_next = self.code == TIE
        self._undo_ok = True
        self.state = LOCKOUT
        return self.code

    def _rank_all(self, first, pressed):
        """Every press of the face-off ranked, and the ties with the first found."""
        self.n_ranked = 0
        i = 0
        while pressed:
            if pressed & 1:
                # the gap in the ticks domain without ticks_diff's frame: first is the earliest
                self._insert(i, (self._ticks[i] - first) & TICKS_MASK)
            pressed >>= 1
            i += 1
        self._find_ties()

    def _find_ties(self):
        window = self.tie_window_us
        n = 0
        mask = 0
        while n < self.n_ranked and self.rank_gap[n] <= window:
            self.tied[n] = self.ranked[n]
            mask |= 1 << self.ranked[n]
            n += 1
        self.n_tied = n
        self.tied_mask = mask

    def _insert(self, player, gap):
        """Into ranked / rank_gap, keeping time order (equal gaps: arrival order)."""
        players = self.ranked
        gaps = self.rank_gap
        i = self.n_ranked
        while i > 0 and gaps[i - 1] > gap:
            players[i] = players[i - 1]
            gaps[i] = gaps[i - 1]
            i -= 1
        players[i] = player
        gaps[i] = gap
        self.n_ranked += 1

    def _rank(self, player, bit, t):
        """A press during the lockout: ranked for the record, the decision stands."""
        if not self._accepts(bit, self._decided_eligible):
            return False
        gap = ticks_diff(t, self.first_tick)
        if gap <= self.tie_window_us:
            self.late_presses += 1  # should have been fed before the deciding poll()
            if gap < 0:
                return False  # cannot rank before the winner
        self._pressed |= bit
        self._insert(player, gap)
        self.gap_us = self.rank_gap[1]
        return True

    def _rearm(self):
        """Lockout over: the next face-off is open (a tie-breaker after a TIE)."""
        self.state = ARMED
        self._pressed = 0
        self.lone = -1
        if self._tiebreak_next:
            self._tiebreak_next = False
            self.eligible = self.tied_mask
            self.round = self.decided_round + 1
        else:
            self.eligible = self.base_mask
            self.round = 0
        self.done_pending = True


def faceoff_record(arb):
    """The journal's `faceoff` detail of the last decision (docs/records.md). Allocates:
    call it outside the hot path, after poll() returned DONE (or WIN / TIE for a record
    without the lockout's late presses)."""
    if arb.code == NONE:
        raise ValueError("no decision to record")
    first = arb.first_tick
    presses = []
    for i in range(arb.n_ranked):
        presses.append([arb.ranked[i], (first + arb.rank_gap[i]) & TICKS_MASK, i + 1])
    return {
        "first_us": first,
        "presses": presses,
        "gap_us": arb.gap_us if arb.gap_us >= 0 else None,
        "tie": arb.code == TIE,
        "tiebreak": arb.decided_round > 0,
        "window_us": arb.tie_window_us,
    }
