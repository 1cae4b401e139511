"""The Anathema score keeper mode as specs on the mode harness: the setup ok cycles, the
dealer's LED and its passing left, the last deal, picks and undo, and the same entries made
by a host (GameMode.enter, the act op's way in). Whole games: test_anathema_mode_game.py."""

from tests.shared.anathema_box import Clock, deal_hand, replayed, said, score_hand
from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import MS, Box


def test_ok_before_the_first_deal_cycles_2p_3p_4p_and_partners_and_keeps_it():
    with tmp_dir() as d:
        box = Box(d, "anathema")
        at = Clock()
        assert box.screen()[:4] == ["ANATHEMA 3P", "P1             0", "P2             0", "P3             0"]
        titles = []
        for _ in range(4):
            box.ok(at())
            titles.append(box.screen()[0])
        assert titles == ["ANATHEMA 4P", "ANATHEMA 2V2", "ANATHEMA 2P", "ANATHEMA 3P"]
        box.ok(at())
        box.ok(at())
        assert box.screen()[1:3] == ["P1+P3          0", "P2+P4          0"]
        assert box.records() == []  # no game recorded before its first deal
        box = box.reboot()
        assert box.screen()[0] == "ANATHEMA 2V2" and box.mode.game.rules.partners
        box.press(0, at())
        start = box.records("game_start")[-1]["data"]
        assert start["options"]["partners"] is True and len(start["players"]) == 4


def test_the_dealer_presses_each_deal_the_last_is_announced_and_the_deal_passes_left():
    with tmp_dir() as d:
        box = Box(d, "anathema", players=3)
        at = Clock()
        assert box.lit() == [0]  # P1 is offered the deal
        box.press(1, at())  # but whoever deals first is the dealer
        assert box.lit() == [1] and box.screen()[0] == "H1 DEAL 2/4" and "P2: deal," in box.screen()
        box.press(0, at())
        assert said(box).endswith("P2 deals this hand, not P1")
        assert box.events[-1] == ("refused", {"why": "P2 deals this hand, not P1"})
        assert box.actions() == [["deal", 1]]
        box.press(1, at())
        box.press(1, at())
        assert box.screen()[0] == "H1 LAST DEAL 4/4" and "P2: last deal," in box.screen()
        box.press(1, at())
        assert box.screen()[0] == "LAST DEAL!" and box.mode.game.last_deal()
        flashes = set()
        for _ in range(6):
            box.run_to(box.clock.us + 125 * MS)
            flashes.add(tuple(box.lit()))
        assert flashes == {(1,), ()}  # the dealer's LED flashes
        score_hand(box, at, [0], [2], [], [0, 0, 0, 0, 1, 1, 2])
        assert box.lit() == [2] and box.screen()[0] == "H2 DEAL 1/4"
        assert box.screen()[1:4] == ["P1          7 +7", "P2          2 +2", "P3          2 +2"]
        assert box.mode.mode_status()["dealer"] == 3


def test_picks_back_and_undo():
    with tmp_dir() as d:
        box = Box(d, "anathema", players=4)
        at = Clock()
        deal_hand(box, at, 0)
        box.ok(at())
        assert said(box).endswith("press who has the most cards first") and len(box.actions()) == 3
        box.press(1, at())
        box.press(3, at())
        assert box.lit() == [1, 3] and box.screen()[2] == "*P2         0 +0"
        box.press(3, at())  # a second press takes the pick back
        assert box.lit() == [1]
        assert box.back(at()) is True  # back clears the pick, no entry undone
        assert box.lit() == [0, 1, 2, 3] and len(box.actions()) == 3
        box.press(1, at())
        box.press(2, at())
        box.ok(at())  # a tie for most cards: nobody scores it
        assert box.actions()[-1] == ["most_cards", [1, 2]] and box.screen()[0] == "MOST FAMILIAR +1"
        box.back(at())  # undoes the entry
        assert box.records("action")[-1]["data"]["undo"] == 3 and box.screen()[0] == "MOST CARDS +3"
        for _ in range(3):
            box.back(at())
        assert box.mode.game.deals == 0 and box.back(at()) is True and box.screen()[0] == "END GAME?"
        box.back(at())  # no: the game goes on, as it was
        assert not box.in_menu and box.mode.game.deals == 0 and box.records("game_end") == []
        assert replayed(box).digest() == box.mode.game.digest()


def test_a_host_enters_the_same_entries_with_the_same_checks():
    with tmp_dir() as d:
        box = Box(d, "anathema", players=3)
        mode = box.mode
        for _ in range(4):
            assert mode.enter(["deal", 2], 0) is None
        assert mode.enter(["sweep", 0], 0) == "sweeps are not entered now: the cards step is open"
        assert said(box).endswith("sweeps are not entered now: the cards step is open")
        assert mode.enter(["most_cards", [0, 1]], 0) is None
        assert box.screen()[0] == "MOST FAMILIAR +1" and box.lit() == [0, 1, 2]
        assert ("action", {"n": 4, "action": ["most_cards", [0, 1]]}) in box.events
        assert box.actions()[-1] == ["most_cards", [0, 1]]
        assert mode.enter(["undo"], 0) is None  # undo as the back button gives it
        assert box.screen()[0] == "MOST CARDS +3" and box.records("action")[-1]["data"]["undo"] == 4
        for _ in range(4):
            mode.enter(["undo"], 0)
        assert mode.enter(["undo"], 0) == "nothing to undo" and said(box).endswith("nothing to undo")


def test_the_registry_offers_the_engines_rule_choices_with_its_defaults():
    from engine import anathema_score, anathema_scoring
    from firmware import modes

    schema = modes.find("anathema").schema()
    for key in ("partners", "target", "most_tie", "top_tie"):
        assert schema[key][1] == anathema_score.OPTIONS[key], key
    for key, choices in (("most_tie", anathema_scoring.MOST_TIE_CHOICES),
                         ("top_tie", anathema_scoring.TOP_TIE_CHOICES)):
        assert all(schema[key][0](c) is None for c in choices)
        assert schema[key][0]("some") == "must be one of %s, got 'some'" % ", ".join(choices)


def keys_said(box):
    """{key: its job} as the screen says it: the hint row's O:, B:, M: and a line "ok: ..."."""
    screen = box.screen()
    jobs = {}
    for item in screen[-1].split():
        key, _, job = item.partition(":")
        jobs[{"O": "ok", "B": "back", "M": "mode"}[key]] = job
    for line in screen[1:-1]:
        if line.startswith("ok: "):
            jobs.setdefault("ok", line[4:])
    return jobs


def test_every_screen_says_what_ok_back_and_mode_do():
    with tmp_dir() as d:
        box = Box(d, "anathema", players=4)  # four sides: the fullest screen
        at = Clock()
        menu = {"back": "menu", "mode": "-"}
        for now, then in (("4P", "2V2"), ("2V2", "2P"), ("2P", "3P"), ("3P", "4P")):
            assert box.screen()[0] == "ANATHEMA " + now and keys_said(box) == dict(menu, ok=then)
            box.ok(at())
        playing = {"back": "undo", "mode": "end"}
        box.press(0, at())
        assert box.screen()[0] == "H1 DEAL 2/3" and keys_said(box) == dict(playing, ok="-")
        box.ok(at())  # at a deal ok does nothing, as said
        assert box.events[-1] == ("nope", {"key": "ok"}) and len(box.actions()) == 1
        box.back(at())  # the first deal undone: anyone may deal it again, back now ends
        assert box.screen()[0] == "H1 DEAL 1/3" and keys_said(box) == dict(playing, ok="-", back="end")
        assert box.screen()[5:7] == ["who deals: press", ""]
        box.press(0, at())
        box.press(0, at())
        box.press(0, at())
        assert box.screen()[0] == "LAST DEAL!" and keys_said(box) == dict(playing, ok="enter pick")
        box.ok(at())  # a refusal says why and still what ok does
        assert said(box).endswith("press who has the most cards first")
        assert keys_said(box) == dict(playing, ok="enter pick")
        box.press(1, at())
        assert box.screen()[0] == "MOST CARDS +3" and keys_said(box) == dict(playing, ok="enter pick")
        box.ok(at())
        assert box.screen()[0] == "MOST FAMILIAR +1" and keys_said(box) == dict(playing, ok="enter pick")
        box.press(2, at())
        box.ok(at())
        assert box.screen()[0] == "SWEEPS +1 EACH" and keys_said(box) == dict(playing, ok="to points")
        box.ok(at())
        assert box.screen()[0] == "POINT CARDS 0/7" and keys_said(box) == dict(playing, ok="score hand")
        box.ok(at())
        assert said(box).endswith("7 of the 7 card points still to enter")
        assert keys_said(box) == dict(playing, ok="score hand")
        assert box.mode.enter(["sweep", 0], 0) is not None  # a host's long refusal: all of why shows
        assert said(box).endswith("sweeps are not entered now: the points step is open")
        for seat in (0, 0, 0, 0, 1, 1, 2):
            box.press(seat, at())
        assert box.screen()[0] == "POINT CARDS 7/7" and keys_said(box) == dict(playing, ok="score hand")
        box.ok(at())
        assert box.screen()[0] == "H2 DEAL 1/3" and keys_said(box) == dict(playing, ok="-")
        box.mode_button(at())
        assert box.screen()[0] == "END GAME?" and keys_said(box) == {"ok": "yes", "back": "no", "mode": "no"}
        box.ok(at())
        assert box.screen()[0] == "GAME ENDED" and keys_said(box) == dict(menu, ok="new")
