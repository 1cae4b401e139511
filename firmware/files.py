"""The `files` and `manifest` ops: what `tablemate flash --dry-run` needs to plan a flash
while the firmware keeps running (no raw REPL, no restart).

files_page(after, budget): every file outside data/ (the journal and settings are not the
flash's business), as [path, size, sha256 hex], in path order, those after `after`, as
many as fit in budget bytes of reply. manifest_chunk(offset, budget): a piece of the
manifest the last flash left (`.manifest.json`), so the host can tell the files a flash
put there from the user's own.
"""

import hashlib
import os

SKIP_DIRS = ("data",)
MANIFEST = ".manifest.json"
_CHUNK = 512


def _walk(d, out):
    try:
        entries = list(os.ilistdir(d) if d else os.ilistdir())
    except OSError:
        return
    for e in entries:
        path = d + "/" + e[0] if d else e[0]
        if e[1] & 0x4000:
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
    """([[path, size, sha], ...], more): the files after `after` that fit in budget bytes."""
    items = []
    used = 0
    names = paths()
    for i in range(len(names)):
        path = names[i]
        if after and path <= after:
            continue
        cost = len(path) + 90  # the path plus a size, a hash and the JSON around them
        if items and used + cost > budget:
            return items, True
        items.append([path, os.stat(path)[6], sha256_hex(path)])
        used += cost
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
