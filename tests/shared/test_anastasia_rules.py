"""Finding Anastasia (whole game): setup, questions, the six actions, refusals, views, saving."""

import json

from engine import anastasia, anastasia_rules, games
from engine import anastasia_cards as C
from engine.core import TERMINAL, BadState, IllegalAction
from engine.playout import KindChooser
from tests.shared.anastasia_tables import (
    BERLIN,
    BLANK,
    COPENHAGEN,
    LOCKET,
    LONDON,
    MUSIC_BOX,
    PARIS,
    RIVER,
    SLEIGH,
    TIARA,
    TRAIN,
    copy,
    deal,
    question,
)
from tests.shared.compat import raises
from tests.shared.engine_checks import corrupted, refused

E, ANA, AGENT, IMP, THIEF, FF, COLL = (C.EMPRESS, C.ANASTASIA, C.RASPUTINS_AGENT, C.IMPOSTOR, C.THIEF,
                                       C.FAMILY_FRIEND, C.COLLECTOR)
# Default hands at this table: P1 Berlin, P2 (Anastasia) Paris + Music Box + By train, P3 Locket,
# P4 By sleigh, P5 London, each guest with two Blanks; the deck holds the other 8, Tiara on top.
FIVE = [E, ANA, AGENT, FF, IMP]



# -- setup -------------------------------------------------------------------------
def test_setup_deals_the_invites_by_the_rulebook_for_every_player_count():
    seen_guests = {}
    for n in range(4, 9):
        eligible = C.eligible_guests(n)
        for seed in range(40):
            s = anastasia.new_game(seed, n)
            roles = s.roles
            assert len(set(roles)) == n and ANA in roles and AGENT in roles
            assert (E in roles) == (n >= 5)
            for r in roles:
                assert r in (ANA, AGENT, E) or r in eligible, (n, r)
                seen_guests.setdefault(n, set()).add(r)
            for p in range(n):
                cats = sorted(C.clue_category(c) for c in s.hands[p])
                assert cats == ([0, 1, 2] if roles[p] == ANA else cats[:1] + [C.BLANK, C.BLANK]), cats
                assert cats[0] != C.BLANK
            assert len(s.deck) == 13 - n and len(s.box) == 14 - 2 * (n - 1)
            purses = s.gems()["purses"]
            first = roles.index(E) if E in roles else 0
            assert purses == [5 if p == first and n >= 5 else 1 for p in range(n)]
            assert s.current_player() == first and s.decision() == ["ask", first]
            assert s.table.roles == [E if r == E else -1 for r in roles]
    for n in range(4, 9):
        assert seen_guests[n] == set([ANA, AGENT] + ([E] if n >= 5 else []) + C.eligible_guests(n)), n


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    assert anastasia.new_game(7, 6).digest() == anastasia.new_game(7, 6).digest()
    assert anastasia.new_game(7, 6).digest() != anastasia.new_game(8, 6).digest()


def test_bad_setup_arguments_are_refused_with_a_reason():
    for players in (3, 9, "5", True):
        assert "4-8 players" in str(raises(ValueError, anastasia.new_game, 1, players))
    assert "seed" in str(raises(ValueError, anastasia.new_game, "x", 5))
    assert "unknown option" in str(raises(ValueError, anastasia.new_game, 1, 5, empress=2))
    assert "short_supply" in str(raises(ValueError, anastasia.new_game, 1, 5, short_supply="maybe"))
    e = raises(ValueError, anastasia.new_game, 1, 5, collector_must_declare=1)
    assert "collector_must_declare" in str(e)
    e = raises(ValueError, anastasia.new_game, 1, 5, guest_min_players={"anastasia": 4})
    assert "not a guest dealt at random" in str(e)
    e = raises(ValueError, anastasia.new_game, 1, 5, guest_min_players={"thief": 3})
    assert "player count 4-9" in str(e)
    never = {"collector": 9, "impostor": 9, "psychic": 9, "thief": 9}
    e = raises(ValueError, anastasia.new_game, 1, 4, guest_min_players=never)
    assert "leaves 0 guests for 4 players, who need 2" in str(e)


def test_the_guest_table_option_changes_only_the_marks_it_names():
    s = anastasia.new_game(3, 4, guest_min_players={"family_friend": 4, "thief": 9})
    assert s.table.rules["guest_min_players"]["family_friend"] == 4
    assert s.table.rules["guest_min_players"]["collector"] == 4
    for seed in range(30):
        roles = anastasia.new_game(seed, 4, guest_min_players={"family_friend": 4, "thief": 9}).roles
        assert THIEF not in roles


def test_the_engine_module_makes_every_declaration_and_is_registered():
    for mod in (anastasia,):
        assert mod.MIN_PLAYERS == 4 and mod.MAX_PLAYERS == 8 and mod.STATE_VERSION == 1
        assert mod.OPTIONS == anastasia_rules.RULE_OPTIONS
    assert games.get_game("anastasia") is anastasia


# -- questions ---------------------------------------------------------------------
def test_the_answer_moves_the_token_pays_the_space_and_refills_the_column():
    s = deal(FIVE, spaces=[3, 0, 1, 0, 0] + [0] * 10)
    question(s, 2, 0, card=PARIS)  # P3 holds no Location: any claim (Anastasia may react)
    g = s.gems()
    assert s.table.tokens[2] == [0, -1, -1]
    assert g["purses"][2] == 1 + 3 and g["spaces"][:5] == [0, 1, 2, 1, 1]
    s.apply(["look", 2])
    s.apply(["show", s.hands[2][0]])
    # P2's turn: P3 is asked again about a Location and names Berlin: the same token moves
    question(s, 2, 0, card=BERLIN)
    assert s.table.tokens[2] == [1, -1, -1]
    assert s.gems()["spaces"][:5] == [1, 0, 3, 2, 2] and s.gems()["purses"][2] == 4 + 1 + 1


def test_the_truth_rule_binds_a_player_who_holds_the_category():
    s = deal(FIVE)
    s.apply(["ask", 1, 1])  # Anastasia about her Trinket: only the Music Box
    assert s.legal_actions() == [["answer", MUSIC_BOX]]
    refused(s, ["answer", LOCKET], "must name it truthfully")
    refused(s, ["answer", PARIS], "not one")
    s = deal(FIVE)
    s.apply(["ask", 3, 1])  # P4 holds By sleigh and Blanks: no Trinket, any claim
    assert [a[1] for a in s.legal_actions()] == C.category_clues(1)
    hands = [[LOCKET, BLANK, BLANK + 1], [PARIS, MUSIC_BOX, TRAIN], [BERLIN, LONDON, BLANK + 2, BLANK + 3],
             [SLEIGH, BLANK + 4, BLANK + 5], [TIARA, BLANK + 6, BLANK + 7]]
    s = deal(FIVE, hands=hands)
    s.apply(["ask", 2, 0])  # two Locations: either one, nothing else
    assert s.legal_actions() == [["answer", BERLIN], ["answer", LONDON]]


def test_a_reaction_proves_a_lie_once_per_player_per_game():
    s = deal(FIVE)
    s.apply(["ask", 2, 0])
    s.apply(["answer", PARIS])  # a lie: Anastasia (P2) holds Paris
    assert s.current_player() == 1 and s.decision() == ["react", 1]
    assert s.view(0)["decision"] == ["react"]  # the others do not learn who holds it
    s.apply(["react"])
    assert s.entries == [["react", 1]] and s.table.face_up[1] == PARIS and PARIS in s.hands[1]
    assert s.decision() == ["act", 0, 0]
    s.apply(["draw"])
    s.apply(s.legal_actions()[0])
    # P1 claims the Music Box, a lie: P2 holds it but has used their Reaction
    s.apply(["ask", 0, 1])
    s.apply(["answer", MUSIC_BOX])
    assert s.decision() == ["act", 1, 0]


def test_no_reaction_window_when_the_claim_is_true_or_the_clue_is_in_the_deck():
    s = deal(FIVE)
    question(s, 1, 0, card=PARIS)  # true
    assert s.decision() == ["act", 0, 0]
    s = deal(FIVE)
    s.apply(["ask", 2, 0])
    s.apply(["answer", COPENHAGEN])  # in the deck
    assert s.decision() == ["act", 0, 0]


def test_the_reaction_can_be_declined():
    s = deal(FIVE)
    s.apply(["ask", 2, 0])
    s.apply(["answer", PARIS])
    s.apply(["no_reaction"])
    assert s.entries == [] and s.table.face_up == [-1] * 5 and s.decision() == ["act", 0, 0]


# -- the six actions ---------------------------------------------------------------
def test_each_action_pays_exactly_its_gems():
    base = question(deal(FIVE, purses=[7, 1, 1, 1, 1]), 2, 1)
    before = base.gems()["purses"][0]
    cases = (
        (["look", 3], [2 - 1, 0, 0, 1, 0]),
        (["exchange", 3, BERLIN], [1, 0, 0, 0, 0]),
        (["question", 3, 2], [1, 0, 0, 0, 0]),
        (["draw"], [0, 0, 0, 0, 0]),
        (["reveal", 2], [-5, 0, 0, 0, 0]),
    )
    for action, delta in cases:
        s = copy(base)
        s.apply(action)
        refill = 0
        if action[0] == "question":
            # the further question is booked with its answer; the empty Story space pays
            # nothing, the four others of the column take one gem each from the supply
            s.apply(["answer", s.legal_actions()[0][1]])
            refill = 4
        got = [s.gems()["purses"][p] - base.gems()["purses"][p] for p in range(5)]
        assert got == delta, (action, got)
        assert s.gems()["supply"] - base.gems()["supply"] == -sum(delta) - refill, action
    refused(copy(base), ["reveal_self"], "already shown")  # the Empress is shown from the start
    s = question(deal([AGENT, ANA, E, FF, IMP], purses=[7, 1, 1, 1, 1], turn=0), 1)
    s.apply(["reveal_self"])
    assert s.gems()["purses"][0] == 0 and s.table.roles[0] == AGENT
    assert before == 7


def test_overdrafts_are_refused():
    s = question(deal(FIVE, purses=[4, 1, 1, 1, 1]), 1)
    assert refused(s, ["reveal", 2], "costs 5") == "P1 has 4 gems: revealing a role costs 5"
    s = question(deal([AGENT, ANA, E, FF, IMP], purses=[6, 1, 1, 1, 1], turn=0), 1)
    refused(s, ["reveal_self"], "costs 7")
    # the look fee: with an empty supply and purse, there is no gem to give
    s = question(deal(FIVE, purses=[0, 1, 1, 1, 1], spaces=[3] * 14 + [4]), 2, 2, card=SLEIGH)
    assert s.gems()["supply"] == 0
    refused(s, ["look", 2], "no gem to give")


def test_look_shows_one_clue_of_the_targets_choice_to_the_looker_alone():
    s = question(deal(FIVE), 2)
    s.apply(["look", 1])
    assert s.decision() == ["show", 1, 0] and s.current_player() == 1
    assert sorted(a[1] for a in s.legal_actions()) == [PARIS, MUSIC_BOX, TRAIN]
    refused(s, ["show", LOCKET], "holds no")
    s.apply(["show", MUSIC_BOX])
    assert s.seen[0] == [["shown", 1, MUSIC_BOX]]
    assert s.view(0)["seen"] == [["shown", 1, MUSIC_BOX]] and s.view(2)["seen"] == []
    assert s.decision() == ["ask", 1]


def test_exchange_hands_back_a_clue_of_the_same_category_never_the_one_received():
    hands = [[LOCKET, BLANK, BLANK + 1], [PARIS, MUSIC_BOX, TRAIN], [SLEIGH, BLANK + 2, BLANK + 3],
             [BERLIN, BLANK + 4, BLANK + 5], [TIARA, BLANK + 6, BLANK + 7]]
    base = question(deal(FIVE, hands=hands), 2)
    s = copy(base)
    s.apply(["exchange", 1, LOCKET])  # a Trinket to Anastasia: she must give back a Trinket
    assert s.decision() == ["give", 1, 0, LOCKET]
    assert s.legal_actions() == [["give", MUSIC_BOX]]
    refused(s, ["give", LOCKET], "P2 cannot hand back Trinket: Locket: it is the clue just received")
    refused(s, ["give", PARIS], "it must be a Trinket, as received")
    refused(s, ["give", TIARA], "it is not in their hand")
    s.apply(["give", MUSIC_BOX])
    assert s.hands[0] == [MUSIC_BOX, BLANK, BLANK + 1] and s.hands[1] == [PARIS, LOCKET, TRAIN]
    assert ["got", 1, MUSIC_BOX] in s.seen[0] and ["gave", 0, MUSIC_BOX] in s.seen[1]
    s = copy(base)
    s.apply(["exchange", 2, LOCKET])  # P3 has no Trinket: any clue but the Locket
    assert sorted(a[1] for a in s.legal_actions()) == [SLEIGH, BLANK + 2, BLANK + 3]
    s = copy(base)
    s.apply(["exchange", 3, BLANK])  # a Blank for a Blank
    assert [a[1] for a in s.legal_actions()] == [BLANK + 4, BLANK + 5]
    refused(copy(base), ["exchange", 3, PARIS], "holds no Location: Paris")


def test_a_face_up_clue_stays_in_front_of_its_owner():
    s = deal(FIVE)
    s.apply(["ask", 2, 0])
    s.apply(["answer", PARIS])
    s.apply(["react"])  # Anastasia shows Paris
    s.apply(["exchange", 1, BERLIN])  # a Location: her only one is face up, so any other clue
    assert sorted(a[1] for a in s.legal_actions()) == [MUSIC_BOX, TRAIN]
    refused(s, ["give", PARIS], "it lies face up in front of them")
    s = deal(FIVE, turn=1)
    s.apply(["ask", 3, 1])
    s.apply(["answer", MUSIC_BOX])
    s.apply(["react"])
    assert ["exchange", 2, MUSIC_BOX] not in s.legal_actions()
    refused(s, ["exchange", 2, MUSIC_BOX], "face up")


def test_draw_keeps_one_of_the_top_two_and_puts_the_other_back_on_top():
    s = question(deal(FIVE), 2)
    top, second = s.deck[-1], s.deck[-2]
    s.apply(["draw"])
    assert s.decision() == ["keep", 0, top, second]
    assert s.view(1)["decision"] == ["keep", 0]
    refused(s, ["keep", s.deck[0]], "keeps one of them")
    s.apply(["keep", second])
    assert second in s.hands[0] and s.deck[-1] == top and s.table.hands[0] == 4
    assert s.seen[0] == [["returned", top]]


def test_draw_with_one_clue_left_takes_it_and_an_empty_deck_removes_draw():
    hands = [[LOCKET, BLANK, BLANK + 1], [PARIS, MUSIC_BOX, TRAIN], [SLEIGH, BLANK + 2, BLANK + 3],
             [BERLIN, BLANK + 4, BLANK + 5],
             [TIARA, BLANK + 6, BLANK + 7] + [c for c in range(15) if c not in (
                 LOCKET, PARIS, MUSIC_BOX, TRAIN, SLEIGH, BERLIN, TIARA, RIVER)]]
    s = question(deal(FIVE, hands=hands, deck=[RIVER]), 2)
    s.apply(["draw"])
    assert RIVER in s.hands[0] and s.deck == [] and s.decision() == ["ask", 1]
    question(s, 2)
    assert ["draw"] not in s.legal_actions()
    refused(s, ["draw"], "deck is empty")


def test_actions_out_of_turn_or_of_the_wrong_shape_are_refused():
    s = deal(FIVE)
    refused(s, ["look", 1], "must ask a question now")
    refused(s, ["ask", 0, 1], "P1 cannot ask themselves")
    refused(s, ["ask", 7, 1], "no player 7")
    refused(s, ["ask", 1, 3], "Location (0), Trinket (1) or Story (2)")
    refused(s, ["answer", PARIS], "only follows a question")
    refused(s, ["fly"], "unknown action")
    refused(s, "ask", "an action is a list")
    refused(s, ["ask", 1], "ask takes 2 int argument(s)")
    e = raises(IllegalAction, s.apply, ["ask", 1, True])  # True == 1 in a list: not a menu check
    assert "ask takes 2 int argument(s)" in str(e)
    s.apply(["ask", 1, 0])
    refused(s, ["draw"], "P2 must first answer the question")


def test_a_finished_game_takes_no_action():
    s = question(deal(FIVE, purses=[5, 1, 1, 1, 1]), 1)
    s.apply(["reveal", 4])
    assert s.is_over() and s.current_player() == TERMINAL and s.legal_actions() == []
    refused(s, ["ask", 1, 0], "the game is over")


# -- views and saving --------------------------------------------------------------
def test_view_shows_a_player_their_own_secrets_and_the_public_table_only():
    s = anastasia.new_game(5, 6)
    for p in range(6):
        v = s.view(p)
        assert v["role"] == s.roles[p] and v["hand"] == s.hands[p] and v["you"] == p
        assert v["table"] == s.table.to_dict()
        text = json.dumps(v)
        assert '"rng"' not in text and '"deck": [' not in text and '"roles": [' + str(s.roles[0]) not in text
        for q in range(6):
            if q != p:
                assert '"hand": ' + json.dumps(s.hands[q]) not in text
    assert "no player" in str(raises(ValueError, s.view, 6))


def test_saved_states_survive_json_and_corrupt_ones_are_refused():
    s = anastasia.new_game(11, 7)
    chooser = KindChooser(11)
    for _ in range(40):
        s.apply(chooser.choose(s))
    d = json.loads(json.dumps(s.to_dict()))
    again = anastasia.from_dict(d)
    assert again.digest() == s.digest() and again.legal_actions() == s.legal_actions()

    def broken(change, words):
        corrupted(anastasia.from_dict, d, change, words)

    broken(lambda b: b.update(version=2), "unknown version")
    broken(lambda b: b.update(game="anomia"), "not an anastasia state")
    broken(lambda b: b["table"].update(supply=b["table"]["supply"] + 1), "total 50")
    broken(lambda b: b["hands"][0].append(b["deck"][0]), "exactly one place")
    broken(lambda b: b["deck"].pop(), "exactly one place")
    empress = d["table"]["empress"]
    def anastasia_in_the_empress_seat(b):
        b["roles"][empress] = ANA

    broken(anastasia_in_the_empress_seat, "shown as the Empress but holds Anastasia")
    broken(lambda b: b.update(roles=[E if p == empress else ANA for p in range(7)]), "roles must differ")
    broken(lambda b: b.update(secret=["keep", 0, 1]), "secret decision")
    broken(lambda b: b.update(secret=["bribe", 0]), "unknown secret decision")
    broken(lambda b: b["table"].update(stack=[["nap", 0]]), "unknown decision frame")
    broken(lambda b: b["seen"][0].append(["dream"]), "unknown observation")
    broken(lambda b: b.pop("rng"), "rng")
    assert "not an anastasia state" in str(raises(BadState, anastasia.from_dict, [1, 2]))


def test_describe_narrates_every_legal_action_of_a_game():
    for seed in range(6):
        s = anastasia.new_game(seed, 4 + seed % 5)
        chooser = KindChooser(seed)
        while not s.is_over():
            for a in s.legal_actions():
                line = s.describe(a)
                assert line.startswith("P") and len(line) < 120, line
            s.apply(chooser.choose(s))
    s = deal(FIVE)
    assert s.describe(["ask", 2, 1]) == "P1 asks P3 about their Trinket"
    assert "must ask a question" in str(raises(IllegalAction, s.describe, ["draw"]))


def test_saved_dicts_and_views_are_copies_the_state_does_not_share():
    s = question(deal([E, ANA, AGENT, C.GOSSIP, IMP], purses=[5, 1, 1, 1, 1]), 2)
    s.apply(["reveal", 3])
    s.apply(["snoop", 1])  # the Gossip's observation holds a list of cards
    before = json.dumps(s.to_dict())  # a string: it cannot share anything with the state
    for d in (s.to_dict(), s.view(3)):
        look = d["seen"][0] if "you" in d else d["seen"][3][0]  # a view holds its player's only
        look[2].append(BLANK)
        d["table"]["rules"]["guest_min_players"]["thief"] = 9
        d["table"]["purses"][0] = 40
    assert json.dumps(s.to_dict()) == before
