"""Host-side figures for `make bench`: sync throughput and flash time against the virtual device.

Also the source of realistic Anomia buzzer games as journal records (game_start,
action records with face-off detail, game_end) made with the real engine: the
benchmarks load them into the virtual device's journal, the tests into the store.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine import anomia_score, gamelog
from engine.rng import Rng

TICK_MASK = (1 << 30) - 1
DEFAULT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal")
DEFAULT_COLOURS = ([255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0],
                   [255, 0, 255], [0, 255, 255], [255, 128, 0], [255, 255, 255])


def _gap_us(rng):
    # Mostly a few to a few hundred ms apart; one in eight within a 1 ms tie window.
    scale = (900, 10000, 10000, 10000, 60000, 60000, 60000, 300000)[rng.below(8)]
    return rng.below(scale) + 1


def _faceoff(rng, pair, others, window_us, tiebreak):
    """Arbiter-style measurements for one face-off between pair; returns (action, detail)."""
    a, b = pair
    first = rng.next30()
    solo = not tiebreak and rng.below(10) == 0
    gap = None if solo else _gap_us(rng)
    presses = [[a, first, 1]]
    if not solo:
        presses.append([b, (first + gap) & TICK_MASK, 2])
        if others and rng.below(3) == 0:
            late = others[rng.below(len(others))]
            presses.append([late, (first + gap + 1 + rng.below(50000)) & TICK_MASK, 3])
    tie = gap is not None and gap <= window_us and not tiebreak
    if tie:
        action = ["tie", min(a, b), max(a, b)]
    else:
        action = ["win", a, -1 if solo else b]
    detail = {"first_us": first, "presses": presses, "gap_us": gap, "tie": tie, "tiebreak": tiebreak,
              "window_us": window_us}
    return action, detail


def game_records(seed, players=4, faceoffs=20, start_seq=1, t0=None, names=None, window_us=1000,
                 lockout_ms=800, undo_every=0, end=True, end_action=False):
    """One Anomia buzzer game as record dicts {seq, kind, t, data}, digests from the real engine,
    shaped as the box's Anomia mode writes them (firmware/modes/anomia.py).

    faceoffs: decided face-offs (wins and ties); undo_every=k adds an undo after every k-th.
    t0: epoch seconds of the first record (None: the clock was never set).
    end: close with a game_end; like the box, the engine's ["end"] is applied without an
    action record of its own (the game_end carries its n), unless end_action=True.
    """
    rng = Rng(seed)
    names = list(names or DEFAULT_NAMES[:players])
    state = anomia_score.new_game(seed, players)
    game = start_seq
    seq = [start_seq]
    records = []

    def add(kind, data):
        t = None if t0 is None else t0 + 7 * (seq[0] - start_seq)
        records.append({"seq": seq[0], "kind": kind, "t": t, "data": data})
        seq[0] += 1

    add(gamelog.GAME_START, gamelog.start_data(
        game, "anomia", "anomia_score", seed,
        [{"name": names[i], "colour": list(DEFAULT_COLOURS[i])} for i in range(players)],
        {}, {"tie_window_us": window_us, "lockout_ms": lockout_ms}, state))
    n = 0
    for k in range(faceoffs):
        if state.tiebreak:
            pair = list(state.tiebreak)
            if rng.below(2):
                pair.reverse()
            tiebreak = True
        else:
            a = rng.below(players)
            b = (a + 1 + rng.below(players - 1)) % players
            pair = [a, b]
            tiebreak = False
        others = [p for p in range(players) if p not in pair]
        action, detail = _faceoff(rng, pair, others, window_us, tiebreak)
        state.apply(action)
        add(gamelog.ACTION, gamelog.action_data(game, n, action, state, {"faceoff": detail}))
        n += 1
        if undo_every and (k + 1) % undo_every == 0:
            state.apply(["undo"])
            add(gamelog.ACTION, gamelog.action_data(game, n, ["undo"], state))
            n += 1
    if end:
        state.apply(gamelog.END_ACTION)
        if end_action:
            add(gamelog.ACTION, gamelog.action_data(game, n, gamelog.END_ACTION, state))
            n += 1
        add(gamelog.GAME_END, gamelog.end_data(game, n, state, "ended"))
    return records


def many_records(count, seed=1, players=4, start_seq=1, t0=None):
    """At least `count` records, made of whole games of 40 face-offs, trimmed to exactly count."""
    out = []
    while len(out) < count:
        out.extend(game_records(seed + len(out), players, faceoffs=40, start_seq=start_seq + len(out), t0=t0))
    return out[:count]


# ---------------------------------------------------------------- the virtual device's journal

# Runs under the MicroPython unix port with the image NOT in use by a running sim:
# "last" prints the journal's last seq; "append" appends the JSON-line records on stdin
# (checking each gets the seq it was made for).
_IMAGE_JOURNAL = """
import sys, os, json
sys.path.insert(0, %r)
from unixbox.blockdev import mount_image, unmount_image
from firmware.journal import Journal, makedirs
dev = mount_image(%r, '/flash')
os.chdir('/flash')
makedirs(%r)
j = Journal(%r)
if %r == 'append':
    n = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        rec = json.loads(line)
        seq = j.append(rec['kind'], rec['data'], rec['t'])
        if seq != rec['seq']:
            raise SystemExit('record made for seq %%d got seq %%d' %% (rec['seq'], seq))
        n += 1
    print(n)
else:
    print(j.last_seq)
j.close()
os.chdir('/')
unmount_image(dev)
"""


def _image_journal(image, action, stdin_text=""):
    from firmware import app
    from host import virtual_device as sim
    from host.device_files import ROOT

    code = _IMAGE_JOURNAL % (str(ROOT), str(image), app.DATA_DIR, app.JOURNAL_DIR, action)
    res = subprocess.run([str(sim.micropython_path()), "-X", "heapsize=4m", "-c", code], input=stdin_text,
                         capture_output=True, text=True, timeout=300)
    if res.returncode != 0:
        raise RuntimeError("journal %s on %s failed: %s"
                           % (action, image, (res.stderr or res.stdout).strip()))
    return int(res.stdout.split()[-1])


def image_last_seq(image):
    """The last seq of the journal in a virtual device's image (no sim may be using it)."""
    return _image_journal(image, "last")


def append_to_image(image, records):
    """Append records (made for the seqs that follow the journal's last one) to an image's journal."""
    text = "".join(json.dumps(r) + "\n" for r in records)
    return _image_journal(image, "append", text)


def add_games_to_image(image, count, seed=1, players=4):
    """Append exactly `count` records of Anomia games (the last one may be cut short); returns them."""
    start = image_last_seq(image) + 1
    records = many_records(count, seed=seed, players=players, start_seq=start)
    append_to_image(image, records)
    return records


def new_image(image):
    """A freshly formatted image with the current firmware installed (as `tablemate sim --fresh`)."""
    from host import virtual_device as sim

    sim.prepare_image(sim.micropython_path(), sim.DEFAULT_HEAPSIZE, Path(image), fresh=True)


# ---------------------------------------------------------------- a Pico's journal capacity

PICO_FS_KB = 1408  # MICROPY_HW_FLASH_STORAGE_BYTES of MicroPython's RPI_PICO build (2 MB flash)
PICO_BLOCK = 4096
PICO_PROGSIZE = 256  # as the rp2 port's _boot.py mounts its littlefs
GAME_FACEOFFS = 40  # face-offs per game in the records played into the journal

# Runs under the MicroPython unix port: a RAM littlefs the size of a Pico's, the rp2 firmware
# files (listed on stdin as "DEVICE_PATH LOCAL_PATH") copied in, the settings saved, then
# the records of the JSON-lines file appended and acked (a host that syncs often) until
# the journal first prunes to make room.
_PICO_FILL = """
import sys, os, json, vfs
sys.path.insert(0, %r)
from unixbox.ram_blockdev import RamBlockDev
from firmware.journal import Journal, makedirs
from firmware.settings import Settings
dev = RamBlockDev(%d, %d)
vfs.VfsLfs2.mkfs(dev)
vfs.mount(vfs.VfsLfs2(dev, progsize=%d), '/pico')
os.chdir('/pico')
for line in sys.stdin:
    dest, src = line.split()
    if '/' in dest:
        makedirs(dest.rsplit('/', 1)[0])
    with open(src, 'rb') as f, open(dest, 'wb') as g:
        g.write(f.read())
makedirs(%r)
Settings(%r).update({'brightness': 40})
st = os.statvfs('/pico')
free_before = st[1] * st[4]
j = Journal(%r)
faceoffs = records = 0
with open(%r) as f:
    for line in f:
        rec = json.loads(line)
        seq = j.append(rec['kind'], rec['data'], rec['t'])
        if seq %% 50 == 0:
            j.ack(seq)  # acked long before its segment is the oldest: the first prune comes as early
        if j.pruned:
            break
        records += 1
        faceoffs += rec['kind'] == 'action'
st = os.statvfs('/pico')
print(json.dumps({'faceoffs': faceoffs, 'records': records, 'free_before_journal': free_before,
                  'journal_bytes': j.stats()['bytes'], 'reserve': j.reserve, 'pruned': j.pruned}))
"""


def pico_faceoffs_before_pruning(players, fs_kb=PICO_FS_KB, max_faceoffs=6000):
    """How many face-offs (of `players`-player Anomia games, GAME_FACEOFFS a game) a Pico's
    journal holds before it first prunes acknowledged records to keep its reserve free.

    Measured, not estimated: the real firmware/journal.py on a littlefs of the Pico's size,
    block and program size, holding the rp2 firmware (.mpy) and the settings."""
    from firmware import app
    from host import flash as flashmod
    from host import virtual_device as sim
    from host.device_files import ROOT

    with tempfile.TemporaryDirectory(prefix="tablemate-capacity-") as tmp:
        tmp = Path(tmp)
        listing = []
        for i, (dest, data) in enumerate(sorted(flashmod.build("armv6m").items())):
            local = tmp / ("f%d" % i)
            local.write_bytes(data)
            listing.append("%s %s\n" % (dest, local))
        records = tmp / "records.jsonl"
        games = max_faceoffs // GAME_FACEOFFS + 1
        with open(records, "w") as f:
            seq = 1
            for g in range(games):
                for rec in game_records(1000 + g, players, faceoffs=GAME_FACEOFFS, start_seq=seq,
                                        t0=1_700_000_000):
                    f.write(json.dumps(rec) + "\n")
                    seq += 1
        code = _PICO_FILL % (str(ROOT), PICO_BLOCK, fs_kb * 1024 // PICO_BLOCK, PICO_PROGSIZE, app.DATA_DIR,
                             app.SETTINGS_PATH, app.JOURNAL_DIR, str(records))
        res = subprocess.run([str(sim.micropython_path()), "-X", "heapsize=8m", "-c", code],
                             input="".join(listing), capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        raise RuntimeError("the Pico journal fill failed: %s" % (res.stderr or res.stdout).strip()[-2000:])
    out = json.loads(res.stdout.strip().splitlines()[-1])
    if not out["pruned"]:
        raise RuntimeError("%d face-offs did not fill the journal: raise max_faceoffs" % max_faceoffs)
    out["players"] = players
    return out


# ---------------------------------------------------------------- running the virtual device


class SimProcess:
    """`tablemate sim --headless --image IMAGE` as a child process; .port once it answers hello."""

    def __init__(self, image, fresh=False, boot_timeout=60.0):
        self.image = Path(image)
        self.fresh = fresh
        self.boot_timeout = boot_timeout
        self.proc = None
        self.port = None
        self.hello = None

    def start(self):
        from host.device_files import ROOT

        argv = [sys.executable, "-m", "host.cli", "sim", "--headless", "--image", str(self.image)]
        if self.fresh:
            argv.append("--fresh")
        # stdin stays open: the headless sim runs until it reaches end of input
        self.proc = subprocess.Popen(argv, cwd=str(ROOT), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("serial: "):
            err = self._finish()
            raise RuntimeError("the sim did not start: %r %s" % (line, err))
        self.port = line.split(" ", 1)[1].strip()
        self.hello = self.wait_ready()
        return self

    def wait_ready(self):
        from host.serial_client import DeviceClient, LinkError

        deadline = time.monotonic() + self.boot_timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("the sim exited during boot: %s" % self._finish())
            try:
                with DeviceClient(self.port, timeout=1.0) as dev:
                    return dev.info
            except LinkError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def wait_exit(self, timeout=15.0):
        """Wait for the sim to end by itself (its firmware process ended); True if it did."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        self._finish()
        return True

    def _finish(self):
        err = ""
        if self.proc is not None:
            try:
                _, err = self.proc.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                _, err = self.proc.communicate()
        return (err or "").strip()

    def stop(self):
        """End of input asks the headless sim to quit; terminate it (by its pid) if it does not."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            self.proc.stdin = None  # closed: communicate() must not touch it
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.terminate()
        self._finish()
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False


# ---------------------------------------------------------------- the figures


def bench_sync(count=1000, workdir=None, page_limit=None):
    """Sync throughput: `count` records loaded into a virtual device's journal, synced into a new store."""
    from host import db as dbmod
    from host.serial_client import DeviceClient
    from host.sync import PAGE_LIMIT, sync_device

    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        image = Path(tmp) / "sim.img"
        new_image(image)
        add_games_to_image(image, count)
        with SimProcess(image) as sim, DeviceClient(sim.port, timeout=5.0) as dev:
            with dbmod.open_db(Path(tmp) / "bench.sqlite3") as store:
                res = sync_device(dev, store, page_limit=page_limit or PAGE_LIMIT)
                stored = store.count_records()
    return {"records": res.received, "stored": stored, "pages": res.pages, "seconds": res.seconds,
            "smaller_pages": res.smaller_pages,
            "records_per_s": res.received / res.seconds if res.seconds else 0.0}


def tree_with_one_change(tree):
    """A copy of the device source tree at tree with one file changed (new bytecode); returns tree."""
    from host.device_files import DEVICE_PACKAGES, ROOT, ROOT_SCRIPTS

    for pkg in DEVICE_PACKAGES:
        shutil.copytree(ROOT / pkg, tree / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ROOT_SCRIPTS:
        if (ROOT / "firmware" / name).exists():
            shutil.copy(ROOT / "firmware" / name, tree / "firmware" / name)
    changed = tree / "engine" / "core.py"
    changed.write_text(changed.read_text() + "\nCHANGED_FOR_THE_BENCH = 1\n")
    return tree


def bench_flash(workdir=None):
    """Flash time against the virtual device: full (cold compile cache, every file), then
    incremental (one changed source file). Seconds until the firmware is written and restarting."""
    from host import flash as flashmod

    quiet = lambda *a: None  # noqa: E731
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        tmp = Path(tmp)
        image = tmp / "sim.img"
        new_image(image)
        cache = tmp / "mpy-cache"
        with SimProcess(image) as sim:
            full = flashmod.flash(sim.port, out=quiet, cache_dir=cache)
        tree = tree_with_one_change(tmp / "tree")
        with SimProcess(image) as sim:
            inc = flashmod.flash(sim.port, out=quiet, root=tree, cache_dir=cache)
    return {"full_s": full["seconds"], "full_files": full["copied"], "full_bytes": full["bytes"],
            "incremental_s": inc["seconds"], "incremental_files": inc["copied"]}


def main():
    for players in (4, 8):
        cap = pico_faceoffs_before_pruning(players)
        print("a Pico's journal, %d players: %d face-offs before pruning" % (players, cap["faceoffs"]))
    sync = bench_sync()
    print("sync: %d records in %.2f s = %.0f records/s (%d pages, %d retried smaller)"
          % (sync["records"], sync["seconds"], sync["records_per_s"], sync["pages"], sync["smaller_pages"]))
    fl = bench_flash()
    print("flash: full %.2f s (%d files, %.1f KB), incremental %.2f s (%d file)"
          % (fl["full_s"], fl["full_files"], fl["full_bytes"] / 1024.0, fl["incremental_s"],
             fl["incremental_files"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())


def script_lines(faceoffs, players=4):
    """A script of `faceoffs` two-player face-offs 1 s apart (3 ms between the presses)."""
    lines = []
    for i in range(faceoffs):
        t = (i + 1) * 1000000
        a, b = 1 + i % players, 1 + (i + 1) % players
        lines += ["%d %d down" % (t, a), "%d %d down" % (t + 3000, b),
                  "%d %d up" % (t + 50000, a), "%d %d up" % (t + 53000, b)]
    return "\n".join(lines) + "\n"


def bench_script(faceoffs, mode="anomia"):
    """`tablemate sim --script` with `faceoffs` face-offs of the buzzer mode `mode` on a fresh
    image, then again on the same image: [(decisions, seconds)] per run (each run must
    answer every face-off)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "script.txt"
        script.write_text(script_lines(faceoffs))
        env = dict(os.environ, TABLEMATE_DATA_DIR=tmp)
        runs = []
        for extra in (["--fresh"], []):
            cmd = [str(Path(sys.executable).parent / "tablemate"), "sim", "--headless", "--mode", mode,
                   "--image", str(Path(tmp) / "flash.img"), "--players", "4", "--script", str(script)] + extra
            t0 = time.monotonic()
            res = subprocess.run(cmd, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                                 timeout=3600)
            seconds = time.monotonic() - t0
            decisions = sum(1 for line in res.stdout.splitlines() if '"decision"' in line)
            if res.returncode != 0 or decisions != faceoffs:
                raise RuntimeError("script run %d: exit %d, %d of %d decisions: %s"
                                   % (len(runs) + 1, res.returncode, decisions, faceoffs, res.stderr[-500:]))
            runs.append((decisions, seconds))
        return runs
