"""Block devices for vfs.VfsLfs2 on the MicroPython unix port (the virtual device).

The Pico stores files in the board's own flash filesystem and never imports
this module. The virtual device keeps its files in an image file through
FileBlockDev, so the data survives restarts and a killed process behaves like
a power cut. unixbox/ram_blockdev.py holds an image in RAM (power-cut tests, image
installs): the running virtual device never loads it.

FileBlockDev speaks the extended block-device protocol that VfsLfs2 uses:
readblocks(block, buf, offset), writeblocks(block, buf, offset), ioctl(op, arg).
"""

import os

IOCTL_INIT = 1
IOCTL_DEINIT = 2
IOCTL_SYNC = 3
IOCTL_BLOCK_COUNT = 4
IOCTL_BLOCK_SIZE = 5
IOCTL_BLOCK_ERASE = 6

ERASED = 0xFF  # value of erased NOR flash
_CHUNK = 512  # bytes per write when filling a new image (keeps the heap small)


class StorageError(OSError):
    """An image that exists but cannot be mounted (never reformatted behind the user's back)."""


def _file_size(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return -1


class FileBlockDev:
    """Block device over an image file; the file's size fixes the geometry once it exists."""

    def __init__(self, path, block_size=4096, block_count=512, create=False):
        if block_size <= 0 or block_count <= 0:
            raise ValueError("block_size and block_count must be positive")
        self.path = path
        self.block_size = block_size
        if create:
            _write_erased(path, block_size * block_count)
        size = _file_size(path)
        if size < 0:
            raise StorageError("no image file at %s (create it first)" % path)
        if size == 0 or size % block_size:
            raise StorageError("image %s is %d bytes, not a whole number of %d-byte blocks"
                               % (path, size, block_size))
        # An existing image keeps its own size: guessing another one would misplace every block.
        self.block_count = size // block_size
        self._f = open(path, "r+b")

    def readblocks(self, block_num, buf, offset=0):
        self._f.seek(block_num * self.block_size + offset)
        self._f.readinto(buf)

    def writeblocks(self, block_num, buf, offset=0):
        self._f.seek(block_num * self.block_size + offset)
        self._f.write(buf)
        # Flush every write: a killed process must lose at most the write in flight.
        self._f.flush()

    def ioctl(self, op, arg):
        if op == IOCTL_BLOCK_COUNT:
            return self.block_count
        if op == IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == IOCTL_SYNC:
            self._f.flush()
            return 0
        if op == IOCTL_BLOCK_ERASE or op == IOCTL_INIT or op == IOCTL_DEINIT:
            # littlefs 2 does not rely on erased contents, so erase is a no-op here.
            return 0
        return None

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None


def _write_erased(path, size):
    chunk = bytes([ERASED]) * _CHUNK
    with open(path, "wb") as f:
        left = size
        while left > 0:
            n = _CHUNK if left >= _CHUNK else left
            f.write(chunk if n == _CHUNK else chunk[:n])
            left -= n


def _vfs():
    import vfs

    return vfs


def is_blank(dev):
    """True when every byte of the device is erased (0xFF) or every byte is zero: nothing to lose."""
    buf = bytearray(dev.block_size)
    dev.readblocks(0, buf, 0)
    fill = buf[0]
    if fill != ERASED and fill != 0:
        return False
    same = bytes([fill]) * dev.block_size
    for block in range(dev.block_count):
        dev.readblocks(block, buf, 0)
        if buf != same:
            return False
    return True


def mount_image(path, mountpoint="/flash", fresh=False, block_size=4096, block_count=512):
    """Mount a VfsLfs2 kept in the image file at path; returns the FileBlockDev (its .fs is the Vfs).

    fresh=True writes a new erased image and formats it. Otherwise a missing image
    is created and formatted, a blank one (all 0xFF or all 0x00) is formatted, and
    an image with data that fails to mount raises StorageError: it is never
    reformatted silently, so user records are never lost without a word.
    MicroPython only (vfs.VfsLfs2).
    """
    vfs = _vfs()
    if fresh or _file_size(path) < 0:
        dev = FileBlockDev(path, block_size, block_count, create=True)
        vfs.VfsLfs2.mkfs(dev)
    else:
        dev = FileBlockDev(path, block_size, block_count)
    try:
        fs = vfs.VfsLfs2(dev)
    except OSError as e:
        if not is_blank(dev):
            dev.close()
            raise StorageError("cannot mount %s (%r); it holds data, so it was not reformatted. "
                               "Move it aside to start a new image." % (path, e))
        vfs.VfsLfs2.mkfs(dev)
        fs = vfs.VfsLfs2(dev)
    vfs.mount(fs, mountpoint)
    dev.fs = fs
    dev.mountpoint = mountpoint
    return dev


def unmount_image(dev):
    """Undo mount_image: unmount and close the image file."""
    _vfs().umount(dev.mountpoint)
    dev.close()
