"""The Finding Anastasia box mode's hint row, screen by screen: on each screen of a whole
game, ok, back and mode do what the row says (tests/shared/hint_walk.py). A module of its
own: the walk builds a fresh box for every key of every screen, and needs a heap that the
mode's other specs have not fragmented."""

# micropython heapsize: 256k - a box, its engine and its journal re-read by each undo beside the walk

from tests.shared.hint_walk import check_hints


def test_the_hint_row_says_what_the_keys_do_on_every_screen():
    # a game from the Empress's press to the result: an answer, a reveal (a refusal on the
    # way), a further question and a Reaction opened and cancelled, the Collector's
    # declaration, the roles in turn, the next game
    keys = ("3 2 o 2 2 o o o o 3 3 1 o o 3 5 5 5 o o 4 4 1 1 1 o b 2 2 2"
            " o o o o o o 5 2 o o o o o o 4 o").split()

    def react(box, before, after):
        assert after.screen[0] == "REACTION" and after.digest == before.digest, after.screen

    def new(box, before, after):  # ok ends the game shown, then the Empress presses for the next
        ends = [f for k, f in box.events if k == "game" and f["event"] == "end"]
        assert ends and ends[-1]["winners"] == [4, 5] and after.screen[0] == "EMPRESS?"

    checked = check_hints("anastasia", {"players": 5}, keys, {"react": react, "new": new})
    titles = {kind[0] for kind in checked}
    assert {"EMPRESS?", "P# ASKS", "P#: COLUMN", "P#: TRINKET", "P#: LOCATION", "P# ACTS", "REVEAL WHOM?",
            "NOT POSSIBLE", "ROLE OF P#", "ASK WHOM?", "REACTION", "GAME OVER"} <= titles
