"""The menu's About screen: what the box runs and how it is doing. Loaded the first time the
screen is shown: a box that only plays never compiles it."""

import gc
import time

from firmware import modes


def about_lines(app, now_ms):
    """The screen's lines: firmware, board, uptime, free heap, records kept, modes."""
    j = app.journal.stats()
    lines = [
        "fw %s" % app.firmware_version,
        "board %s" % app.board_name,
        "up %ds" % (time.ticks_diff(now_ms, app.started_ms) // 1000),
        "free %dk" % (gc.mem_free() // 1024),
        "records %d" % j["records"],
        "modes %d" % len(modes.AVAILABLE),
    ]
    if app.settings.load_error:
        lines.append("settings: reset")
    return lines
