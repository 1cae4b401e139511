"""Anastasia solo: Finding Anastasia for 1-3 players with the automa, real cards on the table.

The box keeps what the table shows (engine anastasia_solo with cards "table"): purses,
tokens, the gems beneath each guest, face-up and looked-at clues, who is out, the automa
deck. Guests 1-6 are on buttons 1-6 (whatever the player count); the players are P1-P3,
in turn on the screen.

Controls (mode = end the game, as everywhere):
- a player's turn: ok and back step through the actions (firmware.modes.menu), a guest
  button picks the action for that guest ("Draw": any guest button). A clue action on a
  guest with several face-down cards then asks which card of its fan (ok/back, any guest
  button to choose; back on the first card cancels). Back on the first action undoes.
  Before the first action two more items: "Players" (a guest button steps 1-3) and
  "Guest away" (its button sends that guest away before the game, or brings it back).
- a role turned over (by a player or the automa): the table says what it is: that guest's
  button "Anastasia", ok "not Anastasia".
- the round is over: ok draws the automa card and shows its action 1, ok action 2, ok the
  next round. The OLED says each action in words; the LEDs carry it in the code of
  firmware.modes.anastasia_solo_code (docs/anastasia-solo-card.md).
Every entry goes through GameMode.enter: refused with the engine's reason, nothing changed.
"""

import engine.anastasia_solo  # noqa: F401, I001 - first: the biggest compile, on the least fragmented heap
from engine.anastasia_solo_rules import AUTOMA, REVEAL
from firmware.buttons import BACK_BIT, OK_BIT
from firmware.modes import anastasia_solo_screen as screen
from firmware.modes.base import GameMode
from firmware.modes.menu import CANCEL, Menu

GUESTS = 6
# (menu item, engine action name) of a player's turn; the set-up items come only before the first action
ACTIONS = (("Remove", "remove"), ("Draw", "draw"), ("Rev. clue", "reveal_clue"), ("Look", "look"),
           ("Rev. role", "reveal_role"))  # 10 characters at most: the pick list's line
SETUP = (("Players", "players"), ("Guest away", "away"))


class Mode(GameMode):
    ENGINE = "anastasia_solo"

    def __init__(self, ctx, options):
        super().__init__(ctx, options)
        self.away = []  # guests sent away at the set-up (engine option "away")
        self.pick = None  # the open pick list: of actions, or of a guest's cards
        self.card_for = None  # [action name, guest] while the card pick list is open
        self.ops = []  # the engine action (or set-up step) of each item of the actions' pick list
        self.shown = None  # the automa action on show (0 or 1), None outside an automa turn
        self.seen_turn = 0  # round of the latest automa turn shown (a new one starts at action 1)
        self.note = None  # a refusal or a hint, shown until the next entry

    def game_options(self):
        deck = self.values["automa_deck"]
        options = {"cards": "table", "away": list(self.away)}
        if deck:
            options["automa_deck"] = deck  # a deck of your own replaces the built-in ones
        else:
            options["difficulty"] = self.values["difficulty"]
        return options

    # ---- hooks

    def on_game(self, event, now_ms):
        game = self.game
        if event in ("start", "resume"):
            self.away = list(game.options["away"])
        rec = game.last_automa
        turn = rec["round"] if rec else 0
        if event == "action" and turn != self.seen_turn:
            self.shown = 0  # an automa turn was just taken: its action 1 first
        elif event != "action" and event != "roster":
            # a resumed or undone game waits for the role the automa turned over, or for nobody
            self.shown = len(rec["actions"]) - 1 if game.phase == REVEAL and game.turned[1] < 0 else None
        self.seen_turn = turn
        if event != "roster":
            self._close()
            self.note = None
        if game.is_over():
            self.end_game("ended", now_ms)
            return
        self.show(now_ms)

    def on_button(self, bit, down, tick_us):
        if bit < GUESTS:  # the guests' buttons, whatever the player count
            if down and not self.session.over:
                self.on_guest(bit + 1, self.ctx.clock.now_ms())
            return True
        return GameMode.on_button(self, bit, down, tick_us)

    def on_control(self, bit, now_ms):
        game = self.game
        shown = self.shown
        last = len(game.last_automa["actions"]) - 1 if shown is not None else 0
        if bit == OK_BIT and game.phase == AUTOMA:
            self.enter(["automa"], now_ms)
            return True  # entered: on_game or on_refused showed it
        if bit == OK_BIT and game.phase == REVEAL and (shown is None or shown >= last):
            self.enter(["role_seen", "other"], now_ms)
            return True
        if bit == OK_BIT and shown is not None:
            self.shown = shown + 1 if shown < last else None  # the next action, or the next round
        elif shown is None and game.phase != REVEAL and (bit == OK_BIT or bit == BACK_BIT):
            if self.actions_pick().press(bit) == CANCEL:
                if self.card_for is None:
                    return False  # back on the first action: the framework's undo
                self._close()
        else:
            return False
        self.note = None
        self.show(now_ms)
        return True

    def key_hints(self, hints):
        """What ok and back do here (on_control), where it is not the framework's meaning."""
        ok, back, mode = hints
        game = self.game
        if self.session.over or game is None:
            return hints
        shown = self.shown
        if game.phase == AUTOMA:
            ok = "automa"
        elif game.phase == REVEAL and (shown is None or shown >= len(game.last_automa["actions"]) - 1):
            ok = "no"  # the role turned over is not Anastasia
        elif shown is not None:
            ok = "next"  # the automa's next action, or the next round
        else:
            ok = "next"  # the pick list
            if self.pick is not None and self.pick.index > 0:
                back = "prev"
            elif self.card_for is not None:
                back = "cancel"
        return ok, back, mode

    def on_refused(self, why, now_ms):
        self.note = why
        self.ctx.leds.error(now_ms)
        self.ctx.sound.play("error", now_ms)
        self.show(now_ms)

    def on_end(self, now_ms):
        screen.result(self, now_ms)
        self.away = []  # the next game starts with every guest at the party

    def show(self, now_ms):
        self.hints()  # a guest button moves the turn on too, not only ok and back
        screen.show(self, now_ms)

    def mode_status(self):
        game = self.game
        if game is None:
            return {}
        return {"phase": game.phase, "round": game.round, "turn": game.turn + 1, "purses": list(game.purses),
                "tokens": list(game.tokens), "beneath": [x.gems for x in game.guests],
                "automa": game.last_automa}  # the record: its words load only on a host

    # ---- entries

    def on_guest(self, g, now_ms):
        game = self.game
        if self.shown is not None and self.shown < len(game.last_automa["actions"]) - 1:
            self.on_refused("Press ok: the automa's next action", now_ms)
            return
        if game.phase == REVEAL:
            if g == game.turned[0]:
                self.enter(["role_seen", "anastasia"], now_ms)
            else:
                self.on_refused("Guest %d's role is up: its button if Anastasia, ok if not" % game.turned[0],
                                now_ms)
            return
        if game.phase == AUTOMA or self.shown is not None:
            self.on_refused("The automa's turn: ok goes on", now_ms)
            return
        if self.card_for is not None:
            op, guest = self.card_for
            slot = self._slots(op, guest)[self.pick.index]
            self.enter([op, guest, slot], now_ms)
            return
        op = self.ops[self.actions_pick().index]
        if op == "players":
            self._change_players(now_ms)
            self.actions_pick().index = len(ACTIONS)  # stay on "Players" for the next step
            self.show(now_ms)
        elif op == "away":
            self._toggle_away(g, now_ms)
        elif op == "draw":
            self.enter(["draw"], now_ms)
        elif op in ("reveal_clue", "look"):
            self._clue(op, g, now_ms)
        else:
            self.enter([op, g], now_ms)

    def _clue(self, op, g, now_ms):
        """A clue action on Guest g: at once if one card can be meant, else the card pick list."""
        slots = self._slots(op, g) if screen.at_party(self.game, g) else []
        if len(slots) == 1 or not slots:  # none: the engine says why
            self.enter([op, g, slots[0] if slots else 0], now_ms)
            return
        self.card_for = [op, g]
        self.pick = Menu("GUEST %d CARD" % g, ["card %d" % (s + 1) for s in slots])
        self.note = None
        self.show(now_ms)

    def _slots(self, op, g):
        """The cards of Guest g's fan a clue action may mean: face down (and not yet looked at
        by the player in turn, for a look)."""
        x = self.game.guest(g)
        bit = 1 << self.game.turn
        return [s for s in x.facedown_slots() if op != "look" or not x.looked[s] & bit]

    def _toggle_away(self, g, now_ms):
        away = [x for x in self.away if x != g] if g in self.away else self.away + [g]
        if len(away) >= GUESTS:
            self.on_refused("At least one guest stays at the party", now_ms)
            return
        self.end_game("setup_changed", now_ms, show=False)
        self.away = away
        self.new_game(now_ms)
        self.actions_pick().index = len(ACTIONS) + 1  # stay on "Guest away" for the next guest
        self.show(now_ms)

    # ---- the pick lists

    def actions_pick(self):
        """The open pick list; with none open, the actions of a turn (and the set-up's before
        the first action), the first one shown."""
        if self.pick is None:
            items = ACTIONS + SETUP if self.session.n == 0 else ACTIONS
            self.ops = [op for _, op in items]
            self.pick = Menu("", [label for label, _ in items])
        return self.pick

    def _close(self):
        self.pick = None
        self.card_for = None
