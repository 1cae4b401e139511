"""The LED code and the OLED words of one automa action (firmware.modes.anastasia_solo_code),
verb by verb, from the engine's own resolution records."""

from firmware.modes import anastasia_solo_code as code

WHITE = code.WHITE


def _lit(mask):
    return [s for s in range(8) if mask & (1 << s)]


def test_each_verb_lights_its_guests_in_its_colour_and_counts_with_blinks():
    cases = [
        (["reveal_clue", 3], {"slot": 1, "clue": -1}, {2: 2}),  # card 2 of Guest 3's fan
        (["exchange", 4, 5], {"slots": [2, 0]}, {3: 3, 4: 1}),
        (["return_reveal", 1, 3, 2], {"paid": [3], "role": -1}, {0: 3, 1: 0}),  # 3 gems, then Guest 2
        (["draw", 6], {"slot": 3}, {5: 0}),
        (["expend_reveal", 5, 2, 6], {"spent": 2, "role": -2}, {4: 2, 5: 0}),
        (["leave", 2], {"gems": 3}, {1: 0}),
    ]
    for tier, did, blinks in cases:
        for step in (0, 1):
            colours, mask, counts = code.led_code([tier], {"tier": 0, "failed": [], "did": did}, step)
            assert _lit(mask) == sorted(blinks) + [6 + step], tier
            assert colours[6 + step] == WHITE and counts[6 + step] == 0
            for seat in blinks:
                assert colours[seat] == code.VERB_COLOURS[tier[0]] and counts[seat] == blinks[seat], tier
    assert len(set(code.VERB_COLOURS.values())) == 6  # a colour per verb


def test_a_skipped_action_lights_only_its_step():
    outcome = {"tier": -1, "failed": [["absent", 3], ["deck_empty"]], "did": None}
    colours, mask, counts = code.led_code([["reveal_clue", 3], ["draw", 2]], outcome, 1)
    assert _lit(mask) == [7] and bytes(counts) == bytes(8)
    assert code.action_words([["reveal_clue", 3], ["draw", 2]], outcome) == \
        "Skipped: no tier can be taken. (no secondary: clue deck empty)"


def test_words_say_the_tier_taken_what_the_table_saw_and_why_the_tier_above_failed():
    outcome = {"tier": 1, "failed": [["short", 5, 1, 3]], "did": {"slots": [0, 2]}}
    words = code.action_words([["expend_reveal", 5, 3, 2], ["exchange", 4, 5]], outcome)
    assert words == ("Guest 4 exchanges an unshown clue with Guest 5: G4 card 1 <> G5 card 3. "
                     "(no primary: G5 has 1 gems, needs 3)")
    title, lines = code.action_screen("A1", [["leave", 2]], {"tier": 0, "failed": [], "did": {"gems": 0}}, 0)
    assert title == "AUTOMA A1 1/2" and lines == ["Guest 2 leaves", "the party."]
    assert all(len(line) <= 16 for line in code.wrap(words, 16))
    assert code.wrap("abcdefghijklmnopqrstu v", 8) == ["abcdefgh", "ijklmnop", "qrstu v"]
    assert code.action_words([["draw", 1]], {"tier": -1, "failed": [["over"]], "did": None}) == \
        "Not taken: the game is over."


def test_what_the_table_saw_in_few_words():
    did = {"paid": [2, 1, 0], "role": -1}
    assert code.table_words(["return_reveal", 1, 3, 2], did) == "P1 +2 P2 +1, Anastasia?"
    assert code.table_words(["expend_reveal", 5, 3, 2], {"spent": 3, "role": -2}) == "not Anastasia"
    assert code.table_words(["expend_reveal", 5, 3, 2], {"spent": 3, "role": 0}) == "it is Anastasia"
    assert code.table_words(["leave", 4], {"gems": 5}) == "5 gems to supply"
    assert code.table_words(["draw", 4], {"slot": 3}) == ""
