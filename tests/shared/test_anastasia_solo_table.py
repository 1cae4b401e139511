"""Solo Finding Anastasia with real cards (option cards="table"): the state knows where cards
lie but not which, a draw is kept at once, and a role turned over, by a player or by the
automa, waits for the table to say what it is."""

import json

from engine import anastasia_automa as automa
from engine import anastasia_solo as solo
from engine.anastasia_automa_deck import PRINTED
from engine.core import CHANCE, BadState, IllegalAction
from tests.shared.compat import raises

UNKNOWN = solo.UNKNOWN


def table_game(players=1, **options):
    return solo.new_game(4, players, cards="table", **options)


def round_trip(state):
    saved = json.loads(json.dumps(state.to_dict()))
    again = solo.from_dict(saved)
    assert again.to_dict() == state.to_dict()
    return again


def test_the_table_game_knows_where_cards_lie_not_which():
    state = table_game(players=2)
    dealt = solo.new_game(4, 2)
    for x in state.guests:
        assert x.role == UNKNOWN and x.clues == [UNKNOWN] * 3
    assert state.clue_deck == [UNKNOWN] * 2 and len(state.box) == 9
    assert state.gems() == dealt.gems() and state.automa_deck == dealt.automa_deck
    assert state.rng.state() == dealt.rng.state()
    assert round_trip(state).digest() == state.digest()


def test_a_draw_is_kept_at_once():
    state = table_game()
    state.apply(["draw"])
    assert state.drawn is None and state.hands == [[UNKNOWN]] and state.clue_deck == [UNKNOWN]
    assert state.actions_left == 1 and ["keep", 0] not in state.legal_actions()


def test_a_player_turns_a_role_and_the_table_says_what_it_is():
    state = table_game(players=2)
    state.apply(["reveal_role", 3])
    assert state.phase == solo.REVEAL and state.current_player() == CHANCE
    assert state.legal_actions() == [["role_seen", "anastasia"], ["role_seen", "other"]]
    assert state.guest(3).role_shown and state.guest(3).role == UNKNOWN
    before = state.digest()
    for bad in (["remove", 1], ["role_seen", "thief"], ["automa"]):
        e = raises(IllegalAction, state.apply, bad)
        assert "Guest 3's role is turned over: say what it is" in str(e)
        assert state.digest() == before
    state = round_trip(state)
    state.apply(["role_seen", "other"])
    assert state.guest(3).role == solo.OTHER_ROLE and state.out == [True, False]
    assert state.current_player() == 1 and not state.is_over()
    assert "no role is being turned over" in str(raises(IllegalAction, state.apply, ["role_seen", "other"]))
    state.apply(["reveal_role", 5])
    state.apply(["role_seen", "anastasia"])
    assert state.is_over() and state.result == {"reason": solo.FOUND, "winners": [1], "guest": 5, "by": 1}


def printed_round_end(**options):
    """A table game at the end of round 1 whose automa deck is the printed card alone, with
    Guest 3 shown out and Guest 5 gone, so the printed card falls to "Guest 1 returns 3 gems
    to you, revealing Guest 2's role"."""
    state = table_game(players=2, automa_deck=[PRINTED], **options)
    d = state.to_dict()
    d["status"][2] = solo.REMOVED
    d["status"][4] = solo.LEFT
    d["supply"] += d["beneath"][2] + d["beneath"][4]
    d["beneath"][2] = d["beneath"][4] = 0
    d["phase"] = solo.AUTOMA
    return solo.from_dict(d)


def test_the_automa_waits_for_the_role_it_turned_then_goes_on():
    state = printed_round_end()
    state.apply(["automa"])
    assert state.phase == solo.REVEAL and state.turned == [2, -1] and state.purses == [8, 7]
    assert len(state.last_automa["actions"]) == 1
    assert state.describe_automa()[1].startswith(
        "1: Guest 1 returns 3 gems to you, revealing Guest 2's role: P1 +2, P2 +1; is it Anastasia?")
    state = round_trip(state)
    state.apply(["role_seen", "other"])
    # action 2 is judged now that Guest 2's role is known
    first, second = state.last_automa["actions"]
    assert first["did"]["role"] == solo.OTHER_ROLE and second["tier"] == 0  # Guest 6 draws
    assert state.describe_automa()[1].endswith("P1 +2, P2 +1; not Anastasia (primary could not be taken: "
                                               "Guest 3 is no longer at the party; secondary could not be "
                                               "taken: Guest 5 is no longer at the party)")
    assert state.round == 2 and state.current_player() == 0 and state.out == [False, False]


def test_the_automa_turning_anastasia_ends_the_game_before_its_second_action():
    state = printed_round_end()
    state.apply(["automa"])
    state.apply(["role_seen", "anastasia"])
    assert state.is_over() and state.result["reason"] == solo.AUTOMA_FOUND and state.winners() == []
    assert state.last_automa["actions"][1] == {"tier": -1, "failed": [[automa.GAME_OVER]], "did": None}
    state = printed_round_end(automa_finds_anastasia="players_win")
    state.apply(["automa"])
    state.apply(["role_seen", "anastasia"])
    assert state.winners() == [0, 1]


def test_a_table_state_refuses_what_a_table_cannot_hold():
    good = table_game(players=2).to_dict()

    def refused(change, words):
        d = json.loads(json.dumps(good))
        change(d)
        e = raises(BadState, solo.from_dict, d)
        assert words in str(e), str(e)

    refused(lambda d: d["clues"][0].append(3), "clues must be -1 (unknown), got 3")
    refused(lambda d: d.update(clue_deck=[UNKNOWN]), "the table must hold 29 clue cards, not 28")
    refused(lambda d: d["roles"].insert(0, solo.OTHER_ROLE) or d["roles"].pop(),
            "Guest 1's role must be known")
    refused(lambda d: d.update(turned=[2, 0]), "a role is being turned over exactly in the reveal phase")
    refused(lambda d: d.update(phase="reveal"), "a role is being turned over exactly in the reveal phase")
    refused(lambda d: d.update(phase="reveal", turned=[2, 0]),
            "the role being turned over must be a face-up guest")
