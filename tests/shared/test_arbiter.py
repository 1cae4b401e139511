"""The face-off arbiter: first press, tie window edges, lockout, cascades, tie-breakers, undo."""

import json

from engine.rng import Rng
from firmware.arbiter import (
    ARMED,
    DECIDING,
    DONE,
    LOCKOUT,
    NONE,
    TIE,
    WIN,
    Arbiter,
    faceoff_record,
)
from firmware.ticks import TICKS_MASK, ticks_add
from tests.shared.compat import assert_alloc_free, raises
from tests.shared.input_chain import Chain
from tests.shared.test_buttons import bounce_edges, snapshots

W = 1000
LOCK = 800000


def decide(arb, presses, now):
    """Feed [(player, tick)], poll at now; returns the poll result."""
    for p, t in presses:
        arb.press(p, t)
    return arb.poll(now)


def tied(arb):
    return [arb.tied[i] for i in range(arb.n_tied)]


def ranks(arb):
    return [(arb.ranked[i], arb.rank_gap[i]) for i in range(arb.n_ranked)]


def test_single_press_wins_once_the_window_has_passed():
    arb = Arbiter(4)
    assert arb.press(2, 5000) and arb.state == DECIDING
    assert arb.poll(5000 + W - 1) == NONE  # another press could still tie
    assert arb.poll(5000 + W) == WIN
    assert (arb.winner, arb.gap_us, arb.first_tick, arb.n_tied) == (2, -1, 5000, 1)
    assert arb.state == LOCKOUT


def test_lone_names_the_only_press_while_deciding():
    arb = Arbiter(4)
    assert arb.lone == -1
    arb.press(2, 5000)
    assert arb.lone == 2  # WIN for seat 2 unless another press comes within the window
    arb.press(1, 5000 + W)  # a tie in the making
    assert arb.lone == -1 and arb.poll(5000 + W) == TIE
    arb.poll(5000 + LOCK)  # the lockout's end
    arb.press(0, 5000 + LOCK + 10)  # a tie-breaker's press by a player not in it: refused
    assert arb.lone == -1 and arb.state == ARMED
    arb.press(1, 5000 + LOCK + 20)
    assert arb.lone == 1
    assert arb.press(1, 5000 + LOCK + 30) is not None and arb.lone == 1  # the same seat again
    # each way a face-off in progress is dropped forgets it
    for drop in (lambda a: a.reset(), lambda a: a.restrict(0b11)):
        arb = Arbiter(4)
        arb.press(0, 100)
        drop(arb)
        assert arb.lone == -1 and arb.state == ARMED
    arb = Arbiter(4)
    arb.press(3, 100)
    assert arb.poll(100 + W) == WIN and arb.undo()
    assert arb.lone == -1
    arb.press(2, 200)  # the face-off undone is open again
    assert arb.lone == 2


def test_a_press_alone_is_ranked_and_tied_alone_for_every_seat():
    for p in range(8):
        arb = Arbiter(8)
        assert decide(arb, [(p, 7000)], 7000 + W) == WIN
        assert (arb.winner, arb.tied_mask, tied(arb), ranks(arb)) == (p, 1 << p, [p], [(p, 0)])
        other = (p + 3) % 8
        arb.press(other, 7000 + 2 * W)  # ranked after it during the lockout
        assert ranks(arb) == [(p, 0), (other, 2 * W)] and arb.gap_us == 2 * W
    arb = Arbiter(8)  # the same fields as a face-off that ranks two presses leaves for the first
    assert decide(arb, [(5, 100), (6, 100 + W + 1)], 100 + 2 * W) == WIN
    assert decide(arb, [(4, 100 + LOCK + 10)], 100 + LOCK + 10 + W) == DONE
    assert arb.poll(100 + LOCK + 10 + W) == WIN
    assert (arb.winner, arb.n_tied, tied(arb), ranks(arb), arb.gap_us) == (4, 1, [4], [(4, 0)], -1)


def test_due_is_the_window_end_then_the_lockout_end():
    arb = Arbiter(4, W, LOCK)
    assert arb.due() == -1  # armed: nothing to wait for
    t = TICKS_MASK - 300  # the window's end wraps
    arb.press(1, t)
    arb.press(2, ticks_add(t, 200))
    assert arb.due() == ticks_add(t, W)
    assert arb.poll(ticks_add(t, W - 1)) == NONE
    assert arb.poll(arb.due()) == TIE
    assert arb.due() == ticks_add(t, LOCK)
    assert arb.poll(ticks_add(t, LOCK - 1)) == NONE and arb.poll(arb.due()) == DONE
    assert arb.due() == -1
    # a press stamped after the lockout re-arms at once: the DONE still to report is due
    arb = Arbiter(4, W, LOCK)
    assert decide(arb, [(0, 5000)], 5000 + W) == WIN
    arb.press(3, 5000 + LOCK + 10)
    assert arb.due() == 5000 + LOCK and arb.poll(arb.due()) == DONE
    assert arb.due() == 5000 + LOCK + 10 + W


def test_tie_window_edges():
    # gap W - 1 and W tie (the boundary is inclusive), W + 1 does not
    for gap, code in ((W - 1, TIE), (W, TIE), (W + 1, WIN)):
        arb = Arbiter(4, tie_window_us=W)
        assert decide(arb, [(0, 10000), (3, 10000 + gap)], 10000 + max(gap, W)) == code, gap
        assert arb.gap_us == gap
        if code == TIE:
            assert tied(arb) == [0, 3] and arb.tied_mask == 0b1001 and arb.winner == -1
        else:
            assert arb.winner == 0 and ranks(arb) == [(0, 0), (3, gap)]


def test_window_zero_decides_at_once_and_ties_only_the_same_sample():
    arb = Arbiter(4, tie_window_us=0)
    assert decide(arb, [(1, 700), (2, 700)], 700) == TIE
    arb = Arbiter(4, tie_window_us=0)
    assert decide(arb, [(1, 700), (2, 701)], 701) == WIN and arb.winner == 1 and arb.gap_us == 1
    arb = Arbiter(4, tie_window_us=0)
    arb.press(3, 900)
    assert arb.poll(900) == WIN  # no window to wait for


def test_order_is_by_timestamp_not_by_arrival():
    # delivered in reverse order within the window: the earlier stamp is first
    arb = Arbiter(4, tie_window_us=100)
    assert decide(arb, [(2, 20500), (1, 20000)], 20500) == WIN
    assert arb.winner == 1 and arb.gap_us == 500 and arb.first_tick == 20000
    arb = Arbiter(4, tie_window_us=W)
    assert decide(arb, [(2, 20500), (1, 20000)], 21000) == TIE and tied(arb) == [1, 2]
    # many players, shuffled arrival
    rng = Rng(99)
    for _ in range(30):
        stamps = [100000 + rng.below(5000) for _ in range(6)]
        order = rng.shuffle(list(range(6)))
        arb = Arbiter(6, tie_window_us=200)
        for p in order:
            arb.press(p, stamps[p])
        first = min(stamps)
        code = arb.poll(first + 200)
        want = sorted(p for p in range(6) if stamps[p] - first <= 200)
        assert arb.first_tick == first
        if len(want) > 1:
            assert code == TIE and sorted(tied(arb)) == want
        else:
            assert code == WIN and arb.winner == want[0]
        assert [g for _, g in ranks(arb)] == sorted(s - first for s in stamps)


def test_a_third_press_can_still_join_the_window():
    arb = Arbiter(4)
    arb.press(0, 0)
    arb.press(1, 400)
    assert arb.poll(600) == NONE  # two presses 400 us apart, but the window is still open
    arb.press(2, 950)
    assert arb.poll(1000) == TIE and tied(arb) == [0, 1, 2]
    # the second press outside the window, a third (arriving later) inside it
    arb = Arbiter(4)
    assert decide(arb, [(0, 0), (1, 1500), (2, 900)], 1500) == TIE
    assert tied(arb) == [0, 2] and arb.gap_us == 900 and ranks(arb) == [(0, 0), (2, 900), (1, 1500)]


def test_lockout_ranks_later_presses_then_rearms():
    arb = Arbiter(4)
    assert decide(arb, [(3, 1000)], 2000) == WIN and arb.gap_us == -1
    assert arb.press(0, 1000 + 250000)
    assert not arb.press(3, 1000 + 300000)  # the winner again: not a new rank
    assert arb.press(1, 1000 + 600000)
    assert arb.repeat_presses == 1
    assert arb.poll(1000 + LOCK - 1) == NONE
    assert ranks(arb) == [(3, 0), (0, 250000), (1, 600000)] and arb.gap_us == 250000
    assert arb.code == WIN and arb.winner == 3  # ranking changed nothing
    assert arb.poll(1000 + LOCK) == DONE and arb.state == ARMED
    assert arb.poll(1000 + LOCK + 5) == NONE
    # the decision stays readable until the next one
    assert arb.winner == 3 and arb.n_ranked == 3


def test_cascade_next_faceoff_is_decided_on_its_own():
    arb = Arbiter(6)
    assert decide(arb, [(0, 0), (4, 3000)], 1000) == WIN and arb.winner == 0
    assert arb.poll(LOCK) == DONE
    # a new match on the table: the next face-off, the old presses play no part
    assert decide(arb, [(4, 900000), (0, 900300)], 901300) == TIE and tied(arb) == [4, 0]
    assert arb.first_tick == 900000 and arb.decided_round == 0


def test_press_after_the_lockout_starts_the_next_faceoff_before_poll():
    arb = Arbiter(4)
    assert decide(arb, [(1, 0)], W) == WIN
    arb.press(2, 200000)  # ranked in the lockout
    arb.press(3, LOCK + 10)  # stamped after the lockout: belongs to the next face-off
    assert arb.state == DECIDING
    assert arb.poll(LOCK + 10 + W) == DONE  # the old face-off is reported first, intact
    assert arb.winner == 1 and ranks(arb) == [(1, 0), (2, 200000)]
    assert faceoff_record(arb)["presses"] == [[1, 0, 1], [2, 200000, 2]]
    assert arb.poll(LOCK + 10 + W) == WIN and arb.winner == 3 and arb.first_tick == LOCK + 10


def test_tie_breaker_is_restricted_to_the_tied_players():
    arb = Arbiter(4)
    assert decide(arb, [(1, 0), (3, 500)], W) == TIE and arb.decided_round == 0
    assert arb.poll(LOCK) == DONE
    assert arb.eligible == 0b1010 and arb.round == 1
    assert not arb.press(0, 2000000)  # not in the tie: ignored and counted
    assert not arb.press(2, 2000010)
    assert arb.excluded_presses == 2 and arb.state == ARMED
    assert decide(arb, [(3, 2000100), (1, 2005000)], 2001100) == WIN
    assert arb.winner == 3 and arb.decided_round == 1
    assert faceoff_record(arb)["tiebreak"] is True
    assert arb.poll(2000100 + LOCK) == DONE
    assert arb.eligible == 0b1111 and arb.round == 0  # a normal face-off again


def test_a_tie_in_the_tie_breaker_narrows_it_again():
    arb = Arbiter(5)
    assert decide(arb, [(0, 0), (2, 10), (4, 20)], W) == TIE
    arb.poll(LOCK)
    assert decide(arb, [(2, 1000000), (4, 1000000)], 1001000) == TIE
    assert arb.decided_round == 1 and tied(arb) == [2, 4]
    arb.poll(1000000 + LOCK)
    assert arb.eligible == 0b10100 and arb.round == 2
    assert decide(arb, [(0, 2000000), (4, 2000003)], 2001003) == WIN
    assert arb.winner == 4 and arb.excluded_presses == 1


def test_undo_a_win_rearms_for_the_same_faceoff():
    arb = Arbiter(4)
    decide(arb, [(2, 0), (1, 4000)], W)
    assert arb.undo() and arb.state == ARMED and arb.code == NONE
    assert arb.winner == 2  # still readable: the caller reverts that score
    assert not arb.undo()  # one level only
    assert decide(arb, [(1, 50000)], 51000) == WIN and arb.winner == 1
    assert raises(ValueError, faceoff_record, Arbiter(2))


def test_undo_during_the_lockout_drops_its_presses():
    arb = Arbiter(4)
    decide(arb, [(0, 0)], W)
    arb.press(1, 5000)
    assert arb.undo() and arb.state == ARMED
    assert arb.poll(LOCK) == NONE  # no DONE for an undone decision
    assert decide(arb, [(1, 10000)], 11000) == WIN and arb.winner == 1


def test_undo_in_tie_breakers():
    arb = Arbiter(4)
    decide(arb, [(0, 0), (1, 300)], W)
    arb.poll(LOCK)
    # the tie-breaker is armed; undoing the TIE forgets it: everyone may play again
    assert arb.undo() and arb.eligible == 0b1111 and arb.round == 0
    decide(arb, [(0, 1000000), (1, 1000300)], 1001000)
    arb.poll(1000000 + LOCK)
    assert decide(arb, [(1, 2000000)], 2001000) == WIN and arb.decided_round == 1
    # undoing the tie-breaker's WIN replays the tie-breaker among the same players
    assert arb.undo() and arb.eligible == 0b11 and arb.round == 1
    assert not arb.press(3, 2100000)
    assert decide(arb, [(0, 2100010)], 2101010) == WIN and arb.decided_round == 1


def test_ignored_players_are_refused_and_counted():
    arb = Arbiter(4)
    arb.set_ignored(0b0100)  # e.g. debouncer.ignored(): player 3 stuck
    assert not arb.press(2, 0)
    assert arb.ignored_presses == 1 and arb.state == ARMED
    assert decide(arb, [(1, 500)], 1500) == WIN and arb.winner == 1


def test_restrict_and_set_players():
    arb = Arbiter(8)
    arb.restrict(0b0000_0110)  # the two players whose symbols match
    assert not arb.press(0, 0) and arb.press(2, 10) and arb.press(1, 20)
    assert arb.poll(1010) == TIE
    arb.restrict(0b1)  # during the lockout: no tie-breaker follows, player 1 only from re-arm
    assert arb.poll(LOCK + 10) == DONE and arb.eligible == 0b1 and arb.round == 0
    arb.set_players(3)
    assert arb.eligible == 0b111 and arb.state == ARMED
    assert not arb.press(5, 0) and arb.excluded_presses == 2
    assert raises(ValueError, arb.set_players, 9)
    assert raises(ValueError, Arbiter, 0)
    assert raises(ValueError, Arbiter, 4, -1)


def test_lockout_shorter_than_the_window():
    arb = Arbiter(4, tie_window_us=5000, lockout_us=0)
    assert decide(arb, [(0, 0), (1, 4000)], 5000) == TIE
    assert arb.poll(5000) == DONE  # the lockout ends with the window
    assert arb.round == 1


def test_late_delivered_press_does_not_change_the_decision():
    arb = Arbiter(4)
    decide(arb, [(0, 0)], W)
    assert arb.press(1, 700)  # stamped inside the window but fed after the decision
    assert arb.code == WIN and arb.winner == 0 and arb.late_presses == 1
    assert not arb.press(2, ticks_add(0, -5))  # before the winner: not ranked
    assert arb.late_presses == 2 and ranks(arb) == [(0, 0), (1, 700)]


def test_tick_wraparound_inside_a_faceoff():
    first = TICKS_MASK - 299  # 300 us before the wrap
    second = ticks_add(first, 500)  # 200 after it
    assert second == 200
    arb = Arbiter(4, tie_window_us=W)
    assert arb.press(2, second) and arb.press(0, first)
    assert arb.poll(ticks_add(first, W - 1)) == NONE
    assert arb.poll(ticks_add(first, W)) == TIE and arb.gap_us == 500 and tied(arb) == [0, 2]
    arb = Arbiter(4, tie_window_us=100)
    assert decide(arb, [(0, first), (2, second)], ticks_add(first, 100)) == WIN and arb.gap_us == 500
    assert arb.press(3, ticks_add(first, 700000))
    assert arb.poll(ticks_add(first, LOCK - 1)) == NONE
    assert arb.poll(ticks_add(first, LOCK)) == DONE
    rec = faceoff_record(arb)
    assert rec["first_us"] == first and rec["presses"][1] == [2, 200, 2]


def test_faceoff_record_is_the_journal_format():
    arb = Arbiter(4)
    decide(arb, [(3, 100), (1, 900)], 1100)
    arb.press(2, 50000)
    arb.poll(100 + LOCK)
    rec = faceoff_record(arb)
    assert rec == {
        "first_us": 100,
        "presses": [[3, 100, 1], [1, 900, 2], [2, 50000, 3]],
        "gap_us": 800,
        "tie": True,
        "tiebreak": False,
        "window_us": W,
    }
    assert json.loads(json.dumps(rec)) == rec
    arb = Arbiter(4)
    decide(arb, [(0, 5)], 5 + W)
    assert faceoff_record(arb)["gap_us"] is None and faceoff_record(arb)["tie"] is False


# -- through the debouncer --


def test_bouncing_buttons_decide_by_their_first_edges():
    rng = Rng(11)
    for _ in range(20):
        t0 = 1000000 + rng.below(100000)
        gap = rng.below(3 * W)
        chain = Chain()
        a, b = 1 + rng.below(3), 4 + rng.below(4)
        snaps = snapshots({a: bounce_edges(rng, t0, 1), b: bounce_edges(rng, t0 + gap, 1)})
        for mask, tick in snaps:
            chain.feed(mask, tick)
        chain.poll(t0 + gap + 30000)
        if gap <= W:
            assert chain.results == [TIE] and chain.arb.tied_mask == (1 << a) | (1 << b)
        else:
            assert chain.results == [WIN] and chain.arb.winner == a and chain.arb.gap_us == gap


def test_a_button_held_across_the_rearm_does_not_count():
    chain = Chain()
    chain.feed(0b01, 1000)  # player 1 presses and keeps holding
    chain.poll(1000 + W)
    assert chain.results == [WIN] and chain.arb.winner == 0
    chain.poll(1000 + LOCK)
    assert chain.results == [WIN, DONE] and chain.arb.held_mask == 0b01
    chain.feed(0b11, 900000)  # player 2 presses; player 1 is still down, no new edge
    chain.poll(901000)
    assert chain.results[-1] == WIN and chain.arb.winner == 1 and chain.arb.n_ranked == 1


def test_held_at_boot_and_stuck_buttons_are_ignored_by_the_faceoff():
    chain = Chain()
    chain.deb.start(0b100, 0)  # player 3 held at boot
    chain.feed(0b110, 500000)  # player 2 presses
    chain.poll(501000)
    assert chain.results == [WIN] and chain.arb.winner == 1
    assert chain.deb.flagged == 0b100
    chain.feed(0b100, 600000)
    chain.poll(12000000)  # player 3 has been down 12 s: its press, had there been one,
    assert chain.deb.held_at_boot == 0b100  # would be stuck; it is still held from boot
    chain.feed(0, 12000100)
    chain.poll(12100000)
    assert chain.deb.ignored() == 0
    chain.feed(0b100, 13000000)  # now a real press
    chain.poll(13001000)
    assert chain.results[-1] == WIN and chain.arb.winner == 2


def test_full_faceoff_allocates_nothing():
    """Snapshots through Debouncer.feed/take to Arbiter.press/release/poll, decision, lockout,
    tie-breaker and its decision: not one allocation."""
    base = TICKS_MASK - 500  # and across the tick wrap
    steps = [
        (0b0001, 0), (0b0000, 300), (0b0001, 400),  # player 1 presses, bounces
        (0b0101, 700),  # player 3, 700 us later: a tie
        (0b0101, 1000),  # (no change: the loop polls) the window is over
        (0b0100, 200000), (0b0000, 230000),  # both let go
        (0b1000, 500000),  # player 4: ranked in the lockout
        (0b0000, 600000),
        (0b0100, 1000000), (0b0101, 1002000),  # the tie-breaker: player 3 wins
        (0b0000, 1100000),
    ]
    masks = [m for m, _ in steps]
    ticks = [ticks_add(base, t) for _, t in steps]

    class Run:
        def __init__(self):
            self.chain = Chain(4)
            self.i = 0

        def run(self):
            n = len(masks)
            while self.i < n:
                self.step()
            self.chain.poll(ticks_add(base, 3000000))

        def step(self):
            self.chain.feed(masks[self.i], ticks[self.i])
            self.i += 1

    # (correctness of the same run, on both runtimes)
    r = Run()
    r.run()
    assert r.chain.results == [TIE, DONE, WIN, DONE] and r.chain.arb.winner == 2
    assert_alloc_free(lambda: Run().run)
