"""The real Anomia buzzer mode on the virtual device, driven by timed scripts:
`tablemate sim --headless --players N --script FILE [--tie-window-us W]`. The scripts are
tests/host/buzzer_scripts.py's (tests/host/test_pico_scripts.py plays them on the
emulated Pico too)."""

import pytest

from tests.host.buzzer_scripts import SCRIPTS, TIE_WINDOW_US
from tests.host.buzzer_scripts import play_on_unix as run


def test_decision_lines_have_the_documented_keys(tmp_path):
    events = run(tmp_path, SCRIPTS["documented_keys"])
    assert events == [{"kind": "decision", "event": "win", "winner": 2, "gap_us": 4500,
                       "tiebreak": False, "scores": [0, 1, 0, 0]}]


def test_order_is_by_timestamp_not_by_pin(tmp_path):
    events = run(tmp_path, SCRIPTS["order_by_timestamp"])
    assert [e["winner"] for e in events] == [4, 1, 3]
    assert [e["gap_us"] for e in events] == [1500, 1500, 2000]
    assert events[-1]["scores"] == [1, 0, 1, 1]


@pytest.mark.parametrize("name, gap, tie", [("tie_window_minus_1", TIE_WINDOW_US - 1, True),
                                            ("tie_window", TIE_WINDOW_US, True),
                                            ("tie_window_plus_1", TIE_WINDOW_US + 1, False)])
def test_tie_window_edges(tmp_path, name, gap, tie):
    events = run(tmp_path, SCRIPTS[name])
    assert len(events) == 1
    if tie:
        assert events[0]["event"] == "tie" and events[0]["players"] == [1, 2]
    else:
        assert events[0]["event"] == "win" and events[0]["winner"] == 1
    assert events[0]["gap_us"] == gap


def test_same_microsecond_is_a_tie_even_with_a_zero_window(tmp_path):
    events = run(tmp_path, SCRIPTS["same_microsecond_zero_window"])
    assert events[0]["event"] == "tie" and events[0]["players"] in ([3, 1], [1, 3])
    assert events[0]["gap_us"] == 0


def test_tie_breaker_accepts_only_the_tied_players_then_everyone_again(tmp_path):
    events = run(tmp_path, SCRIPTS["tie_breaker"])
    assert [e["event"] for e in events] == ["tie", "win", "win"]
    assert events[1] == {"kind": "decision", "event": "win", "winner": 2, "gap_us": None,
                         "tiebreak": True, "scores": [0, 1, 0, 0]}
    assert events[2]["winner"] == 4 and events[2]["tiebreak"] is False


def test_bounce_trains_give_one_press_at_the_first_edge(tmp_path):
    events = run(tmp_path, SCRIPTS["bounce_train"])
    assert len(events) == 1
    assert events[0]["winner"] == 3 and events[0]["gap_us"] == 2000


def test_presses_during_the_lockout_change_nothing_and_cascades_rearm(tmp_path):
    events = run(tmp_path, SCRIPTS["lockout_cascade"])
    assert [(e["event"], e["winner"]) for e in events] == [("win", 2), ("win", 1)]
    assert events[1]["scores"] == [1, 1, 0, 0]


def test_long_pauses_and_a_press_one_ticks_period_after_the_last_edge(tmp_path):
    """A table pauses: the virtual clock walks through gaps longer than half the ticks
    period (~9 min) as a real box's clock would, and a press exactly 2**30 us after the
    same button's last edge is a new press, not a bounce of that edge."""
    events = run(tmp_path, SCRIPTS["long_pauses"])
    assert [(e["winner"], e["gap_us"]) for e in events] == [
        (1, 3000), (3, 5000), (4, 6000), (4, 2000), (2, 4000)]
    assert events[-1]["scores"] == [1, 1, 1, 2]


def test_a_long_script_runs_to_the_end_on_a_fresh_box_and_again_on_the_same_image(tmp_path):
    """80 face-offs (320 edges, five flow-control windows), twice on one image. make bench
    runs 10,000 face-offs the same way (face-offs per second in script mode); here a short
    run keeps make test quick, and tests/host/test_sim_script.py checks the flow control
    that lets a script of any length settle."""
    n = 80
    for fresh in (True, False):
        events = run(tmp_path, SCRIPTS["rotation_80"], fresh=fresh)
        assert len(events) == n and events[-1]["scores"] == [n // 4 + (p < n % 4) for p in range(4)]
