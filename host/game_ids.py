"""A game's one id, the same on the box and in every command: SEQ@BOX.

SEQ is the box's own game number (the seq of the game's game_start record, what the box's
status calls "game"); BOX is the box's journal tag, the random part of its device id
("sim-1a2b3c4d" -> "1a2b3c4d"), so two boxes, or a box whose journal was made anew (its
seqs start from 1 again under a new tag), never give two games one id.
"""

import re

_ID = re.compile(r"^\s*(\d+)(?:@([A-Za-z0-9_.:-]+))?\s*$")


def box_of(device_id):
    """The part of a device id that names the box in a game id: its journal tag."""
    text = str(device_id)
    return text.rsplit("-", 1)[-1] if "-" in text else text


def game_id(device_id, seq):
    return "%d@%s" % (seq, box_of(device_id))


def parse(text):
    """'32@1a2b3c4d' -> (32, '1a2b3c4d'); '32' -> (32, None). ValueError says what a game id is."""
    m = _ID.match(str(text))
    if m is None or int(m.group(1)) < 1:
        raise ValueError("%r is not a game id: give it as `tablemate games list` prints it, SEQ@BOX"
                         " (e.g. 32@1a2b3c4d), or the SEQ alone" % str(text))
    return int(m.group(1)), m.group(2)


def on_box(device_id, box):
    """Whether BOX of a typed game id names this device: its tag or its whole device id."""
    box = box.lower()  # tags are lowercase hex; a person may type them otherwise
    return box in (box_of(device_id).lower(), str(device_id).lower())
