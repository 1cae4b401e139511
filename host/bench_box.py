"""`tablemate bench [--port PATH]`: timing and heap figures of the box that is connected,
printed as a table. On a real board these are the silicon's own figures; on the virtual
box (`tablemate sim`) they are the unix port's on this computer, and on the emulated Pico
(`tablemate sim --board pico`) the emulator's wall time: the table's head says which.

Everything goes through the serial protocol, so the figures include the USB (or pty) round
trip: the serial rows measure it alone, and the LED and OLED rows subtract it. Nothing a
user recorded changes: records are read and not acknowledged, and the LED and OLED rows
run the self-test's parts (docs/protocol.md, selftest), which give the box back to its menu.
"""

import os
import statistics
import sys
import time

from host import columns
from host.cli import CliError
from host.port_select import add_port_argument, resolve_port
from host.serial_client import DeviceClient, DeviceError, LinkError, mpy_info
from host.words import count

RECORD_PAGES = 10  # at most this many pages of 50 records are read


def add_parser(subparsers):
    p = subparsers.add_parser("bench", help="timing and heap figures of a connected box, as a table")
    add_port_argument(p)
    p.add_argument("--runs", type=int, default=20, metavar="N",
                   help="requests timed per figure (default 20)")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for each reply (default 5)")
    p.set_defaults(func=run)


def timed(fn, runs):
    """Milliseconds of each of runs calls of fn()."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def spread(ms):
    return "%.1f / %.1f ms" % (statistics.median(ms), max(ms))


def source(info, port):
    """What the figures are figures of: silicon, the unix port or the emulated Pico. A board
    on USB is a tty of its own; the virtual boxes are behind a pty."""
    mpy = mpy_info(info.get("mpy"))
    what = "board %s, %s %s, %s" % (info.get("board"), info.get("impl"), info.get("micropython"),
                                    mpy[2] if mpy else "no native arch")
    if info.get("board") == "sim":
        return "%s: the virtual box, the unix port on this computer, not silicon" % what
    if os.path.realpath(port).startswith("/dev/pts/"):
        return "%s: a virtual board behind a pty (the emulated Pico), wall time, not silicon" % what
    return "%s: silicon" % what


class Bench:
    def __init__(self, dev, runs):
        self.dev = dev
        self.runs = runs
        self.rows = []

    def row(self, what, value, how):
        self.rows.append((what, value, how))

    def serial(self):
        hello = timed(lambda: self.dev.request("hello"), self.runs)
        self.base = statistics.median(hello)
        self.row("serial round trip (hello)", spread(hello), "median / max of %d" % self.runs)
        status = timed(lambda: self.dev.request("status"), self.runs)
        self.row("status op", spread(status), "includes the gc.collect() the status op runs")

    def heap(self):
        st = self.dev.status()
        app, journal = st["status"], st["journal"]
        self.row("free heap after boot", "%d B" % app["mem_free_boot"], "gc.mem_free() once the tasks run")
        self.row("free / allocated heap now", "%d / %d B" % (app["mem_free"], app["mem_alloc"]),
                 "in %s, after gc.collect()" % app["mode"])
        self.row("journal", "%s, %d B" % (count(journal["records"], "record"), journal["bytes"]),
                 count(journal["segments"], "segment"))
        return app

    def records(self):
        n, pages, cursor = 0, 0, 0
        t0 = time.perf_counter()
        while pages < RECORD_PAGES:
            page = self.dev.records(cursor, 50)
            pages += 1
            n += len(page["records"])
            cursor = page["next"]
            if not page["more"]:
                break
        ms = (time.perf_counter() - t0) * 1000
        if n:
            self.row("journal read", "%.0f records/s" % (n * 1000 / ms),
                     "%s in %s of up to 50, CRCs checked here" % (count(n, "record"), count(pages, "page")))

    def files(self):
        t0 = time.perf_counter()
        n, after, more = 0, None, True
        while more:
            reply = self.dev.request("files", **({"after": after} if after else {}))
            n += len(reply["files"])
            more = reply["more"] and reply["files"]
            if more:
                after = reply["files"][-1][0]
        ms = (time.perf_counter() - t0) * 1000
        self.row("file listing with SHA-256", "%.0f ms" % ms,
                 "%s (what a flash plans with)" % count(n, "file"))

    def outputs(self, app):
        if app["mode"] != "menu":
            self.row("LED chain / OLED frame", "skipped", "%s is running: only measured from the menu"
                     % app["mode"])
            return
        sel = self.dev.request
        try:
            sel("selftest", part="end")  # also: does this firmware have the op at all
        except DeviceError as e:
            if e.code != "unknown_op":
                raise
            self.row("LED chain / OLED frame", "skipped", "this firmware has no selftest op")
            return
        try:
            leds = timed(lambda: sel("selftest", part="leds", colour="off"), self.runs)
            frame = timed(lambda: sel("selftest", part="display"), max(3, self.runs // 4))
            drawn = sel("selftest", part="display")["display"]
        finally:
            sel("selftest", part="end")
        self.row("LED chain write", "%.1f ms" % max(statistics.median(leds) - self.base, 0),
                 "selftest leds minus the round trip (all LEDs, one write)")
        if drawn == "drawn":
            self.row("OLED full frame", "%.1f ms" % max(statistics.median(frame) - self.base, 0),
                     "selftest display minus the round trip (test pattern drawn and sent)")
        else:
            self.row("OLED full frame", "-", "no display (%s)" % drawn)


def table(rows):
    return "".join(line + "\n" for line in columns.table(None, rows))


def run(args):
    if args.runs < 1:
        raise CliError("--runs must be at least 1")
    try:
        port = resolve_port(args.port)
        with DeviceClient(port, timeout=args.timeout) as dev:
            bench = Bench(dev, args.runs)
            bench.serial()
            app = bench.heap()
            bench.records()
            bench.files()
            bench.outputs(app)
            info = dev.info
    except DeviceError as e:
        raise CliError("the box refused a request: %s" % e.msg, 1)
    except LinkError as e:
        raise CliError(str(e), 1)
    sys.stdout.write("figures of %s (%s)\n" % (source(info, port), port))
    sys.stdout.write(table(bench.rows))
    return 0
