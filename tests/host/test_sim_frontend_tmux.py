"""The terminal front-end inside tmux: pressing `3` lights player 3's LED on screen (the button
test the menu offers), the LED goes dark again after the linger, ok / back open and close
the About screen, and `q` ends everything."""

import re
import shutil
import subprocess
import time

import pytest

from host.tui import RELEASE_S
from tests.host.test_sim_boot import BIN
from tests.host.tmux_sim import SESSION, WAIT_S, sim_in_tmux

# .ci/run installs tmux; elsewhere the test says why it did not run
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
# Player 3 is blue in the default roster: the swatch is drawn in that colour only while lit.
P3_LIT_SWATCH = "\x1b[38;2;0;0;255m██"


def test_key_3_lights_player_3_on_screen(tmp_path):
    with sim_in_tmux(tmp_path, 120, 40) as tmux:
        idle = tmux.wait_for(lambda s: "P3 off" in s and "tablemate" in s and "About" in s)
        assert "P3 lit" not in idle and "serial /dev/pts/" in idle
        assert P3_LIT_SWATCH not in tmux.screen(escapes=True)

        # A tap lights P3 for the linger (1 s of the box's time); a starved front-end may draw
        # only the frame after it, so tap again until the lit frame is seen.
        for _ in range(5):
            tmux("send-keys", "-t", SESSION, "3")
            try:
                lit = tmux.wait_for(lambda s: "P3 lit" in s and P3_LIT_SWATCH in s, timeout=10, escapes=True)
                break
            except AssertionError:
                continue
        else:
            raise AssertionError("P3 never showed lit after 5 taps:\n" + tmux.screen())
        for other in ("P1", "P2", "P4", "P5", "P6", "P7", "P8"):
            assert other + " off" in lit  # only the pressed button lights

        tmux.wait_for(lambda s: "P3 off" in s)  # dark again after the linger

        tmux("send-keys", "-t", SESSION, "m")  # mode moves to the next entry
        tmux.wait_for(lambda s: ">Anastasia solo" in s)
        time.sleep(3 * RELEASE_S)  # a key again within RELEASE_S is the same press, held
        tmux("send-keys", "-t", SESSION, "m")
        tmux.wait_for(lambda s: ">Anathema scores" in s)
        tmux("send-keys", "-t", SESSION, "o")  # ok opens it: the dealer's LED is lit
        tmux.wait_for(lambda s: "ANATHEMA 3P" in s and "P1 lit" in s and "P2 off" in s)
        tmux("send-keys", "-t", SESSION, "b")  # back, with nothing to undo: the menu again
        tmux.wait_for(lambda s: ">Anathema scores" in s and "ANATHEMA 3P" not in s)
        tmux("send-keys", "-t", SESSION, "m")  # the next entry
        tmux.wait_for(lambda s: ">Anastasia 4-8P" in s)
        time.sleep(3 * RELEASE_S)  # a key again within RELEASE_S is the same press, held
        tmux("send-keys", "-t", SESSION, "m")  # the next entry: About
        tmux.wait_for(lambda s: ">About" in s)
        tmux("send-keys", "-t", SESSION, "o")  # ok opens it
        about = tmux.wait_for(lambda s: "ABOUT" in s)
        assert "board sim" in about and "fw " in about
        tmux("send-keys", "-t", SESSION, "b")  # back returns to the menu
        tmux.wait_for(lambda s: ">About" in s and "ABOUT" not in s)

        tmux("send-keys", "-t", SESSION, "m")  # wraps round to the buzzers
        tmux.wait_for(lambda s: ">Anomia buzzers" in s)
        tmux("send-keys", "-t", SESSION, "o")
        armed = tmux.wait_for(lambda s: "ANOMIA 4P" in s and "P4 lit" in s)
        assert "P1 lit" in armed and "P5 off" in armed and "P8 off" in armed  # 4 seats in play
        tmux("send-keys", "-t", SESSION, "2")  # player 2 buzzes alone: the winner
        # the LED frame and the OLED frame travel apart: wait until both show the decision
        won = tmux.wait_for(lambda s: "WINNER" in s and "P2 lit" in s and "P1 off" in s)
        assert "P3 off" in won and "P4 off" in won

        # a reset of the box (here through mpremote) brings the firmware back in the same UI,
        # in the game it was playing: P2's card is still on the scores
        port = re.search(r"serial (/dev/pts/\d+)", won).group(1)
        tmux.wait_for(lambda s: "SCORES" in s)  # the decision is recorded
        subprocess.run([str(BIN / "mpremote"), "connect", port, "resume", "exec",
                        "import machine; machine.soft_reset()"], capture_output=True, timeout=WAIT_S)
        back = tmux.wait_for(lambda s: "RESUMED" in s and '"event":"resume"' in s)
        assert "hung up" not in back and "serial %s" % port in back
        assert re.search(r"P2 +1", back) and re.search(r"P1 +0", back)
        tmux("send-keys", "-t", SESSION, "q")
        assert tmux.wait_gone()


def test_an_80x24_terminal_shows_the_header_and_leds_and_a_smaller_one_says_how_big(tmp_path):
    with sim_in_tmux(tmp_path, 80, 24) as tmux:
        screen = tmux.wait_for(lambda s: "About" in s and "q quit" in s)
        rows = screen.splitlines()
        assert rows[0].startswith("tablemate virtual device") and "serial /dev/pts/" in rows[0]
        assert rows[1:3] == ["", "LEDs"] and "P1 off" in rows[3] and "P8 off" in screen
        tmux("send-keys", "-t", SESSION, "o")  # the buzzers: the screen keeps its header and LEDs
        armed = tmux.wait_for(lambda s: "ANOMIA 4P" in s and "P4 lit" in s)
        assert armed.splitlines()[0].startswith("tablemate virtual device")
        tmux("resize-window", "-t", SESSION, "-x", "70", "-y", "12")
        small = tmux.wait_for(lambda s: "the terminal is 70x12" in s)
        assert re.search(r"needs at least 70x\d+", small.replace("\n", " "))
        tmux("resize-window", "-t", SESSION, "-x", "80", "-y", "24")
        tmux.wait_for(lambda s: s.startswith("tablemate virtual device") and "P4 lit" in s)
        tmux("send-keys", "-t", SESSION, "q")
        assert tmux.wait_gone()
