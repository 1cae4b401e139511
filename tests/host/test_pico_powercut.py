"""Power cuts on the emulated Pico: MicroPython's own rp2 build writes its journal to the
emulated flash through the boot ROM's erase/program calls, and the emulator stops the CPU
inside one of them (rp2box/box.mjs "cut": at the Nth flash op, with only part of that op's
bytes on the flash), saves the image as the cut left it, and boots again from it.

Each cut lands in a game record's write: an `act` is sent, the cut stops the chip inside
the flash ops of its journal append (the data block's erase, its programs, littlefs's
metadata commit of the new file size, or a compaction of the journal directory's metadata
pair), and the act is never answered. After the power comes back the box must have: every
record whose act was answered, intact and unchanged; the record in flight missing or whole;
no torn or bad record (littlefs commits a file's size atomically, and copies a file's last
block before appending to it, so a cut never leaves half a record to cut off on reopen);
the boot record at the next seq; a next act at the seq after it; status and sync answering.
"""

import pytest

from firmware import protocol as P
from host import db as dbmod
from host.serial_client import TIMEOUT_SCALE_ENV
from host.sync import sync_device
from tests.host.pico_box import TIMEOUT_SCALE, PicoBox

BLOCK = 4096
PLAYERS = 3
# The cuts, each in the next act's append: (the part of it the cut must land in, arm_cut
# arguments). "commit": in the journal directory's metadata block, from the last append.
CUTS = [
    ("data block erase", {"after_ops": 1, "applied": 1500}),
    ("data program", {"after_ops": 2, "applied": 100}),
    ("metadata commit", {"commit": True}),  # all of it on the flash, the call never returned
    ("metadata commit", {"commit": True, "applied": 8}),  # its CRC comes later in the 256 B
    ("compaction erase", {"compaction": True, "applied": 1000}),
]
MAX_ACTS_TO_COMPACTION = 24  # the journal directory's metadata block holds 16 commits of 256 B
MAX_ACTS_TO_COMMIT = 4
RECORD_MAX = 400  # bytes of an action record of this game, at most


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    image = tmp_path_factory.mktemp("pico-cut") / "pico-flash.img"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(TIMEOUT_SCALE_ENV, str(TIMEOUT_SCALE))
        b = PicoBox(image)
        try:
            yield b
        finally:
            b.stop()


def all_records(dev, cursor=0):
    """{seq: record} of every record the box holds after cursor, each checked against its CRC."""
    out = {}
    while True:
        page = dev.records(cursor=cursor, limit=100)
        out.update((r["seq"], r) for r in page["records"])
        cursor = page["next"]
        if not page["more"]:
            return out


def win(n):
    return ["win", n % PLAYERS, (n + 1) % PLAYERS]


def ops_since(box, before):
    """The flash ops [kind, offset, bytes] made since the box's totals were `before`."""
    now = box.flash_ops()
    n = now["erase"] + now["program"] - before["erase"] - before["program"]
    assert 0 <= n <= len(now["log"]), (n, now)
    return now["log"][len(now["log"]) - n:] if n else []


# littlefs appends to a file by copying its last block into a newly erased one (a second one
# once that fills up) and programming the new bytes there; then it commits the new size to
# the directory's metadata block or, that block being full, compacts the directory into the
# other block of its pair (erase, then program from offset 0).

def data_ops(ops):
    """(how many of an append's flash ops write the file's data, where its data block ends)."""
    i, data_end = 0, BLOCK
    while i < len(ops) and ops[i][0] == "erase" and data_end == BLOCK:
        block = ops[i][1] // BLOCK
        i += 1
        data_end = 0
        while i < len(ops) and ops[i][0] == "program" and ops[i][1] // BLOCK == block:
            data_end = ops[i][1] % BLOCK + ops[i][2]
            i += 1
    return i, data_end


def journal_commit(ops):
    """(data end, directory block, its end, compacted) after one act's journal append."""
    i, data_end = data_ops(ops)
    kind, addr, count = ops[i]
    if kind == "program":
        return data_end, addr // BLOCK, addr % BLOCK + count, False
    assert ops[i + 1][0] == "program" and ops[i + 1][1] == addr, ops
    return data_end, addr // BLOCK, ops[i + 1][2], True


def part_cut(ops):
    """The part of an append its last flash op (the one the power cut stopped) belongs to."""
    i, _ = data_ops(ops)
    kind = ops[-1][0]
    if i == len(ops):
        return "data program" if kind == "program" else "data block erase"
    if i == len(ops) - 1:
        return "metadata commit" if kind == "program" else "compaction erase"
    return "after the commit"


class Cuts:
    """The records the box holds, and what each cut found."""

    def __init__(self, box):
        self.box = box
        self.n = 0  # actions played
        self.held = {}  # seq -> record: every record whose act was answered
        self.appends = []  # journal_commit() of each act's append since the last boot
        self.found = []  # (part of the append cut, the cut op's report, record in flight kept)

    def act(self, dev):
        before = self.box.flash_ops()
        reply = dev.act(win(self.n))
        self.n += 1
        self.appends.append(journal_commit(ops_since(self.box, before)))
        return reply

    @property
    def last(self):
        return self.appends[-1]

    def compacts_next(self):
        """True when the next append will compact the journal directory: its metadata block
        is full, or each append compacts (as littlefs does after a torn commit or erase in
        the pair: it no longer trusts either block's erased space)."""
        a = self.appends
        return a[-1][2] == BLOCK or (len(a) >= 2 and a[-1][3] and a[-2][3])

    def confirm(self, dev):
        """Every record up to now is held: its write completed."""
        self.held.update(all_records(dev, max(self.held, default=0)))

    def cut(self, **arm):
        """Cut the power inside the next act's journal append, boot again from the image the
        cut left and check the journal; returns the part of the append the cut landed in."""
        box = self.box
        with box.client() as dev:
            last = dev.status()["journal"]["last_seq"]
            before = box.flash_ops()
            box.arm_cut(**arm)
            dev.send_line(P.request(1, "act", {"action": win(self.n)}))  # never answered
            report = box.cut_report()
        part = part_cut(ops_since(box, before))
        box.power_on()
        self.appends = []
        with box.client() as dev:
            journal = dev.status()["journal"]
            recs = all_records(dev)
            for seq, rec in self.held.items():
                assert recs.get(seq) == rec, (part, seq, rec, recs.get(seq))
            assert journal["bad_records"] == 0 and journal["torn_bytes_cut"] == 0, (part, journal)
            new = sorted(s for s in recs if s > last)
            assert new and recs[new[-1]]["kind"] == "boot", (part, [recs[s] for s in new])
            kept = new[:-1]  # the record in flight, when it reached the flash whole
            assert kept in ([], [last + 1]), (part, last, [recs[s] for s in new])
            if kept:  # the game's next action
                prev = max((r for r in self.held.values() if r["kind"] == "action"), key=lambda r: r["seq"])
                got = recs[last + 1]["data"]
                assert (got["game"], got["n"]) == (prev["data"]["game"], prev["data"]["n"] + 1), got
                self.n += 1
            assert new[-1] == (kept[-1] if kept else last) + 1, (part, last, new)  # the boot record's seq
            self.held = recs
            self.act(dev)
            self.confirm(dev)
            assert max(self.held) == new[-1] + 1, (part, new)  # the next record, at the next seq
        self.found.append((part, report["op"], bool(kept)))
        return part


def test_power_cuts_inside_journal_writes_keep_every_completed_record(box, tmp_path):
    cuts = Cuts(box)
    with box.client() as dev:
        dev.request("mode", name="anomia", options={"players": PLAYERS})
        cuts.act(dev)  # the game's first action: its start and the action are on record
        cuts.act(dev)
        cuts.confirm(dev)
    for part, arm in CUTS:
        arm = dict(arm)
        with box.client() as dev:
            if arm.pop("commit", False):  # the next append must commit in place
                for _ in range(MAX_ACTS_TO_COMMIT):
                    if not cuts.compacts_next():
                        break
                    cuts.act(dev)
                assert not cuts.compacts_next(), cuts.appends
                arm["block"] = cuts.last[1] * BLOCK
            elif arm.pop("compaction", False):
                # once the directory's metadata block is full, the next append erases the
                # other block of its pair after writing its data
                for _ in range(MAX_ACTS_TO_COMPACTION):
                    if cuts.compacts_next():
                        break
                    cuts.act(dev)
                assert cuts.compacts_next(), cuts.appends
                arm.update(kind="erase", after_ops=3 if cuts.last[0] + RECORD_MAX > BLOCK else 2)
            cuts.confirm(dev)
        assert cuts.cut(**arm) == part, (part, cuts.found[-1])

    # the breakdown: every cut stopped the chip inside the act's append, in the part aimed
    # at and inside the op (part of its bytes written); the record in flight was lost unless
    # its commit had reached the flash whole
    parts = [p for p, _, _ in cuts.found]
    kept = [p for p, _, k in cuts.found if k]
    where = "; ".join("%s: %d of %d B" % (p, o["applied"], o["count"]) for p, o, _ in cuts.found)
    print("\npico power cuts: %d inside journal appends (%s); the record in flight lost in %d, kept "
          "whole in %d (%s); no torn record, every answered record intact, the next at the next seq"
          % (len(parts), where, len(parts) - len(kept), len(kept), ", ".join(kept)))
    assert parts == [p for p, _ in CUTS]
    assert [k for _, _, k in cuts.found] == [False, False, True, False, False]
    assert [o["applied"] < o["count"] for _, o, _ in cuts.found] == [True, True, False, True, True]

    # sync takes every record the box holds
    store = dbmod.open_db(tmp_path / "g.db")
    with store, box.client() as dev:
        res = sync_device(dev, store)
        assert res.received == len(cuts.held) == store.count_records(), (res.received, len(cuts.held))
