"""`games show` reads a solo Anastasia game in its own terms (host.game_views.SoloView): each
action in words, each automa turn as the engine resolved it, how it ended."""

from host.game_views import SoloView, view_for
from tests.shared.anastasia_solo_box import REMOVE, REVEAL_ROLE, Table, deck


def test_a_solo_game_from_the_box_reads_in_words(tmp_path):
    d = str(tmp_path)
    deck(d, ["x1: expend_reveal 1 3 2; leave 4"])
    tb = Table(d)
    tb.act(REMOVE, 5)
    tb.act(REMOVE, 6)
    tb.ok()  # the automa turns Guest 2's role over
    tb.ok()  # not Anastasia: the automa goes on with action 2
    tb.ok()
    tb.ok()
    tb.act(REVEAL_ROLE, 3)
    tb.guest(3)  # Anastasia
    game = {"name": "anastasia_solo"}
    view = view_for(game)
    assert isinstance(view, SoloView) and view is not view_for(game)  # one reader per game
    words = [view.detail(r) for r in tb.box.records()]
    assert words[0] == "1 player, own deck"
    assert words[1:3] == ["P1 removes Guest 5 (+3 gems)", "P1 removes Guest 6 (+3 gems)"]
    assert words[3] == ("the automa's turn: Automa card 'x1' 1: Guest 1 expends 3 gems to reveal Guest 2: "
                        "is it Anastasia?")
    assert words[4].startswith("the table: Guest 2 is not Anastasia Automa card 'x1' "
                               "1: Guest 1 expends 3 gems")
    assert "2: Guest 4 leaves the party" in words[4]
    assert words[5:7] == ["P1 turns Guest 3's role over", "the table: Guest 3 is Anastasia"]
    assert words[7] == "P1 found Anastasia (Guest 3) (ended); won: P1"
