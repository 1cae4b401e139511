"""Power cuts on littlefs, plus the block devices behind them.

The littlefs tests run on MicroPython only (vfs.VfsLfs2 exists only there); the
block-device protocol tests run on both runtimes.

A RamBlockDev counts every block write and erase. For each trial a cut point N
is drawn; the device keeps a copy of the image as it was right after event N
(optionally with event N only partly applied: a torn write). A NEW VfsLfs2 is
mounted over that copy, as after a reboot, and the journal or settings are
reopened and checked:
- journal: every record whose append() returned before the cut is present and
  intact unless acked; no torn record is returned; only the record in flight may
  be missing or present (intact); the acked mark is the old or the in-flight one;
  the next append works and gets the next seq.
- settings: SETTINGS_UPDATES replacements in a row (littlefs compacts its metadata
  on the way, so the cuts land in compactions too); after a cut the settings are
  exactly those of the last update() that returned, or of the one in flight.
Cuts inside an append land before and after littlefs commits the file's new size: the
record in flight is then missing or whole, never torn (littlefs commits a file's size
atomically on flush), and the test counts both outcomes. The torn-tail repair on
reopen (a half record planted in the base image) is cut too: the first open in every
journal trial rewrites that segment.
POWER_CUTS sets how many trials run (make bench may raise it).
"""

import gc
import os
import time

from engine.rng import Rng
from tests.shared.compat import IS_MICROPYTHON, skip

POWER_CUTS = 500
SEED = 20240611
BLOCK_SIZE = 512
BLOCK_COUNT = 16
MOUNT = "/pcut"
SEGMENT_BYTES = 300
BASE_RECORDS = 6
# An 8 KB filesystem: prune acked segments once under half of it is free, so the cuts land in prunes too.
JOURNAL_ROOM = {"reserve": BLOCK_SIZE * BLOCK_COUNT // 2, "floor": 0}

# Journal script after the base records: appends, with acks in between (appends then prune on need).
JOURNAL_SCRIPT = ("append", "append", "append", "ack", "append", "append", "append", "append", "ack") * 3 + (
    "append", "append")
# Whole mode namespaces, so that dict.update below gives what Settings.update stores.
NEW_SETTINGS = {"anomia": {"players": 7, "tie_window_us": 2000, "lockout_ms": 800}, "brightness": 99,
                "mode": "anomia", "sound": False,
                "roster": [{"name": "Ann", "colour": [1, 2, 3]}, {"name": "Bo", "colour": [4, 5, 6]},
                           {"name": "Cy", "colour": [7, 8, 9]}, {"name": "Di", "colour": [10, 11, 12]},
                           {"name": "Ed", "colour": [13, 14, 15]}, {"name": "Flo", "colour": [16, 17, 18]},
                           {"name": "Gus", "colour": [19, 20, 21]}]}
OLD_SETTINGS = {"anomia": {"players": 5, "tie_window_us": 2000, "lockout_ms": 800}}
SETTINGS_UPDATES = 12  # replacements per settings trial, alternating between two value sets


def data_for(seq):
    return {"i": seq, "pad": "y" * (seq * 7 % 31)}


def _mount(dev):
    import vfs

    vfs.mount(vfs.VfsLfs2(dev, mtime=False), MOUNT)


def _umount():
    import vfs

    vfs.umount(MOUNT)


def _base_image():
    """A formatted image: journal with BASE_RECORDS records plus a torn tail, and a settings file."""
    import vfs

    from firmware.journal import Journal
    from firmware.record import encode_record
    from firmware.settings import Settings
    from unixbox.ram_blockdev import RamBlockDev

    dev = RamBlockDev(BLOCK_SIZE, BLOCK_COUNT)
    vfs.VfsLfs2.mkfs(dev)
    _mount(dev)
    try:
        j = Journal(MOUNT + "/j", segment_bytes=SEGMENT_BYTES, **JOURNAL_ROOM)
        for seq in range(1, BASE_RECORDS + 1):
            j.append("ev", data_for(seq), t=seq)
        j.close()
        # the next record only half written: opening the journal has to cut it
        line = encode_record(BASE_RECORDS + 1, "ev", data_for(BASE_RECORDS + 1), t=0)
        last_segment = sorted(n for n in os.listdir(MOUNT + "/j") if n.endswith(".seg"))[-1]
        with open(MOUNT + "/j/" + last_segment, "ab") as f:
            f.write(line[:len(line) // 2])
        Settings(MOUNT + "/settings.json").update(OLD_SETTINGS)
    finally:
        _umount()
    return dev.blocks


class JournalRun:
    """Runs JOURNAL_SCRIPT until the cut has happened; remembers what had returned."""

    def __init__(self):
        self.returned = list(range(1, BASE_RECORDS + 1))
        self.acked = 0
        self.inflight = None  # ("open",) / ("append", seq) / ("ack", seq) holding the cut

    def run(self, dev):
        from firmware.journal import Journal

        self.inflight = ("open",)
        j = Journal(MOUNT + "/j", segment_bytes=SEGMENT_BYTES, **JOURNAL_ROOM)
        try:
            if dev.cut_image is not None:
                return
            for op in JOURNAL_SCRIPT:
                if op == "append":
                    seq = j.last_seq + 1
                    self.inflight = ("append", seq)
                    assert j.append("ev", data_for(seq), t=seq) == seq
                else:
                    seq = j.last_seq - 2
                    self.inflight = ("ack", seq)
                    j.ack(seq)
                if dev.cut_image is not None:
                    return
                if op == "append":
                    self.returned.append(seq)
                else:
                    self.acked = seq
            self.inflight = None
        finally:
            j.close()

    def check(self):
        from firmware.journal import Journal

        j = Journal(MOUNT + "/j", segment_bytes=SEGMENT_BYTES, **JOURNAL_ROOM)
        inflight_ack = self.inflight[1] if self.inflight and self.inflight[0] == "ack" else -1
        inflight_seq = self.inflight[1] if self.inflight and self.inflight[0] == "append" else -1
        assert j.acked == self.acked or j.acked == inflight_ack, (j.acked, self.acked, self.inflight)
        assert j.stats()["bad_records"] == 0, j.stats()
        recs = j.records_since(0, 1000)
        seen = []
        for r in recs:
            seq = r["seq"]
            assert r == {"seq": seq, "kind": "ev", "t": seq, "data": data_for(seq)}, r
            assert seq in self.returned or seq == inflight_seq, (seq, self.inflight)
            seen.append(seq)
        for i in range(1, len(seen)):
            assert seen[i] > seen[i - 1]
        for seq in self.returned:
            if seq > j.acked:
                assert seq in seen, (seq, seen, self.inflight)
        assert j.last_seq >= self.returned[-1]
        last = j.last_seq
        nxt = j.append("ev", data_for(last + 1), t=last + 1)
        assert nxt == last + 1
        assert j.records_since(last, 5) == [{"seq": nxt, "kind": "ev", "t": nxt, "data": data_for(nxt)}]
        j.close()
        self.inflight_present = inflight_seq in seen
        return j.stats()["torn_bytes_cut"] > 0


def _settings_states():
    """The settings after 0, 1, ... SETTINGS_UPDATES updates (and the changes of each)."""
    from firmware.settings import defaults

    state = defaults()
    state.update(OLD_SETTINGS)
    states = [state]
    changes = []
    for i in range(SETTINGS_UPDATES):
        change = dict(NEW_SETTINGS) if i % 2 == 0 else dict(OLD_SETTINGS, brightness=10 + i)
        changes.append(change)
        state = dict(state)
        state.update(change)
        states.append(state)
    return states, changes


class SettingsRun:
    def __init__(self):
        self.inflight = None
        self.returned = 0  # updates that returned before the cut
        self.states, self.changes = _settings_states()

    def run(self, dev):
        from firmware.settings import Settings

        self.inflight = ("open",)
        s = Settings(MOUNT + "/settings.json")
        for i, change in enumerate(self.changes):
            if dev.cut_image is not None:
                return
            self.inflight = ("update", i + 1)
            s.update(change)
            if dev.cut_image is not None:
                return
            self.returned = i + 1
        self.inflight = None

    def check(self):
        from firmware.settings import Settings

        s = Settings(MOUNT + "/settings.json")
        assert s.load_error is None, s.load_error
        got = s.all()
        done = self.returned
        assert got == self.states[done] or (self.inflight is not None and got == self.states[done + 1]), (
            got, done, self.inflight)
        return self.inflight is not None and got == self.states[done + 1]


def _events(base, work, runner):
    """How many block events the workload makes when nothing is cut."""
    from unixbox.ram_blockdev import RamBlockDev, copy_blocks

    copy_blocks(base, work)
    dev = RamBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
    _mount(dev)
    try:
        dev.arm_cut(1 << 29)
        runner.run(dev)
        return dev.events
    finally:
        _umount()


def _trial(base, work, capture, runner, cut, torn):
    """One cut: run the workload over a copy of base, then check a fresh mount of the capture.

    work and capture are preallocated block lists reused by every trial.
    """
    from unixbox.ram_blockdev import RamBlockDev, copy_blocks

    copy_blocks(base, work)
    dev = RamBlockDev(BLOCK_SIZE, BLOCK_COUNT, work)
    _mount(dev)
    try:
        dev.arm_cut(cut, torn, capture)
        runner.run(dev)
    finally:
        _umount()
    assert dev.cut_image is not None, "cut %d never reached" % cut
    after = RamBlockDev(BLOCK_SIZE, BLOCK_COUNT, dev.cut_image)
    dev = None
    _mount(after)
    try:
        return runner.check()
    finally:
        _umount()


def run_power_cuts(cuts, seed=SEED):
    """Run cuts trials (3/4 during journal work, 1/4 during settings.update); returns a summary dict."""
    from unixbox.ram_blockdev import new_blocks

    base = _base_image()
    work = new_blocks(BLOCK_SIZE, BLOCK_COUNT)
    capture = new_blocks(BLOCK_SIZE, BLOCK_COUNT)
    rng = Rng(seed)
    journal_events = _events(base, work, JournalRun())
    settings_events = _events(base, work, SettingsRun())
    summary = {"cuts": 0, "journal": 0, "settings": 0, "torn": 0, "tail_cut": 0, "new_settings": 0,
               "in_append": 0, "in_append_kept": 0,
               "journal_events": journal_events, "settings_events": settings_events}
    for i in range(cuts):
        on_journal = i % 4 != 3
        runner = JournalRun() if on_journal else SettingsRun()
        events = journal_events if on_journal else settings_events
        cut = 1 + rng.below(events)
        torn = rng.below(BLOCK_SIZE) if rng.below(2) else -1
        flag = _trial(base, work, capture, runner, cut, torn)
        gc.collect()
        summary["cuts"] += 1
        summary["torn"] += torn >= 0
        if on_journal:
            summary["journal"] += 1
            summary["tail_cut"] += flag
            if runner.inflight and runner.inflight[0] == "append":
                summary["in_append"] += 1
                summary["in_append_kept"] += runner.inflight_present
        else:
            summary["settings"] += 1
            summary["new_settings"] += flag
    return summary


def test_power_cuts_keep_journal_and_settings_consistent():
    if not IS_MICROPYTHON:
        skip("power-cut tests need vfs.VfsLfs2 (MicroPython)")
    start = time.ticks_ms()
    s = run_power_cuts(POWER_CUTS)
    ms = time.ticks_diff(time.ticks_ms(), start)
    # the breakdown printed below, each figure checked
    assert s["cuts"] == POWER_CUTS
    assert s["settings"] == POWER_CUTS // 4 and s["journal"] == POWER_CUTS - s["settings"]
    assert POWER_CUTS // 4 < s["torn"] < POWER_CUTS * 3 // 4  # about half the cuts tear their write
    assert s["journal_events"] > 100 and s["settings_events"] > 80  # one update alone: 8
    # the draws must reach every outcome, or the test proves little: cuts before and after
    # the torn tail was repaired, inside appends with the record in flight lost and kept,
    # settings found at the last update that returned and at the one in flight
    assert 0 < s["tail_cut"] < s["journal"]
    assert 0 < s["in_append_kept"] < s["in_append"] < s["journal"]
    assert 0 < s["new_settings"] < s["settings"]
    print("powercut: %d cuts consistent (journal %d over %d events, %d inside appends of which %d kept "
          "the record; settings %d over %d events of %d updates, %d found the update in flight; "
          "torn writes %d, torn tails cut on reopen %d) in %d ms"
          % (s["cuts"], s["journal"], s["journal_events"], s["in_append"], s["in_append_kept"],
             s["settings"], s["settings_events"], SETTINGS_UPDATES, s["new_settings"], s["torn"],
             s["tail_cut"], ms))


def test_cut_capture_matches_the_write_log():
    from unixbox.ram_blockdev import RamBlockDev

    dev = RamBlockDev(BLOCK_SIZE, 4)
    dev.arm_cut(2, 3)
    dev.writeblocks(0, b"abcdef", 0)
    dev.writeblocks(1, b"ghijkl", 10)
    assert dev.events == 2 and dev.writes == 2
    # the capture holds the first write and only 3 bytes of the second
    cut = dev.cut_image
    assert cut[0][:7] == b"abcdef\xff"
    assert cut[1][8:16] == b"\xff\xffghi\xff\xff\xff"
    assert cut[2] == b"\xff" * BLOCK_SIZE
    assert dev.blocks[1][10:16] == b"ghijkl"  # the device itself got the whole write
    # an erase is an event too; a capture can go into a preallocated block list
    into = dev.snapshot()
    dev.arm_cut(1, -1, into)
    dev.ioctl(6, 0)
    assert dev.erases == 1 and dev.cut_image is into and into[0][:6] == b"\xff" * 6
    # reads and writes may cross block boundaries; a flat image round-trips
    dev.writeblocks(1, b"x" * (BLOCK_SIZE + 4), BLOCK_SIZE - 2)
    buf = bytearray(BLOCK_SIZE + 8)
    dev.readblocks(1, buf, BLOCK_SIZE - 4)
    assert buf == b"\xff\xff" + b"x" * (BLOCK_SIZE + 4) + b"\xff\xff"
    flat = bytearray(BLOCK_SIZE * 4)
    dev.readblocks(0, flat)
    assert RamBlockDev(BLOCK_SIZE, 4, flat).blocks == dev.blocks


def _tmp_image():
    path = "/tmp/tablemate-image-%s.img" % "".join("%02x" % b for b in os.urandom(4))
    return path


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def test_file_blockdev_protocol():
    from tests.shared.compat import raises
    from unixbox.blockdev import FileBlockDev, StorageError

    path = _tmp_image()
    try:
        dev = FileBlockDev(path, block_size=256, block_count=8, create=True)
        assert dev.ioctl(4, 0) == 8 and dev.ioctl(5, 0) == 256
        assert dev.ioctl(1, 0) == 0 and dev.ioctl(3, 0) == 0 and dev.ioctl(6, 2) == 0
        buf = bytearray(256)
        dev.readblocks(3, buf)
        assert buf == b"\xff" * 256  # a new image reads as erased flash
        dev.writeblocks(3, b"hello", 100)
        dev.writeblocks(4, bytearray(b"x" * 256))
        dev.close()
        dev = FileBlockDev(path, block_size=256, block_count=999)  # an existing image keeps its size
        assert dev.block_count == 8
        small = bytearray(5)
        dev.readblocks(3, small, 100)
        assert small == b"hello"
        dev.readblocks(4, buf)
        assert buf == b"x" * 256
        dev.close()
        with open(path, "ab") as f:
            f.write(b"odd")
        raises(StorageError, FileBlockDev, path, 256)  # not a whole number of blocks
    finally:
        _remove(path)
    raises(StorageError, FileBlockDev, path, 256)  # no image


def _file_crc(path):
    """CRC of a whole file read in small chunks (a small heap cannot hold an image at once)."""
    import binascii

    crc = 0
    with open(path, "rb") as f:
        while True:
            chunk = f.read(512)
            if not chunk:
                return crc
            crc = binascii.crc32(chunk, crc)


def test_mount_image_formats_new_images_but_never_reformats_data():
    if not IS_MICROPYTHON:
        skip("needs vfs.VfsLfs2 (MicroPython)")
    from tests.shared.compat import raises
    from unixbox.blockdev import StorageError, mount_image, unmount_image

    path = _tmp_image()
    mnt = "/imgtest"
    try:
        dev = mount_image(path, mnt, block_size=512, block_count=32)
        with open(mnt + "/keep.txt", "w") as f:
            f.write("user data")
        unmount_image(dev)
        dev = mount_image(path, mnt, block_size=512, block_count=32)
        with open(mnt + "/keep.txt") as f:
            assert f.read() == "user data"
        unmount_image(dev)
        # damage both superblock copies: mounting must fail loudly and leave the bytes alone
        with open(path, "r+b") as f:
            f.write(b"\x5a" * 1024)
        damaged = _file_crc(path)
        raises(StorageError, mount_image, path, mnt, False, 512, 32)
        assert _file_crc(path) == damaged
        # a blank image (all zero) is safe to format
        zeros = bytes(512)
        with open(path, "wb") as f:
            for _ in range(16):
                f.write(zeros)
        dev = mount_image(path, mnt, block_size=512)
        assert dev.block_count == 16 and os.listdir(mnt) == []
        unmount_image(dev)
        # fresh=True starts over on purpose
        dev = mount_image(path, mnt, fresh=True, block_size=512, block_count=32)
        assert os.listdir(mnt) == [] and dev.block_count == 32
        unmount_image(dev)
    finally:
        _remove(path)
