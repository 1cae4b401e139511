"""`tablemate doctor` on the virtual box (the unix port): the harness presses the buttons the
command names through the world channel and answers its questions from the LEDs, the OLED
and the piezo the box really drove."""

import pytest

from host.serial_client import DeviceClient, DeviceError
from tests.host.doctor_harness import Harness, switch_mode


def app_status(device):
    with DeviceClient(device.port, timeout=5.0) as dev:
        return dev.status()["status"]


def test_doctor_passes_a_working_box(sim_box):
    h = Harness(sim_box.world)
    code, out, err = h.run(sim_box.port)
    assert code == 0, out + err
    for name in ("P1", "P8", "mode", "ok", "back"):
        assert "press %s (and let go)\n" % name in out
    assert "  buttons  pass  11 of 11 pressed and released\n" in out
    assert "  leds     pass  9 LEDs x 3 colours\n" in out
    assert "  display  pass  test pattern 128x64\n" in out
    assert "  piezo    pass  880 Hz for 0.4 s\n" in out
    st = app_status(sim_box)
    assert "selftest" not in st and st["screen"] == "menu" and st["mode"] == "menu"
    # the outputs are the app's again: the menu on the screen, the status LED green
    h.pump(0.3)
    assert "tablemate" in " ".join(h.oled["lines"])
    assert h.led_frames[-1][8 * 6:] == "004000"


def test_doctor_names_a_stuck_button_and_a_silent_piezo(sim_box):
    h = Harness(sim_box.world)
    sim_box.world.edge(h.bits["P3"], True)  # held down before the test starts
    h.answers["beep"] = False  # the person heard nothing
    try:
        code, out, err = h.run(sim_box.port)
    finally:
        sim_box.world.edge(h.bits["P3"], False)
    assert code == 1, out + err
    assert "press P3" not in out
    assert "  buttons  FAIL  stuck, down before the test: P3\n" in out
    assert "  piezo    FAIL  880 Hz for 0.4 s; the person saw otherwise\n" in out
    assert "  leds     pass" in out


def test_doctor_names_buttons_that_never_came_or_came_as_another(sim_box):
    h = Harness(sim_box.world)
    h.skip_press = {"ok"}
    h.wired_as = {"P4": "P5", "P5": "P4"}  # two swapped wires: each press reaches the other
    code, out, err = h.run(sim_box.port, "--press-timeout", "1")
    assert code == 1
    assert ("  buttons  FAIL  no press within 1 s: P4 (pressed instead: P5), P5 (pressed instead: P4), ok\n"
            in out), out


def test_doctor_will_not_run_over_a_game(sim_box):
    switch_mode(sim_box.port, "anomia", players=3)
    try:
        h = Harness(sim_box.world)
        code, out, err = h.run(sim_box.port)
        assert code == 1 and err == "tablemate: error: the box cannot run its self-test now: " \
            "anomia is running: back to the menu first\n"
        assert app_status(sim_box)["mode"] == "anomia"
    finally:
        switch_mode(sim_box.port, "menu")


@pytest.mark.parametrize("args,message", [
    ({"part": "lamps"}, "'part' must be one of buttons, leds, display, sound, end"),
    ({"part": "leds", "colour": "pink"}, "'colour' must be one of red, green, blue, white, off"),
    ({"part": "leds", "colour": "red", "led": 9}, "led must be 0..8 on this board"),
    ({"part": "sound", "hz": 10}, "'hz' must be 0 (silence) or 50..20000"),
    ({"part": "buttons", "hz": 440}, "selftest buttons takes no argument 'hz'"),
    ({"part": "display", "led": 1}, "selftest display takes no argument 'led'"),
])
def test_a_refused_selftest_changes_nothing(sim_box, args, message):
    with DeviceClient(sim_box.port, timeout=5.0) as dev:
        with pytest.raises(DeviceError) as e:
            dev.request("selftest", **args)
        assert e.value.code == "bad_arg" and e.value.msg == message
        st = dev.status()["status"]
    assert "selftest" not in st and st["screen"] == "menu"


def test_doctor_on_a_port_with_no_box(tmp_path, capsys):
    from host.cli import main

    code = main(["doctor", "--port", str(tmp_path / "nothing")])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and err.count("\n") == 1 and err.startswith("tablemate: error: ")


def test_doctor_refuses_a_bad_pace(capsys):
    from host.cli import main

    assert main(["doctor", "--port", "/dev/null", "--pace", "-1"]) == 2
    assert "--pace" in capsys.readouterr().err
