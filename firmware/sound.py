"""Non-blocking piezo tones: named patterns stepped by tick(now_ms) from an asyncio task.

The buzzer is anything with tone(freq_hz, duty_u16) and off(): PwmBuzzer below on the Pico,
the world channel on the sim board. Volume is the PWM duty (a square wave is loudest at 50 %).
"""

from firmware.ticks import ticks_add, ticks_diff

# Flat (frequency Hz, duration ms) pairs; frequency 0 is a rest.
PATTERNS = {
    "click": (2400, 12),
    # rising C major arpeggio
    "winner": (1047, 90, 0, 20, 1319, 90, 0, 20, 1568, 90, 0, 20, 2093, 240),
    # two alternating tones: "it's a tie"
    "tie": (988, 110, 784, 110, 988, 110, 784, 110),
    # two short low blips: "that key does nothing here"
    "nope": (262, 50, 0, 40, 262, 50),
    # low falling buzz
    "error": (330, 160, 0, 60, 247, 300),
}

MAX_DUTY = 32768  # 50 % of duty_u16
DEFAULT_VOLUME = 50


class PwmBuzzer:
    """A piezo on a machine.PWM-like object (freq(), duty_u16())."""

    def __init__(self, pwm):
        self.pwm = pwm
        pwm.duty_u16(0)

    def tone(self, freq_hz, duty_u16):
        self.pwm.freq(freq_hz)
        self.pwm.duty_u16(duty_u16)

    def off(self):
        self.pwm.duty_u16(0)


class Sound:
    def __init__(self, buzzer, volume=DEFAULT_VOLUME, enabled=True):
        self.buzzer = buzzer
        self.enabled = bool(enabled)
        self.volume = 0
        self._duty = 0
        self._pattern = None
        self._i = 0  # index of the current (freq, ms) pair in the pattern
        self._note_t0 = 0
        self.set_volume(volume)

    def set_volume(self, volume):
        """0..100 (percent of the loudest duty)."""
        if not isinstance(volume, int) or volume < 0 or volume > 100:
            raise ValueError("volume must be an int 0..100, got %r" % (volume,))
        self.volume = volume
        self._duty = volume * MAX_DUTY // 100
        if volume == 0:
            self.stop()

    def set_enabled(self, on):
        self.enabled = bool(on)
        if not self.enabled:
            self.stop()

    @property
    def playing(self):
        return self._pattern is not None

    def play(self, name, now_ms):
        """Start pattern `name` (replacing any running one); False when muted or no buzzer."""
        pattern = PATTERNS.get(name)
        if pattern is None:
            raise ValueError("unknown sound %r (known: %s)" % (name, ", ".join(sorted(PATTERNS))))
        if not self.enabled or self.buzzer is None or self._duty == 0:
            return False
        self._pattern = pattern
        self._i = 0
        self._note_t0 = now_ms
        self._sound_note()
        return True

    def stop(self):
        if self._pattern is not None:
            self._pattern = None
            self.buzzer.off()

    def _sound_note(self):
        freq = self._pattern[self._i]
        if freq:
            self.buzzer.tone(freq, self._duty)
        else:
            self.buzzer.off()

    def tick(self, now_ms):
        """Advance the running pattern to time now_ms. Never blocks, allocates nothing."""
        pattern = self._pattern
        if pattern is None:
            return
        # Notes end at their scheduled times (not at the tick that noticed), so a late tick
        # does not stretch the pattern; a very late one skips the notes it missed.
        advanced = False
        while ticks_diff(now_ms, self._note_t0) >= pattern[self._i + 1]:
            self._note_t0 = ticks_add(self._note_t0, pattern[self._i + 1])
            self._i += 2
            advanced = True
            if self._i >= len(pattern):
                self.stop()
                return
        if advanced:
            self._sound_note()
