"""The virtual box's terminal front-end inside a tmux server of its own, driven as a person
drives it: keys sent with send-keys, the screen read back with capture-pane.

A loaded machine (make test on 2 shared cores) can hold a step back for many seconds: every
wait is for a condition on the screen, and returns as soon as it holds."""

import contextlib
import re
import subprocess
import time

from host.tui import RELEASE_S
from tests.host.test_sim_boot import ROOT, image_processes, sim_command

SESSION = "tablemate-sim-test"
WAIT_S = 60.0
# The front-end holds a key down for RELEASE_S after it arrives (a terminal sends no key-up):
# the same key again sooner is the same press, held. Two presses are this far apart.
SAME_KEY_GAP_S = 3 * RELEASE_S


def oled(screen):
    """The OLED's text rows as shown beside the picture, or alone."""
    return [m.group(1).rstrip() for m in re.finditer(r"│([^│]{16})│$", screen, re.M)]


def lit(screen):
    """The player LEDs the front-end shows lit ({"P1", "P3"})."""
    return set(re.findall(r"\b(P\d) lit\b", screen))


# a pick list's line on the OLED (firmware/modes/menu.py): "> Look       1/7"
PICK_LINE = re.compile(r"^> (.*?) +(\d+)/(\d+)$")


def picked(screen):
    """(item, position, items) of the pick list's line on the OLED, or None."""
    for row in oled(screen):
        m = PICK_LINE.match(row)
        if m:
            return m.group(1), int(m.group(2)), int(m.group(3))
    return None


class Tmux:
    def __init__(self, socket_path):
        self.base = ["tmux", "-S", str(socket_path)]
        self.sent = {}  # key -> monotonic time it was last sent

    def __call__(self, *args):
        return subprocess.run(self.base + list(args), capture_output=True, text=True, timeout=60)

    def screen(self, escapes=False):
        res = self("capture-pane", "-p", "-t", SESSION, *(["-e"] if escapes else []))
        return res.stdout if res.returncode == 0 else ""

    def wait_for(self, predicate, timeout=WAIT_S, escapes=False):
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen(escapes)
            if predicate(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError("screen never matched; last capture:\n" + text)
            time.sleep(0.05)

    def press(self, keys):
        """Send keys (several at once arrive in one read: pressed together); a key sent
        again waits until its previous press has been let go."""
        now = time.monotonic()
        last = max((self.sent.get(k, 0.0) for k in keys), default=0.0)
        if now - last < SAME_KEY_GAP_S:
            time.sleep(SAME_KEY_GAP_S - (now - last))
        self("send-keys", "-t", SESSION, keys)
        for k in keys:
            self.sent[k] = time.monotonic()

    def shows(self, title, *lines, leds=None):
        """Wait for the OLED titled title, holding these lines (and these player LEDs lit: its
        frame and the LEDs' travel apart); its rows."""
        def holds(s):
            rows = oled(s)
            return (bool(rows) and rows[0].strip() == title and all(line in rows for line in lines)
                    and (leds is None or lit(s) == set(leds)))
        return oled(self.wait_for(holds))

    def pick(self, item, key):
        """ok through the OLED's pick list until it shows item (a long one cut to the line),
        then key chooses it."""
        shown, at, items = picked(self.wait_for(picked))
        for _ in range(items):
            if item.startswith(shown):
                break
            self.press("o")
            shown, at, items = picked(self.wait_for(lambda s, at=at: (picked(s) or (0, at))[1] != at))
        else:
            raise AssertionError("%s is not in the list: %s" % (item, oled(self.screen())))
        self.press(str(key))

    def alive(self):
        return self("has-session", "-t", SESSION).returncode == 0

    def wait_gone(self):
        deadline = time.monotonic() + WAIT_S
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        return not self.alive()


@contextlib.contextmanager
def sim_in_tmux(tmp_path, width, height):
    """A fresh virtual box's front-end in a width x height tmux window; yields the Tmux.
    Afterwards the server is gone and so is every process of the box."""
    image = tmp_path / "flash.img"
    tmux = Tmux(tmp_path / "tmux.sock")
    # a terminal that says it shows truecolour, as most do: the LEDs are drawn in their exact hue
    env = " ".join("%s=%s" % kv for kv in (("TABLEMATE_DATA_DIR", tmp_path), ("TERM", "xterm-256color"),
                                           ("COLORTERM", "truecolor")))
    command = "cd %s && env %s %s" % (ROOT, env, " ".join(sim_command(image, "--fresh", headless=False)))
    res = tmux("new-session", "-d", "-s", SESSION, "-x", str(width), "-y", str(height), command)
    assert res.returncode == 0, res.stderr
    try:
        yield tmux
    finally:
        tmux("kill-server")
    deadline = time.monotonic() + WAIT_S
    while image_processes(image) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert image_processes(image) == []
