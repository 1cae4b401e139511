"""GameMode: what every game mode shares; a mode subclasses it and fills in the hooks it needs.

The hooks and the controls every mode shares are described in the comment below (a
comment, not this docstring: the device compiles this file in a small heap, and a long
docstring is one big string there).
"""

#
# The app calls start, on_button, tick, due_us, settled, status, settings_changed, suspend and stop.
# GameMode turns those into a game on a firmware.session.Session and into hooks, all
# no-ops by default:
#
#     on_game(event, now_ms)    a game "start"ed or was "resume"d, "undo" took back an action,
#                               the "roster" changed, or "continue": the end was not confirmed
#                               (redraw the game's screen and LEDs): take over LEDs and screen
#     on_player(seat, down, tick_us)   a debounced player edge, seat < self.players
#     on_ok(now_ms)             ok during a game after the first action (before it, ok
#                               moves to the next setup, see next_setup); only called
#                               when ok_hint() is not "-"
#     ok_hint() -> str          what ok does during the game, in a few letters for the hint
#                               row ("-": nothing, the default; ok then gets the nope)
#     key_hints(hints) -> hints the hint row's (ok, back, mode) as the framework means them;
#                               a mode whose on_control gives a key its own meaning (a pick
#                               list's "next", "prev", "cancel") returns them changed
#     OK_IN_TEXT                True when the mode's screen says in words what ok does
#                               whenever ok does something: a hint row too narrow for all
#                               three keys then leaves out ok's part rather than mode's
#     next_setup() -> dict      the settings ok moves to before a game's first action
#                               (default: the next player count within the entry's limits;
#                               a mode with more setups, partnerships say, adds its keys);
#                               the hint row shows setup_hint(setup) for it
#     setup_hint(setup) -> str  that setup in a few letters: "5P" for the next count
#                               (default; "setup" when more than the count changes)
#     on_control(bit, now_ms) -> bool   ok, back or mode pressed during a game, before the
#                               framework's meaning: True when the mode used it (a pick
#                               list open, an entry half made), False to leave it to the
#                               framework (default)
#     refusal(action) -> str|None   the mode's own reason to refuse an entry the engine
#                               would take (default None)
#     on_refused(why, now_ms)   an entry was refused: show the one-line reason
#     on_tick(now_ms)           every few ms while a game runs (not while "END GAME?" shows)
#     flush()                   settle what the mode decided but has not applied yet; called
#                               before an undo, an end, a suspend
#     on_due() -> int           the us tick at which on_tick has a decision due, or -1
#                               (default): the app's input task wakes for it to the us
#     is_settled(now_ms) -> bool  False while a decision is still pending (scripts wait)
#     on_end(now_ms)            the game ended (confirmed): show the result
#     game_options() -> dict    engine options for a new game (default {})
#     mode_status() -> dict     the mode's own part of the status op
#
# Controls the framework handles, the same in every mode (after on_control, if the mode
# did not use the key):
# - back = undo; with nothing to undo: before the first action back to the menu, after it
#   the end confirmation;
# - mode = end the game, after a confirmation: the screen shows "END GAME?", ok ends it
#   (reason "ended"), any other key goes back to the game (on_game("continue"));
# - ok before the first action cycles the player count; ok after the end starts a new game.
# - A game is recorded from its first action on (firmware/session.py): cycling the player
#   count or leaving before it records nothing, and no "end" event goes out for it.
# - Hints: the display's bottom row says what ok, back and mode do now ("O:- B:undo M:end",
#   set_hint), and a "hints" event {"ok", "back", "mode", "line"} goes out when it changes.
# - nope(key, now_ms): a key that does nothing in this state gets a short low tone and a
#   "nope" event {"key": "ok" | "back" | "mode" | "P3"}; the framework gives it for ok
#   when ok_hint() is "-", mode before the first action or after the end, player buttons
#   of empty seats or after the end. A mode calls it for presses it ignores.
# enter(action, now_ms) is the one way an engine action gets in, from the mode's buttons
# and from a host (the protocol's act op, through the app): the same checks, the reason
# when refused (nothing changed), the action event and on_game("action") when applied.
# ["undo"] is the back button's undo for every game, also where the engine has none.
# Options (a host's mode op, a script) override the mode's settings for the game they
# start: {"players": n, <setting>: value}, checked like the settings. Without options a
# kept game is resumed; with options that differ from the kept game's, it is abandoned.
#


import gc

from engine.core import IllegalAction
from firmware import modes
from firmware.buttons import BACK_BIT, MODE_BIT, OK_BIT, SEATS
from firmware.session import Session

UNDO = ["undo"]  # an entry that takes back the last one, whatever the engine


def hint_line(hints, width=16, ok_in_text=False):
    """"O:- B:undo M:end" for (ok, back, mode); too wide for the screen, the keys that do
    nothing ("-") go first, then mode's part (ok's when the screen's text says what ok does)."""
    items = ["O:" + hints[0], "B:" + hints[1], "M:" + hints[2]]
    line = " ".join(items)
    if len(line) > width:
        line = " ".join(i for i in items if not i.endswith(":-"))
    if len(line) > width:
        line = " ".join(i for i in (items[1:] if ok_in_text else items[:2]) if not i.endswith(":-"))
    return line[:width]


class GameMode:
    ENGINE = None  # the engine's name in engine/games.py
    OK_IN_TEXT = False  # the screen's text says what ok does (see hint_line)

    def __init__(self, ctx, options):
        self.ctx = ctx
        self.entry = modes.find(ctx.name)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("mode options must be an object")
        self.explicit = bool(options)  # given by a host or a script, not the menu
        # the checks are loaded for this and forgotten: a running game does not hold them
        why = modes.call_once("firmware.checks", "options_refusal", self.entry, options)
        if why:
            raise ValueError(why)
        values = ctx.settings.get()
        for key in options:
            values[key] = options[key]
        self.players = values.pop("players")
        self.values = values  # the mode's settings for this game, options applied
        self.session = Session(ctx, self.ENGINE)
        self.confirming = False  # "END GAME?" is on the screen
        self._hints = None

    # ---- hooks (no-op defaults)

    def _nothing(self, *args):
        pass

    # one no-op for the hooks that return nothing (their arguments are listed above)
    on_game = on_player = on_ok = on_tick = flush = on_end = on_refused = _nothing

    def on_control(self, bit, now_ms):
        return False

    def refusal(self, action):
        return None

    def is_settled(self, now_ms):
        return True

    def on_due(self):
        """The us tick at which on_tick has a decision due, or -1 (see due_us)."""
        return -1

    def ok_hint(self):
        return "-"

    def key_hints(self, hints):
        return hints

    def game_options(self):
        return {}

    def mode_status(self):
        return {}

    # ---- the game

    @property
    def game(self):
        return self.session.state

    def apply(self, action, extra=None):
        self.session.apply(action, extra)
        self.hints()

    def enter(self, action, now_ms):
        """Apply one engine action entered at the table or by a host: None once applied, else
        the one-line reason it was refused (and nothing changed)."""
        session = self.session
        if session.state is None or session.over:
            why = "no game is running: ok starts one"
        elif action == UNDO and not session.engine_undo:  # the box's own undo, as back gives
            if self.undo(now_ms):
                return None
            why = "nothing to undo"
        else:
            self.flush()
            why = self.refusal(action)
            if why is None:
                try:
                    self.apply(action)
                except IllegalAction as e:
                    why = str(e)
        if why is not None:
            self.on_refused(why, now_ms)
            return why
        self.confirming = False  # an entry from a host answers "END GAME?" with no
        self.hints()
        self.ctx.emit("action", {"n": session.n - 1, "action": action})
        self.on_game("action", now_ms)
        return None

    def new_game(self, now_ms):
        self.ctx.leds.set_colours(self.ctx.roster.seat_colours(self.players))
        self.session.start(self.players, self.game_options(), self.values)
        self.ctx.emit("game", {"event": "start", "players": self.players})  # its id comes with its 1st action
        self.on_game("start", now_ms)
        self.hints()
        gc.collect()  # the start's garbage gone before play: its decisions need room in one piece

    def end_game(self, reason, now_ms, show=True):
        self.confirming = False
        if self.session.state is None or self.session.over:
            return
        self.flush()
        if not self.session.end(reason):
            return  # never played: no record, no event, no result to show
        game = self.session.state
        self.ctx.emit("game", {"event": "end", "game": self.session.game_id, "scores": game.scores(),
                               "winners": [p + 1 for p in game.winners()], "reason": reason})
        if show:
            self.on_end(now_ms)
        self.hints()

    def undo(self, now_ms):
        if self.session.over:
            return False
        self.flush()  # a decision not yet applied is applied, then taken back
        if not self.session.undo():
            return False
        self.ctx.emit("decision", {"event": "undo", "scores": self.session.state.scores()})
        self.on_game("undo", now_ms)
        self.hints()
        return True

    def confirm_end(self, now_ms):
        """Ask before ending: "END GAME?" until the next key (ok = yes)."""
        self.flush()
        self.confirming = True
        display = self.ctx.display
        if display is not None:
            display.text(["ok: end it", "other key:", "  play on"], title="END GAME?")
        self.ctx.sound.play("click", now_ms)
        self.hints()

    def _confirmed(self, bit, now_ms):
        self.confirming = False
        if bit == OK_BIT:
            self.end_game("ended", now_ms)
        else:
            self.on_game("continue", now_ms)
            self.hints()

    # ---- hints and feedback

    def hints(self):
        """Put what ok / back / mode do now on the hint row; a "hints" event when it changed."""
        s = self.session
        if self.confirming:
            ok, back, mode = "yes", "no", "no"
        elif s.over or s.state is None:
            ok, back, mode = "new", "menu", "-"
        elif not s.recorded:
            ok, back, mode = self.setup_hint(self.next_setup()), "menu", "-"
        else:
            ok, back, mode = self.ok_hint(), "undo" if s.undoable > 0 else "end", "end"
        hints = (ok, back, mode) if self.confirming else self.key_hints((ok, back, mode))
        if hints == self._hints:
            return
        ok, back, mode = hints
        self._hints = hints
        line = hint_line(hints, ok_in_text=self.OK_IN_TEXT)
        if self.ctx.display is not None:
            self.ctx.display.set_hint(line)
        self.ctx.emit("hints", {"ok": ok, "back": back, "mode": mode, "line": line})

    def nope(self, key, now_ms):
        """A key that does nothing here: a short low tone and a "nope" event, nothing changes."""
        self.ctx.sound.play("nope", now_ms)
        self.ctx.emit("nope", {"key": key})

    def nope_seat(self, seat):
        """A player's key that does nothing here (its own method: a press's frames stay small)."""
        self.nope("P%d" % (seat + 1), self.ctx.clock.now_ms())

    def setup_hint(self, setup):
        players = setup.get("players", self.players)
        if setup == {"players": self.players}:
            return "-"  # one count only
        return "%dP" % players if len(setup) == 1 and players != self.players else "setup"

    def next_setup(self):
        lo, hi = self.entry.min_players, self.entry.max_players
        return {"players": self.players + 1 if self.players < hi else lo}

    def _change_players(self, now_ms):
        setup = self.next_setup()
        gc.collect()  # the game given up is garbage now: the settings file is written next
        try:
            self.ctx.settings.update(setup)
        except ValueError as e:  # storage trouble: say why, keep the setup
            self.session.fail(str(e))
            return
        self.end_game("players_changed", now_ms, show=False)  # never played: nothing recorded
        for key in setup:
            if key == "players":
                self.players = setup[key]
            else:
                self.values[key] = setup[key]
        self.new_game(now_ms)

    # ---- what the app calls

    def start(self, now_ms):
        session = self.session
        kept = session.load_kept()
        if kept is not None:
            same = kept["state"].players == self.players and kept["settings"] == self.values
            if not self.explicit or same:
                session.resume(kept)
                self.players = kept["state"].players
                self.values = kept["settings"]
                self.ctx.leds.set_colours(self.ctx.roster.seat_colours(self.players))
                self.ctx.emit("game", {"event": "resume", "game": session.game_id, "players": self.players,
                                       "scores": session.state.scores()})
                self.on_game("resume", now_ms)
                self.hints()
                return
            session.abandon(kept)
        self.new_game(now_ms)

    def on_button(self, bit, down, tick_us):
        """A debounced edge; True when used (an unused back returns the app to the menu)."""
        if bit < SEATS and (not down or not self.confirming):
            session = self.session  # _playing() written out: every press comes this way
            if bit < self.players and not session.over and session.state is not None:
                self.on_player(bit, down, tick_us)
            elif down:
                self.nope_seat(bit)
            return True
        return self._control_button(bit, down)

    # on_button's control half is a method of its own: a frame of more than 11 slots goes on
    # the heap in MicroPython, an allocation at every press.

    def _playing(self):
        session = self.session
        return not session.over and session.state is not None

    def _control_button(self, bit, down):
        session = self.session
        playing = self._playing()
        if not down:
            return bit != BACK_BIT or playing
        now_ms = self.ctx.clock.now_ms()
        if not self.confirming and playing and self.on_control(bit, now_ms):
            self.hints()
            return True
        # played: an action recorded, or one decided and about to be (flush applies it)
        played = playing and (session.recorded or not self.is_settled(now_ms))
        if self.confirming:
            self._confirmed(bit, now_ms)
        elif bit == BACK_BIT:
            if not played:
                return False  # nothing played (or the game is over): the app shows the menu
            if not self.undo(now_ms):
                self.confirm_end(now_ms)  # nothing left to undo: leaving ends the game
        elif bit == MODE_BIT:
            if played:
                self.confirm_end(now_ms)
            else:
                self.nope("mode", now_ms)
        elif bit == OK_BIT:
            if not playing:
                self.new_game(now_ms)
            elif not played:
                self._change_players(now_ms)
            elif self.ok_hint() == "-":
                self.nope("ok", now_ms)
            else:
                self.on_ok(now_ms)
        else:
            return False
        return True

    def tick(self, now_ms):
        if not self.session.over and not self.confirming:
            self.on_tick(now_ms)

    def due_us(self):
        """The us tick of the next decision tick() makes, or -1: the app's input task
        sleeps until it rather than waiting for its next timed pass."""
        if self.session.over or self.confirming:
            return -1
        return self.on_due()

    def settled(self, now_ms):
        return self.session.over or self.confirming or self.is_settled(now_ms)

    def settings_changed(self, changes):
        # The mode's timings apply from the next game; names and colours at once.
        if "roster" in changes and self.session.state is not None:
            self.ctx.leds.set_colours(self.ctx.roster.seat_colours(self.players))
            self.on_game("roster", self.ctx.clock.now_ms())

    def status(self):
        st = self.session.status()
        st["players"] = self.players
        st["confirm_end"] = self.confirming
        st["hints"] = self._hints and hint_line(self._hints, ok_in_text=self.OK_IN_TEXT)
        st["names"] = self.ctx.roster.seat_names(self.players)
        for key in self.values:
            st[key] = self.values[key]
        extra = self.mode_status()
        for key in extra:
            st[key] = extra[key]
        return st

    def suspend(self):
        """The box shuts down: apply what is decided, keep the game for the next start."""
        if not self.session.over and self.session.state is not None:
            self.flush()

    def stop(self):
        if not self.session.over and self.session.state is not None:
            self.end_game("left", self.ctx.clock.now_ms())
        self.ctx.leds.set_colours(self.ctx.roster.seat_colours(SEATS))  # the button test uses every seat
