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
  game's state and survives a reset), else the last UNDO_DEPTH actions are taken back
  from states kept in RAM, each with an undo record;
- status: game id, actions, scores, storage trouble.
A journal or flash failure never stops the game: it is kept in storage_error, the status
LED blinks and a storage_error event goes out.
"""

import json
import os

from engine import gamelog
from engine.core import IllegalAction, write_canonical
from engine.games import get_game
from firmware.journal import replace_file
from firmware.ticks import ticks_us

UNDO_DEPTH = 8  # session undo levels for engines without an undo action (RAM only)
UNDO_LIMIT = 64  # what the hints assume of an engine's own undo depth (back tries anyway)
KEPT_SUFFIX = "_game.json"


class Session:
    def __init__(self, ctx, engine_name):
        self.ctx = ctx
        self.engine_name = engine_name
        self.engine = get_game(engine_name)
        self.engine_undo = getattr(self.engine, "UNDO_ACTION", None)  # see engine/core.py
        self.state = None
        self.game_id = None  # seq of the game_start record (None until the first action)
        self.n = 0  # actions recorded in this game
        self._start = None  # the game_start data, until the first action records it
        self.undoable = 0  # how many actions back can probably be undone (for the hints)
        self.seed = None
        self.options = {}
        self.settings = {}
        self.over = False
        self.storage_error = None
        self._undo = []  # [(n of the action, state dict before it)], newest last

    # ---- records

    def record(self, kind, data):
        ctx = self.ctx
        try:
            ctx.journal.append(kind, data, ctx.clock.epoch())
        except OSError as e:  # storage full or failing: keep playing, say so loudly
            self.fail("%s record not stored: %s" % (kind, e))

    def fail(self, why):
        self.storage_error = why
        self.ctx.leds.error(self.ctx.clock.now_ms())
        self.ctx.emit("storage_error", {"msg": why})

    # ---- a game's life

    def start(self, players, options, settings):
        """A new game; its game_start waits for the first action (see recorded)."""
        self.seed = ticks_us() & 0x3FFFFFFF
        self.state = self.engine.new_game(self.seed, players, **options)
        self.options = options
        self.settings = settings
        self.game_id = None
        self.n = 0
        self.over = False
        self._undo = []
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
        before = None if self.engine_undo else self.state.to_dict()
        self.state.apply(action)
        if self._start is not None:  # the first action: the game starts to exist
            data = self._start
            self._start = None
            data["game"] = self.game_id = self.ctx.journal.last_seq + 1
            self.record(gamelog.GAME_START, data)
        if before is not None:
            self._undo.append((self.n, before))
            if len(self._undo) > UNDO_DEPTH:
                self._undo.pop(0)
        if action != self.engine_undo:
            self.undoable = min(self.undoable + 1, UNDO_DEPTH if before is not None else UNDO_LIMIT)
        self.record(gamelog.ACTION, gamelog.action_data(self.game_id, self.n, action, self.state, extra))
        self.n += 1
        self.keep()

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
        if not self._undo:
            return False
        self.undoable -= 1
        undone, before = self._undo.pop()
        self.state = self.engine.from_dict(before)
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
        self._undo = []
        self.forget()
        return True

    # ---- the kept game

    def kept_path(self):
        return self.ctx.data_dir + "/" + self.ctx.name + KEPT_SUFFIX

    def keep(self):
        data = {"game": self.game_id, "n": self.n, "seed": self.seed, "options": self.options,
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
        none, it is over or unusable (said in storage_error, and the damaged file removed)."""
        try:
            with open(self.kept_path()) as f:
                kept = _checked(json.load(f), self.engine)
        except OSError:
            return None
        except Exception as e:  # noqa: BLE001 - a damaged file must not stop the mode
            self.storage_error = "kept game unreadable (%s): a new game starts" % (e,)
            self.forget()
            return None
        if kept["state"].is_over():
            self.forget()
            return None
        return kept

    def resume(self, kept):
        self.state = kept["state"]
        self.game_id = kept["game"]
        self.n = kept["n"]
        self.seed = kept["seed"]
        self.options = kept["options"]
        self.settings = kept["settings"]
        self.over = False
        self._undo = []
        self._start = None
        self.undoable = self.n if self.engine_undo else 0  # unknown: back tries, says when it cannot

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


def _checked(data, engine):
    """A kept game file's data, checked, its state read by the engine (a plain dict, not a
    class: the running mode holds less code): ValueError/KeyError/BadState if unusable."""
    for key in ("game", "n"):
        if not isinstance(data[key], int):
            raise ValueError(key)
    if data.get("settings") is None:  # kept before the settings had their own field
        data["settings"] = {k: data[k] for k in data if k not in ("game", "n", "state", "seed", "options")}
    data["seed"] = data.get("seed")
    data["options"] = data.get("options") or {}
    if not isinstance(data["settings"], dict) or not isinstance(data["options"], dict):
        raise ValueError("settings")
    data["state"] = engine.from_dict(data["state"])
    return data
