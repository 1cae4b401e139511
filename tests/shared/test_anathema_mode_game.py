"""The Anathema score keeper mode over whole games, on the mode harness: a 3-player game to
21 entered with the buttons is won, ends for good and replays from its records; partners
win together; a power cut resumes a hand at its step."""

# micropython heapsize: 256k - the box, its engine and a replayed copy of its game beside the harness

from tests.shared.anathema_box import Clock, deal_hand, replayed, said, score_hand
from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import MS, Box


def test_a_three_player_game_to_21_is_won_ends_and_replays():
    with tmp_dir() as d:
        box = Box(d, "anathema", players=3)
        at = Clock()
        hands = [
            ([0], [0], [0], [0, 0, 0, 1, 1, 2, 2]),  # P1 3+1+1+3 = 8, P2 2, P3 2
            ([1], [2], [], [1, 1, 1, 1, 0, 0, 0]),  # P2 7, P3 1, P1 3
            ([0], [0], [0, 0], [0, 0, 0, 0, 1, 1, 1]),  # P1 10 -> 21
        ]
        for k, hand in enumerate(hands):
            deal_hand(box, at, k % 3)
            score_hand(box, at, *hand)
        game = box.mode.game
        assert game.scores() == [21, 12, 3] and game.winners() == [0] and box.mode.session.over
        assert box.screen()[:5] == ["P1 WINS", "P1        21 +10", "P2         12 +3", "P3          3 +0",
                                    "ok: new game"]
        assert box.lit() == [0] and ("refused" not in [k for k, _ in box.events])
        end = box.records("game_end")[-1]["data"]
        assert end["reason"] == "won" and end["winners"] == [0] and end["scores"] == [21, 12, 3]
        assert box.mode.enter(["undo"], at() // MS) == "no game is running: ok starts one"
        assert box.back(at()) is False  # nothing to take back past the winner: the menu
        assert replayed(box).scores() == [21, 12, 3]
        box.in_menu = False
        box.ok(at())  # a new game
        assert box.screen()[0] == "ANATHEMA 3P" and box.mode.game.scores() == [0, 0, 0]


def test_partners_either_button_counts_for_the_side_and_both_win():
    with tmp_dir() as d:
        box = Box(d, "anathema", players=4, partners=True, target=10)
        at = Clock()
        deal_hand(box, at, 3)
        box.press(2, at())  # P3 picks side P1+P3: both LEDs
        assert box.lit() == [0, 2]
        box.ok(at())
        score_hand(box, at, [], [0], [2, 3], [0, 2, 0, 2, 0, 1, 3])
        game = box.mode.game
        assert game.scores() == [10, 3, 10, 3] and game.winners() == [0, 2]
        assert box.screen()[0] == "P1+P3 WINS" and box.lit() in ([0], [2])  # the partners take turns


def test_a_power_cut_resumes_the_hand_at_its_step():
    with tmp_dir() as d:
        box = Box(d, "anathema", players=2)
        at = Clock()
        deal_hand(box, at, 1)
        box.press(0, at())
        box.ok(at())
        box.press(1, at())
        box.ok(at())
        box.press(1, at())
        digest = box.mode.game.digest()
        box = box.reboot()
        assert box.mode.game.digest() == digest and box.screen()[0] == "SWEEPS +1 EACH"
        assert said(box).endswith("game resumed")
        assert box.screen()[1:3] == ["P1          0 +3", "P2          0 +2"]
        box.back(at())  # the undo history survives the reset
        assert box.mode.game.sweeps == [0, 0]
