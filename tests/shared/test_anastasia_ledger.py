"""Finding Anastasia ledger: what the box keeps from the table's public entries."""

import json

from engine import anastasia_cards as C
from engine import anastasia_ledger as L
from engine import anastasia_rules, games
from engine.core import TERMINAL, BadState, IllegalAction
from engine.playout import KindChooser
from tests.shared.compat import IS_MICROPYTHON, raises
from tests.shared.engine_checks import corrupted, refused

E, ANA, AGENT, IMP, THIEF = C.EMPRESS, C.ANASTASIA, C.RASPUTINS_AGENT, C.IMPOSTOR, C.THIEF
COLL, PSY, MIS, GOSSIP = C.COLLECTOR, C.PSYCHIC, C.MISINFORMANT, C.GOSSIP
PARIS, BERLIN, MUSIC_BOX = 0, 1, 5



def enter(state, *entries):
    for e in entries:
        state.apply(e)
    return state


def rich(state, p, gems):
    """Give seat p gems from the supply (a table set up for a test)."""
    state.supply -= gems
    state.purses[p] += gems
    return state


def test_setup_seats_the_empress_where_the_table_says():
    s = L.new_game(0, 6, empress=3)
    assert s.roles == [-1, -1, -1, E, -1, -1] and s.purses == [1, 1, 1, 5, 1, 1]
    assert s.current_player() == 3 and s.frame() == ["ask", 3] and s.deck == 7 and s.hands == [3] * 6
    assert L.new_game(0, 5).current_player() == 0
    four = L.new_game(0, 4)
    assert four.empress == -1 and four.roles == [-1] * 4 and four.purses == [1] * 4 and four.deck == 9
    assert "without an Empress" in str(raises(ValueError, L.new_game, 0, 4, empress=0))
    assert "seat 0-4" in str(raises(ValueError, L.new_game, 0, 5, empress=5))
    assert "unknown option" in str(raises(ValueError, L.new_game, 0, 5, emperor=1))
    assert L.MIN_PLAYERS == 4 and L.MAX_PLAYERS == 8 and L.STATE_VERSION == 1
    assert set(L.OPTIONS) == set(anastasia_rules.RULE_OPTIONS) | {"empress"}
    assert games.get_game("anastasia_ledger") is L


def test_an_answer_moves_one_token_pays_the_space_and_refills_the_column_from_the_supply():
    s = L.new_game(0, 5)
    s.spaces[MUSIC_BOX] = 2
    s.supply -= 2
    enter(s, ["answer", 2, MUSIC_BOX])
    assert s.tokens[2] == [-1, 0, -1] and s.purses[2] == 3 and s.spaces[5:10] == [0, 1, 1, 1, 1]
    assert s.frame() == ["act", 0, 0]
    enter(s, ["exchange", 1], ["answer", 2, 6])  # P2's turn: the same column, another row
    assert s.tokens[2] == [-1, 1, -1] and sum(1 for t in s.tokens[2] if t >= 0) == 1
    assert s.purses[2] == 4 and s.spaces[5:10] == [1, 0, 2, 2, 2]


def set_supply(state, n):
    """Move gems between the supply and the On foot space (a table set up for a test)."""
    state.spaces[14] += state.supply - n
    state.supply = n
    return state


def test_a_short_supply_pays_what_it_has_or_nothing_as_chosen():
    for choice, spaces, purse in (("partial", [0, 1, 1, 0, 0], 5), ("all_or_nothing", [0] * 5, 4)):
        s = set_supply(L.new_game(0, 5, short_supply=choice), 2)
        enter(s, ["answer", 1, PARIS])  # the refill needs 4: two of them, or none
        assert s.spaces[:5] == spaces, (choice, s.spaces)
        enter(set_supply(s, 1), ["look", 2])  # +2 from a supply of 1, then 1 to P3
        assert s.purses[0] == purse and s.purses[2] == 2, (choice, s.purses)
        assert s.supply + sum(s.purses) + sum(s.spaces) == 50


def test_a_reaction_comes_from_anyone_but_the_responder_once_per_game_right_after_the_answer():
    s = enter(L.new_game(0, 5), ["answer", 2, PARIS])
    refused(s, ["react", 2], "cannot disprove")
    assert [e[1] for e in s.legal_actions() if e[0] == "react"] == [0, 1, 3, 4]
    enter(s, ["react", 1])
    assert s.face_up == [-1, PARIS, -1, -1, -1]
    refused(s, ["react", 3], "follows a claimed answer")
    enter(s, ["draw"], ["answer", 0, MUSIC_BOX])
    refused(s, ["react", 1], "already used their Reaction")
    enter(s, ["draw"], ["answer", 3, PARIS])  # Paris claimed again: it is face up already
    refused(s, ["react", 4], "P2 already shows Location: Paris face up")


def test_a_reveal_names_a_role_the_table_can_still_hold():
    s = rich(enter(L.new_game(0, 5), ["answer", 1, PARIS]), 0, 10)
    refused(s, ["reveal", 1, MIS], "not dealt with 5 players")
    refused(s, ["reveal", 1, E], "shown at the start")
    refused(s, ["reveal", 0, THIEF], "P1 cannot reveal themselves for 5 (revealing oneself costs 7)")
    refused(s, ["reveal_self", E], "already shown")
    refused(s, ["reveal", 1, 11], "not a role")
    enter(s, ["reveal", 1, PSY], ["peek", 2, 0])
    rich(enter(s, ["answer", 0, BERLIN]), 1, 5)
    refused(s, ["reveal", 2, ANA], "the Psychic saw that P3 is not Anastasia")
    refused(s, ["reveal", 2, PSY], "P2 was already shown to be the Psychic")
    enter(s, ["reveal", 2, COLL], ["gems"])
    # hidden: P4 and P5, who must be Anastasia and the Agent
    rich(enter(s, ["answer", 0, BERLIN]), 2, 5)
    refused(s, ["reveal", 3, THIEF], "would not fit")
    assert sorted(e[2] for e in s.legal_actions() if e[0] == "reveal" and e[1] == 3) == [ANA, AGENT]


def test_no_player_reveals_themselves_as_anastasia_or_the_impostor_and_an_overdraft_is_refused():
    s = rich(enter(L.new_game(0, 5), ["answer", 1, PARIS]), 0, -1)
    assert refused(s, ["reveal", 1, THIEF], "costs 5") == "P1 has 4 gems: revealing a role costs 5"
    s = enter(L.new_game(0, 5, empress=4), ["answer", 1, PARIS])
    rich(s, 4, 2)
    refused(s, ["reveal_self", THIEF], "already shown")
    s = enter(L.new_game(0, 4), ["answer", 1, PARIS])
    rich(s, 0, 6)
    refused(s, ["reveal_self", ANA], "Anastasia cannot reveal themselves")
    refused(s, ["reveal_self", IMP], "Impostor cannot reveal themselves")
    rich(s, 0, -1)
    refused(s, ["reveal_self", THIEF], "costs 7")


def test_decisions_out_of_turn_are_refused():
    s = L.new_game(0, 5)
    refused(s, ["draw"], "P1 must ask a question now")
    refused(s, ["gems"], "must ask a question now")
    refused(s, ["pass"], "must ask a question now")
    enter(s, ["answer", 1, PARIS])
    refused(s, ["pass"], "only the Thief's free action")
    refused(s, ["answer", 1, PARIS], "must choose an action now")
    refused(s, ["role", 0, 1], "must choose an action")
    refused(s, ["dance"], "unknown entry")
    refused(s, ["look"], "look takes 1 int argument")
    refused(s, {"look": 1}, "an entry is a list")


def test_declaring_checks_the_collector_against_the_shown_roles():
    s = L.new_game(0, 5, empress=4)
    enter(s, ["answer", 1, PARIS], ["exchange", 1])
    assert s.frame() == ["ask", 0]
    poisoned = L.from_dict(s.to_dict())
    enter(s, ["declare"])
    assert s.ended == "collector" and s.roles[0] == COLL and s.declared == 0
    # the others enter their roles, in seat order
    assert s.current_player() == 1 and s.frame() == ["role", 1]
    refused(s, ["role", 2, ANA], "seat order: P2 is next")
    refused(s, ["role", 1, COLL], "already shown to be the Collector")
    enter(s, ["role", 1, ANA], ["role", 2, AGENT])
    refused(s, ["role", 3, ANA], "already shown")
    enter(s, ["role", 3, THIEF])
    assert s.is_over() and s.current_player() == TERMINAL and s.winners() == [0, 2]
    # a Collector poisoned by the Agent cannot declare
    rich(enter(poisoned, ["answer", 1, PARIS]), 0, 5)
    enter(poisoned, ["reveal", 2, AGENT], ["poison", 1, COLL], ["clue"])  # the Collector's effect still
    assert poisoned.frame() == ["ask", 1]
    refused(poisoned, ["declare"], "poisoned")
    # and nobody declares as a Collector when the Collector is shown elsewhere
    enter(poisoned, ["answer", 2, PARIS], ["draw"], ["answer", 1, PARIS], ["draw"])
    assert poisoned.frame() == ["ask", 3]
    refused(poisoned, ["declare"], "already shown to be the Collector")


def test_the_thief_free_action_may_not_declare():
    s = rich(enter(L.new_game(0, 5), ["answer", 1, PARIS]), 0, 4)
    enter(s, ["reveal", 3, THIEF])
    assert s.frame() == ["act", 3, 1]
    refused(s, ["declare"], "not during the Thief's free action")
    enter(s, ["pass"])
    assert s.frame() == ["ask", 1]


def test_the_end_asks_an_undeclared_collector_whether_they_hold_a_full_set():
    for must, holds, winners in ((False, 1, [1, 2, 3]), (False, 0, [1, 2]), (True, None, [1, 2])):
        s = rich(enter(L.new_game(0, 5, collector_must_declare=must), ["answer", 1, PARIS]), 0, 4)
        enter(s, ["reveal", 2, IMP])
        assert s.ended == "impostor" and not s.is_over()
        enter(s, ["role", 1, AGENT], ["role", 3, COLL], ["role", 4, ANA])
        if must:
            assert s.is_over()
        else:
            assert s.frame() == ["collector_set", 3] and s.current_player() == 3
            refused(s, ["collector_set", 2], "1 (a full set) or 0")
            enter(s, ["collector_set", holds])
        assert s.winners() == winners, (must, holds, s.winners())


def test_peek_reveals_anastasia_or_clears_the_seat():
    s = rich(enter(L.new_game(0, 5), ["answer", 1, PARIS]), 0, 4)
    enter(s, ["reveal", 1, PSY])
    assert s.frame() == ["peek", 1]
    refused(s, ["peek", 0, 1], "shown")
    other = L.from_dict(s.to_dict())
    enter(s, ["peek", 3, 1])
    assert s.roles[3] == ANA and s.ended == "anastasia"
    enter(s, ["role", 2, AGENT], ["role", 4, THIEF])
    assert s.winners() == [1, 3]
    enter(other, ["peek", 3, 0])
    assert other.cleared == [0, 0, 0, 1, 0] and other.frame() == ["ask", 1]


def test_the_gossip_looks_then_announces_and_the_misinformant_round_goes_round():
    s = rich(enter(L.new_game(0, 6), ["answer", 1, PARIS]), 0, 4)
    enter(s, ["reveal", 2, GOSSIP])
    refused(s, ["allegiance", 1], "choose whose hand to look at")
    enter(s, ["snoop", 4])
    refused(s, ["allegiance", 2], "allegiance is 1")
    enter(s, ["allegiance", 0])
    assert s.allegiance == 0 and s.frame() == ["ask", 1]
    rich(enter(s, ["answer", 0, PARIS]), 1, 5)
    enter(s, ["reveal", 4, MIS])
    order = []
    while s.frame()[0] == "choose":
        order.append(s.current_player())
        enter(s, ["gems"])
    assert order == [4, 5, 0, 1, 2, 3]


def test_random_entries_from_the_ledgers_own_menu_keep_the_books_straight():
    seeds = 4 if IS_MICROPYTHON else 60
    ends = {}
    for n in range(4, 9):
        for seed in range(seeds):
            s = L.new_game(seed, n, empress=None if n == 4 else seed % n)
            chooser = KindChooser(seed)
            steps = 0
            while not s.is_over():
                menu = s.legal_actions()
                entry = chooser.pick(menu)
                while entry[0] == "declare" and chooser.rng.below(8):  # it ends the game: mostly not
                    entry = chooser.pick(menu)
                s.apply(entry)
                steps += 1
                assert s.supply + sum(s.purses) + sum(s.spaces) == 50 and min(s.purses) >= 0
                assert sum(s.hands) + s.deck == 15 + 2 * (n - 1)
                d = s.to_dict()
                assert L.from_dict(d).to_dict() == d
                assert steps < 3000
            assert s.legal_actions() == [] and len(s.winners()) >= 0
            assert sorted(r for r in s.roles) == sorted(set(s.roles)) and ANA in s.roles and AGENT in s.roles
            ends[s.ended] = ends.get(s.ended, 0) + 1
    if not IS_MICROPYTHON:
        assert len(ends) == 4, ends


def test_saved_ledgers_survive_json_and_corrupt_ones_are_refused():
    s = L.new_game(0, 6, empress=2)
    chooser = KindChooser(3)
    for _ in range(12):  # no reveal and no declaration: a game in play
        quiet = [a for a in s.legal_actions() if a[0] not in ("declare", "reveal", "reveal_self")]
        s.apply(chooser.pick(quiet))
    assert s.ended is None
    d = json.loads(json.dumps(s.to_dict()))
    assert L.from_dict(d).digest() == s.digest()

    def broken(change, words):
        corrupted(L.from_dict, d, change, words)

    broken(lambda b: b.update(version=9), "unknown version")
    broken(lambda b: b.update(supply=b["supply"] - 1), "total 50")
    broken(lambda b: b.update(players=9), "players")
    broken(lambda b: b.update(empress=7), "seat 0-5")
    broken(lambda b: b.update(roles=[-1] * 6), "Empress must be shown at seat 2")
    broken(lambda b: b.update(roles=[ANA, -1, E, ANA, -1, -1]), "shown in front of two players")
    broken(lambda b: b.update(deck=b["deck"] + 1), "clue cards in play")
    broken(lambda b: b.update(stack=[]), "needs a decision frame")
    broken(lambda b: b.update(stack=[["ask", 9]]), "frame seat")
    broken(lambda b: b.update(ended="boredom"), "ended must be")
    broken(lambda b: b["rules"].update(short_supply="some"), "short_supply")
    broken(lambda b: b.update(poisoned=[1] * 6), "only Rasputin's Agent poisons")
    broken(lambda b: b.pop("tokens"), "tokens")
    assert "not an anastasia_ledger state" in str(raises(BadState, L.from_dict, "x"))


def test_describe_says_each_entry_in_words():
    s = L.new_game(0, 5)
    line = "P1 asks P3: P3 claims Trinket: Music Box (0 gems on the space)"
    assert s.describe(["answer", 2, MUSIC_BOX]) == line
    enter(s, ["answer", 2, PARIS])
    assert s.describe(["react", 1]) == "P2 reacts: shows Location: Paris face up"
    assert s.describe(["look", 3]) == "P1 looks at a clue of P4 (+2, gives 1)"
    assert "shown at the start" in str(raises(IllegalAction, s.describe, ["reveal", 1, E]))
    assert s.describe(["reveal", 1, THIEF]) == "P1 pays 5 to reveal P2: the Thief"
    chooser = KindChooser(5)
    for n in (4, 8):
        s = L.new_game(5, n)
        while not s.is_over():
            for e in s.legal_actions():
                assert s.describe(e).startswith("P")
            s.apply(chooser.choose(s))
