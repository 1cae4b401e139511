"""A session's game rebuilt from storage: back through the game by replaying its records,
and the kept copy read back after a power cut (firmware/session.py says when).

Loaded only when needed, by an undo of an engine without an undo action of its own or by
a mode start that finds a kept game; the app forgets it with the mode's other modules.
"""

import gc
import json

from engine import gamelog
from engine.core import IllegalAction, digest_of

REPLAY_CHUNK = 32  # actions replayed between two collections: the heap stays bounded


def game_records(session):
    """The session's game's records in the journal, decoded one at a time."""
    gid = session.game_id
    for rec in session.ctx.journal.iter_since(gid - 1):
        if rec["seq"] == gid or rec["data"].get("game") == gid:
            yield rec


def standing(session, least=None):
    """The n of every action still standing (not taken back by an undo record), in order;
    ValueError unless the journal holds the game's start and its session.n action records
    (at least `least` of them, if given). session.seen: how many it holds."""
    out = []
    seen = 0
    started = False
    for rec in game_records(session):
        if rec["kind"] == gamelog.GAME_START:
            started = True
        if rec["kind"] != gamelog.ACTION:
            continue
        d = rec["data"]
        if d.get("n") != seen:
            raise ValueError("action %d of the game is missing from the journal" % seen)
        seen += 1
        if "undo" in d:
            if not out or out[-1] != d["undo"]:
                raise ValueError("undo record %d does not take back the last action" % d["n"])
            out.pop()
        else:
            out.append(d["n"])
    session.seen = seen
    if not started or (seen != session.n if least is None else seen < least):
        raise ValueError("the journal no longer holds the whole game")
    return out


def replay(session, standing):
    """A new state from the game's seed with the actions numbered in standing applied, each
    read back from the journal; checked against the digest recorded after the last one."""
    state = session.engine.new_game(session.seed, session.players, **session.options)
    digest = None
    i = 0
    for rec in game_records(session):
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


def load_kept(session):
    """The kept game (its file's fields, "state" read by the engine), or None if there is
    none, it is over or unusable (said in storage_error, and the damaged file removed)."""
    try:
        with open(session.kept_path()) as f:
            kept = _checked(json.load(f))
        kept["state"] = _kept_state(session, kept)
    except OSError:
        return None
    except Exception as e:  # noqa: BLE001 - a damaged file must not stop the mode
        session.storage_error = "kept game unreadable (%s): a new game starts" % (e,)
        session.forget()
        return None
    if kept["state"].is_over():
        session.forget()
        return None
    return kept


def _kept_state(session, kept):
    """The kept game's state. Where the session undoes by replay, the game is replayed from
    the journal the same way (each replay checked against the digest its last record
    holds): the records are what a host syncs, so they win over the kept copy, and they
    may hold one action more (a cut between the journal's append and the copy's
    replacement). The kept copy is the fallback when the journal no longer holds the game."""
    saved = kept["state"]
    players = kept.get("players")
    if not session.engine_undo and isinstance(kept["seed"], int) and isinstance(players, int):
        session.game_id, session.n, session.seed = kept["game"], kept["n"], kept["seed"]
        session.players, session.options = players, kept["options"]
        try:
            state = replay(session, standing(session, kept["n"]))
            if session.seen == kept["n"] and state.digest() != digest_of(saved):
                session.storage_error = "the kept copy differs from the records: resumed from the records"
            kept["n"] = session.seen
            return state
        except ValueError as e:
            why = str(e)
        gc.collect()
        session.storage_error = "game resumed from its kept copy (%s): undo stops here" % why
    return session.engine.from_dict(saved)


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
