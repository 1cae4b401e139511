"""Append-only journal of records in segment files, with acknowledgement and pruning.

Layout of dirpath:
    00000001.seg   records, one line each (firmware.record), file named by the first
    00000042.seg   seq assigned to it; a segment is closed once it holds segment_bytes
    acked          "N\\n": the host has stored every record up to seq N
    *.tmp          a replacement being written; left over only by a power cut, removed on open

Rules:
- seq starts at 1 and only grows. After a restart the next seq follows the highest of:
  the last intact record, the acked mark, the name of the last segment (an empty one).
- An append is written and flushed before append() returns.
- Opening scans every segment line by line (never the whole file at once) and trusts
  only lines whose framing, length and CRC check out (firmware/journal_open.py, loaded
  only while a journal opens).
- Torn tail: bad bytes after the last intact record of the LAST segment are what a cut
  during an append leaves. They are cut off (the intact prefix is copied to a temp file
  that is renamed over the segment) and counted in stats()["torn_bytes_cut"].
- Corruption anywhere else (a bad line followed by intact ones, or in an older segment)
  is not cut: the bad line is skipped, counted in stats()["bad_records"] and its place
  kept in .bad_spots, and every intact record after it is still returned. Its seq stays
  a visible gap; seqs are never reused for it.
- ack(seq) only moves the mark (temp + rename): an acknowledgement never deletes a record.
  Another host database may not have that record yet.
- Prune on need: before a new segment is started, while the filesystem has less than
  reserve bytes free, the oldest segment whose records are all acked is deleted. Below
  floor bytes free (with nothing acked left to delete) no new segment is started and the
  append raises OSError: the rest of the filesystem (settings, a flash) keeps its room.
  Free room is read only when a segment starts (a statvfs walks littlefs's metadata). A
  full journal then refuses every append without reading it again until the host
  acknowledges more records: only that frees room for records while the box runs (a flash,
  or a file removed over the REPL, restarts the box and opens the journal anew).
"""

import gc
import os

from firmware.record import MAX_PAYLOAD, BadRecord, decode_record, encode_record

SEG_SUFFIX = ".seg"
TMP_SUFFIX = ".tmp"
ACK_NAME = "acked"
ID_NAME = "id"  # the journal's random tag (see journal_open.load_id)
MAX_LINE = MAX_PAYLOAD + 40  # payload plus the three header fields and the newline
MAX_BAD_SPOTS = 16
_CHUNK = 256
# Prune on need (see the module docstring). On a Pico's ~1.4 MB littlefs this keeps room
# for the settings and a flash of changed files; the rest holds records.
RESERVE_BYTES = 128 * 1024
FLOOR_BYTES = 32 * 1024
ENOSPC = 28


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _size(path):
    return os.stat(path)[6]


def free_bytes(path):
    """Bytes free on the filesystem that holds path (statvfs: fragment size * blocks available)."""
    st = os.statvfs(path)
    return st[1] * st[4]


def makedirs(path):
    """mkdir -p (MicroPython's os has no makedirs)."""
    built = ""
    for part in path.split("/"):
        if not part:
            if not built:
                built = "/"
            continue
        built = part if not built else (built + part if built.endswith("/") else built + "/" + part)
        if not _exists(built):
            os.mkdir(built)


def replace_file(path, data):
    """Atomically replace path with data: write a temp file, flush, close, rename over it.
    data is bytes, or a function that writes the content to the open binary file (so a
    large content never has to exist as one buffer).

    After a power cut the path holds the old bytes or the new ones, never a mix
    (rename is atomic on littlefs and POSIX). On an error the temp file is removed.
    """
    tmp = path + TMP_SUFFIX
    try:
        f = open(tmp, "wb")
        try:
            if callable(data):
                data(f)
            else:
                f.write(data)
            f.flush()
        finally:
            f.close()
        os.rename(tmp, path)
    except OSError:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


class LineReader:
    """Reads a file as lines through a small chunk buffer.

    next() returns (start, end, line) for each line (line includes its b"\\n"; the last
    piece may lack it), or None at the end. A line longer than MAX_LINE comes back with
    line None: it cannot be a record, and is skipped without being held in memory.
    """

    def __init__(self, f):
        self.f = f
        self.buf = b""
        self.start = 0
        self.offset = 0  # file offset of buf[0]
        self.eof = False

    def next(self):
        skipping = -1  # file offset where an overlong line began
        while True:
            buf = self.buf
            i = buf.find(b"\n", self.start)
            if i >= 0:
                begin = self.offset + self.start
                self.start = i + 1
                if skipping >= 0:
                    return skipping, self.offset + i + 1, None
                return begin, self.offset + i + 1, buf[begin - self.offset:i + 1]
            if self.eof:
                if skipping >= 0:
                    self.start = len(buf)
                    return skipping, self.offset + len(buf), None
                if self.start < len(buf):
                    begin = self.offset + self.start
                    self.start = len(buf)
                    return begin, self.offset + len(buf), buf[begin - self.offset:]
                return None
            if skipping < 0 and len(buf) - self.start > MAX_LINE:
                skipping = self.offset + self.start
            if skipping >= 0:
                # drop what is buffered: the overlong line's bytes are of no use
                self.offset += len(buf)
                buf = b""
            else:
                self.offset += self.start
                buf = buf[self.start:]
            self.start = 0
            chunk = self.f.read(_CHUNK)
            if not chunk:
                self.eof = True
                self.buf = buf
            else:
                self.buf = buf + chunk


class Journal:
    def __init__(self, dirpath, segment_bytes=8192, reserve=RESERVE_BYTES, floor=FLOOR_BYTES, free=None):
        """free() -> bytes free on the journal's filesystem (default: statvfs of dirpath)."""
        if segment_bytes < 64:
            raise ValueError("segment_bytes must be at least 64")
        self.dir = dirpath.rstrip("/") or "/"
        self.segment_bytes = segment_bytes
        self.reserve = reserve
        self.floor = floor
        self._free = free
        self.pruned = 0  # records deleted to make room since this journal was opened
        # One entry per segment, oldest first: [name_seq, first_seq, last_seq, count, bytes]
        # (first/last 0 when the segment holds no intact record).
        self._segs = []
        self._fh = None
        self._tail_dirty = False
        self.last_seq = 0
        self.acked = 0
        self.torn_bytes_cut = 0
        self.bad_records = 0
        self.bad_spots = []
        self.ack_error = None
        self._full = None  # (acked mark, reason) of the last refusal for want of room
        makedirs(self.dir)
        from firmware import modes

        # the scan of what is on flash is not needed again: forgotten once the journal is open
        modes.call_once("firmware.journal_open", "open_journal", self)

    # ---- paths

    def _path(self, name):
        return self.dir + "/" + name

    def _seg_path(self, name_seq):
        return self._path("%08d%s" % (name_seq, SEG_SUFFIX))

    def _cut(self, path, keep):
        """Replace the segment at path by its first keep bytes (temp + rename)."""
        tmp = path[:-len(SEG_SUFFIX)] + TMP_SUFFIX
        with open(path, "rb") as src:
            dst = open(tmp, "wb")
            try:
                left = keep
                while left > 0:
                    chunk = src.read(_CHUNK if left > _CHUNK else left)
                    if not chunk:
                        break
                    dst.write(chunk)
                    left -= len(chunk)
                dst.flush()
            finally:
                dst.close()
        os.rename(tmp, path)

    # ---- append

    def append(self, kind, data, t=None):
        """Write one record and flush it; returns its seq. Bad fields raise ValueError, nothing written."""
        seq = self.last_seq + 1
        line = encode_record(seq, kind, data, t)
        seg = self._active_segment(seq, len(line))
        try:
            self._fh.write(line)
            self._fh.flush()
        except OSError:
            # The file may now end in part of this line: cut it before the next append.
            self._close()
            self._tail_dirty = True
            raise
        if not seg[1]:
            seg[1] = seq
        seg[2] = seq
        seg[3] += 1
        seg[4] += len(line)
        self.last_seq = seq
        return seq

    def _active_segment(self, seq, line_len):
        segs = self._segs
        if not segs or (segs[-1][4] > 0 and segs[-1][4] + line_len > self.segment_bytes):
            self._close()
            self._make_room()
            # collected first, the new entry takes the lowest free hole: made among the
            # play's garbage, a hundred of them left a long game's heap in small pieces
            gc.collect()
            segs.append([seq, 0, 0, 0, 0])
        seg = segs[-1]
        if self._fh is None:
            path = self._seg_path(seg[0])
            if self._tail_dirty and _exists(path) and _size(path) != seg[4]:
                self._cut(path, seg[4])
            self._tail_dirty = False
            self._fh = open(path, "ab")
        return seg

    def _close(self):
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None

    def close(self):
        self._close()

    # ---- read

    def records_since(self, cursor, limit):
        """Intact records with seq > cursor, oldest first, at most limit of them."""
        out = []
        if limit <= 0:
            return out
        for rec in self.iter_since(cursor):
            out.append(rec)
            if len(out) >= limit:
                break
        return out

    def iter_since(self, cursor):
        """Intact records with seq > cursor, oldest first, decoded one at a time (a reader
        that stops early, e.g. when its reply is full, never holds more than one)."""
        if cursor >= self.last_seq:
            return
        segs = self._segs
        i = 0
        while i + 1 < len(segs) and segs[i + 1][0] <= cursor + 1:
            i += 1
        prev = cursor
        while i < len(segs):
            seg = segs[i]
            i += 1
            if not seg[3] or seg[2] <= cursor:
                continue
            with open(self._seg_path(seg[0]), "rb") as f:
                reader = LineReader(f)
                while True:
                    item = reader.next()
                    if item is None or item[0] >= seg[4]:
                        break
                    line = item[2]
                    if line is None:
                        continue
                    try:
                        rec = decode_record(line)
                    except BadRecord:
                        continue
                    if rec["seq"] > prev:
                        prev = rec["seq"]
                        yield rec

    # ---- ack / prune

    def ack(self, seq):
        """Mark every record up to seq as stored by a host. Deletes nothing: see _make_room."""
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ValueError("ack needs an int seq >= 0, got %r" % (seq,))
        if seq > self.last_seq:
            raise ValueError("cannot ack %d: last seq is %d" % (seq, self.last_seq))
        if seq <= self.acked:
            return
        replace_file(self._path(ACK_NAME), ("%d\n" % seq).encode())
        self.acked = seq

    def free_bytes(self):
        return self._free() if self._free is not None else free_bytes(self.dir)

    def _make_room(self):
        """Before a new segment: delete the oldest fully acked segments while the free room is
        under the reserve; raise OSError(ENOSPC) if it stays under the floor."""
        full = self._full
        if full is not None and full[0] == self.acked:
            raise OSError(ENOSPC, full[1])
        self._full = None
        segs = self._segs
        free = self.free_bytes()
        while free < self.reserve and segs:
            if (segs[1][0] - 1 if len(segs) > 1 else self.last_seq) > self.acked:
                break  # the oldest segment holds a record no host has acknowledged
            os.remove(self._seg_path(segs[0][0]))
            self.pruned += segs[0][3]
            segs.pop(0)
            free = self.free_bytes()
        if free < self.floor + self.segment_bytes:
            why = "journal full: %d bytes free, records not yet synced fill the rest" % free
            self._full = (self.acked, why)
            raise OSError(ENOSPC, why)

    # ---- figures

    def count(self):
        """Intact records currently stored (acked ones included until their segment is pruned)."""
        n = 0
        for seg in self._segs:
            n += seg[3]
        return n

    def stats(self):
        first = 0
        total = 0
        for seg in self._segs:
            if not first and seg[1]:
                first = seg[1]
            total += seg[4]
        return {
            "segments": len(self._segs),
            "bytes": total,
            "records": self.count(),
            "first_seq": first,
            "last_seq": self.last_seq,
            "acked": self.acked,
            "torn_bytes_cut": self.torn_bytes_cut,
            "bad_records": self.bad_records,
            "pruned": self.pruned,
        }
