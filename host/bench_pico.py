"""`make bench` rows measured on the emulated Pico (MicroPython's own RPI_PICO build in
rp2040js, rp2box/): virtual microseconds of a cycle-stepped RP2040, labelled
"rp2040 emulated". They are far closer to a Pico than the 64-bit unix port (32-bit ints,
the Pico's heap, the real PIO and IRQ paths) and still not silicon. Flash and sync are
given in the chip's virtual seconds and in wall seconds of the emulator.

    python -m host.bench_pico [--presses N] [--records N]
"""

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from host import bench_pico_capture

LABEL = "rp2040 emulated"
PLAYERS = 4
# Past the lockout (800 ms), its record and the release; before the winner screen's end
# (1.5 s), which the next decision replaces: that screen's redraw holds the CPU ~23 ms of
# I2C, and a press then would measure the OLED, not the input path. Not a whole number of
# ms either, nor FIRST_PRESS_US: the emulator reads its clock when the box's timers wake it,
# and presses a whole number of their periods later would all fall on the same tasks'
# turns; these walk through the 5 ms of the timed pass as real presses fall.
FACEOFF_EVERY_US = 1_201_700
FIRST_PRESS_US = 302_300  # after the mode's start
HOLD_US = 100_000


def press_to_led(box, presses, window_us=None):
    """Virtual us from each press to the first LED frame lighting the winner's LED (a new
    game, with the tie window given, else the setting's)."""
    options = {"players": PLAYERS}
    if window_us is not None:
        options["tie_window_us"] = window_us
    with box.client() as dev:
        dev.request("mode", name="anomia", options=options)
    box.pump(0.5)
    t0 = box.now_us() + FIRST_PRESS_US
    edges = []
    for i in range(presses):
        t = t0 + i * FACEOFF_EVERY_US
        edges += [(t, i % PLAYERS, True), (t + HOLD_US, i % PLAYERS, False)]
    box.edges_at(edges)
    box.wait_for(lambda: box.now_us() > edges[-1][0] + 50_000, timeout=600, what="the face-offs")
    frames = [m for m in box.messages if m.get("t") == "leds"]
    out = []
    for i in range(presses):
        t = t0 + i * FACEOFF_EVERY_US
        p = i % PLAYERS
        lit = [m for m in frames if m["us"] > t and p in lit_seats(m)]
        if lit:
            out.append(lit[0]["us"] - t)
    return out, frames


REDRAW_STEP_US = 9_000  # each press falls this much later into the scores' redraw
REDRAW_PRESSES = 10


def lit_seats(frame, players=PLAYERS):
    """The players whose LED a "leds" frame lights."""
    return [p for p in range(players) if frame["rgb"][p * 6:p * 6 + 6] != "000000"]


def anomia_status(box):
    """The Anomia mode's status on the box, the mode started first if another runs."""
    with box.client() as dev:
        st = dev.status()["status"]
        if st["mode"] != "anomia":
            dev.request("mode", name="anomia", options={"players": PLAYERS})
            st = dev.status()["status"]
    return st["mode_status"]


def presses_into_redraws(box, presses=REDRAW_PRESSES):
    """Face-offs whose press falls into the redraw of the scores, 1.5 s after the decision
    before (the winner screen's end), each REDRAW_STEP_US later into it than the one before
    (the mode already running). Returns (virtual us from each press to its winner's LED, or
    None; how many presses saw an OLED frame end before their LED: those a redraw held)."""
    from firmware.modes.anomia import SHOW_DECISION_MS

    window = anomia_status(box)["tie_window_us"]
    t = box.now_us() + 1_500_000
    starts, edges = [], []
    for i in range(presses):
        p = i % PLAYERS
        starts.append((t, p))
        edges += [(t, p, True), (t + HOLD_US, p, False)]
        t += window + SHOW_DECISION_MS * 1000 + i * REDRAW_STEP_US
    box.edges_at(edges)
    box.wait_for(lambda: box.now_us() > t, timeout=600, what="the face-offs")
    frames = [m for m in box.messages if m.get("t") == "leds"]
    oled_done = [m["us"] for m in box.messages if m.get("t") == "oled" and "us" in m]
    lat, during = [], 0
    for at, p in starts:
        lit = [m["us"] for m in frames if m["us"] > at and lit_seats(m) == [p]]  # the winner's frame
        lat.append(lit[0] - at if lit else None)
        during += bool(lit) and any(at < done < lit[0] for done in oled_done)  # a redraw ended first
    return lat, during


IRQ_GAPS_US = (0, 1, 2, 5, 10, 25)  # presses this far apart, every ordered pair of PAIRS


def irq_resolution(box):
    """The IRQ path over every ordered pair at each gap of IRQ_GAPS_US: per gap, how many pairs
    came out in their true order, how many as the lower GPIO first (the dispatch order),
    and the lag of each stamp behind its press."""
    from tests.host.test_pico_box import IRQ_CAPTURE_SETUP, PAIRS, run_capture, snapshots_after

    out = {}
    for gap in IRQ_GAPS_US:
        box.wait_hello()
        expected, got = run_capture(box, IRQ_CAPTURE_SETUP, PAIRS, gap)
        right = lower_first = 0
        lags = []
        for i, (a, b) in enumerate(PAIRS):
            seen = snapshots_after(got, expected[3 * i][1], 500)
            if len(seen) < 2 or seen[0][0] not in (1 << a, 1 << b):
                continue  # merged into one snapshot: neither first
            first = seen[0][0].bit_length() - 1
            right += first == a
            lower_first += first == min(a, b)
            lags += [seen[0][1] - (0 if first == a else gap), seen[1][1] - (gap if first == a else 0)]
        out[gap] = {"right": right, "lower_first": lower_first, "lags": lags}
    return out


def measure(presses=5):
    from host.serial_client import TIMEOUT_SCALE_ENV
    from tests.host.pico_box import TIMEOUT_SCALE, PicoBox
    from tests.host.test_pico_box import CAPTURE_SETUP, GAP_US, PAIRS, TICKS_MASK, run_capture

    os.environ.setdefault(TIMEOUT_SCALE_ENV, str(TIMEOUT_SCALE))
    with tempfile.TemporaryDirectory(prefix="tablemate-bench-pico-") as tmp:
        box = PicoBox(Path(tmp) / "pico-flash.img")
        try:
            fig = {"ready_wall_s": box.ready_s, "hello_virtual_ms": box.now_us() / 1000}
            with box.client() as dev:
                fig["mem_free_boot"] = dev.status()["status"]["mem_free_boot"]
            expected, got = run_capture(box, CAPTURE_SETUP, PAIRS, GAP_US)
            errs = [((tick - us) & TICKS_MASK) for (_, us), (_, tick) in zip(expected, got, strict=True)]
            fig["pio_err"] = [e - (1 << 30) if e >= 1 << 29 else e for e in errs]
            fig["irq"] = irq_resolution(box)
            fig["capture"] = bench_pico_capture.figures(box)
            fig["pairs"] = len(PAIRS)
            box.wait_hello()
            lat, frames = press_to_led(box, presses)
            fig["press_to_led_us"] = lat
            fig["neopixel_write_us"] = max(m["write_us"] for m in frames)
            with box.client() as dev:
                st = dev.status()["status"]
            fig["mem_free_buzzer"] = st["mem_free"]
            fig["tie_window_us"] = st.get("mode_status", {}).get("tie_window_us")
            fig["redraw_led_us"], fig["redraw_presses"] = presses_into_redraws(box)
        finally:
            box.stop()
    return fig


def rows(row, presses=5):
    f = measure(presses)
    row("%s: boot to hello" % LABEL, "<= %.0f ms virtual" % f["hello_virtual_ms"],
        "chip start -> hello answered, the clock read after it (%.1f s wall)" % f["ready_wall_s"])
    row("%s: free heap" % LABEL, "%d B after boot, %d B with the buzzer mode running"
        % (f["mem_free_boot"], f["mem_free_buzzer"]), "status op, gc.collect() first")
    row("%s: PIO timestamp - true press" % LABEL, "%d..%d us" % (min(f["pio_err"]), max(f["pio_err"])),
        "%d edges, every player against another 2 us apart" % len(f["pio_err"]))
    irq, n = f["irq"], f["pairs"]
    told = [g for g in IRQ_GAPS_US if all(irq[h]["right"] == n for h in IRQ_GAPS_US if h >= g)]
    row("%s: IRQ path, presses told apart" % LABEL,
        "from %s us apart" % told[0] if told else "not within %d us" % IRQ_GAPS_US[-1],
        "%d ordered pairs at each of %s us; right order per gap: %s" % (
            n, "/".join(str(g) for g in IRQ_GAPS_US), "/".join(str(irq[g]["right"]) for g in IRQ_GAPS_US)))
    row("%s: IRQ path, pin-order bias" % LABEL, "%d of %d lower GPIO first at 0 us" % (
        irq[0]["lower_first"], n), "closer than that, the dispatch order (lower GPIO, bank 0 first) wins")
    lags = [lag for g in IRQ_GAPS_US for lag in irq[g]["lags"]]
    row("%s: IRQ path, stamp - true press" % LABEL, "%d..%d us" % (min(lags), max(lags)),
        "the second of two close presses waits for the first one's handler")
    lat = f["press_to_led_us"]
    if lat:
        past = [t - f["tie_window_us"] for t in lat]
        row("%s: press to winner's LED (median / max)" % LABEL, "%.2f / %.2f ms" % (
            statistics.median(lat) / 1000, max(lat) / 1000),
            "the frame's end on the data line; %d face-offs, tie window %s us: %.2f / %.2f ms past it"
            % (len(lat), f["tie_window_us"], statistics.median(past) / 1000, max(past) / 1000))
    held = [t for t in f["redraw_led_us"] if t is not None]
    if held:
        row("%s: press during a screen redraw, to its LED (max)" % LABEL, "%.2f ms" % (max(held) / 1000),
            "%d face-offs walking through the scores' redraw %d us apart, %d of them inside it; "
            "the redraw (Python drawing, then I2C) holds the CPU" % (
                len(f["redraw_led_us"]), REDRAW_STEP_US, f["redraw_presses"]))
    row("%s: NeoPixel refresh, interrupts off" % LABEL, "%d us" % f["neopixel_write_us"],
        "9 LEDs, first rise to last fall on the data line")
    bench_pico_capture.rows(row, LABEL, f["capture"])


def journal_files(count):
    """{device path: bytes} of a journal holding `count` records of Anomia games (as the unix
    box's sync row loads), made with the firmware's own Journal."""
    from firmware.app import JOURNAL_DIR
    from firmware.journal import Journal
    from host.bench_host import many_records

    with tempfile.TemporaryDirectory(prefix="tablemate-bench-journal-") as tmp:
        j = Journal(tmp + "/j")
        for rec in many_records(count):
            j.append(rec["kind"], rec["data"], rec["t"])
        j.close()
        return {JOURNAL_DIR + "/" + p.name: p.read_bytes() for p in Path(tmp, "j").iterdir()}


def virtual_us(world, timeout=60.0):
    """The emulated chip's virtual microseconds since its box started (across resets)."""
    world.send({"t": "now"})
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for msg in world.wait(0.2):
            if msg.get("t") == "now":
                return msg["total_us"]
    raise RuntimeError("the emulated Pico did not tell its clock")


def timed(world, fn):
    """(fn's result, wall seconds, virtual seconds) of one call."""
    v0, t0 = virtual_us(world), time.monotonic()
    res = fn()
    wall = time.monotonic() - t0
    return res, wall, (virtual_us(world) - v0) / 1e6


def flash_and_sync(records):
    """`tablemate flash` and sync against the emulated Pico, in wall and virtual seconds: a
    full copy onto an erased flash (a new Pico at its REPL), a flash with one changed file
    and one with nothing changed (each until the files are written and the box restarting,
    flash's own figure); then a sync of a journal of `records` records."""
    from host import bench_host, rp2box
    from host import db as dbmod
    from host import flash as flashmod
    from host.serial_client import TIMEOUT_SCALE_ENV
    from host.sync import sync_device
    from host.virtual_device import micropython_path
    from tests.host.pico_box import READY_TIMEOUT_S, TIMEOUT_SCALE, PicoBox

    os.environ.setdefault(TIMEOUT_SCALE_ENV, str(TIMEOUT_SCALE))
    quiet = lambda *a: None  # noqa: E731
    fig = {}
    with tempfile.TemporaryDirectory(prefix="tablemate-bench-pico-") as tmp:
        tmp = Path(tmp)
        image, cache = tmp / "pico-flash.img", tmp / "mpy-cache"
        image.write_bytes(b"\xff" * rp2box.FLASH_SIZE)  # the rp2 port formats it at boot
        dev = rp2box.PicoDevice(image, rp2box.find_uf2())
        port = dev.start()
        try:
            world = dev.connect_world(READY_TIMEOUT_S)
            tree = bench_host.tree_with_one_change(tmp / "tree")
            for key, root in (("full", None), ("incremental", tree), ("none", tree)):
                # without verify, flash returns as the box restarts (its "seconds")
                res, wall, virtual = timed(world, lambda root=root: flashmod.flash(
                    port, out=quiet, cache_dir=cache, root=root, verify=False))
                fig[key] = {"s": wall, "virtual_s": virtual, "files": res["copied"], "bytes": res["bytes"]}
                rp2box.wait_hello(port)
        finally:
            dev.stop()
        rp2box.write_image(micropython_path(), image, journal_files(records))
        box = PicoBox(image, fresh=False)
        try:
            with dbmod.open_db(tmp / "bench.sqlite3") as store, box.client() as dev:
                res, wall, virtual = timed(box.world, lambda: sync_device(dev, store))
            fig["sync"] = {"records": res.received, "s": res.seconds, "virtual_s": virtual}
        finally:
            box.stop()
    return fig


def storage_rows(row, records=200):
    """Flash and sync on the emulated Pico, beside the unix box's rows: virtual seconds (the
    emulated chip's clock; its USB moves data without a real bus's pace) and wall seconds."""
    f = flash_and_sync(records)
    full, inc, none, sync = f["full"], f["incremental"], f["none"], f["sync"]
    row("%s: flash, full" % LABEL, "%.1f s virtual (%.0f s wall)" % (full["virtual_s"], full["s"]),
        "erased flash, %d files, %.1f KB" % (full["files"], full["bytes"] / 1024))
    row("%s: flash, incremental (one changed file)" % LABEL, "%.1f s virtual (%.0f s wall)" % (
        inc["virtual_s"], inc["s"]), "%d file copied" % inc["files"])
    row("%s: flash, nothing changed" % LABEL, "%.1f s virtual (%.0f s wall)" % (
        none["virtual_s"], none["s"]), "%d files copied" % none["files"])
    row("%s: sync" % LABEL, "%.0f records/s virtual (%.1f /s wall)" % (
        sync["records"] / sync["virtual_s"], sync["records"] / sync["s"]),
        "%d records from the emulated Pico" % sync["records"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presses", type=int, default=5)
    ap.add_argument("--records", type=int, default=200, help="records synced from the box")
    args = ap.parse_args(argv)
    row = lambda what, value, how: print("%-52s %-28s %s" % (what, value, how))  # noqa: E731
    storage_rows(row, args.records)
    rows(row, args.presses)


if __name__ == "__main__":
    main()
