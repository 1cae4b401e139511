"""The person at the box for `tablemate doctor`, played over a virtual box's world channel.

It runs the real command, reads what it asks, presses the buttons it names through the
world channel and answers its questions from what the box really showed there: the LED
frames, the OLED frame buffer, the piezo's tones. A box that shows the wrong thing gets a
"no", so the report fails.
"""

import base64
import queue
import subprocess
import sys
import threading
import time

from firmware.board import layout
from firmware.board_profile import load_profile
from host.serial_client import DeviceClient
from tests.host.fuzz_frames import ROOT

PRESS_S = 0.08  # how long the harness holds a button (the debounce is 10-30 ms)


def switch_mode(port, name, **options):
    """Through the serial line, so the mode runs once this returns (the world channel is
    another path, served in its own time)."""
    with DeviceClient(port, timeout=5.0) as dev:
        dev.request("mode", name=name, **({"options": options} if options else {}))


def button_bits():
    return {name: bit for bit, name in layout(load_profile("pico"))["buttons"]}


def lit_pixel(fb, w, x, y):
    return bool(fb[(y // 8) * w + x] & (1 << (y % 8)))


def shows_test_pattern(oled):
    """A frame along all four edges, and 8x8 squares lit where (column + row) is even."""
    if oled is None:
        return False
    w, h = oled["w"], oled["h"]
    fb = base64.b64decode(oled["fb"])
    for x in range(w):
        if not (lit_pixel(fb, w, x, 0) and lit_pixel(fb, w, x, h - 1)):
            return False
    for y in range(h):
        if not (lit_pixel(fb, w, 0, y) and lit_pixel(fb, w, w - 1, y)):
            return False
    for cy in range(h // 8):
        for cx in range(w // 8):
            if lit_pixel(fb, w, cx * 8 + 4, cy * 8 + 4) != ((cx + cy) % 2 == 0):
                return False
    return True


def led_sequence_seen(frames, count, colours=("red", "green", "blue")):
    """Each LED, first to last, alone in each colour in turn (in the order the frames came)."""
    channel = {"red": 0, "green": 1, "blue": 2}
    want = []
    for led in range(count):
        for c in colours:
            want.append((led, channel[c]))
    i = 0
    for hexrgb in frames:
        if i == len(want):
            break
        led, ch = want[i]
        pixels = [bytes.fromhex(hexrgb[k * 6:k * 6 + 6]) for k in range(count)]
        others_dark = all(p == b"\0\0\0" for k, p in enumerate(pixels) if k != led)
        px = pixels[led]
        if others_dark and px[ch] > 0 and all(px[o] == 0 for o in range(3) if o != ch):
            i += 1
    return i == len(want)


class Harness:
    def __init__(self, world, count=9):
        self.world = world
        self.count = count
        self.led_frames = []
        self.oled = None
        self.tones = []
        self.bits = button_bits()
        self.seen = []  # what the command printed
        self.answers = {}  # question -> what to answer instead of what was seen
        self.skip_press = set()  # buttons the person does not press
        self.wired_as = {}  # name asked for -> the button that press really reaches (swapped wires)

    def take(self, messages):
        for msg in messages:
            t = msg.get("t")
            if t == "leds":
                self.led_frames.append(msg["rgb"])
            elif t == "oled":
                self.oled = msg
            elif t == "tone":
                self.tones.append((msg["f"], msg["duty"]))

    def pump(self, timeout=0.02):
        self.take(self.world.wait(timeout))

    def press(self, name):
        bit = self.bits[name]
        self.world.edge(bit, True)
        end = time.monotonic() + PRESS_S
        while time.monotonic() < end:
            self.pump()
        self.world.edge(bit, False)

    def answer(self, question):
        for key, value in self.answers.items():
            if key in question:
                return value
        if "LEDs" in question:
            return led_sequence_seen(self.led_frames, self.count)
        if "display" in question:
            return shows_test_pattern(self.oled)
        if "beep" in question:
            # a PWM slice gives the nearest frequency its divider allows
            heard = any(abs(f - 880) <= 2 and duty > 0 for f, duty in self.tones)
            return heard and self.tones[-1][0] == 0
        raise AssertionError("unexpected question %r" % question)

    def run(self, port, *extra, timeout=120.0, env=None):
        """Run `tablemate doctor`; returns (exit status, everything it printed)."""
        cmd = [sys.executable, "-m", "host.cli", "doctor", "--port", port, "--pace", "0",
               "--press-timeout", "5"] + list(extra)
        proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        lines = queue.Queue()

        def reader():
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=reader, daemon=True).start()
        deadline = time.monotonic() + timeout
        while True:
            assert time.monotonic() < deadline, "doctor did not finish: %s" % "".join(self.seen)
            self.pump()
            try:
                line = lines.get(timeout=0.01)
            except queue.Empty:
                continue
            if line is None:
                break
            self.seen.append(line)
            if line.startswith("press "):
                name = line.split()[1]
                if name not in self.skip_press:
                    self.press(self.wired_as.get(name, name))
            elif line.startswith("? "):
                self.pump(0.1)  # the last frames may still be on their way
                ok = self.answer(line)
                proc.stdin.write("y\n" if ok else "n\n")
                proc.stdin.flush()
        proc.wait(10)
        return proc.returncode, "".join(self.seen), proc.stderr.read()
