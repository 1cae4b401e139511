"""`tablemate doctor [--port PATH]`: a guided self-test of a box, real or virtual.

It asks the person at the box to press each button in turn (a button held down from the
start is named as stuck), cycles every LED through red, green and blue, puts a test
pattern on the display and beeps the piezo, over the protocol's selftest op
(docs/protocol.md). The box reports the buttons; what only eyes and ears can judge is a
yes/no question on stdin. Each check is reported as pass or fail; the exit status is 0
only when every check passed.
"""

import sys
import time

from host.cli import CliError
from host.port_select import add_port_argument, resolve_port
from host.serial_client import DeviceClient, DeviceError, LinkError

LED_COLOURS = ("red", "green", "blue")
BEEP_HZ = 880
BEEP_S = 0.4


def add_parser(subparsers):
    p = subparsers.add_parser("doctor", help="a guided self-test: buttons, LEDs, display, piezo")
    add_port_argument(p)
    p.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for each reply (default 2)")
    p.add_argument("--press-timeout", type=float, default=20.0, metavar="S",
                   help="seconds to wait for each button press (default 20)")
    p.add_argument("--pace", type=float, default=0.3, metavar="S",
                   help="seconds each LED colour stays lit (default 0.3)")
    p.set_defaults(func=run)


class Report:
    """The checks in the order they ran: (name, passed, detail)."""

    def __init__(self):
        self.checks = []

    def add(self, name, passed, detail):
        self.checks.append((name, passed, detail))

    def ok(self):
        return bool(self.checks) and all(c[1] for c in self.checks)

    def text(self):
        lines = ["self-test:"]
        for name, passed, detail in self.checks:
            lines.append("  %-8s %s  %s" % (name, "pass" if passed else "FAIL", detail))
        return "\n".join(lines) + "\n"


class Person:
    """The one at the box: reads the instructions, answers yes/no questions (stdin)."""

    def __init__(self, out=sys.stdout, inp=sys.stdin):
        self.out = out
        self.inp = inp

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, question):
        """True for yes, False for no, None when stdin ends. Asks again after anything else."""
        while True:
            self.say("? %s [y/n]" % question)
            line = self.inp.readline()
            if not line:
                return None
            answer = line.strip().lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say("  (answer y or n)")


def _confirmed(answer, what):
    if answer is None:
        return False, "%s; not confirmed (no answer)" % what
    return answer, what if answer else "%s; the person saw otherwise" % what


class Doctor:
    def __init__(self, dev, person, press_timeout=20.0, pace=0.3):
        self.dev = dev
        self.person = person
        self.press_timeout = press_timeout
        self.pace = pace
        self.report = Report()

    def selftest(self, part, **args):
        return self.dev.request("selftest", part=part, **args)

    def run(self):
        try:
            self.buttons()
            self.leds()
            self.display()
            self.sound()
        finally:
            self.selftest("end")
        return self.report

    # ---- buttons

    def _next_edge(self, deadline):
        """The next button event (bit, name, down), or None at the deadline."""
        while True:
            while self.dev.events:
                ev = self.dev.events.popleft()
                if ev.get("ev") == "button":
                    return ev.get("bit"), ev.get("name"), bool(ev.get("down"))
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.dev.wait_events(left)

    def _press(self, bit, name):
        """Wait for one press and release of the button: None, or (what went wrong, the
        button's name with what was pressed instead, if anything)."""
        deadline = time.monotonic() + self.press_timeout
        others = []
        down = False
        while True:
            edge = self._next_edge(deadline)
            if edge is None:
                if down:
                    return "still down %.0f s after its press" % self.press_timeout, name
                seen = " (pressed instead: %s)" % ", ".join(others) if others else ""
                return "no press within %.0f s" % self.press_timeout, name + seen
            got, got_name, is_down = edge
            if got != bit:
                if is_down and got_name not in others:
                    others.append(got_name)
                continue
            if is_down:
                down = True
            elif down:
                return None

    def buttons(self):
        reply = self.selftest("buttons")
        self.dev.events.clear()
        stuck = sorted(set(reply["stuck"]) | set(reply["down"]), key=_button_order(reply))
        problems = {"stuck, down before the test": stuck} if stuck else {}
        tested = 0
        for bit, name in reply["buttons"]:
            if name in stuck:
                continue
            self.person.say("press %s (and let go)" % name)
            failed = self._press(bit, name)
            tested += 1
            if failed:
                problems.setdefault(failed[0], []).append(failed[1])
        n = len(reply["buttons"])
        if problems:  # one clause per kind of failure, naming its buttons in their order
            self.report.add("buttons", False, "; ".join("%s: %s" % (why, ", ".join(names))
                                                       for why, names in problems.items()))
        else:
            self.report.add("buttons", True, "%d of %d pressed and released" % (tested, n))

    # ---- outputs

    def leds(self):
        reply = self.selftest("leds", colour="off")
        count = reply["count"]
        self.person.say("watch the LEDs: each one lights %s in turn, first to last"
                        % ", ".join(LED_COLOURS))
        for led in range(count):
            for colour in LED_COLOURS:
                self.selftest("leds", led=led, colour=colour)
                time.sleep(self.pace)
        self.selftest("leds", colour="off")
        question = "did all %d LEDs light %s, one after the other?" % (count, "/".join(LED_COLOURS))
        answer = self.person.ask(question)
        self.report.add("leds", *_confirmed(answer, "%d LEDs x %d colours" % (count, len(LED_COLOURS))))

    def display(self):
        reply = self.selftest("display")
        state = reply["display"]
        if state == "none":
            self.report.add("display", True, "this board has none (skipped)")
            return
        if state == "missing":
            self.report.add("display", False, "the display did not answer on its bus")
            return
        w, h = reply["size"]
        answer = self.person.ask("does the display show a checkerboard in a frame along all four edges?")
        self.report.add("display", *_confirmed(answer, "test pattern %dx%d" % (w, h)))

    def sound(self):
        reply = self.selftest("sound", hz=BEEP_HZ)
        if reply["sound"] == "none":
            self.report.add("piezo", True, "this board has none (skipped)")
            return
        time.sleep(BEEP_S)
        self.selftest("sound", hz=0)
        answer = self.person.ask("did the box beep?")
        self.report.add("piezo", *_confirmed(answer, "%d Hz for %.1f s" % (BEEP_HZ, BEEP_S)))


def _button_order(reply):
    order = {name: i for i, (_, name) in enumerate(reply["buttons"])}
    return lambda name: order.get(name, len(order))


def run(args):
    if args.press_timeout <= 0 or args.pace < 0:
        raise CliError("--press-timeout must be > 0 and --pace >= 0")
    person = Person()
    try:
        port = resolve_port(args.port)
        with DeviceClient(port, timeout=args.timeout) as dev:
            person.say("self-test of the box on %s (board %s)" % (port, dev.info.get("board")))
            report = Doctor(dev, person, args.press_timeout, args.pace).run()
    except DeviceError as e:
        if e.code == "unknown_op":
            raise CliError("the firmware on %s has no self-test: update it (tablemate flash)" % port, 1)
        if e.code == "busy":
            raise CliError("the box cannot run its self-test now: %s" % e.msg, 1)
        raise CliError("the box refused the self-test: %s" % e.msg, 1)
    except LinkError as e:
        raise CliError(str(e), 1)
    sys.stdout.write(report.text())
    return 0 if report.ok() else 1
