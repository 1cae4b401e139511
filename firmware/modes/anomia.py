"""Anomia buzzers: fair first-press face-offs, ties and tie-breakers, winning-pile counts.

Player buttons feed the arbiter (firmware/arbiter.py); each decision lights the winner
(or the tie pattern), sounds, shows winner, gap and scores, and, once its lockout is over
and every later press is ranked, becomes an action of the anomia_score engine with the
arbiter's measurements as its "faceoff" (docs/records.md).

Controls (besides the framework's back = undo, mode = end, ok after the end = new game):
ok before the first face-off cycles the player count 3..8 (kept in the settings).
During a tie-breaker only the tied players' LEDs are lit; anyone else's press gets the nope.
"""

from firmware.arbiter import ARMED, DECIDING, DONE, NONE, TIE, WIN, Arbiter, faceoff_record
from firmware.modes.base import GameMode
from firmware.ticks import ticks_add, ticks_diff

SHOW_DECISION_MS = 1500  # the winner screen stays this long before the scores return


def gap_text(gap_us):
    """'by 12.3 ms' for a gap in µs; the OLED has 16 columns."""
    if gap_us is None or gap_us < 0:
        return "alone"
    return "by %d.%d ms" % (gap_us // 1000, (gap_us % 1000) // 100)


def _mask(players):
    m = 0
    for p in players:
        m |= 1 << p
    return m


class Mode(GameMode):
    ENGINE = "anomia_score"

    def __init__(self, ctx, options):
        super().__init__(ctx, options)
        self.arb = Arbiter(self.players, self.values["tie_window_us"], self.values["lockout_ms"] * 1000)
        self.pending = NONE  # a WIN / TIE whose action waits for the end of its lockout
        self.decisions = 0
        self._screen_until = None
        self._shown_gap = -1

    # ---- hooks

    def on_game(self, event, now_ms):
        if event in ("start", "resume"):
            self.pending = NONE
            self.arb = Arbiter(self.players, self.values["tie_window_us"], self.values["lockout_ms"] * 1000)
        if event in ("start", "resume", "undo", "action"):
            # the arbiter follows the game: armed for everyone, or for a pending tie-breaker
            # (an action a host entered may have opened or closed one)
            self.arb.reset()
            if self.game.tiebreak:
                self.arb.resume_tiebreak(_mask(self.game.tiebreak))
        if event == "undo":
            self.ctx.sound.play("click", now_ms)
        if event != "roster":
            self._arm_leds(now_ms)
        # after an undo the title names the state it went back to ("SCORES", "TB P2 P4")
        self._show_scores("ANOMIA %dP" % self.players if event == "start" else
                          "RESUMED" if event == "resume" else None)

    def on_player(self, seat, down, tick_us):
        if down:
            arb = self.arb
            # Decide everything due before this press first: exact whatever the batching.
            # Armed with no lockout's end to report, nothing is due: no poll's two calls.
            if arb.state != ARMED or arb.done_pending:
                self._poll((tick_us - 1) & 0x3FFFFFFF)
            # not in the pending tie-breaker: it changes nothing (self.game without the
            # property's call, and read twice only in a tie-breaker: a local less keeps
            # this frame off the heap)
            if self.session.state.tiebreak and seat not in self.session.state.tiebreak:
                self.nope_seat(seat)
                return
            deb = self.ctx.input.debouncer
            if deb.held_at_boot | deb.stuck | arb.ignored_mask:  # seldom: no calls otherwise
                self._ignore_as_the_input_does()
            if arb.press(seat, tick_us) and arb.state == DECIDING:
                # a lone press's decision is known but for its window: its LEDs go out the
                # moment the window ends, ahead of the pass that makes it (a second press,
                # a tie in the making, cancels that)
                self.ctx.leds.ahead(arb.lone, arb.due())
        else:
            self.arb.release(seat, tick_us)

    def _ignore_as_the_input_does(self):
        """The arbiter refuses the players the input ignores (held at boot, stuck)."""
        ignored = self.ctx.input.ignored()
        if ignored != self.arb.ignored_mask:
            self.arb.set_ignored(ignored)

    def on_tick(self, now_ms):
        self._poll(self.ctx.input.at_us, now_ms)  # the input task's reading (Input.now_us, no call)
        if self._screen_until is not None:
            if ticks_diff(now_ms, self._screen_until) >= 0:
                self._show_scores()
            elif self.pending != NONE and self.arb.gap_us != self._shown_gap:
                self._show_decision()  # the 2nd press came after the decision: show its gap

    def on_due(self):
        return self.arb.due()

    def is_settled(self, now_ms):
        self._poll(self.ctx.input.now_us(), now_ms)
        return self.pending == NONE and self.arb.state == 0

    def flush(self):
        """Apply the decision still in its lockout (cut short by undo, end or a shutdown)."""
        code = self.pending
        if code == NONE:
            return
        self.pending = NONE
        arb = self.arb
        extra = {"faceoff": faceoff_record(arb)}
        if code == WIN:
            self.apply(["win", arb.winner, self._loser()], extra)
        else:
            self.apply(["tie"] + sorted(arb.tied[i] for i in range(arb.n_tied)), extra)
        self._announce(code)
        self._arm_leds(self.ctx.clock.now_ms())

    def on_end(self, now_ms):
        """The winners named (and starred, in case long names cut the head line), every
        player's final count; only the winners' LEDs lit."""
        names = self.ctx.roster.seat_names(self.players)
        scores = self.game.scores()
        best = self.game.winners()
        self.ctx.display.scores([("*" + names[p] if p in best else names[p], scores[p])
                                 for p in range(self.players)],
                                title="GAME OVER", head="won: " + " ".join(names[p] for p in best))
        self.ctx.leds.lit(_mask(best), now_ms)

    def mode_status(self):
        return {"decisions": self.decisions, "tiebreak": self.game.tiebreak if self.game else None}

    # ---- decisions

    def _poll(self, now_us, now_ms=None):
        """Every decision and lockout end due by now_us (now_ms: the ms clock, None to read it)."""
        arb = self.arb
        code = arb.poll(now_us)
        while code != NONE:
            if code == WIN or code == TIE:
                self._decided(code, now_ms)
            elif code == DONE:
                self.flush()
                if self._screen_until is None:  # a lockout that outlasts the winner screen:
                    self._show_scores()  # the scores already shown take the count it ends with
            code = arb.poll(now_us)

    def _decided(self, code, now_ms):
        """Show a decision at once; its event and action wait for the lockout's end, when the
        gap to the 2nd press (which may come after the decision) and the ranks are final."""
        arb = self.arb
        leds = self.ctx.leds
        if now_ms is None:
            now_ms = self.ctx.clock.now_ms()
        if code == WIN:
            leds.winner(arb.winner, now_ms)
        else:
            leds.tie(arb.tied_mask, now_ms)
        # The LEDs go out now, before anything else (the decision's first sign), not at the
        # LED task's next turn: the OLED redraw below holds the CPU ~23 ms of I2C on a Pico.
        leds.tick(now_ms)
        ctx = self.ctx
        self.pending = code
        self.decisions += 1
        ctx.sound.play("winner" if code == WIN else "tie", now_ms)
        self._show_decision()
        self._screen_until = ticks_add(now_ms, SHOW_DECISION_MS)

    def _show_decision(self):
        arb = self.arb
        names = self.ctx.roster.seat_names(self.players)
        gap = arb.gap_us if arb.gap_us >= 0 else None
        self._shown_gap = arb.gap_us
        if self.pending == WIN:
            self.ctx.display.winner(names[arb.winner], gap_text(gap),
                                    title="TIE-BREAK" if arb.decided_round else "WINNER")
        else:
            tied = " ".join(names[arb.tied[i]] for i in range(arb.n_tied))
            self.ctx.display.winner("TIE", tied[:16], title=gap_text(gap).upper())

    def _announce(self, code):
        arb = self.arb
        gap = arb.gap_us if arb.gap_us >= 0 else None
        if code == WIN:
            self.ctx.emit("decision", {"event": "win", "winner": arb.winner + 1, "gap_us": gap,
                                       "tiebreak": arb.decided_round > 0, "scores": self.game.scores()})
        else:
            tied = [arb.tied[i] + 1 for i in range(arb.n_tied)]
            self.ctx.emit("decision", {"event": "tie", "players": tied, "gap_us": gap,
                                       "tiebreak": arb.decided_round > 0})

    def _arm_leds(self, now_ms):
        """Armed: every player dim, or during a tie-breaker only the tied players lit."""
        tb = self.game.tiebreak
        if tb:
            self.ctx.leds.lit(_mask(tb), now_ms)
        else:
            self.ctx.leds.armed(now_ms)

    def _loser(self):
        """Whose top card the winner takes: the next player who pressed, within a tie-breaker
        the other tied player who pressed; -1 when nobody else pressed."""
        arb = self.arb
        tb = self.game.tiebreak
        for i in range(1, arb.n_ranked):
            p = arb.ranked[i]
            if not tb or p in tb:
                return p
        return -1

    def _show_scores(self, title=None):
        names = self.ctx.roster.seat_names(self.players)
        scores = self.game.scores()
        tb = self.game.tiebreak
        if title is None:
            title = ("TB " + " ".join(names[p] for p in tb)) if tb else "SCORES"
        self.ctx.display.scores([(names[p], scores[p]) for p in range(self.players)], title=title[:16])
        self._screen_until = None
