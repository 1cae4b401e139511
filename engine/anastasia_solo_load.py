"""Restoring a saved solo Finding Anastasia state (engine.anastasia_solo.from_dict): every
field is checked and the table must keep the engine's invariants, else core.BadState."""

from engine import anastasia_cards
from engine.anastasia_solo import (
    ACTIONS_PER_TURN,
    ALL_OUT,
    AUTOMA,
    AUTOMA_FOUND,
    FOUND,
    LEFT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NONE_HIDDEN,
    OTHER_ROLE,
    OVER,
    PARTY,
    PLAY,
    REVEAL,
    STATE_VERSION,
    UNKNOWN,
    Guest,
    SoloState,
    player_name,
)
from engine.anastasia_solo_rules import GUESTS, validate
from engine.core import BadState, canonical
from engine.data import copy_data
from engine.rng import Rng


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _bad(msg):
    raise BadState("bad anastasia_solo state: " + msg)


def _int_in(v, lo, hi, what):
    if not _is_int(v) or not (lo <= v <= hi):
        if lo == hi == UNKNOWN:
            _bad("%s must be %d (unknown), got %r" % (what, UNKNOWN, v))
        _bad("%s must be an int %d-%d, got %r" % (what, lo, hi, v))
    return v


def _list(v, what, length=None):
    if not isinstance(v, list) or (length is not None and len(v) != length):
        _bad("%s must be a list%s" % (what, "" if length is None else " of %d" % length))
    return v


def _ints(v, lo, hi, what, length=None):
    for x in _list(v, what, length):
        _int_in(x, lo, hi, what)
    return list(v)


def _bools(v, what, length):
    for x in _list(v, what, length):
        if x is not True and x is not False:
            _bad("%s must hold true/false, got %r" % (what, x))
    return list(v)


def load(d):
    """anastasia_solo.from_dict: the state saved in d, every invariant checked; BadState if not valid."""
    try:
        return _load(d)
    except BadState:
        raise
    except KeyError as e:
        raise BadState("bad anastasia_solo state: missing field %s" % (e.args[0],))
    except (TypeError, ValueError, IndexError, AttributeError) as e:
        raise BadState("bad anastasia_solo state: %s" % (e,))


def _load(d):
    if not isinstance(d, dict) or d.get("game") != "anastasia_solo":
        _bad("not an anastasia_solo state")
    if d.get("version") != STATE_VERSION:
        _bad("unknown version %r" % (d.get("version"),))
    n = _int_in(d["players"], MIN_PLAYERS, MAX_PLAYERS, "players")
    if not isinstance(d["options"], dict):
        _bad("options must be a table")
    try:
        opts = validate(n, d["options"])
    except ValueError as e:
        _bad(str(e))
    rng_state = _ints(d["rng"], 0, 0xFFFF, "rng", 8)
    state = SoloState(n, opts, Rng(state=rng_state))
    cards = anastasia_cards
    # card ids: every card is known when dealt, none on a real table
    first_card, last_card = (UNKNOWN, UNKNOWN) if state.on_table() else (0, cards.CLUE_COUNT - 1)
    roles = _ints(d["roles"], OTHER_ROLE, cards.ROLE_COUNT - 1, "roles", GUESTS)
    if not state.on_table() and (roles.count(cards.ANASTASIA) != 1 or cards.EMPRESS in roles
                                 or len(set(roles)) != GUESTS):
        _bad("roles must be Anastasia and five different guests other than the Empress, got %r" % (roles,))
    status = _ints(d["status"], PARTY, LEFT, "status", GUESTS)
    shown = _bools(d["role_shown"], "role_shown", GUESTS)
    clues = _list(d["clues"], "clues", GUESTS)
    revealed = _list(d["revealed"], "revealed", GUESTS)
    looked = _list(d["looked"], "looked", GUESTS)
    beneath = _ints(d["beneath"], 0, opts["gem_total"], "beneath", GUESTS)
    for i in range(GUESTS):
        hand = _ints(clues[i], first_card, last_card, "clues", None)
        guest = Guest(roles[i], hand)
        guest.status = status[i]
        guest.role_shown = shown[i]
        guest.revealed = _bools(revealed[i], "revealed", len(hand))
        guest.looked = _ints(looked[i], 0, (1 << n) - 1, "looked", len(hand))
        guest.gems = beneath[i]
        state.guests.append(guest)
    state.purses = _ints(d["purses"], 0, opts["gem_total"], "purses", n)
    state.tokens = _ints(d["tokens"], 0, 20, "tokens", len(state.tokens))
    state.hands = [_ints(h, first_card, last_card, "hands") for h in _list(d["hands"], "hands", n)]
    state.out = _bools(d["out"], "out", n)
    state.supply = _int_in(d["supply"], 0, opts["gem_total"], "supply")
    state.clue_deck = _ints(d["clue_deck"], first_card, last_card, "clue_deck")
    state.box = _ints(d["box"], first_card, last_card, "box")
    n_cards = len(state.deck_cards)
    state.automa_deck = _ints(d["automa_deck"], 0, n_cards - 1, "automa_deck")
    state.automa_discard = _ints(d["automa_discard"], 0, n_cards - 1, "automa_discard")
    if sorted(state.automa_deck + state.automa_discard) != list(range(n_cards)):
        _bad("every automa card must lie once in the automa deck or its discards")
    phase = d["phase"]
    if phase not in (PLAY, AUTOMA, REVEAL, OVER):
        _bad("phase must be play, automa, reveal or over, got %r" % (phase,))
    state.phase = phase
    state.turn = _int_in(d["turn"], 0, n - 1, "turn")
    state.actions_left = _int_in(d["actions_left"], 1, ACTIONS_PER_TURN, "actions_left")
    if d["drawn"] is not None:
        state.drawn = _ints(d["drawn"], first_card, last_card, "drawn", 2)
    if d["turned"] is not None:
        state.turned = _ints(d["turned"], -1, GUESTS, "turned", 2)
    state.round = _int_in(d["round"], 1, 0x3FFFFFFF, "round")
    state.share_next = _int_in(d["share_next"], 0, n - 1, "share_next")
    _load_result(state, d["result"])
    _load_last_automa(state, d["last_automa"])
    _check_table(state)
    if state.on_table():
        _check_roles_told(state)
    return state


def _load_result(state, res):
    if res is None:
        if state.phase == OVER:
            _bad("a game that is over has a result")
        return
    if state.phase != OVER or not isinstance(res, dict):
        _bad("only a game that is over has a result")
    if res.get("reason") not in (FOUND, AUTOMA_FOUND, ALL_OUT, NONE_HIDDEN):
        _bad("unknown result reason %r" % (res.get("reason"),))
    winners = _ints(res["winners"], 0, state.players - 1, "winners")
    guest = _int_in(res["guest"], 0, GUESTS, "result guest")
    by = _int_in(res["by"], -1, state.players - 1, "result by")
    state.result = {"reason": res["reason"], "winners": winners, "guest": guest, "by": by}


def _load_last_automa(state, rec):
    if rec is None:
        return
    if not isinstance(rec, dict) or sorted(rec) != ["actions", "card", "reshuffled", "round"]:
        _bad("last_automa must be null or {card, round, reshuffled, actions}")
    _int_in(rec["card"], 0, len(state.deck_cards) - 1, "last_automa card")
    _int_in(rec["round"], 1, state.round, "last_automa round")
    _bools([rec["reshuffled"]], "last_automa reshuffled", 1)
    # while the table shows a role the automa turned over, its second action may be still to come
    waiting = state.turned is not None and state.turned[1] < 0
    actions = _list(rec["actions"], "last_automa actions")
    if not (len(actions) == 2 or (waiting and len(actions) == 1)):
        _bad("last_automa actions must list 2 outcomes")
    for outcome in actions:
        if not isinstance(outcome, dict) or sorted(outcome) != ["did", "failed", "tier"]:
            _bad("an automa outcome is {tier, failed, did}")
        _int_in(outcome["tier"], -1, 2, "automa outcome tier")
        _list(outcome["failed"], "automa outcome failed")
        if outcome["did"] is not None and not isinstance(outcome["did"], dict):
            _bad("automa outcome did must be null or a table")
    try:
        canonical(rec)
    except ValueError as e:
        _bad("last_automa: %s" % e)
    state.last_automa = copy_data(rec)


def _check_table(state):
    """The invariants a saved state must keep: every card once, gems add up, a consistent turn."""
    placed = sorted(c for c, _ in state.all_clues())
    if state.on_table():
        if len(placed) != anastasia_cards.CLUE_COUNT:
            _bad("the table must hold %d clue cards, not %d" % (anastasia_cards.CLUE_COUNT, len(placed)))
    elif placed != list(range(anastasia_cards.CLUE_COUNT)):
        _bad("every clue card must lie in exactly one place")
    if state.gems()["total"] != state.options["gem_total"]:
        _bad("the gems add up to %d, not gem_total %d" % (state.gems()["total"], state.options["gem_total"]))
    if state.phase == OVER:
        if state.drawn is not None:
            _bad("a game that is over has no drawn clues")
        return
    if not state.players_in():
        _bad("a game with every player out is over")
    if state.phase != REVEAL and not any(x.status == PARTY and not x.role_shown for x in state.guests):
        _bad("a game without a face-down role at the party is over")
    for x in state.guests:
        if x.role_shown and x.role == anastasia_cards.ANASTASIA:
            _bad("a game where Anastasia is face up is over")
    if state.phase == PLAY and state.out[state.turn]:
        _bad("%s is out and cannot be the player to move" % player_name(state.turn))
    if state.drawn is not None and state.phase != PLAY:
        _bad("drawn clues wait for the player to move")
    if (state.turned is None) != (state.phase != REVEAL):
        _bad("a role is being turned over exactly in the reveal phase")
    if state.drawn is not None and state.on_table():
        _bad("on a real table a draw is kept at once")


def _check_roles_told(state):
    """Cards "table": a role is unknown until the table tells it, and told once face up."""
    cards = anastasia_cards
    turned = state.turned[0] if state.turned is not None else 0
    for g in range(1, GUESTS + 1):
        x = state.guest(g)
        told = x.role != UNKNOWN
        if x.role not in (UNKNOWN, OTHER_ROLE, cards.ANASTASIA):
            _bad("on a real table a role is unknown, Anastasia or other, got %r" % (x.role,))
        if told != (x.role_shown and g != turned):
            _bad("Guest %d's role must be known exactly when it is face up and told" % g)
    if state.turned is not None:
        g, by = state.turned
        if not (1 <= g <= GUESTS) or not state.guest(g).role_shown or state.guest(g).status != PARTY:
            _bad("the role being turned over must be a face-up guest at the party")
        if by >= 0 and (by != state.turn or state.out[by]):
            _bad("a role is turned over by the player to move")
        if by < 0 and (state.last_automa is None or state.last_automa["actions"][-1]["did"] is None
                       or state.last_automa["actions"][-1]["did"].get("role") != UNKNOWN):
            _bad("a role the automa turned over is its last outcome")
