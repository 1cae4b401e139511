"""`make bench`: the speed and memory figures, measured here and now, printed as a table.

Rows: the buzzer's press-to-decision latency and allocations, heap use of the Anomia
mode and of the menu, soaks of 10,000 face-offs (the whole virtual device, and the decision path
under -X heapsize=64k), the Anathema engine's move listing and random games on both
runtimes, the heap the Anathema score keeper mode holds, the virtual device's
boot-to-ready time, serial fuzzing, power cuts, how many face-offs a Pico's journal
holds before it prunes, sync throughput and flash times; then the same firmware on the
emulated Pico (host/bench_pico.py, "rp2040 emulated", in virtual time).
Counts can be changed with flags.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = str(Path(sys.executable).parent / "micropython")


def micropython_json(args, heapsize):
    res = subprocess.run([MICROPYTHON, "-X", "heapsize=" + heapsize] + args, cwd=ROOT,
                         capture_output=True, text=True, timeout=1800)
    if res.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(args), (res.stdout + res.stderr)[-2000:]))
    return json.loads(res.stdout.strip().splitlines()[-1])


def smallest_heap(works, lo_k, hi_k, step_k=8):
    """The smallest heap (KB, to step_k) for which works("<n>k") is true, by bisection;
    None if even hi_k fails."""
    if not works("%dk" % hi_k):
        return None
    while hi_k - lo_k > step_k:
        mid = (lo_k + hi_k) // 2 // step_k * step_k
        if works("%dk" % mid):
            hi_k = mid
        else:
            lo_k = mid
    return hi_k


def _runs(args, heapsize):
    try:
        micropython_json(args, heapsize)
    except (RuntimeError, ValueError):
        return False
    return True


def soak_runs(faceoffs, mode):
    from host.soak import run_soak

    def works(heapsize):
        try:
            out = run_soak(faceoffs, heapsize, mode=mode)
        except Exception:  # noqa: BLE001 - any failure means: not enough heap
            return False
        return out["mode_error"] is None and out["decisions"] > 0

    return works


def boot_to_ready(runs=3):
    """Seconds from starting the virtual device until its firmware answers hello."""
    from host.serial_client import DeviceClient, LinkError
    from host.virtual_device import VirtualDevice, micropython_path, prepare_image

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        image = Path(tmp) / "boot.img"
        exe = micropython_path()
        prepare_image(exe, "320k", image, fresh=True)
        for _ in range(runs):
            dev = VirtualDevice(exe, image)
            t0 = time.monotonic()
            port = dev.start()
            try:
                while True:
                    try:
                        with DeviceClient(port, timeout=0.2):
                            times.append(time.monotonic() - t0)
                            break
                    except LinkError:
                        if time.monotonic() - t0 > 30:
                            raise
                        time.sleep(0.01)
            finally:
                dev.connect_world()
                dev.stop()
    return sorted(times)[len(times) // 2]


def fuzz_rate(n):
    from host.virtual_device import VirtualDevice, micropython_path, prepare_image
    from tests.host.fuzz_frames import run_fuzz, wait_ready

    with tempfile.TemporaryDirectory() as tmp:
        image = Path(tmp) / "fuzz.img"
        exe = micropython_path()
        prepare_image(exe, "320k", image, fresh=True)
        dev = VirtualDevice(exe, image)
        port = dev.start()
        try:
            dev.connect_world()
            wait_ready(port)
            return run_fuzz(port, n=n, seed=99)
        finally:
            dev.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host.bench")
    ap.add_argument("--faceoffs", type=int, default=10000)
    ap.add_argument("--presses", type=int, default=2000)
    ap.add_argument("--power-cuts", type=int, default=2000)
    ap.add_argument("--fuzz", type=int, default=10000)
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--pico-records", type=int, default=200, help="records synced from the emulated Pico")
    ap.add_argument("--mode", default="anomia",
                    help="the buzzer mode the soaks run (default %(default)s)")
    ap.add_argument("--anathema-games", type=int, default=40)
    ap.add_argument("--solo-games", type=int, default=200, help="seeded games timing the solo automa")
    ap.add_argument("--anastasia-games", type=int, default=200)
    args = ap.parse_args(argv)
    from host import bench_host
    from host.device_files import compile_tree
    from host.soak import run_soak

    rows = []

    def row(what, value, how):
        rows.append((what, value, how))
        print("%-54s %-40s %s" % (what, value, how), flush=True)

    print("%-54s %-40s %s" % ("figure", "value", "measured by"))
    with tempfile.TemporaryDirectory() as tmp:
        # the device modules compiled with mpy-cross, as a flashed box imports them
        root = str(compile_tree(Path(tmp) / "device"))
        lat = micropython_json(["tests/bench/buzzer_latency.py", str(args.presses), "--root", root], "64k")
        for key, label in (("window_0", "tie window 0"), ("window_1000", "tie window 1000 us")):
            r = lat[key]
            row("press-to-decision, %s (median / p99)" % label,
                "%d / %d us" % (r["median_us"], r["p99_us"]), "unix port, %d presses, .mpy" % r["presses"])
        row("allocations per press (edge to decision)",
            "%.1f bytes" % lat["window_0"]["alloc_bytes_per_press"], "micropython.mem_total()")
        path = micropython_json(["tests/bench/buzzer_soak.py", str(args.faceoffs), "--root", root], "64k")
        speed = ["tests/bench/anathema_speed.py", str(args.anathema_games)]
        mpy = micropython_json(speed + ["--root", root], "192k")
        busy_heap = smallest_heap(lambda heap: _runs(speed + ["--root", root, "--busy-once"], heap), 32, 192)
        box_heap = micropython_json(["tests/bench/anathema_box_heap.py", "10", "--root", root], "192k")
        ana = ["tests/bench/anastasia_speed.py", str(args.anastasia_games)]
        ana_mpy = micropython_json(ana + ["--root", root], "192k")
        ana_box = micropython_json(["tests/bench/anastasia_speed.py", "60", "--box", "--root", root], "192k")
        # the virtual box imports the source: the smallest heap that starts the mode and plays
        ana_src = ["tests/bench/anastasia_speed.py", "60", "--box"]
        ana_src_heap = smallest_heap(lambda heap: _runs(ana_src, heap), 96, 320)
        # solo Anastasia: the automa's turn and the mode's peak heap, from source as the virtual box
        solo_src = ["tests/bench/anastasia_solo_bench.py", str(args.solo_games)]
        solo = micropython_json(solo_src, "320k")
        solo_heap = smallest_heap(lambda heap: _runs(solo_src[:1] + ["20"], heap), 96, 320)
    ana_cpy = json.loads(subprocess.run([sys.executable] + ana, cwd=ROOT, capture_output=True, text=True,
                                        check=True, timeout=1800).stdout.strip().splitlines()[-1])
    cpy = json.loads(subprocess.run([sys.executable] + speed, cwd=ROOT, capture_output=True, text=True,
                                    check=True, timeout=1800).stdout.strip().splitlines()[-1])
    row("decision-path soak, -X heapsize=64k", "%d face-offs, heap %d -> %d B" % (
        path["faceoffs"], path["mem_alloc_after_100"], path["mem_alloc_end"]),
        "ring->debouncer->arbiter->scorekeeper, .mpy")
    row("Anathema legal_actions, busy table", "%.0f /s CPython, %.0f /s MicroPython" % (
        cpy["busy_legal_per_s"], mpy["busy_legal_per_s"]),
        "15 loose cards, %d of 2,224 plays listed, .mpy 192k" % mpy["busy_listed"])
    row("  smallest heap: Anathema engine + busy listing", "%s k" % busy_heap, "bisection, .mpy, 64-bit port")
    row("Anathema legal_actions, random games", "%.0f /s CPython, %.0f /s MicroPython" % (
        cpy["ordinary_legal_per_s"], mpy["ordinary_legal_per_s"]), "every position of the games below")
    row("Anathema random games to 21", "%.1f /s CPython, %.1f /s MicroPython (%.1fx)" % (
        cpy["games_per_s"], mpy["games_per_s"], cpy["games_per_s"] / mpy["games_per_s"]),
        "%d games, 4 layouts, ~%.0f actions each" % (cpy["games"], cpy["steps_per_game"]))

    row("Anathema score keeper mode: heap held", "%.1f KB at start, +%d B per hand" % (
        box_heap["start_bytes"] / 1024.0, box_heap["per_hand_bytes"]),
        "modules + game, .mpy 192k, %d hands of 3 players (Anomia buzzers: %.1f KB)"
        % (box_heap["hands"], box_heap["anomia_start_bytes"] / 1024.0))

    row("Anastasia random games (4-8 players)", "%.1f /s CPython, %.1f /s MicroPython (%.1fx)" % (
        ana_cpy["games_per_s"], ana_mpy["games_per_s"], ana_cpy["games_per_s"] / ana_mpy["games_per_s"]),
        "%d games, KindChooser bots, ~%.0f actions each, .mpy 192k"
        % (ana_cpy["games"], ana_cpy["steps_per_game"]))
    row("Anastasia ledger mode: heap held", "%.1f KB at start, %.1f KB at most" % (
        ana_box["start_bytes"] / 1024.0, ana_box["most_bytes"] / 1024.0),
        "modules + session + game, .mpy 192k, %d random entries of 4 players" % ana_box["entries"])
    row("  smallest heap: Anastasia mode from source", "%s k" % ana_src_heap,
        "bisection: start + 60 entries on the mode harness, .py as the virtual box, 64-bit port")
    row("Anastasia solo: automa turn (median / max)", "%d / %d us" % (solo["median_us"], solo["max_us"]),
        "apply([\"automa\"]), %d turns of %d seeded table games, unix port, .py 320k"
        % (solo["turns"], solo["games"]))
    row("Anastasia solo mode: peak heap held", "%.1f KB" % (solo["mode_peak_bytes"] / 1024.0),
        "modules + engine + session + game at its highest, a game by buttons, .py 320k")
    row("  smallest heap: Anastasia solo mode from source", "%s k" % solo_heap,
        "bisection: the mode's game + 20 table games, .py as the virtual box, 64-bit port")

    soak = run_soak(args.faceoffs, mode=args.mode)
    row("virtual device soak, %s mode" % args.mode,
        "%d face-offs in %.1f s" % (soak["faceoffs"], soak["seconds"]),
        "scripted edges, heap %s" % soak["heapsize"])
    row("  heap in use after first 100 / at end", "%d / %d B" % (
        soak["mem_alloc_after_first"], soak["mem_alloc_end"]), "gc.mem_alloc() after collect")
    from host.soak import menu_heap

    row("heap in use in the menu, virtual box", "%d B" % menu_heap(),
        "fresh image, status op after boot, gc.mem_alloc() after collect")
    least = smallest_heap(soak_runs(300, args.mode), 96, 320)
    row("smallest heap running the mode", "%s k" % least, "bisection: boot + 300 face-offs, 64-bit port")

    from tests.host.test_pio_capture import longest_late_drain

    row("PIO capture: longest late drain losing no press", "%.3f s" % (longest_late_drain() / 1e6),
        "emulated RP2040 PIO, bounce storm + held press, bisection")

    runs = bench_host.bench_script(args.faceoffs, args.mode)
    row("script mode: face-offs per second", "%.0f /s fresh, %.0f /s again on the same image" % tuple(
        n / s for n, s in runs),
        "tablemate sim --script, %s mode, %d face-offs per run" % (args.mode, args.faceoffs))

    row("virtual device boot to ready", "%.2f s" % boot_to_ready(), "start -> hello answered (median of 3)")

    fz = fuzz_rate(args.fuzz)
    row("serial fuzz", "%d/%d typed errors, %.0f frames/s" % (fz["replies"] - fz["unexpected"], fz["replies"],
                                                               fz["rate"]), "virtual device pty")

    cuts = micropython_json(["-c", "import sys; sys.path.insert(0, '.'); import json; "
                             "from tests.shared.test_powercut import run_power_cuts; "
                             "print(json.dumps(run_power_cuts(%d)))" % args.power_cuts], "192k")
    # run_power_cuts asserts every trial: reaching here means every cut was consistent
    row("power cuts", "%d cuts (%d torn writes), all consistent" % (cuts["cuts"], cuts["torn"]),
        "littlefs RAM image, remount each")

    for players in (4, 8):
        cap = bench_host.pico_faceoffs_before_pruning(players)
        row("a Pico's journal before pruning, %d players" % players, "%d face-offs (%d records)"
            % (cap["faceoffs"], cap["records"]), "1408 KB littlefs + rp2 firmware, %d-face-off games"
            % bench_host.GAME_FACEOFFS)
    sync = bench_host.bench_sync(args.records)
    row("sync throughput", "%.0f records/s" % sync["records_per_s"], "%d records from the virtual device"
        % sync["records"])
    fl = bench_host.bench_flash()
    row("flash, full", "%.2f s" % fl["full_s"],
        "%d files, %.1f KB" % (fl["full_files"], fl["full_bytes"] / 1024))
    row("flash, incremental (one changed file)", "%.2f s" % fl["incremental_s"], "%d file copied"
        % fl["incremental_files"])
    # the same firmware on MicroPython's own Pico build in the RP2040 emulator, beside the above
    import shutil

    from host import bench_pico, rp2box

    if not (shutil.which("node") and (rp2box.RP2BOX / "node_modules" / "rp2040js").is_dir()):
        row("%s rows" % bench_pico.LABEL, "not run",
            "needs node and rp2box/node_modules (make test installs them)")
    elif not os.environ.get(rp2box.UF2_ENV):
        row("%s rows" % bench_pico.LABEL, "not run",
            "set $%s to the official RPI_PICO UF2 (micropython.org/download/RPI_PICO/)" % rp2box.UF2_ENV)
    else:
        bench_pico.storage_rows(row, args.pico_records)
        bench_pico.rows(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
