"""The `files` and `manifest` ops: what `tablemate flash --dry-run` needs to plan a flash
while the firmware keeps running (no raw REPL, no restart).

files_page(after, budget): every file outside data/ (the journal and settings are not the
flash's business), as [path, size, sha256 hex], in path order, those after `after`, as
many as fit in budget bytes of reply (sent in pieces, like the records op's).
manifest_chunk(offset, budget): a piece of the manifest the last flash left
(`.manifest.json`), so the host can tell the files a flash put there from the user's own.
"""

import hashlib
import json
import os

SKIP_DIRS = ("data",)
MANIFEST = ".manifest.json"
_CHUNK = 512


def _walk(d, out):
    try:
        names = os.listdir(d or ".")
    except OSError:
        return
    for name in names:
        path = d + "/" + name if d else name
        if os.stat(path)[0] & 0x4000:  # S_IFDIR
            if path not in SKIP_DIRS:
                _walk(path, out)
        else:
            out.append(path)


def paths():
    out = []
    _walk("", out)
    out.sort()
    return out


def sha256_hex(path):
    h = hashlib.sha256()
    buf = bytearray(_CHUNK)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(buf if n == _CHUNK else buf[:n])
    return "".join("%02x" % b for b in h.digest())


def files_page(after, budget):
    """([entry JSON bytes, ...], more): [path, size, sha] of the files after `after`, each
    encoded on its own (the reply goes out in pieces), as many as fit in budget bytes."""
    items = []
    used = 0
    names = paths()
    for i in range(len(names)):
        path = names[i]
        if after and path <= after:
            continue
        item = json.dumps([path, os.stat(path)[6], sha256_hex(path)], separators=(",", ":")).encode()
        if items and used + len(item) + 1 > budget:
            return items, True
        items.append(item)
        used += len(item) + 1
    return items, False


def free_room():
    """(block size, bytes free) of the filesystem holding the current directory."""
    st = os.statvfs(".")
    return st[1], st[1] * st[4]


def manifest_chunk(offset, budget):
    """(text, size): up to budget bytes of the manifest from offset; ("", 0) without one."""
    try:
        size = os.stat(MANIFEST)[6]
    except OSError:
        return "", 0
    with open(MANIFEST, "rb") as f:
        f.seek(offset)
        return f.read(budget).decode(), size
