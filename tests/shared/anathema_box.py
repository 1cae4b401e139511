"""Helpers for the Anathema score keeper mode's specs (tests/shared/test_anathema_mode*.py):
button times, a hand's deals and entries pressed as a table would, the screen as text, the
last game replayed from its records."""

import gc

from tests.shared.mode_harness import MS


class Clock:
    """Button times for a spec: each press 100 ms after the one before."""

    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 100 * MS
        return self.t


def deal_hand(box, at, dealer):
    for _ in range(box.mode.game.rules.deals):
        box.press(dealer, at())


def score_hand(box, at, cards, familiars, sweeps, points):
    """The entries after a hand: seats pressed for most cards and Familiars (then ok), one
    press per sweep and per point (seats, each then ok)."""
    for seats in (cards, familiars, sweeps, points):
        for seat in seats:
            box.press(seat, at())
        box.ok(at())


def said(box):
    """The screen's lines between the title and the line saying what ok does (or the hint
    row) as one text (a refusal wraps over lines)."""
    return " ".join(line for line in box.screen()[1:-1] if line and not line.startswith("ok: "))


def replayed(box):
    """The last game replayed from its records as the host does (every digest checked)."""
    from engine import gamelog_read  # only where a spec replays: a small test heap

    records = box.records()
    gid = [r["seq"] for r in records if r["kind"] == "game_start"][-1]
    records = [r for r in records if r["seq"] == gid or r["data"].get("game") == gid]
    gc.collect()  # a whole game's records on a small test heap
    return gamelog_read.replay(records)
