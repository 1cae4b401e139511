"""`make bench` rows measured on the emulated Pico (MicroPython's own RPI_PICO build in
rp2040js, rp2box/): virtual microseconds of a cycle-stepped RP2040, labelled
"rp2040 emulated". They are far closer to a Pico than the 64-bit unix port (32-bit ints,
the Pico's heap, the real PIO and IRQ paths) and still not silicon.

    python -m host.bench_pico [--presses N]
"""

import argparse
import os
import statistics
import tempfile
from pathlib import Path

LABEL = "rp2040 emulated"
PLAYERS = 4
FACEOFF_EVERY_US = 1_500_000  # past the lockout (800 ms) and the release
HOLD_US = 100_000


def press_to_led(box, presses):
    """Virtual us from each press to the first LED frame lighting the winner's LED."""
    with box.client() as dev:
        dev.request("mode", name="anomia", options={"players": PLAYERS})
    box.pump(0.5)
    t0 = box.now_us() + 300_000
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
        lit = [m for m in frames if m["us"] > t and m["rgb"][p * 6:p * 6 + 6] != "000000"]
        if lit:
            out.append(lit[0]["us"] - t)
    return out, frames


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
            fig["pairs"] = len(PAIRS)
            box.wait_hello()
            lat, frames = press_to_led(box, presses)
            fig["press_to_led_us"] = lat
            fig["neopixel_write_us"] = max(m["write_us"] for m in frames)
            with box.client() as dev:
                st = dev.status()["status"]
            fig["mem_free_buzzer"] = st["mem_free"]
            fig["tie_window_us"] = st.get("mode_status", {}).get("tie_window_us")
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
    row("%s: NeoPixel refresh, interrupts off" % LABEL, "%d us" % f["neopixel_write_us"],
        "9 LEDs, first rise to last fall on the data line")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presses", type=int, default=5)
    args = ap.parse_args(argv)
    rows(lambda what, value, how: print("%-52s %-28s %s" % (what, value, how)), args.presses)


if __name__ == "__main__":
    main()
