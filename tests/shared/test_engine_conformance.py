"""What every engine in engine/games.py must do (engine/core.py), checked the same way for all.

Driven only by each module's declarations (MIN_PLAYERS, MAX_PLAYERS, OPTIONS,
STATE_VERSION and, where declared, VARIANTS: option sets worth walking), so a new engine
gets these tests by registering: seeded random playouts end; at every step the state
round-trips through JSON with the same digest, the digest is stable, current_player()
is a seat or a core id, winners() is [] until the end, and an action outside
legal_actions() is refused with the state unchanged; every legal action applies at
sampled steps; from_dict refuses what is not a saved state of its game.
tests/host/test_determinism.py compares the playouts' digests across runtimes.
"""

import gc
import json

from engine import core, games, playout
from engine.core import BadState, IllegalAction
from tests.shared.compat import IS_MICROPYTHON, raises

SEEDS_PER_SETUP = 2
ALL_ACTIONS_EVERY = 40  # legal actions are tried on a copy at step 0 and every this many
ACTIONS_TRIED = 24  # at most this many of them, spread over the list (some games list thousands)
# The JSON round trip at every one of a game's first steps, then at every this many (a copy
# of a big state is the test's dearest step, tenfold on MicroPython).
ROUND_TRIP_EVERY = 7 if IS_MICROPYTHON else 3
FIRST_STEPS = 20
NOT_ACTIONS = (None, 7, "end", [], ["no such action"], {"op": "win"})


def _drop(text):
    pass


# "game" or "game:k" (its k-th setup of variants(), 0 = the defaults): one game, one setup.
# tests/run_micropython.py runs a process per game and setup: a Pico-sized heap holds one
# engine and the tables one setup loads, as a box does.
ENGINE_ENV = "TABLEMATE_ENGINE"


def selected():
    """(game name or None, setup index or None) from $TABLEMATE_ENGINE."""
    import os

    value = getattr(os, "getenv", lambda k: None)(ENGINE_ENV)
    if not value:
        return None, None
    name, _, k = value.partition(":")
    return name, int(k) if k else None


def engines():
    """(name, engine module) of every registered game (or of $TABLEMATE_ENGINE), one at a
    time: under MicroPython the engine before is dropped first, so a small heap holds one
    engine's tables at once."""
    only = selected()[0]
    for name in sorted(games.GAMES):
        if only and name != only:
            continue
        if IS_MICROPYTHON:
            _forget_engines()
        yield name, games.get_game(name)


KEEP = ("engine", "engine.core", "engine.rng", "engine.games", "engine.playout")


def _forget_engines():
    """Drop every engine module (and its tables) but the shared ones, from sys.modules and
    from the engine package, so the collector can take them."""
    import sys

    import engine

    for mod in list(sys.modules):
        if mod.startswith("engine.") and mod not in KEEP:
            del sys.modules[mod]
            if hasattr(engine, mod[7:]):
                delattr(engine, mod[7:])
    gc.collect()


def variants(engine, only=None):
    """The option sets to walk: the defaults, then each declared variant (or only the k-th)."""
    out = [{}] + [v for v in getattr(engine, "VARIANTS", None) or () if v]
    return out if only is None else [out[only]]


def player_counts(engine):
    lo, hi = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    return sorted(set((lo, (lo + hi) // 2, hi)))


def _copy(state, engine):
    """from_dict of the saved state after a JSON round trip (on CPython: the JSON text of a
    big state would need one whole block of a Pico-sized heap; digest_of has already shown
    the dict is JSON-safe there)."""
    d = state.to_dict()
    if IS_MICROPYTHON:
        return engine.from_dict(d)
    return engine.from_dict(json.loads(json.dumps(d)))


def _is_seat(p, players):
    return isinstance(p, int) and not isinstance(p, bool) and 0 <= p < players


def _not_legal(legal):
    """Actions a state with these legal actions does not offer: garbage, and legal actions
    with an extra argument."""
    out = [a for a in NOT_ACTIONS if a not in legal]
    for a in legal[:3]:
        longer = (list(a) if isinstance(a, (list, tuple)) else [a]) + [99]
        if longer not in legal:
            out.append(longer)
    return out


def check_step(name, engine, state, players, step):
    d = state.to_dict()
    assert d.get("version") == engine.STATE_VERSION, name
    before = state.digest()
    if step < FIRST_STEPS or step % ROUND_TRIP_EVERY == 0 or state.is_over():
        assert before == core.digest_of(d), "%s: digest() is not the digest of to_dict()" % name
        copy = _copy(state, engine)
        assert copy.digest() == before, "%s: from_dict(to_dict()) changes the digest" % name
        del copy
    del d
    if IS_MICROPYTHON:
        gc.collect()  # a big action list needs whole blocks of a small heap
    legal = state.legal_actions()
    cp = state.current_player()
    if state.is_over():
        assert cp == core.TERMINAL and legal == [], name
        # seats only; [] when no seat won (the automa of a solo game, say)
        assert all(_is_seat(w, players) for w in state.winners()), (name, state.winners())
    else:
        assert cp in (core.CHANCE, core.SIMULTANEOUS) or _is_seat(cp, players), (name, cp)
        assert state.winners() == [], "%s: winners() %r before the end" % (name, state.winners())
        assert legal, "%s: a running game offers no action" % name
    refused = _not_legal(legal)
    for bad in refused:
        raises(IllegalAction, state.apply, bad)
    if state.digest() != before:  # one digest for all (and its stability); on a change, name the culprit
        state = _copy(state, engine)
        for bad in refused:
            d = state.digest()
            raises(IllegalAction, state.apply, bad)
            assert state.digest() == d, "%s: refused %r changed the state" % (name, bad)
        raise AssertionError("%s: a refused action changed the state" % name)
    if step % ALL_ACTIONS_EVERY == 0:
        stride = len(legal) // ACTIONS_TRIED + 1
        for action in legal[::stride]:
            trial = _copy(state, engine)
            trial.apply(json.loads(json.dumps(action)))
    view = getattr(state, "view", None)
    if view is not None:
        for p in range(players):
            core.write_canonical(view(p), _drop)  # JSON-safe for every seat (streamed: small heaps)


def test_every_engine_declares_what_core_asks_for():
    assert games.GAMES, "no engine registered"
    for name, engine in engines():
        lo, hi = engine.MIN_PLAYERS, engine.MAX_PLAYERS
        assert isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi, name
        assert isinstance(engine.OPTIONS, dict), "%s: OPTIONS must be a dict name -> default" % name
        core.canonical(engine.OPTIONS)  # defaults are JSON-safe
        assert isinstance(engine.STATE_VERSION, int), name
        for v in variants(engine):
            for k in v:
                assert k in engine.OPTIONS, "%s: variant option %r is not declared" % (name, k)
        raises(ValueError, engine.new_game, 1, lo - 1)
        raises(ValueError, engine.new_game, 1, hi + 1)
        raises(ValueError, engine.new_game, 1, lo, no_such_option=1)
        # the declared defaults are accepted as given
        engine.new_game(1, lo, **engine.OPTIONS)


def test_random_playouts_end_round_trip_and_refuse_what_is_not_legal():
    for name, engine in engines():
        for options in variants(engine, selected()[1]):
            for players in player_counts(engine):
                for k in range(SEEDS_PER_SETUP):
                    seed = 101 + 31 * k + players
                    state = engine.new_game(seed, players, **options)
                    steps = [0]

                    def after(st, action, name=name, engine=engine, players=players, steps=steps):
                        if IS_MICROPYTHON:
                            gc.collect()  # many small lists per step: keep a small heap whole
                        check_step(name, engine, st, players, steps[0])
                        steps[0] += 1

                    check_step(name, engine, state, players, 0)
                    playout.run(state, seed, after=after, max_steps=20000)
                    assert state.is_over()
                    raises(IllegalAction, state.apply, ["no such action"])


def test_from_dict_refuses_what_is_not_a_saved_state_of_its_game():
    for name, engine in engines():
        good = engine.new_game(5, engine.MIN_PLAYERS).to_dict()
        for bad in (None, [], "x", {}, {"game": "chess"}):
            raises(BadState, engine.from_dict, bad)
        for key in good:
            # a missing field is refused with BadState, or (a derived or versionless field)
            # the state loads and saves again as a complete state
            broken = dict(good)
            del broken[key]
            try:
                loaded = engine.from_dict(broken)
            except BadState:
                continue
            assert loaded.to_dict() == good, "%s: %r missing gave another state" % (name, key)
        newer = dict(good)
        newer["version"] = engine.STATE_VERSION + 1
        raises(BadState, engine.from_dict, newer)
        wrong = dict(good)
        wrong["game"] = name + "_other"
        raises(BadState, engine.from_dict, wrong)
