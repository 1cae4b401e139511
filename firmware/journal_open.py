"""A journal opened from what its directory holds (firmware/journal.py's rules): leftover
temp files removed, every segment scanned line by line, a torn tail cut, bad lines
counted, the ack mark and the journal's tag read. Loaded only while a Journal opens.
"""

import os

from firmware.journal import (
    ACK_NAME,
    ID_NAME,
    MAX_BAD_SPOTS,
    SEG_SUFFIX,
    TMP_SUFFIX,
    LineReader,
    replace_file,
)
from firmware.record import BadRecord, split_line


def open_journal(j):
    """Fill a new Journal j from what its directory holds: segments scanned, torn tail cut,
    ack mark and id read."""
    names = []
    for name in os.listdir(j.dir):
        if name.endswith(TMP_SUFFIX):
            os.remove(j._path(name))  # half-written replacement from a power cut
        elif name.endswith(SEG_SUFFIX):
            stem = name[:-len(SEG_SUFFIX)]
            if stem.isdigit():
                names.append(int(stem))
    names.sort()
    j.acked = _load_ack(j)
    # Every segment's entry is made before any is scanned: they then lie side by side on
    # the heap. Made one per scan, each would sit between that scan's garbage, and a
    # journal of a hundred segments would leave the heap in pieces too small to start a mode.
    segs = j._segs
    for name_seq in names:
        segs.append([name_seq, 0, 0, 0, 0])
    last = 0
    for i in range(len(segs)):
        _scan(j, segs[i], i == len(segs) - 1, last)
        if segs[i][2]:
            last = segs[i][2]
    if names and names[-1] - 1 > last:
        last = names[-1] - 1
    j.last_seq = last if last > j.acked else j.acked
    j.id = _load_id(j)


def _load_ack(j):
    path = j._path(ACK_NAME)
    try:
        with open(path, "rb") as f:
            text = f.read(32)
    except OSError:
        return 0
    text = text.strip()
    if text.isdigit():
        return int(text)
    # An unreadable mark only means records get sent again; the host drops duplicates.
    j.ack_error = "bad ack mark %r" % (text,)
    return 0


def _note_bad(j, name_seq, start):
    j.bad_records += 1
    if len(j.bad_spots) < MAX_BAD_SPOTS:
        j.bad_spots.append((name_seq, start))


def _scan(j, seg, is_last, prev_seq):
    """Fill in seg ([name_seq, 0, 0, 0, 0]) from the segment file's intact records."""
    name_seq = seg[0]
    path = j._seg_path(name_seq)
    first = last = count = 0
    good_end = 0  # end of the last intact record
    pending_bad = []  # bad lines after good_end: mid-file unless nothing intact follows
    with open(path, "rb") as f:
        reader = LineReader(f)
        while True:
            item = reader.next()
            if item is None:
                break
            start, end, line = item
            seq = 0
            if line is not None:
                try:
                    seq = split_line(line)[0]
                except BadRecord:
                    seq = 0
            if seq <= prev_seq or seq < name_seq:
                pending_bad.append(start)
                continue
            for spot in pending_bad:
                _note_bad(j, name_seq, spot)
            pending_bad = []
            prev_seq = last = seq
            if not first:
                first = seq
            count += 1
            good_end = end
        size = reader.offset + len(reader.buf)
    if pending_bad:
        if is_last:
            j._cut(path, good_end)
            j.torn_bytes_cut += size - good_end
            size = good_end
        else:
            for spot in pending_bad:
                _note_bad(j, name_seq, spot)
    seg[1] = first
    seg[2] = last
    seg[3] = count
    seg[4] = size


def _load_id(j):
    """This journal's random tag, made with the journal: a wiped and recreated journal
    starts its seqs at 1 again under a new tag, so a host never mixes the two."""
    path = j._path(ID_NAME)
    try:
        with open(path, "rb") as f:
            tag = f.read(16).decode().strip()
        if len(tag) == 8 and all(c in "0123456789abcdef" for c in tag):
            return tag
    except (OSError, UnicodeError):
        pass
    tag = "".join("%02x" % b for b in os.urandom(4))
    replace_file(path, tag.encode())
    return tag
