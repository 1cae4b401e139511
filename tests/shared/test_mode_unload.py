"""Leaving a mode gives its heap back: every module its game brought in is dropped
(firmware.modes.unload, as the app calls it). A module of its own: on a small heap the
modules loaded again afterwards must not share a process with other tests."""

from tests.shared.compat import tmp_dir
from tests.shared.mode_harness import MS, Box


def test_leaving_the_mode_drops_every_module_its_game_loaded():
    import sys

    from firmware import modes

    names = ("firmware.modes.anomia", "firmware.modes.base", "firmware.session", "engine.gamelog",
             "engine.anomia_score", "firmware.arbiter")
    host_only = "engine.gamelog_read"  # replay: the host's and the tests' part of the game log
    modes.unload(modes.loaded() - set(names) - {host_only})  # as on a box whose menu never ran a mode
    before = modes.loaded()
    with tmp_dir() as d:
        box = Box(d, "anomia", players=3)
        box.press(0, 10 * MS)
        box.run_to(2000 * MS)
        box.mode.stop()
        assert all(n in sys.modules for n in names)
        assert host_only not in sys.modules  # a running mode never holds the log reader
        del box
        modes.unload(before)  # what the app does when the mode is left
        assert [n for n in names if n in sys.modules] == []
        assert getattr(sys.modules["firmware.modes"], "anomia", None) is None
        assert getattr(sys.modules["firmware"], "session", None) is None
