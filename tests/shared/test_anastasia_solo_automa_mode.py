"""The automa's turn in the Anastasia solo mode: on the OLED in words and in the LED code,
exactly as the engine resolved it (a deck of your own from the settings)."""

# micropython heapsize: 256k - the box, its engine and a replayed copy of its game beside the harness

from tests.shared.anastasia_solo_box import DRAW, Table, deck  # noqa: I001
from engine import anastasia_automa
from engine.anastasia_solo_rules import REVEAL
from firmware.leds import FULL, scaled
from firmware.modes import anastasia_solo_code as code
from tests.shared.compat import tmp_dir


def _automa_turn_shown_matches_the_engine(tb):
    """ok through an automa turn: each action's screen and LEDs against the engine's record."""
    tb.ok()  # draws the card
    rec = tb.game.last_automa
    card = anastasia_automa.parse_card(tb.game.deck_cards[rec["card"]])
    shown = []
    for step in range(len(rec["actions"])):
        tiers, outcome = card["actions"][step], rec["actions"][step]
        screen = tb.screen()
        assert screen[0] == "AUTOMA %s %d/2" % (card["name"], step + 1)
        words = " ".join(screen[1:])
        tier = code.taken_tier(tiers, outcome)
        if tier is not None:
            for word in anastasia_automa.tier_text(tier).split():
                assert word in words
        colours, mask, blinks = code.led_code(tiers, outcome, step)
        lit = tb.box.lit()  # at the start of the code: every LED of the mask is on
        assert lit == [s for s in range(8) if mask & (1 << s)]
        for s in lit:
            assert tb.box.strip[s] == scaled(colours[s], FULL, tb.box.leds.brightness)
        shown.append((words, lit, list(tb.box.leds._blinks)))
        if tb.game.phase == REVEAL:
            break
        if step + 1 < len(rec["actions"]):
            tb.ok()
    return shown


def test_the_automa_turn_on_the_oled_and_leds_is_the_engines_resolution():
    with tmp_dir() as d:
        deck(d, ["m1: reveal_clue 3, leave 1; exchange 4 5, draw 6",
                 "m2: draw 2, leave 2; expend_reveal 4 9 1, leave 6"])
        tb = Table(d)
        tb.act(DRAW, 6)
        tb.act(DRAW, 1)  # the clue deck is now empty
        shown = _automa_turn_shown_matches_the_engine(tb)
        rec = tb.game.last_automa
        name = anastasia_automa.parse_card(tb.game.deck_cards[rec["card"]])["name"]
        if name == "m1":
            slot = rec["actions"][0]["did"]["slot"]
            assert shown[0][1] == [2, 6] and shown[0][2][2] == slot + 1
            assert "Reveal Guest 3's clue: card %d" % (slot + 1) in shown[0][0]
            assert shown[1][1] == [3, 4, 7]
            assert "Guest 4 exchanges an unshown clue with Guest 5" in shown[1][0]
        else:
            assert shown[0][1] == [1, 6] and "Guest 2 leaves the party" in shown[0][0]
            assert "(no primary: clue deck empty)" in shown[0][0]
            # 9 gems are not beneath Guest 4: the secondary tier, and the reason
            assert "Guest 6 leaves the party" in shown[1][0]
            assert "(no primary: G4 has 3 gems, needs 9)" in shown[1][0]
        assert "ok: next round" in tb.screen(), tb.screen()
        tb.ok()
        assert tb.screen()[0] == "R2 P1 ACTION 1/2"
        # the deck of the settings is the game's, as recorded (replays: test_anastasia_solo_automa_reveal)
        assert tb.box.mode.session.options["automa_deck"][0].startswith("m1:")
