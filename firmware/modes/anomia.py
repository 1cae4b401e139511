"""Anomia buzzers: fair first-press face-offs, ties and tie-breakers, winning-pile counts.

Player buttons feed the arbiter (firmware/arbiter.py); each decision lights the
winner (or the tie pattern), sounds, shows winner, gap and scores, and, once its
lockout is over and every later press is ranked, goes to the journal as an `action`
record of the anomia_score engine (docs/records.md) together with the arbiter's
measurements.

A game in progress survives a reset or a power cut: after every decision the game's
state goes to data/anomia_game.json (replaced atomically), and the mode resumes it when
it starts again without explicit options (the box boots back into the mode it was in).
A saved game that does not match explicitly requested options is closed with a
game_end record (reason "abandoned") and a new game starts.

Controls while the mode runs:
  back   undo the last decision (with nothing to undo: back to the menu)
  mode   end the game (scores and winners shown, a game_end record written)
  ok     after the end: a new game. Before the first face-off of a game: the number
         of players cycles 3..8 (kept in the settings).
"""

import json
import os

from engine import anomia_score
from engine.core import write_canonical
from firmware.arbiter import DONE, NONE, TIE, WIN, Arbiter, faceoff_record
from firmware.buttons import BACK_BIT, MODE_BIT, OK_BIT
from firmware.journal import replace_file
from firmware.settings import seat_colours
from firmware.ticks import ticks_add, ticks_diff, ticks_us

MIN_PLAYERS = 3
MAX_PLAYERS = 8
SHOW_DECISION_MS = 1500  # the winner screen stays this long before the scores return
CURRENT_GAME = "anomia_game.json"  # in the app's data folder: the game to resume


def _int_option(options, key, default, lo, hi):
    v = options.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError("%s must be an int in %d..%d, got %r" % (key, lo, hi, v))
    return v


def gap_text(gap_us):
    """'by 12.3 ms' for a gap in µs; the OLED has 16 columns."""
    if gap_us is None or gap_us < 0:
        return "alone"
    return "by %d.%d ms" % (gap_us // 1000, (gap_us % 1000) // 100)


class Mode:
    def __init__(self, app, options):
        settings = app.settings
        self.app = app
        self.explicit = bool(options)  # options given by a host or a script, not the menu
        self.players = _int_option(options, "players", settings.get("players"), MIN_PLAYERS, MAX_PLAYERS)
        self.tie_window_us = _int_option(options, "tie_window_us", settings.get("tie_window_us"), 0, 50000)
        self.lockout_ms = _int_option(options, "lockout_ms", settings.get("lockout_ms"), 0, 10000)
        self.arb = Arbiter(self.players, self.tie_window_us, self.lockout_ms * 1000)
        self.game = None  # the anomia_score state
        self.game_id = None  # seq of the game_start record
        self.n = 0  # actions applied in this game
        self.pending = NONE  # a WIN / TIE whose record waits for the end of its lockout
        self.over = False
        self.decisions = 0
        self.storage_error = None
        self._screen_until = None
        self._shown_gap = -1

    # ---- the game and its records

    def _names(self):
        roster = self.app.settings.get("roster")
        return [roster[p]["name"] for p in range(self.players)]

    def _record(self, kind, data):
        try:
            self.app.journal.append(kind, data, self.app.epoch())
        except OSError as e:  # storage full or failing: keep playing, say so loudly
            self.storage_error = "%s record not stored: %s" % (kind, e)
            self.app.leds.error(self.app.now_ms())
            self.app.emit("storage_error", {"msg": self.storage_error})

    def new_game(self, now_ms):
        seed = ticks_us() & 0x3FFFFFFF
        self.game = anomia_score.new_game(seed, self.players)
        self.game_id = self.app.journal.last_seq + 1
        self.n = 0
        self.over = False
        self.pending = NONE
        self.arb.set_players(self.players)
        self._light_seats(self.players)
        roster = self.app.settings.get("roster")
        self._record("game_start", {
            "game": self.game_id,
            "name": "anomia",
            "engine": "anomia_score",
            "seed": seed,
            "players": [{"name": roster[p]["name"], "colour": roster[p]["colour"]}
                        for p in range(self.players)],
            "options": {"tie_window_us": self.tie_window_us, "lockout_ms": self.lockout_ms},
            "digest": self.game.digest(),
        })
        self._save_current()
        self.app.leds.armed(now_ms)
        self._show_scores("ANOMIA %dP" % self.players)
        self.app.emit("game", {"event": "start", "game": self.game_id, "players": self.players})

    # ---- the game in progress, kept for a resume after a reset

    def _current_path(self):
        return self.app.data_dir + "/" + CURRENT_GAME

    def _save_current(self):
        data = {"game": self.game_id, "n": self.n, "tie_window_us": self.tie_window_us,
                "lockout_ms": self.lockout_ms, "state": self.game.to_dict()}
        try:
            # streamed: the state (with its undo history) never has to be one string
            replace_file(self._current_path(), lambda f: write_canonical(data, lambda s: f.write(s.encode())))
        except OSError as e:
            self.storage_error = "game state not kept: %s" % e

    def _clear_current(self):
        try:
            os.remove(self._current_path())
        except OSError:
            pass  # none kept

    def _load_current(self):
        """The kept game as (data, engine state), or None if there is none or it is unusable."""
        try:
            with open(self._current_path()) as f:
                data = json.load(f)
            game = anomia_score.from_dict(data["state"])
            for key in ("game", "n", "tie_window_us", "lockout_ms"):
                if not isinstance(data[key], int):
                    raise ValueError(key)
        except OSError:
            return None
        except Exception as e:  # noqa: BLE001 - a damaged file must not stop the mode
            self.storage_error = "kept game unreadable (%s): a new game starts" % (e,)
            self._clear_current()
            return None
        if game.is_over():
            self._clear_current()
            return None
        return data, game

    def _resume(self, data, game, now_ms):
        self.game = game
        self.game_id = data["game"]
        self.n = data["n"]
        self.players = game.players
        self.tie_window_us = data["tie_window_us"]
        self.lockout_ms = data["lockout_ms"]
        self.arb = Arbiter(self.players, self.tie_window_us, self.lockout_ms * 1000)
        if game.tiebreak:
            mask = 0
            for p in game.tiebreak:
                mask |= 1 << p
            self.arb.resume_tiebreak(mask)
        self.over = False
        self._light_seats(self.players)
        self.app.leds.armed(now_ms)
        self._show_scores("RESUMED")
        self.app.emit("game", {"event": "resume", "game": self.game_id, "players": self.players,
                               "scores": game.scores()})

    def _abandon(self, data, game):
        """Close a kept game that is not being resumed, so its records end properly."""
        game.apply(["end"])
        self._record("game_end", {"game": data["game"], "scores": game.scores(), "winners": game.winners(),
                                  "digest": game.digest(), "reason": "abandoned", "n": data["n"]})
        self._clear_current()

    def _light_seats(self, n):
        """Player LEDs in roster colours for the first n seats; seats not in play stay dark."""
        self.app.leds.set_colours(seat_colours(self.app.settings.get("roster"), n))

    def _apply(self, action, detail=None):
        self.game.apply(action)
        data = {"game": self.game_id, "n": self.n, "action": action, "digest": self.game.digest(),
                "scores": self.game.scores()}
        if detail is not None:
            data["faceoff"] = detail
        self.n += 1
        self._record("action", data)
        self._save_current()

    def end_game(self, reason, now_ms, show=True):
        if self.game is None or self.over:
            return
        self._settle_pending()
        self.game.apply(["end"])
        self._record("game_end", {"game": self.game_id, "scores": self.game.scores(),
                                  "winners": self.game.winners(), "digest": self.game.digest(),
                                  "reason": reason, "n": self.n})
        self.n += 1
        self.over = True
        self._clear_current()
        self.app.emit("game", {"event": "end", "game": self.game_id, "scores": self.game.scores(),
                               "winners": [p + 1 for p in self.game.winners()], "reason": reason})
        if not show:
            return
        names = self._names()
        best = self.game.winners()
        self.app.display.winner(names[best[0]] if len(best) == 1 else "TIE",
                                "%d cards" % self.game.scores()[best[0]], title="GAME OVER")
        if len(best) > 1:
            self.app.leds.tie(self._mask(best), now_ms)
        else:
            self.app.leds.winner(best[0], now_ms)

    # ---- decisions

    def _mask(self, players):
        m = 0
        for p in players:
            m |= 1 << p
        return m

    def _poll(self, now_us):
        arb = self.arb
        code = arb.poll(now_us)
        while code != NONE:
            if code == WIN or code == TIE:
                self._decided(code)
            elif code == DONE:
                self._settle_pending()
            code = arb.poll(now_us)

    def _decided(self, code):
        """Show a decision at once; its event and record wait for the lockout's end, when the
        gap to the 2nd press (which may come after the decision) and the ranks are final."""
        arb = self.arb
        now_ms = self.app.now_ms()
        self.pending = code
        self.decisions += 1
        app = self.app
        if code == WIN:
            app.leds.winner(arb.winner, now_ms)
            app.sound.play("winner", now_ms)
        else:
            app.leds.tie(arb.tied_mask, now_ms)
            app.sound.play("tie", now_ms)
        self._show_decision()
        self._screen_until = ticks_add(now_ms, SHOW_DECISION_MS)

    def _show_decision(self):
        arb = self.arb
        names = self._names()
        gap = arb.gap_us if arb.gap_us >= 0 else None
        self._shown_gap = arb.gap_us
        if self.pending == WIN:
            self.app.display.winner(names[arb.winner], gap_text(gap),
                                    title="TIE-BREAK" if arb.decided_round else "WINNER")
        else:
            tied = " ".join(names[arb.tied[i]] for i in range(arb.n_tied))
            self.app.display.winner("TIE", tied[:16], title=gap_text(gap).upper())

    def _announce(self, code):
        arb = self.arb
        gap = arb.gap_us if arb.gap_us >= 0 else None
        if code == WIN:
            self.app.emit("decision", {"event": "win", "winner": arb.winner + 1, "gap_us": gap,
                                       "tiebreak": arb.decided_round > 0, "scores": self.game.scores()})
        else:
            tied = [arb.tied[i] + 1 for i in range(arb.n_tied)]
            self.app.emit("decision", {"event": "tie", "players": tied, "gap_us": gap,
                                       "tiebreak": arb.decided_round > 0})

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

    def _settle_pending(self):
        """Write the pending decision (its lockout over, or cut short by undo / end)."""
        code = self.pending
        if code == NONE:
            return
        self.pending = NONE
        arb = self.arb
        detail = faceoff_record(arb)
        if code == WIN:
            self._apply(["win", arb.winner, self._loser()], detail)
        else:
            self._apply(["tie"] + sorted(arb.tied[i] for i in range(arb.n_tied)), detail)
        self._announce(code)
        self.app.leds.armed(self.app.now_ms())

    def undo(self, now_ms):
        if self.over:
            return False
        self._settle_pending()  # the undone decision stays in the journal, followed by its undo
        if not self.arb.undo():
            return False
        self._apply(["undo"])
        self.app.leds.armed(now_ms)
        self.app.sound.play("click", now_ms)
        self._show_scores("UNDONE")
        self.app.emit("decision", {"event": "undo", "scores": self.game.scores()})
        return True

    def _show_scores(self, title=None):
        names = self._names()
        scores = self.game.scores()
        tb = self.game.tiebreak
        if title is None:
            title = ("TB " + " ".join(names[p] for p in tb)) if tb else "SCORES"
        self.app.display.scores([(names[p], scores[p]) for p in range(self.players)], title=title[:16])
        self._screen_until = None

    # ---- the Mode interface

    def start(self, now_ms):
        kept = self._load_current()
        if kept is not None:
            data, game = kept
            same = (game.players == self.players and data["tie_window_us"] == self.tie_window_us
                    and data["lockout_ms"] == self.lockout_ms)
            if not self.explicit or same:
                self._resume(data, game, now_ms)
                return
            self._abandon(data, game)
        self.new_game(now_ms)

    def on_button(self, bit, down, tick_us):
        if bit < MAX_PLAYERS:
            if bit >= self.players or self.over:
                return True
            if down:
                # Decide everything due before this press first: exact whatever the batching.
                self._poll((tick_us - 1) & 0x3FFFFFFF)
                self.arb.set_ignored(self.app.debouncer.ignored() & 0xFF)
                self.arb.press(bit, tick_us)
            else:
                self.arb.release(bit, tick_us)
            return True
        if not down:
            return bit != BACK_BIT or not self.over
        now_ms = self.app.now_ms()
        if bit == BACK_BIT:
            return self.undo(now_ms)
        if bit == MODE_BIT:
            self.end_game("ended", now_ms)
            return True
        if bit == OK_BIT:
            if self.over:
                self.new_game(now_ms)
            elif self.n == 0 and self.pending == NONE and self.arb.state == 0:
                self._change_players(now_ms)
            return True
        return False

    def _change_players(self, now_ms):
        players = self.players + 1 if self.players < MAX_PLAYERS else MIN_PLAYERS
        try:
            self.app.settings.update({"players": players})
        except ValueError as e:  # e.g. a roster shorter than that: say why, keep the count
            self.storage_error = str(e)
            self.app.leds.error(now_ms)
            return
        self.end_game("players_changed", now_ms, show=False)
        self.players = players
        self.new_game(now_ms)

    def tick(self, now_ms):
        if self.over:
            return
        self._poll(self.app.input_now_us)
        if self._screen_until is not None:
            if ticks_diff(now_ms, self._screen_until) >= 0:
                self._show_scores()
            elif self.pending != NONE and self.arb.gap_us != self._shown_gap:
                self._show_decision()  # the 2nd press came after the decision: show its gap

    def settled(self, now_ms):
        self._poll(self.app.input_now_us)
        return self.pending == NONE and self.arb.state == 0

    def settings_changed(self, changes):
        # Timing settings apply from the next game; names and colours at once.
        if "roster" in changes and self.game is not None:
            self._light_seats(self.players)
            self._show_scores()

    def status(self):
        st = {"game": self.game_id, "players": self.players, "names": self._names(),
              "scores": self.game.scores() if self.game else None, "decisions": self.decisions,
              "tiebreak": self.game.tiebreak if self.game else None, "over": self.over,
              "tie_window_us": self.tie_window_us, "lockout_ms": self.lockout_ms}
        if self.storage_error:
            st["storage_error"] = self.storage_error
        return st

    def suspend(self):
        """The box shuts down: record a decision still in its lockout, keep the game."""
        if not self.over and self.game is not None:
            self._settle_pending()

    def stop(self):
        if not self.over and self.game is not None:
            self.end_game("left", self.app.now_ms())
        self._light_seats(MAX_PLAYERS)  # the menu's button test uses every seat
