"""Finding Anastasia: each role's reveal effect and win condition, on hand-made tables."""

from engine import anastasia_cards as C
from tests.shared.anastasia_tables import (
    BLANK,
    DIARY,
    ICON,
    LOCKET,
    LONDON,
    MUSIC_BOX,
    PARIS,
    SLEIGH,
    TIARA,
    TRAIN,
    copy,
    deal,
    default_hands,
    play,
    question,
)
from tests.shared.engine_checks import refused

E, ANA, AGENT, IMP, THIEF = C.EMPRESS, C.ANASTASIA, C.RASPUTINS_AGENT, C.IMPOSTOR, C.THIEF
FF, GOSSIP, COLL, PSY = C.FAMILY_FRIEND, C.GOSSIP, C.COLLECTOR, C.PSYCHIC
MIS, SPY = C.MISINFORMANT, C.RED_ARMY_SPY



def ended(state, reason, winners):
    assert state.is_over() and state.table.ended == reason, state.table.ended
    assert state.winners() == winners, state.winners()
    assert state.scores() == [1 if p in winners else 0 for p in range(state.players)]
    # every hidden role was entered on the ledger for the end
    assert state.table.roles == state.roles


def pass_turn(s):
    """The active player asks the next player about their Story and looks at a clue of theirs."""
    p = s.current_player()
    t = (p + 1) % s.players
    question(s, t, 2)
    play(s, ["look", t], ["show", s.hands[t][0]])


# -- Anastasia -------------------------------------------------------------------
def test_anastasia_revealed_by_the_empress_ends_the_game_and_both_win_with_the_family_friend():
    s = deal([E, ANA, AGENT, FF, MIS, THIEF], purses=[5, 1, 1, 1, 1, 1])
    question(s, 1)
    s.apply(["reveal", 1])
    assert s.gems()["purses"][0] == 0
    ended(s, "anastasia", [0, 1, 3])  # Empress, Anastasia, Family Friend; Misinformant and Agent lose
    assert ["role", 2, AGENT] in s.entries and ["role", 5, THIEF] in s.entries


def test_anastasia_and_the_impostor_cannot_reveal_themselves():
    for who in (ANA, IMP):
        roles = [E, AGENT, IMP, ANA, C.PSYCHIC]
        seat = roles.index(who)
        s = deal(roles, purses=[1, 1, 1, 1, 1], turn=seat)
        s.table.purses[seat] = 9
        s.table.supply -= 8
        question(s, (seat + 1) % 5)
        refused(s, ["reveal_self"], "cannot reveal themselves")
        assert ["reveal", (seat + 1) % 5] in s.legal_actions()


def test_anastasia_revealed_by_rasputins_agent_is_poisoned_and_loses():
    s = deal([E, ANA, AGENT, MIS, FF, THIEF], purses=[1, 1, 7, 1, 1, 1], turn=2)
    question(s, 3)
    s.apply(["reveal_self"])
    assert s.current_player() == 2 and s.decision() == ["poison", 2]
    assert ["poison", 0] not in s.legal_actions()  # the Empress is shown already
    s.apply(["poison", 1])
    assert s.table.poisoned[1] == 1
    ended(s, "anastasia", [2, 3])  # Agent and Misinformant: Anastasia does not win


def test_a_plain_reveal_of_anastasia_by_the_agent_also_denies_her():
    s = deal([E, ANA, AGENT, FF, IMP], purses=[1, 1, 5, 1, 1], turn=2)
    question(s, 3)
    s.apply(["reveal", 1])
    assert s.table.poisoned[1] == 0
    ended(s, "anastasia", [2])


# -- Impostor ----------------------------------------------------------------------
def test_the_impostor_revealed_by_a_player_wins_and_ends_the_game():
    s = deal([E, ANA, AGENT, IMP, MIS, FF], purses=[6, 1, 1, 1, 1, 1])
    question(s, 3)
    s.apply(["reveal", 3])
    ended(s, "impostor", [2, 3, 4])  # Impostor; Agent and Misinformant as Anastasia did not win


def test_the_impostor_revealed_by_rasputins_agent_loses():
    s = deal([E, ANA, AGENT, IMP, FF], purses=[5, 1, 1, 1, 1])
    question(s, 2)
    s.apply(["reveal", 2])
    assert s.decision() == ["poison", 2]
    s.apply(["poison", 3])
    ended(s, "impostor", [2])


def test_a_plain_reveal_of_the_impostor_by_the_agent_also_denies_them():
    s = deal([E, ANA, AGENT, IMP, FF], purses=[1, 1, 5, 1, 1], turn=2)
    question(s, 1)
    s.apply(["reveal", 3])
    assert s.table.poisoned[3] == 0
    ended(s, "impostor", [2])  # the Agent alone: the Impostor was revealed by the Agent


# -- Collector ---------------------------------------------------------------------
def test_collector_revealed_takes_ten_gems_or_a_clue():
    s = deal([E, ANA, AGENT, COLL, FF], purses=[5, 1, 1, 1, 1])
    question(s, 1)
    s.apply(["reveal", 3])
    assert s.decision() == ["collector", 3]
    both = copy(s)
    s.apply(["gems"])
    assert s.gems()["purses"][3] == 11
    top = both.deck[-1]
    both.apply(["clue"])
    assert top in both.hands[3] and both.table.hands[3] == 4 and both.gems()["purses"][3] == 1
    assert both.current_player() == 1  # the Empress's turn is over


def test_collector_with_an_empty_deck_can_only_take_gems():
    hands = default_hands([E, ANA, AGENT, COLL, FF])
    hands[4] += [c for c in range(BLANK) if c not in [h[0] for h in hands] + hands[1]]
    s = deal([E, ANA, AGENT, COLL, FF], hands=hands, purses=[5, 1, 1, 1, 1], deck=[])
    question(s, 1)
    s.apply(["reveal", 3])
    assert s.legal_actions() == [["gems"]]
    refused(s, ["clue"], "deck is empty")


# The Collector (P4) holds a Location, a Trinket and a Story.
FULL_SET_HANDS = [[LOCKET, BLANK, BLANK + 1], [PARIS, MUSIC_BOX, TRAIN], [ICON, BLANK + 2, BLANK + 3],
                  [LONDON, DIARY, SLEIGH, BLANK + 6, BLANK + 7], [TIARA, BLANK + 4, BLANK + 5]]


def test_a_collector_declaring_a_full_set_ends_the_game_and_wins():
    hands = FULL_SET_HANDS
    s = deal([E, ANA, AGENT, COLL, FF], hands=hands, turn=3)
    assert ["declare"] in s.legal_actions()
    s.apply(["declare"])
    assert s.entries[0] == ["declare"]
    assert s.table.declared == 3 and s.table.roles[3] == COLL
    ended(s, "collector", [2, 3])  # Collector; Agent as Anastasia did not win


def test_only_the_collector_with_a_full_set_may_declare():
    s = deal([E, ANA, AGENT, COLL, FF], turn=3)  # the Collector holds Location, 2 Blanks
    refused(s, ["declare"], "does not hold one clue of each category")
    s = deal([E, ANA, AGENT, COLL, FF], turn=1)  # Anastasia holds a full set but is no Collector
    refused(s, ["declare"], "is not the Collector")


def test_an_undeclared_collector_with_a_full_set_wins_unless_declaring_is_required():
    hands = FULL_SET_HANDS
    for must, winners in ((False, [2, 3, 4]), (True, [2, 4])):
        s = deal([E, ANA, AGENT, COLL, IMP], hands=hands, purses=[5, 1, 1, 1, 1], collector_must_declare=must)
        question(s, 1)
        s.apply(["reveal", 4])
        ended(s, "impostor", winners)
        assert (["collector_set", 1] in s.entries) == (not must)


# -- Empress -----------------------------------------------------------------------
def test_the_empress_is_shown_takes_four_gems_and_starts():
    s = deal([AGENT, ANA, E, FF, IMP])
    assert s.table.roles == [-1, -1, E, -1, -1] and s.gems()["purses"] == [1, 1, 5, 1, 1]
    assert s.current_player() == 2 and s.decision() == ["ask", 2]
    s = deal([AGENT, ANA, E, FF, IMP], purses=[5, 1, 1, 1, 1], turn=0)
    question(s, 1)
    assert ["reveal", 2] not in s.legal_actions()
    refused(s, ["reveal", 2], "shown")


def test_the_empress_loses_when_someone_else_reveals_anastasia():
    s = deal([E, ANA, AGENT, THIEF, FF], purses=[1, 1, 1, 5, 1], turn=3)
    question(s, 1)
    s.apply(["reveal", 1])
    ended(s, "anastasia", [1, 3])  # Anastasia and the Thief who revealed her; not the Empress


# -- Family Friend -----------------------------------------------------------------
def test_family_friend_revealed_gives_the_empress_a_clue_and_takes_four_gems_then_wins_by_revealing():
    s = deal([E, ANA, AGENT, FF, IMP], purses=[5, 1, 1, 1, 1])
    top = s.deck[-1]
    question(s, 2)
    s.apply(["reveal", 3])
    assert top in s.hands[0] and s.table.hands[0] == 4 and s.table.deck == len(s.deck)
    assert s.gems()["purses"][3] == 5
    # P4 plays after P2 and P3, asks, then reveals Anastasia
    pass_turn(s)
    pass_turn(s)
    assert s.current_player() == 3
    question(s, 4, 1)
    s.apply(["reveal", 1])
    ended(s, "anastasia", [1, 3])  # Anastasia and the Family Friend who revealed her


def test_family_friend_without_an_empress_skips_her_clue_or_takes_it_as_chosen():
    guests = {"family_friend": 4}
    for choice, ff_hand in (("skip", 3), ("family_friend", 4)):
        s = deal([ANA, AGENT, FF, IMP], purses=[5, 1, 1, 1], turn=0, guest_min_players=guests,
                 empress_clue_without_empress=choice)
        question(s, 1)
        s.apply(["reveal", 2])
        assert s.table.hands == [3, 3, ff_hand, 3], (choice, s.table.hands)
        assert s.gems()["purses"][2] == 5


# -- Gossip ------------------------------------------------------------------------
def _gossip_table():
    s = deal([E, ANA, AGENT, GOSSIP, IMP], purses=[5, 1, 1, 1, 1])
    question(s, 2)
    s.apply(["reveal", 3])
    assert s.decision() == ["snoop", 3]
    s.apply(["snoop", 1])
    assert s.seen[3] == [["hand", 1, [PARIS, MUSIC_BOX, TRAIN]]]
    assert s.view(3)["seen"] == s.seen[3] and s.view(2)["seen"] == []
    assert s.decision() == ["allegiance", 3]
    return s


def _end_by(s, role):
    """Turns pass until neither the holder of role nor the Agent is to play; that player is given
    5 gems and reveals role."""
    target = s.roles.index(role)
    while s.current_player() in (target, s.roles.index(AGENT)):
        pass_turn(s)
    p = s.current_player()
    s.table.purses[p] += 5
    s.table.supply -= 5
    question(s, (p + 1) % s.players, 1)
    s.apply(["reveal", target])


def test_gossip_siding_with_anastasia_wins_when_she_wins_and_loses_when_she_does_not():
    s = _gossip_table()
    s.apply(["allegiance", 1])
    assert s.table.allegiance == 1
    other = copy(s)
    _end_by(s, ANA)
    ended(s, "anastasia", [1, 3])  # Anastasia and the Gossip
    _end_by(other, IMP)
    ended(other, "impostor", [2, 4])


def test_gossip_siding_against_anastasia_wins_when_she_does_not():
    s = _gossip_table()
    s.apply(["allegiance", 0])
    other = copy(s)
    _end_by(s, IMP)
    ended(s, "impostor", [2, 3, 4])
    _end_by(other, ANA)
    ended(other, "anastasia", [1])


# -- Misinformant ------------------------------------------------------------------
def test_misinformant_round_each_player_in_turn_takes_two_gems_or_a_clue_then_wins_if_anastasia_loses():
    s = deal([E, ANA, AGENT, MIS, IMP, SPY], purses=[5, 1, 1, 1, 1, 1])
    question(s, 1)
    s.apply(["reveal", 3])
    order = []
    deck_top = s.deck[-1]
    while s.decision()[0] == "choose":
        p = s.current_player()
        order.append(p)
        s.apply(["clue"] if p == 3 else ["gems"])
    assert order == [3, 4, 5, 0, 1, 2]
    assert deck_top in s.hands[3] and s.table.hands[3] == 4
    assert s.gems()["purses"] == [2, 3, 3, 1, 3, 3]
    assert s.decision() == ["ask", 1]  # then the Empress's turn is over
    other = copy(s)
    _end_by(s, IMP)
    ended(s, "impostor", [2, 3, 4, 5])
    _end_by(other, ANA)
    ended(other, "anastasia", [1])


# -- Psychic -----------------------------------------------------------------------
def test_psychic_sees_a_role_privately_and_only_anastasia_is_revealed():
    s = deal([E, ANA, AGENT, PSY, IMP], purses=[5, 1, 1, 1, 1])
    question(s, 2)
    s.apply(["reveal", 3])
    assert s.decision() == ["peek", 3]
    other = copy(s)
    s.apply(["peek", 4])
    assert s.entries == [["peek", 4, 0]] and s.table.roles[4] == -1 and s.table.cleared[4] == 1
    assert s.seen[3] == [["role", 4, IMP]] and not s.is_over()
    other.apply(["peek", 1])
    assert other.entries[0] == ["peek", 1, 1]
    ended(other, "anastasia", [1, 3])  # Anastasia and the Psychic who revealed her


# -- Rasputin's Agent --------------------------------------------------------------
def test_rasputins_agent_revealed_poisons_a_guest_whose_effect_still_happens():
    s = deal([E, ANA, AGENT, THIEF, IMP], purses=[5, 1, 1, 2, 1])
    question(s, 1)
    s.apply(["reveal", 2])
    assert s.decision() == ["poison", 2]
    s.apply(["poison", 3])  # the Thief: poisoned, still steals and acts
    assert s.table.poisoned == [0, 0, 0, 1, 0]
    assert s.decision() == ["act", 3, 1]
    s.apply(["pass"])
    _end_by(s, IMP)
    ended(s, "impostor", [2, 4])  # the Agent wins (Anastasia did not); the poisoned Thief cannot


def test_a_poisoned_guest_cannot_win_even_when_their_side_does():
    # the Agent poisons the Red Army Spy: the countdown still runs, Anastasia does not win,
    # the Agent and the Misinformant win, the Spy does not
    s = deal([E, ANA, AGENT, SPY, IMP, MIS], purses=[1, 1, 7, 1, 1, 1], turn=2)
    question(s, 1)
    s.apply(["reveal_self"])
    s.apply(["poison", 3])
    assert s.table.spy_end == 6
    while not s.is_over():
        pass_turn(s)
    ended(s, "red_army_spy", [2, 5])


# -- Red Army Spy ------------------------------------------------------------------
def test_red_army_spy_gives_every_player_exactly_one_more_turn():
    s = deal([E, ANA, AGENT, SPY, IMP, MIS], purses=[1, 1, 1, 1, 6, 1], turn=4)
    question(s, 0)
    assert s.table.turn_no == 0
    s.apply(["reveal", 3])
    assert s.table.spy_end == 6 and s.table.turn_no == 1
    turns = []
    while not s.is_over():
        assert s.decision()[0] == "ask"
        p = s.current_player()
        turns.append(p)
        question(s, (p + 1) % 6, 2)
        s.apply(["draw"] if s.table.deck else ["look", (p + 1) % 6])
        while s.secret is not None:
            s.apply(s.legal_actions()[0])
    assert turns == [5, 0, 1, 2, 3, 4]  # one each, the revealing player last
    ended(s, "red_army_spy", [2, 3, 5])  # Agent, Spy, Misinformant: Anastasia did not win


def test_the_spy_countdown_ends_early_if_another_end_effect_fires():
    s = deal([E, ANA, AGENT, SPY, IMP, MIS], purses=[10, 1, 1, 1, 1, 1])
    question(s, 1)
    s.apply(["reveal", 3])
    question(s, 2)
    s.table.purses[1] += 5
    s.table.supply -= 5
    s.apply(["reveal", 4])
    ended(s, "impostor", [2, 3, 4, 5])


# -- Thief -------------------------------------------------------------------------
def test_thief_steals_one_from_each_purse_then_takes_a_free_action_and_wins_by_revealing_anastasia():
    s = deal([E, ANA, AGENT, THIEF, IMP], purses=[6, 0, 2, 1, 1])
    question(s, 2)
    s.apply(["reveal", 3])
    # P1 paid 5 (1 left), P2 had nothing to give
    assert s.gems()["purses"] == [0, 0, 1, 4, 0]
    assert s.decision() == ["act", 3, 1] and s.current_player() == 3
    assert ["pass"] in s.legal_actions() and ["declare"] not in s.legal_actions()
    s.table.purses[3] += 1
    s.table.supply -= 1
    s.apply(["reveal", 1])
    ended(s, "anastasia", [1, 3])


def test_thief_free_action_passed_hands_the_turn_on_after_the_active_player():
    s = deal([E, ANA, AGENT, THIEF, IMP], purses=[5, 1, 1, 1, 1])
    question(s, 2)
    s.apply(["reveal", 3])
    s.apply(["pass"])
    assert s.decision() == ["ask", 1]


def test_thief_from_an_empty_purse_takes_nothing_or_one_from_the_supply():
    for choice, stolen in (("nothing", [0, 0, 0, 1, 0]), ("supply", [0, 0, 0, 4, 0])):
        s = deal([E, ANA, AGENT, THIEF, IMP], purses=[5, 1, 0, 0, 0], thief_empty_purse=choice)
        question(s, 2)
        s.apply(["reveal", 3])  # the Empress is left with nothing; P2 has the only gem to steal
        assert s.gems()["purses"] == stolen, (choice, s.gems())


def test_thief_free_action_can_be_a_further_question():
    s = deal([E, ANA, AGENT, THIEF, IMP], purses=[5, 1, 1, 1, 1])
    question(s, 2)
    s.apply(["reveal", 3])
    s.apply(["question", 1, 2])
    assert s.decision() == ["answer", 1, 2, 1]
    s.apply(["answer", TRAIN])
    assert s.table.tokens[1][2] == TRAIN % 5 and s.decision() == ["ask", 1]
    assert s.entries == [["question", 1, TRAIN]]
    assert SLEIGH not in s.hands[1]
