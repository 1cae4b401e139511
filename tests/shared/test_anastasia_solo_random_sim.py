"""OpenSpiel-style random simulation of solo Finding Anastasia (1, 2 and 3 players).

Every step of every playout: the state survives to_dict/from_dict with the same digest;
every gem is somewhere and the total is gem_total; every clue card lies in exactly one
place; the player to move is consistent with the phase. In the first games of each player
count every candidate action is also tried on a copy: it applies if and only if
legal_actions() lists it, and a refused one changes nothing. The choices lean away from
revealing a role (a uniform chooser ends most games in two rounds), so games run long
enough to empty and reshuffle the automa deck; the readings of the open points change
from seed to seed. CPython plays 300 seeds per player count, MicroPython 12.
"""

from engine import anastasia_automa
from engine import anastasia_cards as cards
from engine import anastasia_solo as solo
from engine.anastasia_automa_deck import DEFAULT_DECK
from engine.core import CHANCE, TERMINAL, IllegalAction
from engine.rng import Rng
from tests.shared.compat import IS_MICROPYTHON

SEEDS_PER_COUNT = 12 if IS_MICROPYTHON else 300
FULLY_CHECKED = 4 if IS_MICROPYTHON else 12  # games per count whose every candidate action is tried

# One reading of each open point per seed, so every value is played.
READINGS = (
    {},
    {"returned_gems": "each", "token_pool": "each"},
    {"unshown": "face_down", "clue_fee_to": "supply"},
    {"automa_finds_anastasia": "players_win", "deck_blanks": 6, "guest_gems": 1},
    {"automa_deck": DEFAULT_DECK[:3]},  # a short deck: reshuffled in most games
)


def candidates(state):
    """Every action of the right shapes, legal or not."""
    out = [["draw"], ["keep", 0], ["keep", 1], ["automa"]]
    for g in range(1, 7):
        out.append(["remove", g])
        out.append(["reveal_role", g])
        for s in range(len(state.guest(g).clues) + 1):
            out.append(["reveal_clue", g, s])
            out.append(["look", g, s])
    return out


def choose(state, rng):
    acts = state.legal_actions()
    calm = [a for a in acts if a[0] != "reveal_role"]
    if calm and rng.below(8):
        return calm[rng.below(len(calm))]
    return acts[rng.below(len(acts))]


def check_invariants(state, gem_total, where):
    g = state.gems()
    parts = [g["supply"]] + g["purses"] + g["beneath"]
    assert g["total"] == gem_total == sum(parts) and min(parts) >= 0, (where, g)
    assert sorted(c for c, _ in state.all_clues()) == list(range(cards.CLUE_COUNT)), where
    cp = state.current_player()
    if state.is_over():
        assert cp == TERMINAL and state.legal_actions() == [], where
    elif state.phase == solo.AUTOMA:
        assert cp == CHANCE and state.legal_actions() == [["automa"]], where
    else:
        assert cp == state.turn and not state.out[cp] and state.legal_actions(), where
    for x in state.guests:
        assert len(x.clues) == len(x.revealed) == len(x.looked), where
    saved = state.to_dict()
    # equal saved dicts mean equal digests (digest() hashes to_dict()); comparing is 20x faster
    assert solo.from_dict(saved).to_dict() == saved, where


def check_every_candidate(state, where):
    legal = state.legal_actions()
    saved = state.to_dict()
    for action in candidates(state):
        copy = solo.from_dict(saved)
        if action in legal:
            copy.apply(action)
        else:
            try:
                copy.apply(action)
            except IllegalAction:
                assert copy.to_dict() == saved, (where, action)
            else:
                raise AssertionError("%r applied but is not listed as legal at %r" % (action, where))
    for action in legal:
        assert action in candidates(state) or action[0] == "keep", (where, action)


def check_end(state, where):
    res = state.result
    roles = [x.role for x in state.guests]
    anastasia = roles.index(cards.ANASTASIA) + 1
    hidden_at_party = [x for x in state.guests if x.status == solo.PARTY and not x.role_shown]
    if res["reason"] == solo.FOUND:
        assert res["guest"] == anastasia and state.guest(anastasia).role_shown, where
        assert state.winners() == [res["by"]] and not state.out[res["by"]], where
    elif res["reason"] == solo.AUTOMA_FOUND:
        assert res["guest"] == anastasia and state.guest(anastasia).role_shown, where
        win = state.options["automa_finds_anastasia"] == "players_win"
        assert state.winners() == (state.players_in() if win else []), where
    elif res["reason"] == solo.ALL_OUT:
        assert all(state.out) and state.winners() == [], where
    else:
        assert res["reason"] == solo.NONE_HIDDEN and not hidden_at_party and state.winners() == [], where
    assert state.scores() == [1 if p in state.winners() else 0 for p in range(state.players)], where


def simulate(seed, players, stats, full):
    options = READINGS[seed % len(READINGS)]
    state = solo.new_game(seed, players, **options)
    gem_total = state.options["gem_total"]
    rng = Rng(seed ^ 0x5A5A)
    # each step removes a guest, a clue from the deck, a face-down clue or a token for good,
    # or puts a player out; an automa turn follows at most two player actions
    bound = 3 * (6 + 2 * (len(state.clue_deck)) + cards.CLUE_COUNT + sum(state.tokens) + 6) + 10
    steps = 0
    while not state.is_over():
        where = (seed, players, steps)
        assert steps < bound, where
        check_invariants(state, gem_total, where)
        if full:
            check_every_candidate(state, where)
        action = choose(state, rng)
        state.apply(action)
        stats[action[0]] = stats.get(action[0], 0) + 1
        if action == ["automa"]:
            rec = state.last_automa
            if rec["reshuffled"]:
                stats["reshuffle"] = stats.get("reshuffle", 0) + 1
            card = anastasia_automa.parse_card(state.deck_cards[rec["card"]])
            for a in range(2):
                out = rec["actions"][a]
                key = "skip" if out["tier"] < 0 else anastasia_automa.TIER_NAMES[out["tier"]]
                stats[key] = stats.get(key, 0) + 1
                for reason in out["failed"]:
                    stats[reason[0]] = stats.get(reason[0], 0) + 1
                if out["tier"] >= 0:
                    verb = card["actions"][a][out["tier"]][0]
                    stats[verb] = stats.get(verb, 0) + 1
            assert len(state.describe_automa()) == 3
        steps += 1
    check_invariants(state, gem_total, (seed, players, "end"))
    check_end(state, (seed, players))
    stats[state.result["reason"]] = stats.get(state.result["reason"], 0) + 1
    return steps


def test_random_playouts_keep_every_invariant():
    stats = {}
    longest = 0
    for players in (1, 2, 3):
        for i in range(SEEDS_PER_COUNT):
            longest = max(longest, simulate(i * 31 + players, players, stats, i < FULLY_CHECKED))
    # the playouts reach every kind of action, tier, reason and ending
    wanted = ["remove", "draw", "keep", "reveal_clue", "look", "reveal_role", "automa",
              "primary", "secondary", "tertiary", "skip"]
    if not IS_MICROPYTHON:
        wanted += list(anastasia_automa.VERBS) + ["reshuffle", solo.FOUND, solo.AUTOMA_FOUND, solo.ALL_OUT,
                                                  solo.NONE_HIDDEN, anastasia_automa.ABSENT,
                                                  anastasia_automa.NO_FACEDOWN, anastasia_automa.NO_UNSHOWN,
                                                  anastasia_automa.ROLE_SHOWN, anastasia_automa.SHORT,
                                                  anastasia_automa.DECK_EMPTY]
    missing = [k for k in wanted if not stats.get(k)]
    assert not missing, (missing, stats)
    assert longest > 20


def public(state):
    """What a box at a real table can know of a state (the projection both kinds of game share)."""
    d = state.to_dict()
    for key in ("rng", "options", "roles", "clues", "hands", "clue_deck", "box", "drawn", "turned"):
        del d[key]
    d["told"] = [None if not x.role_shown else x.role == cards.ANASTASIA for x in state.guests]
    d["fans"] = [len(x.clues) for x in state.guests]
    d["hands"] = [len(h) for h in state.hands]
    d["clue_deck"] = len(state.clue_deck)
    rec = d["last_automa"]
    if rec is not None:
        for out in rec["actions"]:
            did = out["did"] or {}
            did.pop("clue", None)
            if "role" in did:
                did["role"] = did["role"] == cards.ANASTASIA
    return d


def twin_step(dealt, table, action):
    """Apply `action` to the dealt game and what a box would be told to the table game."""
    dealt.apply(action)
    if action[0] == "keep":
        return  # the table game kept its card when it drew
    table.apply(action)
    while table.phase == solo.REVEAL:
        saved = table.to_dict()  # a box may be switched off while the table turns a card
        assert solo.from_dict(saved).to_dict() == saved
        g = table.turned[0]
        table.apply(["role_seen", "anastasia" if dealt.guest(g).role == cards.ANASTASIA else "other"])


def test_a_table_game_told_what_the_table_shows_follows_the_dealt_game():
    # The same seed deals the same (unknown) cards, so a box told only what the table shows
    # keeps the same gems, turns and automa decisions as the engine that knows every card.
    games = 6 if IS_MICROPYTHON else 120
    for i in range(games):
        players = 1 + i % 3
        options = READINGS[i % len(READINGS)]
        dealt = solo.new_game(i, players, **options)
        table = solo.new_game(i, players, cards="table", **options)
        assert table.rng.state() == dealt.rng.state()
        rng = Rng(i ^ 0x7777)
        steps = 0
        while not dealt.is_over():
            twin_step(dealt, table, choose(dealt, rng))
            if dealt.drawn is None:
                assert public(table) == public(dealt), (i, steps)
                saved = table.to_dict()
                assert solo.from_dict(saved).to_dict() == saved, (i, steps)
            steps += 1
        assert table.is_over() and table.result == dealt.result, i
