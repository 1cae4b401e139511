"""Player and status LEDs on a NeoPixel-like chain: roster colours, a brightness cap, animations.

`pixels` is anything with `pixels[i] = (r, g, b)` and `write()` (neopixel.NeoPixel on the
Pico, the world channel on the sim board). Every colour the chain can receive is built in
advance into a palette of tuples already scaled by the brightness cap, so `tick()` only picks
tuples from it (no allocation) and writes the chain only when some LED's value changes.

A decision's first frame (one player lit, the others dark: a winner, or the first of the
tied) is the decision's first sign. A chain that can also `frame(colours)` (make a whole
frame once) and `show(frame)` (send it) gets those frames built in advance, one per
player, and the tick right after winner() or tie() sends one as it is: a Pico then spends
no Python per pixel between a decision and its LEDs (firmware/board_pico.py).
"""

from firmware.ticks import ticks_diff

# Each player colour exists at LEVELS brightness steps (0 = off, LEVELS - 1 = full colour).
LEVELS = 16
FULL = LEVELS - 1
ARMED_LEVEL = 4  # steady dim: "ready", leaves headroom for the winner flash to stand out
BREATH_MIN_LEVEL = 1
BREATH_PERIOD_MS = 2400
WINNER_HALF_MS = 125  # flash on 125 ms / off 125 ms ...
WINNER_FLASHES = 6  # ... six times, then the winner stays lit
TIE_STEP_MS = 250  # the tied players take turns, one lit at a time
BLINK_HALF_MS = 200  # a counted blink: on 200 ms, off 200 ms ...
BLINK_PAUSE_HALVES = 4  # ... then 800 ms dark before the count starts again
BLINK_MAX = 20
ERROR_HALF_MS = 100
ERROR_BLINKS = 5
SOLO_MS = min(WINNER_HALF_MS, TIE_STEP_MS)  # a winner's or a tie's first frame lasts this long

MODE_OFF = 0
MODE_IDLE = 1
MODE_ARMED = 2
MODE_WINNER = 3
MODE_TIE = 4
MODE_LIT = 5

OFF = (0, 0, 0)
ERROR_COLOUR = (255, 0, 0)


def _check_colour(c):
    if not isinstance(c, (tuple, list)) or len(c) != 3:
        raise ValueError("colour must be (r, g, b), got %r" % (c,))
    for v in c:
        if not isinstance(v, int) or v < 0 or v > 255:
            raise ValueError("colour values must be ints 0..255, got %r" % (c,))


def scaled(colour, level, cap):
    """colour at level/FULL of its value, then limited by the brightness cap (0..255)."""
    return (
        colour[0] * level * cap // (FULL * 255),
        colour[1] * level * cap // (FULL * 255),
        colour[2] * level * cap // (FULL * 255),
    )


class Leds:
    def __init__(self, pixels, n_players, status_index=None, brightness=64, player_index=None):
        if player_index is None:
            player_index = list(range(n_players))
        if len(player_index) != n_players:
            raise ValueError("player_index needs %d entries" % n_players)
        needed = max(player_index) + 1 if n_players else 0
        if status_index is not None:
            needed = max(needed, status_index + 1)
        n = getattr(pixels, "n", None)
        if n is not None and n < needed:
            raise ValueError("pixel chain has %d LEDs, layout needs %d" % (n, needed))
        self.pixels = pixels
        self.n_players = n_players
        self.status_index = status_index
        # Output slot k: players 0..n-1, then the status LED; its chain index and colours.
        self._index = list(player_index)
        if status_index is not None:
            self._index.append(status_index)
        self._n_out = len(self._index)
        self._want = [OFF] * self._n_out  # colour each slot should show now
        self._shown = [None] * self._n_out  # colour last written to each slot
        self._colours = [None] * n_players  # roster colours; None = seat not in play
        self._palette = [None] * n_players  # per player: LEVELS tuples, or None
        self._tied = bytearray(n_players)
        self._blinks = bytearray(n_players)  # lit(): per seat, blinks per cycle (0 = steady)
        self._blink_cycle = 0  # halves per cycle; 0 = no seat blinks
        self._n_tied = 0
        self._mode = MODE_OFF
        self._arg = 0  # winner index or lit mask
        self._t0 = 0
        self._status_raw = OFF
        self._status_colour = OFF
        self._err_t0 = 0
        self._err_halves = 0  # 0 = no error blink running
        self._solo = None  # per player: the chain's frame with only that player lit
        self._solo_next = -1  # the player whose frame the next tick sends as it is
        # ahead(): a winner frame due at a us tick (the press's, plus its window)
        self.ahead_player = -1
        self.ahead_due = 0
        self._sent_ahead = -1  # the player whose frame show_ahead() sent: the tick need not
        # The chain shows a steady pattern's frame: ticks have nothing to do until a pattern,
        # a colour, the status or an error blink changes (the LED task's ticks then cost next
        # to nothing, and a press that comes during one waits less).
        self._still = False
        self.brightness = 0
        self.set_brightness(brightness)

    # -- configuration (allocates; not for the tick path) --

    def set_brightness(self, cap):
        if not isinstance(cap, int) or cap < 0 or cap > 255:
            raise ValueError("brightness must be an int 0..255, got %r" % (cap,))
        self.brightness = cap
        self._rebuild()

    def set_colours(self, colours):
        """Roster colours, one (r, g, b) per player seat; None or missing seats stay dark."""
        if len(colours) > self.n_players:
            raise ValueError("%d colours for %d players" % (len(colours), self.n_players))
        for c in colours:
            if c is not None:
                _check_colour(c)
        for p in range(self.n_players):
            c = colours[p] if p < len(colours) else None
            self._colours[p] = None if c is None else (c[0], c[1], c[2])
        self._rebuild()

    def set_status(self, colour):
        """Steady colour of the status LED (OFF to switch it off)."""
        _check_colour(colour)
        self._status_raw = (colour[0], colour[1], colour[2])
        self._status_colour = scaled(self._status_raw, FULL, self.brightness)
        self._solo = self._solo_frames()
        self._still = False

    def _rebuild(self):
        cap = self.brightness
        for p in range(self.n_players):
            c = self._colours[p]
            if c is None:
                self._palette[p] = None
            else:
                self._palette[p] = [scaled(c, k, cap) for k in range(LEVELS)]
        self._error_colour = scaled(ERROR_COLOUR, FULL, cap)
        self._status_colour = scaled(self._status_raw, FULL, cap)
        self._solo = self._solo_frames()
        self._still = False

    def _solo_frames(self):
        """Per player, the chain's frame that _only(player) and the status LED make, built by
        a chain that can (None otherwise)."""
        make = getattr(self.pixels, "frame", None)
        if make is None:
            return None
        self._solo = None  # the old frames are garbage before the new ones are made
        chain = [OFF] * (max(self._index) + 1 if self._index else 0)
        if self.status_index is not None:
            chain[self.status_index] = self._status_colour
        frames = []
        for p in range(self.n_players):
            pal = self._palette[p]
            i = self._index[p]
            chain[i] = OFF if pal is None else pal[FULL]
            frames.append(make(chain))
            chain[i] = OFF
        return frames

    def refresh(self):
        """Forget what the chain shows, so the next tick writes every LED again."""
        for i in range(len(self._shown)):
            self._shown[i] = None
        self._still = False

    # -- patterns: each records a mode and its start time; tick() does the rest --

    def off(self, now_ms=0):
        self._set_mode(MODE_OFF, 0, now_ms)

    def idle(self, now_ms):
        """Slow breathing of every seated player's colour."""
        self._set_mode(MODE_IDLE, 0, now_ms)

    def armed(self, now_ms):
        """Steady dim player colours: the box is waiting for a buzz."""
        self._set_mode(MODE_ARMED, 0, now_ms)

    def winner(self, player, now_ms):
        """Flash the winner (0-based seat) in its colour, then keep it lit; others dark."""
        if not 0 <= player < self.n_players:  # _check_player and _set_mode written out:
            self._check_player(player)  # a winner is a decision's first sign
        self.ahead_player = -1
        self._mode = MODE_WINNER
        self._arg = player
        self._t0 = now_ms
        self._solo_next = player
        self._still = False

    def ahead(self, player, due):
        """winner(player)'s first frame is due at the us tick `due`, unless something else
        comes first (player -1: nothing is). The app's input pass sends it
        (show_ahead) the moment that time comes, before the Python that makes the decision
        runs (~0.4 ms on a Pico): the decision's first sign does not wait for it. Then
        winner(player) and its tick send nothing more; any other pattern cancels it."""
        self.ahead_player = player if self._solo is not None else -1
        self.ahead_due = due

    def show_ahead(self):
        """Send the frame ahead() named, now."""
        p = self.ahead_player
        self.ahead_player = -1
        if p >= 0 and not self._err_halves:
            self.pixels.show(self._solo[p])
            self._sent_ahead = p

    def tie(self, players_mask, now_ms):
        """Tied players (bit i = seat i) light up in turn, one at a time."""
        n = 0
        for p in range(self.n_players):
            if players_mask & (1 << p):
                self._tied[n] = p
                n += 1
        if n == 0:
            raise ValueError("a tie needs at least one player")
        self._n_tied = n
        self._set_mode(MODE_TIE, players_mask, now_ms)
        self._solo_next = self._tied[0]

    def lit(self, players_mask, now_ms=0, blinks=None):
        """Players in the mask at full colour, the rest dark (button test, lockout display).
        blinks: per seat, a count the seat blinks again and again (on 200 ms, off 200 ms,
        that many times, then 800 ms dark, all seats in step); 0 or missing = steady."""
        self._blink_cycle = self._set_blinks(blinks)
        self._set_mode(MODE_LIT, players_mask, now_ms)

    def _set_blinks(self, blinks):
        """Keep the blink counts; the halves of one cycle (0 when nothing blinks)."""
        most = 0
        for p in range(self.n_players):
            n = self._blink_count(blinks, p)
            self._blinks[p] = n
            if n > most:
                most = n
        return 2 * most + BLINK_PAUSE_HALVES if most else 0

    def _blink_count(self, blinks, p):
        n = blinks[p] if blinks is not None and p < len(blinks) else 0
        if not isinstance(n, int) or not 0 <= n <= BLINK_MAX:
            raise ValueError("blinks must be ints 0..%d, got %r" % (BLINK_MAX, n))
        return n

    def error(self, now_ms, blinks=ERROR_BLINKS):
        """Blink the status LED red `blinks` times, over whatever the players show."""
        self._err_t0 = now_ms
        self._err_halves = 2 * blinks
        self._still = False

    def _check_player(self, player):
        if not 0 <= player < self.n_players:
            raise ValueError("player %r out of range 0..%d" % (player, self.n_players - 1))

    def _set_mode(self, mode, arg, now_ms):
        self._solo_next = -1
        self.ahead_player = -1
        self._sent_ahead = -1
        self._still = False
        self._mode = mode
        self._arg = arg
        self._t0 = now_ms

    # -- the asyncio-driven part: no allocation, no blocking. The work is split into small
    # methods on purpose: MicroPython puts a frame of more than 11 slots on the heap.

    def tick(self, now_ms):
        """Bring the chain up to date for time now_ms; True if anything was written."""
        if self._still:
            return False
        player = self._solo_next
        if player >= 0:
            # The frame a winner() or tie() starts with, sent as it was built, while it is
            # still the pattern's frame and no error blink changes the status LED; the chain's
            # own buffer, which still holds what came before, is written whole next time. The
            # tick right after winner() or tie() comes at their own now_ms: no ticks_diff.
            self._solo_next = -1
            if self._solo is not None and not self._err_halves and (
                    now_ms == self._t0 or ticks_diff(now_ms, self._t0) < SOLO_MS):
                if self._sent_ahead != player:  # else show_ahead() sent it already
                    self.pixels.show(self._solo[player])
                self._sent_ahead = -1
                self.refresh()
                return True
        e = ticks_diff(now_ms, self._t0)
        self._players(e if e > 0 else 0)
        if self.status_index is not None:
            self._want[self.n_players] = self._status(now_ms)
        self._still = self._steady()
        if self._store():
            self._sent_ahead = -1
            self.pixels.write()
            return True
        return False

    def _steady(self):
        """True when the frame just made stays as it is until something changes."""
        mode = self._mode
        if self._err_halves or mode == MODE_IDLE or mode == MODE_WINNER or mode == MODE_TIE:
            return False
        return mode != MODE_LIT or not self._blink_cycle

    def _players(self, e):
        mode = self._mode
        if mode == MODE_IDLE:
            self._all_at(self._breath(e))
        elif mode == MODE_ARMED:
            self._all_at(ARMED_LEVEL)
        elif mode == MODE_WINNER:
            phase = e // WINNER_HALF_MS
            on = phase >= 2 * WINNER_FLASHES or not phase & 1
            self._only(self._arg if on else -1)
        elif mode == MODE_TIE:
            self._only(self._tied[(e // TIE_STEP_MS) % self._n_tied])
        elif mode == MODE_LIT:
            self._mask(self._arg, (e // BLINK_HALF_MS) % self._blink_cycle if self._blink_cycle else 0)
        else:
            self._only(-1)

    def _breath(self, e):
        half = BREATH_PERIOD_MS // 2
        x = e % BREATH_PERIOD_MS
        if x > half:
            x = BREATH_PERIOD_MS - x
        return BREATH_MIN_LEVEL + x * (FULL - BREATH_MIN_LEVEL) // half

    def _all_at(self, level):
        for p in range(self.n_players):
            pal = self._palette[p]
            self._want[p] = OFF if pal is None else pal[level]

    def _only(self, player):
        """Player `player` at full colour, every other one dark (-1: all dark)."""
        want = self._want
        off = OFF
        for p in range(self.n_players):
            want[p] = off
        if player >= 0:
            pal = self._palette[player]
            if pal is not None:
                want[player] = pal[FULL]

    def _mask(self, mask, half):
        """The seats of mask lit; a blinking seat only in the on-halves of its count."""
        for p in range(self.n_players):
            self._seat(p, mask, half)

    def _seat(self, p, mask, half):
        n = self._blinks[p]
        on = mask & (1 << p) and (n == 0 or (half < 2 * n and not half & 1))
        pal = self._palette[p]
        self._want[p] = pal[FULL] if on and pal is not None else OFF

    def _status(self, now_ms):
        if self._err_halves:
            phase = ticks_diff(now_ms, self._err_t0) // ERROR_HALF_MS
            if phase < self._err_halves:
                return OFF if phase & 1 else self._error_colour
            self._err_halves = 0
        return self._status_colour

    def _store(self):
        """Every slot whose colour changed into the chain (one loop, no call per slot: a
        winner's frame is the decision's first sign); True if any did."""
        want = self._want
        shown = self._shown
        changed = False
        k = self._n_out
        while k:  # not `for k in range()`: its two stack slots would put the frame on the heap
            k -= 1
            c = want[k]
            if shown[k] != c:
                shown[k] = c
                self.pixels[self._index[k]] = c
                changed = True
        return changed
