"""LED driver: brightness cap, animation colour sequences over time, writes only on change."""

from firmware import leds as L
from firmware.leds import Leds
from tests.shared.compat import assert_alloc_free, raises

RED = (255, 0, 0)
GREEN = (0, 255, 0)
BLUE = (0, 0, 255)
WHITE = (255, 255, 255)
ROSTER = [RED, GREEN, BLUE, WHITE, (255, 255, 0), (255, 0, 255), (0, 255, 255), (255, 128, 0)]


class FakePixels:
    """neopixel-like: keeps the last value per index and counts write() calls; never allocates."""

    def __init__(self, n):
        self.n = n
        self.values = [None] * n
        self.sets = 0
        self.writes = 0

    def __setitem__(self, i, v):
        self.values[i] = v
        self.sets += 1

    def write(self):
        self.writes += 1


BLINKS = bytearray([2, 0, 0, 1])  # seat 0 blinks twice, seat 3 once, seat 1 steady


def _leds(brightness=255, n=9, colours=ROSTER):
    px = FakePixels(n)
    leds = Leds(px, 8, 8, brightness)
    leds.set_colours(colours)
    return px, leds


def _at(leds, px, t):
    leds.tick(t)
    return list(px.values)


def _start(leds, mode, t):
    """Pattern number `mode` (0..5) started at t, on a mix of seats."""
    if mode == 0:
        leds.idle(t)
    elif mode == 1:
        leds.armed(t)
    elif mode == 2:
        leds.winner(3, t)
    elif mode == 3:
        leds.tie(0b10011001, t)
    elif mode == 4:
        leds.lit(0xFF, t)
    elif mode == 5:
        leds.lit(0b1011, t, BLINKS)
    else:
        leds.off(t)


def test_brightness_cap_is_never_exceeded():
    for cap in (0, 1, 17, 64, 200, 255):
        px, leds = _leds(cap)
        leds.set_status(WHITE)
        for mode in range(6):
            _start(leds, mode, 0)
            leds.error(0)
            for t in range(0, 3000, 37):
                leds.tick(t)
                for v in px.values:
                    if v is not None:
                        assert max(v) <= cap, (cap, v)
    # full white at the cap is exactly the cap (scaling, not clipping, keeps the hue)
    px, leds = _leds(64)
    leds.lit(0b11000, 0)
    assert _at(leds, px, 0)[3] == (64, 64, 64)
    assert px.values[4] == (64, 64, 0)
    assert px.values[0] == (0, 0, 0)


def test_winner_flashes_in_its_colour_then_stays_lit():
    px, leds = _leds(255)
    leds.winner(1, 1000)
    seen = []
    for half in range(16):
        v = _at(leds, px, 1000 + half * L.WINNER_HALF_MS + 10)
        seen.append(v[1])
        for p in range(8):
            if p != 1:
                assert v[p] == (0, 0, 0)
    flashes = [GREEN, (0, 0, 0)] * L.WINNER_FLASHES
    assert seen == flashes + [GREEN] * (16 - len(flashes))


def test_tie_alternates_the_tied_players():
    px, leds = _leds(255)
    leds.tie((1 << 0) | (1 << 5), 0)
    lit = []
    for step in range(6):
        v = _at(leds, px, step * L.TIE_STEP_MS + 5)
        on = [p for p in range(8) if v[p] != (0, 0, 0)]
        assert len(on) == 1, v
        assert v[on[0]] == ROSTER[on[0]]
        lit.append(on[0])
    assert lit == [0, 5, 0, 5, 0, 5]
    # three tied players take turns in seat order
    leds.tie(0b10000110, 0)
    order = []
    for step in range(6):
        v = _at(leds, px, step * L.TIE_STEP_MS + 5)
        order.append([p for p in range(8) if v[p] != (0, 0, 0)][0])
    assert order == [1, 2, 7, 1, 2, 7]
    raises(ValueError, leds.tie, 0, 0)


def test_idle_breathes_between_dim_and_full():
    px, leds = _leds(255)
    leds.idle(0)
    reds = [_at(leds, px, t)[0][0] for t in range(0, L.BREATH_PERIOD_MS + 1, 100)]
    assert reds[0] == L.scaled(RED, L.BREATH_MIN_LEVEL, 255)[0] > 0
    assert max(reds) == 255 == reds[len(reds) // 2]
    assert reds == reds[::-1]  # symmetric swell and fade
    half = len(reds) // 2
    assert all(reds[i] <= reds[i + 1] for i in range(half))


def test_armed_is_steady_and_dim_and_writes_once():
    px, leds = _leds(255)
    leds.armed(0)
    v = _at(leds, px, 0)
    assert v[2] == L.scaled(BLUE, L.ARMED_LEVEL, 255)
    assert 0 < v[2][2] < 255
    writes = px.writes
    for t in range(1, 5000, 50):
        assert leds.tick(t) is False
    assert px.writes == writes


def test_no_write_when_nothing_changed():
    px, leds = _leds(64)
    leds.lit(0b101, 0)
    assert leds.tick(0) is True
    assert px.writes == 1
    sets = px.sets
    assert leds.tick(0) is False
    assert leds.tick(100) is False
    assert px.writes == 1 and px.sets == sets
    # one LED changes -> one write, only that LED set again
    leds.lit(0b100, 200)
    assert leds.tick(200) is True
    assert px.writes == 2 and px.sets == sets + 1
    # same brightness twice: values equal, nothing written
    leds.set_brightness(64)
    assert leds.tick(300) is False


def test_refresh_rewrites_everything():
    px, leds = _leds(64)
    leds.off()
    leds.tick(0)
    sets = px.sets
    leds.refresh()
    assert leds.tick(1) is True
    assert px.sets == sets + 9


def test_error_blinks_status_red_over_player_pattern():
    px, leds = _leds(100)
    leds.set_status(GREEN)
    leds.lit(0b1, 0)
    leds.error(1000, blinks=3)
    status = []
    for half in range(8):
        v = _at(leds, px, 1000 + half * L.ERROR_HALF_MS + 1)
        assert v[0] == (100, 0, 0)  # the player's LED is untouched by the error blink
        status.append(v[8])
    red, off, green = (100, 0, 0), (0, 0, 0), (0, 100, 0)
    assert status == [red, off, red, off, red, off, green, green]


def test_seats_without_colour_stay_dark_and_mapping_is_respected():
    px = FakePixels(9)
    order = [7, 6, 5, 4, 3, 2, 1, 0]
    leds = Leds(px, 8, 8, 255, order)
    leds.set_colours([RED, None, BLUE])
    leds.lit(0xFF, 0)
    v = _at(leds, px, 0)
    assert v[7] == RED and v[5] == BLUE
    assert v[6] == (0, 0, 0) and v[0] == (0, 0, 0)


def test_bad_configuration_is_rejected():
    px = FakePixels(9)
    raises(ValueError, Leds, px, 8, 9)  # status LED beyond the chain
    raises(ValueError, Leds, px, 8, 8, 300)
    leds = Leds(px, 8, 8)
    raises(ValueError, leds.set_colours, [RED] * 9)
    raises(ValueError, leds.set_colours, [(256, 0, 0)])
    raises(ValueError, leds.set_colours, [(1, 2)])
    raises(ValueError, leds.winner, 8, 0)
    raises(ValueError, leds.set_brightness, -1)


def test_tick_allocates_nothing():
    # heap_lock catches allocation; mem_total also catches heap frames (> 11 slots)
    px, leds = _leds(64)
    leds.set_status(BLUE)

    def make():
        def run():
            for mode in range(7):
                _start(leds, mode, 0)
                leds.error(0)
                for t in range(0, 3000, 40):
                    leds.tick(t)

        return run

    assert_alloc_free(make)
    assert px.writes > 50


def test_lit_with_blinks_counts_each_seat_in_step_then_pauses():
    px, leds = _leds()
    leds.lit(0b1011, 0, BLINKS)
    seen = []
    for t in range(0, 2 * 1600, 200):  # a cycle: 2 * 2 counted halves + 4 dark halves = 1600 ms
        v = _at(leds, px, t)
        seen.append((v[0] == RED, v[1] == GREEN, v[3] == WHITE, v[2]))
    cycle = [(True, True, True), (False, True, False), (True, True, False), (False, True, False),
             (False, True, False), (False, True, False), (False, True, False), (False, True, False)]
    assert [x[:3] for x in seen] == cycle + cycle
    assert all(x[3] == (0, 0, 0) for x in seen)  # seat 2 is not in the mask
    leds.lit(0b1, 5000)  # a later lit() without blinks: steady again
    assert all(_at(leds, px, t)[0] == RED for t in range(5000, 7000, 100))
    for bad in ([21], [-1], ["2"]):
        raises(ValueError, leds.lit, 1, 0, bad)


class FramePixels(FakePixels):
    """A chain that also makes whole frames in advance and sends them at once (as the Pico's
    board_pico.PixelChain): a frame is the list of colours, show() records what was sent."""

    def __init__(self, n):
        FakePixels.__init__(self, n)
        self.shown = []  # every frame sent, whether by write() or show()

    def frame(self, colours):
        return list(colours) + [(0, 0, 0)] * (self.n - len(colours))

    def show(self, frame):
        self.shown.append(list(frame))

    def write(self):
        FakePixels.write(self)
        self.shown.append([v or (0, 0, 0) for v in self.values])


def _frame_leds():
    px = FramePixels(9)
    leds = Leds(px, 8, 8, 255)
    leds.set_colours(ROSTER)
    leds.set_status(BLUE)
    leds.armed(0)
    leds.tick(0)
    return px, leds


def test_a_decisions_first_frame_is_sent_whole_as_the_pattern_would_show_it():
    # a winner; a tie, which starts with the first tied seat
    for start, lit in ((lambda leds: leds.winner(5, 100), 5), (lambda leds: leds.tie(0b10100, 100), 2)):
        px, leds = _frame_leds()
        sets = px.sets
        start(leds)
        assert leds.tick(100)
        assert px.sets == sets, "no pixel set one by one before the frame"
        want = [(0, 0, 0)] * 8 + [BLUE]
        want[lit] = ROSTER[lit]
        assert px.shown[-1] == want
        # the chain's own buffer is brought up to it at the next tick, and the pattern goes on
        assert leds.tick(101) and px.values == want and px.shown[-1] == want
        assert not leds.tick(102)
    # back to what the chain's buffer held before the frame: the chain is written all the same
    px, leds = _frame_leds()
    armed = list(px.shown[-1])
    leds.winner(5, 100)
    leds.tick(100)
    leds.armed(100)
    assert leds.tick(100) and px.shown[-1] == armed


def test_a_decision_frame_comes_from_the_pattern_when_it_is_no_longer_the_first():
    px, leds = _frame_leds()
    leds.winner(1, 100)
    assert leds.tick(100 + L.WINNER_HALF_MS)  # the flash is off by now: not the prepared frame
    assert px.shown[-1][1] == (0, 0, 0) and px.shown[-1][8] == BLUE
    px, leds = _frame_leds()
    leds.error(100)  # the status LED blinks red: the prepared frame's status colour is wrong
    leds.winner(1, 100)
    leds.tick(100)
    assert px.shown[-1][1] == ROSTER[1] and px.shown[-1][8] == L.scaled(L.ERROR_COLOUR, L.FULL, 255)
    px, leds = _frame_leds()
    leds.winner(1, 100)
    leds.armed(100)  # another pattern before the tick: the prepared frame is not sent
    leds.tick(100)
    assert px.shown[-1][1] == L.scaled(ROSTER[1], L.ARMED_LEVEL, 255)


def test_a_frame_sent_ahead_is_the_decisions_first_and_is_not_sent_again():
    px, leds = _frame_leds()
    leds.ahead(5, 2000)
    assert (leds.ahead_player, leds.ahead_due) == (5, 2000)
    sent = len(px.shown)
    leds.show_ahead()
    want = [(0, 0, 0)] * 8 + [BLUE]
    want[5] = ROSTER[5]
    assert px.shown[sent:] == [want] and leds.ahead_player == -1
    leds.winner(5, 100)  # the decision it foresaw: its first tick sends nothing more
    assert leds.tick(100) and len(px.shown) == sent + 1
    assert leds.tick(101) and px.values == want  # the chain's buffer is brought up to it
    leds.show_ahead()  # sent once: nothing is pending now
    assert len(px.shown) == sent + 2


def test_a_frame_ahead_is_cancelled_by_any_other_pattern_and_never_stands_for_another():
    for other in (lambda leds: leds.armed(100), lambda leds: leds.tie(0b100001, 100),
                  lambda leds: leds.winner(2, 100)):
        px, leds = _frame_leds()
        leds.ahead(5, 2000)
        other(leds)
        assert leds.ahead_player == -1
        sent = len(px.shown)
        leds.show_ahead()
        assert len(px.shown) == sent
    # sent, then a tie decided after all: the tie's first frame goes out as usual
    px, leds = _frame_leds()
    leds.ahead(0, 2000)
    leds.show_ahead()
    leds.tie(0b11, 100)
    sent = len(px.shown)
    assert leds.tick(100) and len(px.shown) == sent + 1
    # sent, then another pattern wrote the chain: a later winner of the same seat is sent again
    leds.winner(0, 200)
    leds.tick(200)
    leds.armed(300)
    leds.tick(300)
    leds.ahead(0, 6000)
    leds.show_ahead()
    leds.armed(400)
    leds.tick(400)
    sent = len(px.shown)
    leds.winner(0, 500)
    assert leds.tick(500) and len(px.shown) == sent + 1 and px.shown[-1][0] == ROSTER[0]


def test_no_frame_ahead_without_a_chain_that_makes_frames_or_during_an_error_blink():
    px, leds = _leds()
    leds.ahead(3, 1000)
    assert leds.ahead_player == -1
    px, leds = _frame_leds()
    leds.error(100)
    leds.ahead(3, 1000)
    sent = len(px.shown)
    leds.show_ahead()
    assert len(px.shown) == sent


def test_decision_frames_follow_the_colours_and_the_status():
    px, leds = _frame_leds()
    leds.set_colours([GREEN] * 8)
    leds.set_status(RED)
    leds.winner(3, 100)
    leds.tick(100)
    assert px.shown[-1][3] == GREEN and px.shown[-1][8] == RED and px.shown[-1][0] == (0, 0, 0)


def test_a_steady_frame_is_left_alone_until_something_changes_and_every_change_shows():
    px, leds = _leds(255)
    leds.set_status(BLUE)
    leds.armed(0)
    assert leds.tick(0)
    assert not any(leds.tick(t) for t in range(1, 3000, 7))  # armed: nothing more to write
    dim = L.ARMED_LEVEL
    leds.set_colours([GREEN] * 8)
    assert leds.tick(3000) and px.values[0] == L.scaled(GREEN, dim, 255)
    leds.set_status(WHITE)
    assert leds.tick(3001) and px.values[8] == WHITE
    leds.set_brightness(64)
    assert leds.tick(3002) and px.values[8] == L.scaled(WHITE, L.FULL, 64)
    leds.error(3003)
    assert leds.tick(3003) and px.values[8] == L.scaled(L.ERROR_COLOUR, L.FULL, 64)
    end = 3003 + 2 * L.ERROR_BLINKS * L.ERROR_HALF_MS
    assert leds.tick(end) and px.values[8] == L.scaled(WHITE, L.FULL, 64)  # the blinks are over
    assert not leds.tick(end + 500)
    px.values[0] = None  # something else wrote the chain (a self-test): refresh() says so
    leds.refresh()
    assert leds.tick(end + 600) and px.values[0] == L.scaled(GREEN, dim, 64)
    leds.lit(0b10, end + 700)
    assert leds.tick(end + 700) and px.values[:2] == [(0, 0, 0), L.scaled(GREEN, L.FULL, 64)]
    leds.winner(2, end + 800)
    assert leds.tick(end + 800) and px.values[1:3] == [(0, 0, 0), L.scaled(GREEN, L.FULL, 64)]
