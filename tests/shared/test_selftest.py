"""The selftest op's parts (firmware/selftest.py) on a stand-in app: a refused request changes
nothing, each part drives only its own output, and a self-test left alone ends by itself."""

from firmware import selftest as S
from tests.shared.compat import raises


class Pixels:
    def __init__(self, n):
        self.px = [(9, 9, 9)] * n
        self.writes = 0

    def __setitem__(self, i, v):
        self.px[i] = v

    def write(self):
        self.writes += 1


class Buzzer:
    def __init__(self):
        self.tones = []

    def tone(self, f, duty):
        self.tones.append((f, duty))

    def off(self):
        self.tones.append((0, 0))


class Thing:
    """An object to hang attributes on."""

    def __init__(self, **kw):
        for k in kw:
            setattr(self, k, kw[k])


class App:
    def __init__(self):
        profile = {"leds": {"count": 9, "brightness": 64}, "oled": {"enabled": False}}
        self.board = Thing(profile=profile, pixels=Pixels(9), oled=None, buzzer=Buzzer(), missing=[],
                           ring=Thing(level=1 << 2), buttons_mask=lambda: 0x7FF)
        self.debouncer = Thing(stuck=0, held_at_boot=1 << 9)
        self.leds = Thing(refresh=lambda: self.log.append("refresh"))
        self.sound = Thing(stop=lambda: self.log.append("sound stop"))
        self.display = None
        self.log = []
        self.ended = 0
        self.selftest = None

    def _show_menu(self, now_ms):  # the self-test's end puts the menu back
        self.ended += 1

    def emit(self, kind, fields):
        self.log.append((kind, fields))


def test_an_led_beyond_the_chain_is_refused_before_anything_is_written():
    app = App()
    st = S.SelfTest(app, 0)
    e = raises(ValueError, st.run, "leds", {"led": 9, "colour": "red"}, 5)
    assert str(e) == "led must be 0..8 on this board"
    assert st.part is None and app.board.pixels.writes == 0 and not st.owns_leds


def test_one_led_in_one_colour_at_the_brightness_cap():
    app = App()
    st = S.SelfTest(app, 0)
    reply = st.run("leds", {"led": 3, "colour": "green"}, 5)
    assert reply["rgb"] == [0, 64, 0] and app.board.pixels.writes == 1
    assert app.board.pixels.px == [(0, 0, 0)] * 3 + [(0, 64, 0)] + [(0, 0, 0)] * 5
    assert st.tick(10) is False  # the app's LED driver keeps its hands off
    st.run("buttons", {}, 20)
    assert "refresh" in app.log and st.tick(30) is True  # the LEDs are the app's again


def test_buttons_names_what_is_down_and_stuck():
    reply = S.SelfTest(App(), 0).run("buttons", {}, 0)
    assert reply["down"] == ["P3"] and reply["stuck"] == ["ok"]
    assert [name for _, name in reply["buttons"]] == ["P%d" % p for p in range(1, 9)] + ["mode", "ok", "back"]


def test_sound_beeps_muted_or_not_and_stops():
    app = App()
    st = S.SelfTest(app, 0)
    assert st.run("sound", {"hz": 880}, 0) == {"sound": "on", "hz": 880}
    assert st.run("sound", {"hz": 0}, 0)["sound"] == "off"
    assert app.board.buzzer.tones == [(880, S.TONE_DUTY), (0, 0)] and "sound stop" in app.log
    app.board.buzzer = None
    assert st.run("sound", {"hz": 880}, 0) == {"sound": "none"}


def test_a_display_that_did_not_answer_is_named():
    app = App()
    assert S.SelfTest(app, 0).run("display", {}, 0) == {"display": "none"}
    app.board.missing = ["oled"]
    assert S.SelfTest(app, 0).run("display", {}, 0) == {"display": "missing"}


def test_a_self_test_left_alone_ends_by_itself():
    app = App()
    st = S.SelfTest(app, 1000)
    st.run("leds", {"led": None, "colour": "red"}, 2000)
    assert st.tick(2000 + S.IDLE_END_MS - 1) is False and app.ended == 0
    st.run("leds", {"led": None, "colour": "off"}, 30000)  # a request restarts the wait
    assert st.tick(2000 + S.IDLE_END_MS) is False and app.ended == 0
    assert st.tick(30000 + S.IDLE_END_MS) is True and app.ended == 1
