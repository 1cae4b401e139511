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
A journal or flash failure never stops the game: it is kept in storage_error, the status
LED blinks and a storage_error event goes out.
"""

import gc
import json
import os

from engine import gamelog
from engine.core import IllegalAction, digest_of, write_canonical
from engine.games import get_game
from firmware.journal import replace_file
from firmware.ticks import ticks_us

REPLAY_CHUNK = 32  # actions replayed between two collections: the heap stays bounded
KEPT_SUFFIX = "_game.json"


class Session:
    def __init__(self, ctx, engine_name):
        self.ctx = ctx
        self.engine_name = engine_name
        gc.collect()  # an engine compiled from source needs the heap's large free blocks
        self.engine = get_game(engine_name)
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
        self._seen = 0  # action records of the game the last _standing() found

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
        try:
            standing = self._standing()
            self.undoable = len(standing)
            if not standing:
                return False
            undone = standing.pop()
            state = self._replay(standing)
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

    # ---- the game rebuilt from its records

    def _game_records(self):
        """This game's records in the journal, decoded one at a time."""
        gid = self.game_id
        for rec in self.ctx.journal.iter_since(gid - 1):
            if rec["seq"] == gid or rec["data"].get("game") == gid:
                yield rec

    def _standing(self, least=None):
        """The n of every action still standing (not taken back by an undo record), in order;
        ValueError unless the journal holds the game's start and its self.n action records
        (at least `least` of them, if given). self._seen: how many it holds."""
        standing = []
        seen = 0
        started = False
        for rec in self._game_records():
            if rec["kind"] == gamelog.GAME_START:
                started = True
            if rec["kind"] != gamelog.ACTION:
                continue
            d = rec["data"]
            if d.get("n") != seen:
                raise ValueError("action %d of the game is missing from the journal" % seen)
            seen += 1
            if "undo" in d:
                if not standing or standing[-1] != d["undo"]:
                    raise ValueError("undo record %d does not take back the last action" % d["n"])
                standing.pop()
            else:
                standing.append(d["n"])
        self._seen = seen
        if not started or (seen != self.n if least is None else seen < least):
            raise ValueError("the journal no longer holds the whole game")
        return standing

    def _replay(self, standing):
        """A new state from the game's seed with the actions numbered in standing applied, each
        read back from the journal; checked against the digest recorded after the last one."""
        state = self.engine.new_game(self.seed, self.players, **self.options)
        digest = None
        i = 0
        for rec in self._game_records():
            d = rec["data"]
            if rec["kind"] == gamelog.GAME_START:
                digest = d.get("digest")
            elif i < len(standing) and rec["kind"] == gamelog.ACTION and d.get("n") == standing[i]:
                try:
                    state.apply(d.get("action"))
                except IllegalAction as e:
                    raise ValueError("action %d does not replay: %s" % (d["n"], e))
                digest = d.get("digest")
                i += 1
                if i % REPLAY_CHUNK == 0:
                    gc.collect()  # the decoded records are garbage: keep the heap from filling
        if i != len(standing) or state.digest() != digest:
            raise ValueError("the replayed game differs from its records")
        return state

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
        none, it is over or unusable (said in storage_error, and the damaged file removed)."""
        try:
            with open(self.kept_path()) as f:
                kept = _checked(json.load(f))
            kept["state"] = self._kept_state(kept)
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

    def _kept_state(self, kept):
        """The kept game's state. Where the session undoes by replay, the game is replayed from
        the journal the same way (each replay checked against the digest its last record
        holds): the records are what a host syncs, so they win over the kept copy, and they
        may hold one action more (a cut between the journal's append and the copy's
        replacement). The kept copy is the fallback when the journal no longer holds the game."""
        saved = kept["state"]
        players = kept.get("players")
        if not self.engine_undo and isinstance(kept["seed"], int) and isinstance(players, int):
            self.game_id, self.n, self.seed = kept["game"], kept["n"], kept["seed"]
            self.players, self.options = players, kept["options"]
            try:
                state = self._replay(self._standing(kept["n"]))
                if self._seen == kept["n"] and state.digest() != digest_of(saved):
                    self.storage_error = "the kept copy differs from the records: resumed from the records"
                kept["n"] = self._seen
                return state
            except ValueError as e:
                why = str(e)
            gc.collect()
            self.storage_error = "game resumed from its kept copy (%s): undo stops here" % why
        return self.engine.from_dict(saved)

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


def _checked(data):
    """A kept game file's data, checked (a plain dict, not a class: the running mode holds
    less code); its "state" is still the saved dict. ValueError/KeyError if unusable."""
    for key in ("game", "n"):
        if not isinstance(data[key], int):
            raise ValueError(key)
    if data.get("settings") is None:  # kept before the settings had their own field
        data["settings"] = {k: data[k] for k in data if k not in ("game", "n", "state", "seed", "options")}
    data["seed"] = data.get("seed")
    data["options"] = data.get("options") or {}
    if not isinstance(data["settings"], dict) or not isinstance(data["options"], dict):
        raise ValueError("settings")
    if not isinstance(data["state"], dict):
        raise ValueError("state")
    return data
