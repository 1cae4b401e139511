"""A pick list a mode opens to choose one thing: an action, a role, a column, a space ...

One scheme for every mode, so the box reads the same whatever the game:
    ok            the next item (after the last: the first again)
    back          the previous item; on the first item: cancel (the mode steps back, e.g.
                  closes the list or, with nothing open, lets back undo)
    player button choose the item shown (a mode may accept only the seat whose decision
                  it is, and say so through its refusal line)
    mode          not the list's: it keeps ending the game, as everywhere on the box
The list draws itself as one line under what the mode shows above it:
"> Reveal     3/6". Items are short strings (they fit the 16 OLED columns with the count).

    pick = Menu("ACTION", ["Look", "Exchange", "Draw"])
    result = pick.press(bit)        # MOVED, CANCEL, CHOSEN (pick.index, pick.item()) or NONE
    pick.show(ctx.display, ["P2 5 gems"], ["ok: next"])
"""

from firmware.buttons import BACK_BIT, OK_BIT, SEATS

NONE = 0  # not a button the list uses
MOVED = 1
CANCEL = 2
CHOSEN = 3


class Menu:
    def __init__(self, title, items, index=0):
        if not items:
            raise ValueError("a pick list needs at least one item")
        self.title = title
        self.items = items
        self.index = index if 0 <= index < len(items) else 0

    def item(self):
        return self.items[self.index]

    def press(self, bit):
        """A button pressed (down edge): what it did to the list."""
        if bit < SEATS:
            return CHOSEN
        if bit == OK_BIT:
            self.index = (self.index + 1) % len(self.items)
            return MOVED
        if bit == BACK_BIT:
            if self.index == 0:
                return CANCEL
            self.index -= 1
            return MOVED
        return NONE

    def line(self, width=16):
        """The list's line: the item shown and where it is in the list."""
        count = "%d/%d" % (self.index + 1, len(self.items))
        room = width - 3 - len(count)
        text = str(self.item())[:room]
        return "> " + text + " " * (room - len(text) + 1) + count

    def show(self, display, above=(), below=()):
        """Title bar, the mode's lines, the list's line, then the mode's hints (nothing
        without an OLED)."""
        if display is None:
            return
        lines = list(above)[: display.rows - 2]
        lines.append(self.line(display.cols))
        display.text(lines + list(below), title=self.title)
