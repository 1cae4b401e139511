"""One game of a mode on the box: its engine state, its records, its copy kept for a resume.

Every mode's game goes through a Session, so every mode gets the same behaviour:
- records: game_start, one action record per applied action, game_end (engine.gamelog).
  A game is recorded from its first action on: game_start is written with it, and its
  seq becomes the game id. A game ended before any action (the player count cycled, the
  mode left) leaves no record at all, and has no id (None);
- a power cut or reset: after every action the game is kept in data/<mode>_game.json
  (replaced atomically); the next start of the mode resumes it;
- abandon: a kept game that is not resumed is closed with reason "abandoned";
- end: the engine's end action where it has one, a game_end record, the kept copy removed;
- undo: the engine's own ["undo"] where it offers one (the undo is then part of the
  game's state and survives a reset), else back through the whole game: the state is
  rebuilt from the game's seed and the actions still standing, read back from the
  journal one record at a time (nothing but their n is held), and an undo record names
  the action taken back. Any engine gets undo this way, with no copies kept in RAM;
- resume of such an engine's game replays its records the same way and checks the
  result against the digest of the kept copy (the copy is the fallback when the journal
  no longer holds the whole game);
- status: game id, actions, scores, storage trouble.
The rebuild from storage (the replays, the kept copy read back) lives in
firmware/session_restore.py, loaded only when a game is undone by replay or a kept copy
exists: a mode playing along never holds that code.
A journal or flash failure never stops the game: it is kept in storage_error, the status
LED blinks and a storage_error event goes out (once while the journal keeps refusing
records, as a full one does until a sync makes room).
"""

import gc
import os

from engine import gamelog
from engine.core import IllegalAction, write_canonical
from firmware.journal import replace_file
from firmware.ticks import ticks_us

KEPT_SUFFIX = "_game.json"


class Session:
    def __init__(self, ctx, engine_name):
        self.ctx = ctx
        self.engine_name = engine_name
        gc.collect()  # an engine compiled from source needs the heap's large free blocks
        # engine/games.py names each game's engine engine.<name> (tests/shared/test_mode_registry.py
        # holds every mode to it): the box imports it by that name, without the registry
        self.engine = __import__("engine." + engine_name, None, None, ["new_game"])
        self.engine_undo = getattr(self.engine, "UNDO_ACTION", None)  # see engine/core.py
        self.state = None
        self.game_id = None  # seq of the game_start record (None until the first action)
        self.n = 0  # actions recorded in this game
        self._start = None  # the game_start data, until the first action records it
        self.undoable = 0  # how many actions back can probably be undone (for the hints)
        self.seed = None
        self.players = 0
        self.options = {}
        self.settings = {}
        self.over = False
        self.storage_error = None
        self._journal_failing = False  # the last record was refused (its event went out)
        self.seen = 0  # action records of the game the last standing() found (session_restore)

    # ---- records

    def record(self, kind, data):
        ctx = self.ctx
        try:
            ctx.journal.append(kind, data, ctx.clock.epoch())
        except OSError as e:  # storage full or failing: keep playing, say so loudly
            # A full journal refuses every record until a sync makes room: one event says
            # so, the status keeps the latest reason, the LED blinks at each record lost.
            self.fail("%s record not stored: %s" % (kind, e), self._journal_failing)
            self._journal_failing = True
            return
        self._journal_failing = False

    def fail(self, why, again=False):
        """Storage trouble: kept in storage_error (the status), the status LED blinks, and a
        storage_error event goes out unless it is the same trouble again."""
        self.storage_error = why
        self.ctx.leds.error(self.ctx.clock.now_ms())
        if not again:
            self.ctx.emit("storage_error", {"msg": why})

    # ---- a game's life

    def start(self, players, options, settings):
        """A new game; its game_start waits for the first action (see recorded)."""
        self.seed = ticks_us() & 0x3FFFFFFF
        self.state = self.engine.new_game(self.seed, players, **options)
        self.players = players
        self.options = options
        self.settings = settings
        self.game_id = None
        self.n = 0
        self.over = False
        self.undoable = 0
        seats = self.ctx.roster
        names, colours = seats.seat_names(players), seats.seat_colours(players)
        roster = [{"name": names[p], "colour": list(colours[p])} for p in range(players)]
        self._start = gamelog.start_data(
            None, self.ctx.name, self.engine_name, self.seed, roster, options, settings, self.state)

    @property
    def recorded(self):
        """True once the game has records (its first action was applied)."""
        return self.state is not None and self._start is None

    def apply(self, action, extra=None):
        """Apply an engine action (IllegalAction leaves everything as it was), record it, keep it."""
        self.state.apply(action)
        first = self._start is not None
        if first:  # the first action: the game starts to exist
            data = self._start
            self._start = None
            data["game"] = self.game_id = self.ctx.journal.last_seq + 1
            gc.collect()  # mid-play, the heap holds the play's garbage: two records need room
            self.record(gamelog.GAME_START, data)
        if action != self.engine_undo:
            self.undoable += 1
        self.record(gamelog.ACTION, gamelog.action_data(self.game_id, self.n, action, self.state, extra))
        self.n += 1
        self.keep()
        if first:
            gc.collect()  # the first records opened files mid-play: their garbage goes at once

    def undo(self):
        """Take back the last action; False when there is nothing to take back."""
        if self.over or self.state is None:
            return False
        if self.engine_undo:
            try:  # tried rather than looked up: legal_actions() can be a big list
                self.apply(self.engine_undo)
            except IllegalAction:
                self.undoable = 0
                return False
            self.undoable = max(self.undoable - 1, 0)
            return True
        from firmware.session_restore import replay, standing

        try:
            kept = standing(self)
            self.undoable = len(kept)
            if not kept:
                return False
            undone = kept.pop()
            state = replay(self, kept)
        except ValueError as e:  # records missing or damaged: say so, change nothing
            self.fail("cannot undo: %s" % e)
            return False
        self.state = state
        self.undoable -= 1
        self.record(gamelog.ACTION, gamelog.undo_data(self.game_id, self.n, undone, self.state))
        self.n += 1
        self.keep()
        return True

    def end(self, reason):
        """Close the game: the engine's end action if it has one, a game_end record (none for
        a game that was never recorded). True if a game_end was written."""
        if self.state is None or self.over:
            return False
        if self._start is not None:  # never played: nothing to close
            self._start = None
            self.over = True
            return False
        _end(self.state)
        self.record(gamelog.GAME_END, gamelog.end_data(self.game_id, self.n, self.state, reason))
        self.n += 1
        self.over = True
        self.forget()
        return True

    def kept_path(self):
        return self.ctx.data_dir + "/" + self.ctx.name + KEPT_SUFFIX

    # ---- the kept game

    def keep(self):
        data = {"game": self.game_id, "n": self.n, "seed": self.seed, "players": self.players,
                "options": self.options,
                "settings": self.settings, "state": self.state.to_dict()}
        try:
            # streamed: the state (with its undo history) never has to be one string
            replace_file(self.kept_path(), lambda f: write_canonical(data, lambda s: f.write(s.encode())))
        except OSError as e:
            self.storage_error = "game state not kept: %s" % e

    def forget(self):
        try:
            os.remove(self.kept_path())
        except OSError:
            pass  # none kept

    def load_kept(self):
        """The kept game (its file's fields, "state" read by the engine), or None if there is
        none, it is over or unusable (firmware/session_restore.py says how)."""
        try:
            os.stat(self.kept_path())
        except OSError:
            return None  # none kept: the restore code is not even loaded
        from firmware.session_restore import load_kept

        return load_kept(self)

    def resume(self, kept):
        self.state = kept["state"]
        self.game_id = kept["game"]
        self.n = kept["n"]
        self.seed = kept["seed"]
        self.players = getattr(self.state, "players", kept.get("players"))
        self.options = kept["options"]
        self.settings = kept["settings"]
        self.over = False
        self._start = None
        self.undoable = self.n  # not known after a reset: back tries, and says when it cannot

    def abandon(self, kept):
        """Close a kept game that is not being resumed, so its records end properly."""
        state = kept["state"]
        _end(state)
        self.record(gamelog.GAME_END, gamelog.end_data(kept["game"], kept["n"], state, "abandoned"))
        self.forget()

    def status(self):
        st = self.state
        out = {"game": self.game_id, "actions": self.n, "over": self.over,
               "scores": st.scores() if st is not None else None}
        if self.storage_error:
            out["storage_error"] = self.storage_error
        return out


def _end(state):
    """Apply the engine's end action where the game has one and is not over yet."""
    if not state.is_over():
        try:
            state.apply(gamelog.END_ACTION)
        except IllegalAction:
            pass  # an engine without an early end: the game closes as it stands
