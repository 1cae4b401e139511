"""The shared pick list (firmware/modes/menu.py): ok next, back previous or cancel, a player
button chooses; its one line under the mode's own lines on the OLED."""

from firmware.buttons import BACK_BIT, MODE_BIT, OK_BIT
from firmware.display import Display
from firmware.modes.menu import CANCEL, CHOSEN, MOVED, NONE, Menu
from tests.shared.compat import raises
from tests.shared.mode_harness import Screen


def test_ok_goes_forward_and_wraps_back_goes_back_then_cancels():
    m = Menu("ACTION", ["Look", "Exchange", "Draw"])
    assert m.item() == "Look"
    assert m.press(OK_BIT) == MOVED and m.item() == "Exchange"
    assert m.press(OK_BIT) == MOVED and m.press(OK_BIT) == MOVED and m.item() == "Look"  # wrapped
    assert m.press(OK_BIT) == MOVED and m.press(BACK_BIT) == MOVED and m.index == 0
    assert m.press(BACK_BIT) == CANCEL and m.index == 0


def test_a_player_button_chooses_and_mode_is_not_the_lists():
    m = Menu("ROLE", ["Thief", "Gossip"], index=1)
    assert m.press(3) == CHOSEN and m.item() == "Gossip"
    assert m.press(MODE_BIT) == NONE and m.index == 1
    assert Menu("X", ["a"], index=7).index == 0  # an index out of range starts at the top
    raises(ValueError, Menu, "X", [])


def test_its_line_is_drawn_under_the_modes_lines():
    d = Display(Screen())
    m = Menu("REVEAL P3", ["Anastasia", "Rasputin's Agent"])
    m.press(OK_BIT)
    m.show(d, ["P1 6 gems", "costs 5"])
    lines = [ln.strip() for ln in d.get_lines()]
    assert lines[0] == "REVEAL P3" and lines[1:3] == ["P1 6 gems", "costs 5"]
    assert lines[3] == "> Rasputin's 2/2" and len(d.get_lines()[3]) <= 16
    m.show(None)  # a box without an OLED: nothing to draw
