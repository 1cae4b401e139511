"""Journal: append/reopen, paging, ack, prune on need, torn-tail cut, mid-file corruption policy.

Runs over a real directory on both runtimes (compat.tmp_dir); the same journal over
littlefs and power cuts are covered by test_powercut.py.
"""

import os

from firmware.journal import Journal
from firmware.record import encode_record
from tests.shared.compat import raises, tmp_dir


def data_for(seq):
    """A record body that identifies its seq and varies in length."""
    return {"i": seq, "pad": "x" * (seq % 23)}


def fill(j, n):
    seqs = []
    for _ in range(n):
        seqs.append(j.append("ev", data_for(j.last_seq + 1), t=j.last_seq * 10))
    return seqs


def seqs_of(records):
    return [r["seq"] for r in records]


def seg_files(d):
    return sorted(n for n in os.listdir(d) if n.endswith(".seg"))


def test_append_reopen_read_back():
    with tmp_dir() as d:
        j = Journal(d + "/j")
        assert j.last_seq == 0 and j.count() == 0 and j.records_since(0, 10) == []
        assert fill(j, 5) == [1, 2, 3, 4, 5]
        j.close()
        j = Journal(d + "/j")
        assert j.last_seq == 5 and j.count() == 5
        recs = j.records_since(0, 100)
        assert seqs_of(recs) == [1, 2, 3, 4, 5]
        for r in recs:
            assert r == {"seq": r["seq"], "kind": "ev", "t": (r["seq"] - 1) * 10, "data": data_for(r["seq"])}
        assert j.append("boot", {}) == 6
        st = j.stats()
        assert st["first_seq"] == 1 and st["last_seq"] == 6 and st["acked"] == 0
        assert st["torn_bytes_cut"] == 0 and st["bad_records"] == 0 and st["segments"] == 1
        j.close()


def test_append_rejects_bad_fields_and_writes_nothing():
    with tmp_dir() as d:
        j = Journal(d)
        fill(j, 2)
        size = j.stats()["bytes"]
        raises(ValueError, j.append, "ev", {"x": 1.5})
        raises(ValueError, j.append, "", {})
        assert j.last_seq == 2 and j.stats()["bytes"] == size
        assert j.append("ev", data_for(3)) == 3
        j.close()


def test_segments_roll_over_and_paging():
    with tmp_dir() as d:
        j = Journal(d, segment_bytes=256)
        fill(j, 40)
        segs = seg_files(d)
        assert len(segs) > 4
        assert segs[0] == "00000001.seg"
        for name in segs:
            assert os.stat(d + "/" + name)[6] <= 256
        # pages of 7 from every cursor give exactly the next records
        for cursor in range(0, 41):
            page = j.records_since(cursor, 7)
            assert seqs_of(page) == list(range(cursor + 1, min(cursor + 8, 41)))
        assert j.records_since(3, 0) == []
        cursor, seen = 0, []
        while True:
            page = j.records_since(cursor, 6)
            if not page:
                break
            seen += seqs_of(page)
            cursor = page[-1]["seq"]
        assert seen == list(range(1, 41))
        j.close()


class SmallFlash:
    """free() of a filesystem of capacity bytes that holds only the journal in d; counts
    its readings (on a box each one is a statvfs, a walk of littlefs's metadata)."""

    def __init__(self, d, capacity):
        self.d = d
        self.capacity = capacity
        self.readings = 0

    def __call__(self):
        self.readings += 1
        used = 0
        for name in os.listdir(self.d):
            used += os.stat(self.d + "/" + name)[6]
        return self.capacity - used


def small_journal(d, capacity=5000, reserve=2500, floor=500):
    return Journal(d, segment_bytes=256, reserve=reserve, floor=floor, free=SmallFlash(d, capacity))


def test_ack_deletes_nothing_and_seq_continues():
    with tmp_dir() as d:
        j = Journal(d, segment_bytes=256)
        fill(j, 30)
        before = seg_files(d)
        j.ack(20)
        assert seg_files(d) == before and j.acked == 20
        assert seqs_of(j.records_since(0, 100)) == list(range(1, 31))
        raises(ValueError, j.ack, 31)
        raises(ValueError, j.ack, -1)
        raises(ValueError, j.ack, True)
        j.ack(3)  # going back is a no-op
        assert j.acked == 20
        j.ack(30)
        j.close()
        j = Journal(d, segment_bytes=256)  # reopening deletes nothing either
        assert j.acked == 30 and j.last_seq == 30 and seg_files(d) == before
        assert seqs_of(j.records_since(0, 100)) == list(range(1, 31))
        assert j.append("ev", data_for(31)) == 31
        j.close()


def test_prune_on_need_deletes_the_oldest_acked_segments_only():
    with tmp_dir() as d:
        j = small_journal(d)
        fill(j, 40)  # about 2,900 bytes: the free room has gone under the reserve
        assert j.stats()["first_seq"] == 1 and j.pruned == 0  # nothing acked: nothing deleted
        j.ack(12)
        before = seg_files(d)
        fill(j, 10)
        after = seg_files(d)
        firsts = [int(n[:8]) for n in after]
        # oldest first, and only segments whose every record is acked
        assert firsts[0] > 1 and firsts[0] - 1 <= 12 and after[0] in before
        assert j.pruned == firsts[0] - 1
        assert seqs_of(j.records_since(0, 100)) == list(range(firsts[0], 51))
        assert j.free_bytes() >= j.floor
        j.close()
        # the seqs go on after a reopen with the oldest records gone
        j = small_journal(d)
        assert j.last_seq == 50 and j.append("ev", data_for(51)) == 51
        j.close()


def test_a_full_journal_refuses_an_append_and_keeps_every_unacked_record():
    with tmp_dir() as d:
        j = small_journal(d)
        n = 0
        while True:
            try:
                fill(j, 1)
            except OSError as e:
                reason = str(e)
                break
            n += 1
            assert n < 500
        assert seqs_of(j.records_since(0, 1000)) == list(range(1, n + 1))
        # refused again, with the same reason, without reading the free room each time
        flash = j._free
        readings = flash.readings
        for _ in range(5):
            assert str(raises(OSError, fill, j, 1)) == reason
        assert flash.readings == readings and j.last_seq == n
        last = j.last_seq
        j.ack(last)  # a host took them: the room is read again and the next segment finds it
        fill(j, 1)
        assert j.last_seq == last + 1 and j.pruned > 0 and flash.readings > readings
        j.close()


def test_reopen_drops_temp_files_and_deletes_no_record():
    with tmp_dir() as d:
        j = Journal(d, segment_bytes=256)
        fill(j, 20)
        j.close()
        keep = seg_files(d)
        with open(d + "/acked", "wb") as f:
            f.write(b"%d\n" % (int(keep[1][:8]) - 1))
        with open(d + "/acked.tmp", "wb") as f:
            f.write(b"12")
        j = Journal(d, segment_bytes=256)
        assert seg_files(d) == keep
        assert "acked.tmp" not in os.listdir(d)
        j.close()


def test_torn_tail_is_cut_at_every_byte_offset():
    with tmp_dir() as d:
        j = Journal(d)
        fill(j, 4)
        j.close()
        seg = d + "/00000001.seg"
        with open(seg, "rb") as f:
            whole = f.read()
        last_line = encode_record(4, "ev", data_for(4), t=30)
        assert whole.endswith(last_line)
        intact = len(whole) - len(last_line)
        for cut in range(intact + 1, len(whole)):
            with open(seg, "wb") as f:
                f.write(whole[:cut])
            j = Journal(d)
            assert seqs_of(j.records_since(0, 10)) == [1, 2, 3]
            st = j.stats()
            assert st["torn_bytes_cut"] == cut - intact, (cut, st)
            assert st["bad_records"] == 0 and j.last_seq == 3
            assert os.stat(seg)[6] == intact
            assert j.append("ev", data_for(4), t=30) == 4
            j.close()
            with open(seg, "rb") as f:
                assert f.read() == whole
            j = Journal(d)
            assert seqs_of(j.records_since(0, 10)) == [1, 2, 3, 4]
            assert j.stats()["torn_bytes_cut"] == 0
            j.close()


def test_torn_tail_with_garbage_bytes_is_cut():
    with tmp_dir() as d:
        j = Journal(d)
        fill(j, 3)
        j.close()
        with open(d + "/00000001.seg", "ab") as f:
            f.write(b"4 deadbeef 12 {\"d\":\n\xff\xff\xff\x00\x00")
        j = Journal(d)
        assert seqs_of(j.records_since(0, 10)) == [1, 2, 3]
        assert j.stats()["torn_bytes_cut"] == 25 and j.stats()["bad_records"] == 0
        assert j.append("ev", {}) == 4
        j.close()


def test_mid_file_corruption_skips_and_reports_only_the_bad_record():
    with tmp_dir() as d:
        j = Journal(d, segment_bytes=300)
        fill(j, 12)
        j.close()
        first = d + "/" + seg_files(d)[0]
        with open(first, "rb") as f:
            text = bytearray(f.read())
        # flip a byte inside the second record's payload
        second_start = text.index(b"\n") + 1
        text[second_start + 20] ^= 0x01
        with open(first, "wb") as f:
            f.write(text)
        # and corrupt the middle record of the last segment too
        last = d + "/" + seg_files(d)[-1]
        with open(last, "rb") as f:
            lines = f.read().split(b"\n")
        assert len(lines) >= 4  # three records at least, then the empty piece after the last newline
        lines[1] = lines[1][:5] + b"#" + lines[1][6:]
        bad_seq = int(lines[1].split(b" ")[0])
        with open(last, "wb") as f:
            f.write(b"\n".join(lines))
        j = Journal(d, segment_bytes=300)
        expected = [s for s in range(1, 13) if s not in (2, bad_seq)]
        assert seqs_of(j.records_since(0, 100)) == expected
        st = j.stats()
        assert st["bad_records"] == 2 and st["torn_bytes_cut"] == 0
        assert len(j.bad_spots) == 2
        assert j.count() == 10 and j.last_seq == 12
        # the damaged files are left as they were (nothing cut), and appends go on
        assert j.append("ev", {}) == 13
        j.close()


def test_corrupt_ack_mark_means_nothing_is_pruned():
    with tmp_dir() as d:
        j = Journal(d, segment_bytes=256)
        fill(j, 20)
        j.close()
        with open(d + "/acked", "wb") as f:
            f.write(b"zz\n")
        j = Journal(d, segment_bytes=256)
        assert j.acked == 0 and j.ack_error
        assert seqs_of(j.records_since(0, 100)) == list(range(1, 21))
        j.close()


def test_overlong_garbage_line_is_skipped_without_losing_later_records():
    with tmp_dir() as d:
        j = Journal(d)
        fill(j, 2)
        j.close()
        seg = d + "/00000001.seg"
        with open(seg, "ab") as f:
            f.write(b"z" * 5000 + b"\n")
        j = Journal(d)
        assert j.stats()["torn_bytes_cut"] == 5001
        fill(j, 1)
        j.close()
        with open(seg, "ab") as f:
            f.write(b"q" * 5000 + b"\n" + encode_record(4, "ev", data_for(4)))
        j = Journal(d)
        assert seqs_of(j.records_since(0, 10)) == [1, 2, 3, 4]
        assert j.stats()["bad_records"] == 1
        j.close()


class _FailingWrite:
    """Stands in for the segment file: writes half the line, then fails like a full filesystem."""

    def __init__(self, f):
        self.f = f

    def write(self, data):
        self.f.write(data[:len(data) // 2])
        self.f.flush()
        raise OSError(28, "no space left")

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()


def test_failed_write_is_trimmed_before_the_next_append():
    with tmp_dir() as d:
        j = Journal(d)
        fill(j, 3)
        j._fh = _FailingWrite(j._fh)
        raises(OSError, j.append, "ev", data_for(4))
        assert j.last_seq == 3 and j.count() == 3
        assert j.append("ev", data_for(4), t=30) == 4
        j.close()
        j = Journal(d)
        assert seqs_of(j.records_since(0, 10)) == [1, 2, 3, 4]
        assert j.stats()["torn_bytes_cut"] == 0 and j.stats()["bad_records"] == 0
        j.close()


def test_journal_id_is_kept_and_renewed_with_a_new_journal():
    with tmp_dir() as d:
        path = d + "/j"
        j = Journal(path)
        j.append("x", {"i": 1})
        tag = j.id
        assert len(tag) == 8
        j.close()
        assert Journal(path).id == tag
        for name in os.listdir(path):
            os.remove(path + "/" + name)
        fresh = Journal(path)
        assert fresh.id != tag and fresh.last_seq == 0
