"""Piezo patterns: the (frequency, duration) sequence each one plays, volume, mute, no allocation."""

from firmware.sound import MAX_DUTY, PATTERNS, PwmBuzzer, Sound
from tests.shared.compat import assert_alloc_free, raises


class Clock:
    def __init__(self):
        self.ms = 0


class RecordingBuzzer:
    """Records (time, freq, duty) at every change; freq 0 means silent."""

    def __init__(self, clock):
        self.clock = clock
        self.events = []

    def tone(self, freq, duty):
        self.events.append((self.clock.ms, freq, duty))

    def off(self):
        self.events.append((self.clock.ms, 0, 0))


class CountingBuzzer:
    def __init__(self):
        self.tones = 0
        self.offs = 0
        self.freq = 0

    def tone(self, freq, duty):
        self.tones += 1
        self.freq = freq

    def off(self):
        self.offs += 1


def _play(name, step_ms=1, volume=50):
    clock = Clock()
    buz = RecordingBuzzer(clock)
    snd = Sound(buz, volume)
    assert snd.play(name, 0) is True
    while snd.playing:
        clock.ms += step_ms
        snd.tick(clock.ms)
        assert clock.ms < 10000
    return buz.events


def _sequence(events):
    """[(freq, duration)] from change events; the final off ends the last note."""
    out = []
    for i in range(len(events) - 1):
        t, f, _ = events[i]
        out.append((f, events[i + 1][0] - t))
    assert events[-1][1] == 0
    return out


def test_patterns_play_their_documented_sequences():
    assert _sequence(_play("click")) == [(2400, 12)]
    assert _sequence(_play("error")) == [(330, 160), (0, 60), (247, 300)]
    assert _sequence(_play("tie")) == [(988, 110), (784, 110), (988, 110), (784, 110)]
    assert _sequence(_play("winner")) == [
        (1047, 90), (0, 20), (1319, 90), (0, 20), (1568, 90), (0, 20), (2093, 240)
    ]  # fmt: skip


def test_patterns_are_distinct():
    seqs = [PATTERNS[n] for n in ("winner", "tie", "error", "click")]
    for i in range(len(seqs)):
        for j in range(i + 1, len(seqs)):
            assert seqs[i] != seqs[j]


def test_late_ticks_keep_the_schedule():
    # ticks every 7 ms: each change lands on the first tick after its scheduled time
    events = _play("error", step_ms=7)
    times = [e[0] for e in events]
    scheduled = [0, 160, 220, 520]
    assert len(times) == len(scheduled)
    for i in range(len(times)):
        assert scheduled[i] <= times[i] < scheduled[i] + 7, (times, scheduled)


def test_volume_sets_duty_and_zero_is_silent():
    events = _play("click", volume=100)
    assert events[0] == (0, 2400, MAX_DUTY)
    events = _play("click", volume=25)
    assert events[0][2] == MAX_DUTY // 4
    buz = CountingBuzzer()
    snd = Sound(buz, 0)
    assert snd.play("winner", 0) is False
    assert buz.tones == 0
    raises(ValueError, snd.set_volume, 101)


def test_mute_stops_and_blocks_sound():
    buz = CountingBuzzer()
    snd = Sound(buz)
    snd.play("winner", 0)
    assert snd.playing and buz.tones == 1
    snd.set_enabled(False)
    assert not snd.playing and buz.offs == 1
    assert snd.play("click", 10) is False
    snd.tick(500)
    assert buz.tones == 1
    snd.set_enabled(True)
    assert snd.play("click", 20) is True


def test_new_pattern_replaces_running_one_and_unknown_is_rejected():
    buz = CountingBuzzer()
    snd = Sound(buz)
    snd.play("winner", 0)
    snd.play("click", 5)
    assert buz.freq == 2400
    snd.tick(5 + 12)
    assert not snd.playing
    raises(ValueError, snd.play, "fanfare", 0)
    assert Sound(None).play("click", 0) is False


class FakePwm:
    def __init__(self):
        self.f = None
        self.d = None

    def freq(self, f):
        self.f = f

    def duty_u16(self, d):
        self.d = d


def test_pwm_buzzer_drives_frequency_and_duty():
    pwm = FakePwm()
    buz = PwmBuzzer(pwm)
    assert pwm.d == 0
    buz.tone(440, 1234)
    assert (pwm.f, pwm.d) == (440, 1234)
    buz.off()
    assert pwm.d == 0 and pwm.f == 440


def test_tick_allocates_nothing():
    # heap_lock catches allocation; mem_total also catches heap frames (> 11 slots)
    snd = Sound(PwmBuzzer(FakePwm()))

    def make():
        def run():
            for name in ("winner", "tie", "error", "click"):
                snd.play(name, 0)
                t = 0
                while snd.playing:
                    t += 3
                    snd.tick(t)

        return run

    assert_alloc_free(make)
