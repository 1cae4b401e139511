"""Finding Anastasia (4-8 players): the box keeps what the table shows (engine.anastasia_ledger:
gems, tokens, reveals, the Thief's free action, the Red Army Spy's countdown, who won), the
players keep their secret cards. docs/anastasia.md, "The box".

Set-up: ok cycles the player count 4-8 before the game; from 5 players the Empress then
presses her buzzer (the 4-player game has none: seat 1, the oldest, starts). Names and
colours come from the roster.
A turn: the active player's LED is lit. The responder presses their buzzer, then picks the
column and the space (pick lists, firmware/modes/menu.py: ok next, back previous, their
buzzer chooses); the box pays the gems, moves the token and shows the new purse and the
column. The action comes from a pick list the active player's buzzer chooses from, its
target by buzzer, a reveal by the role shown. A Reaction: another player's buzzer while the
action is being picked (after a further question: ok, then their buzzer).
Refusals (one line on the OLED, an error blink and sound, a "refused" event; nothing
changes): whatever the ledger refuses (an overdraft, a self-reveal of Anastasia or the
Impostor, a second Reaction, a space off the board) and a choice out of turn.
Back steps back in the entry being made; with none, it undoes the last entry (back through
the whole game). Mode ends the game. After the end (the result shown), ok starts the next.
"""

# base, then the engine, then the rest: the big classes find their large blocks before the
# smaller modules' compiles fragment the heap (the virtual box runs the source)
from firmware.modes.base import GameMode  # noqa: I001
import engine.anastasia_ledger  # noqa: F401
from firmware.buttons import BACK_BIT, MODE_BIT, OK_BIT
from firmware.modes import anastasia_text as text
from firmware.modes.anastasia_draft import CANCEL, ENTRY, MOVED, REFUSE, Draft
from firmware.ticks import ticks_add, ticks_diff

REFUSAL_MS = 3000  # the reason stays on the OLED this long, or until the next button


class Mode(GameMode):
    ENGINE = "anastasia_ledger"

    def __init__(self, ctx, options):
        super().__init__(ctx, options)
        self.empress = None  # the Empress's seat for the game about to start
        self.setup = False  # waiting for the Empress's buzzer
        self.draft = None  # the entry being made (None once the game is over)
        self.last = None  # the last entry applied
        self.refused = None
        self._refused_until = 0

    def game_options(self):
        return {} if self.empress is None else {"empress": self.empress}

    def new_game(self, now_ms):
        if self.players >= 5 and self.empress is None:
            self.setup = True
            self.ctx.leds.set_colours(self.ctx.roster.seat_colours(self.players))
            self.ctx.leds.lit((1 << self.players) - 1, now_ms)  # the seats in play: one is hers
            self.show()
            return
        self.setup = False
        GameMode.new_game(self, now_ms)
        self.empress = None

    def apply(self, action, extra=None):
        GameMode.apply(self, action, extra)
        self.last = action

    # ---- buttons

    def on_button(self, bit, down, tick_us):
        if not self.setup:
            return GameMode.on_button(self, bit, down, tick_us)
        if down:
            now = self.ctx.clock.now_ms()
            if bit < self.players:
                self.empress = bit
                self.new_game(now)
            elif bit == OK_BIT:
                self._change_players(now)
            elif bit == BACK_BIT:
                return False  # back to the menu
            else:
                self.nope("mode" if bit == MODE_BIT else "P%d" % (bit + 1), now)
        return True

    def on_player(self, seat, down, tick_us):
        if down and self.draft is not None:
            self.refused = None  # the reason stays until the next button, a buzzer too
            self._press(seat, self.ctx.clock.now_ms())

    def on_control(self, bit, now_ms):
        if self.refused is not None:
            self.refused = None
            self.show()
        if self.draft is None:  # the result is shown: ok is the next game, back the undo
            if bit == OK_BIT:
                self.end_game("ended", now_ms, show=False)
                self.new_game(now_ms)
                return True
            return False
        if bit == OK_BIT and self.draft.react():
            self.show()
            return True
        return self._press(bit, now_ms)

    def _press(self, bit, now_ms):
        kind, value = self.draft.press(bit)
        if kind == ENTRY:
            self.enter(value, now_ms)
        elif kind == REFUSE:
            self._refuse(value, now_ms)
        elif kind == CANCEL:
            if self.draft.at_top():
                return False  # the framework's back: undo
            self.draft = Draft(self.game)
            self._lights(now_ms)  # the decider's LED again, not the responder's
            self.show()
        elif kind == MOVED:
            self._lights(now_ms)  # the responder picks their space: their LED
            self.show()
        else:
            return False
        return True

    # ---- hooks

    def on_game(self, event, now_ms):
        game = self.game
        if event != "action":
            self.last = None
        if event != "roster":
            self.refused = None
            self.draft = None if game.is_over() else Draft(game)
            self._lights(now_ms)
        self.show()

    def on_refused(self, why, now_ms):
        if self.game is not None and not self.session.over:
            self.draft = Draft(self.game)  # the entry starts over
        self._refuse(why, now_ms)

    def _refuse(self, why, now_ms):
        self.refused = why
        self._refused_until = ticks_add(now_ms, REFUSAL_MS)
        self.ctx.leds.error(now_ms)
        self.ctx.sound.play("error", now_ms)
        self.ctx.emit("refused", {"msg": why})
        self.show()

    def on_tick(self, now_ms):
        if self.refused is not None and ticks_diff(now_ms, self._refused_until) >= 0:
            self.refused = None
            self.show()

    def on_end(self, now_ms):
        self.draft = None
        self.refused = None
        self.show()

    def key_hints(self, hints):
        """What ok and back do in the entry being made (on_control), where it is not the
        framework's meaning."""
        ok, back, mode = hints
        draft = self.draft
        if self.setup:  # EMPRESS?: ok the next count, back the menu
            return self.setup_hint(self.next_setup()), "menu", "-"
        if self.session.over or self.session.state is None:
            return hints
        if draft is None:  # the result is shown: ok starts the next game
            return "new", back, mode
        if draft.reacting:
            return ok, "cancel", mode
        if draft.menu is not None:
            ok = "next"
            if draft.menu.index > 0:
                back = "prev"
        elif draft.kind == "ask" and draft.at_top() and self.game.react is not None:
            ok = "react"
        if back != "prev" and not draft.at_top():
            back = "cancel"  # the entry starts over
        return ok, back, mode

    def mode_status(self):
        game = self.game
        return {"setup": self.setup, "refused": self.refused,
                "frame": game.frame() if game is not None and not self.setup else None}

    # ---- outputs

    def _lights(self, now_ms):
        game = self.game
        if self.draft is not None:
            self.ctx.leds.lit(1 << self.draft.decider(), now_ms)
        else:
            mask = 0  # the winners' LEDs stay lit
            for p in game.winners():
                mask |= 1 << p
            self.ctx.leds.lit(mask, now_ms)

    def show(self):
        self.hints()  # a buzzer moves an entry on too, not only ok and back
        d = self.ctx.display
        if d is None:
            return
        if self.setup:
            d.text(["%d players" % self.players, "the Empress:", "press your", "buzzer", "ok: players"],
                   title="EMPRESS?")
            return
        names = self.ctx.roster.seat_names(self.players)
        game = self.game
        if self.refused is not None:
            d.text(text.wrap(self.refused)[: d.rows - 1], title="NOT POSSIBLE")
            return
        draft = self.draft
        if draft is None:
            lines = text.end_lines(names, game) if game.ended else ["ended early"]
            over = self.session.over
            more = ["back: menu"] if over else ["back: undo", "mode: end"]
            d.text(lines + ["ok: next game"] + more, title="GAME OVER")
            return
        last = self.last
        if game.ended is not None:  # the roles are entered after an end effect
            above = [text.END_WORDS.get(game.ended, game.ended), "roles in turn"]
        elif last is not None and last[0] in ("answer", "question"):
            above = text.answered(names, game, last)
        elif last is not None and last[0] == "react":
            above = ["%s reacted:" % text.short(names[last[1]], 8), text.shown(game, last[1])]
        else:
            above = text.status_lines(names, game, draft.p)
        if draft.reacting:
            d.text(["press the buzzer", "of who reacts", "back: cancel"], title="REACTION")
        elif draft.menu is None:
            if draft.kind == "ask":
                lines = above + ["responder:", "press buzzer"]
                if game.react is not None:
                    lines.append("ok: a Reaction")
                d.text(lines, title="%s ASKS" % text.short(names[draft.p], 10))
            else:
                d.text(above + ["press a buzzer"], title=text.TARGET_WORDS.get(draft.name, "WHO?"))
        else:
            hint = ["ok: next", "%s buzzer: pick" % text.short(names[draft.decider()], 6)]
            draft.menu.show(d, above, hint)
