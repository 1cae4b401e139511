"""A block device in RAM for vfs.VfsLfs2 on the MicroPython unix port, with a power-cut
capture hook: the power-cut tests mount the images it captures, and an install builds a
new image in it before writing the file. The running virtual device never loads it (its
image is a file: unixbox/blockdev.py).
"""

from unixbox.blockdev import (
    ERASED,
    IOCTL_BLOCK_COUNT,
    IOCTL_BLOCK_ERASE,
    IOCTL_BLOCK_SIZE,
    IOCTL_DEINIT,
    IOCTL_INIT,
    IOCTL_SYNC,
)


class RamBlockDev:
    """Block device in RAM, with a power-cut capture hook.

    The image is a list of one bytearray per block rather than one long bytearray: a
    small, long-running heap rarely has a large contiguous hole, but always has room
    for block-sized pieces. data may be such a list (used as is, not copied) or a
    bytes-like image of block_size * block_count bytes (copied into blocks).

    Every writeblocks and every erase is one event (self.events counts them).
    arm_cut(n, torn, into) asks for a copy of the image as it stood right after event
    n; with torn >= 0 only the first `torn` bytes of event n reach that copy (a write
    interrupted mid-way). The copy lands in self.cut_image (a block list); the device
    itself keeps working normally so the interrupted operation can run to its end.
    """

    def __init__(self, block_size, block_count, data=None):
        self.block_size = block_size
        self.block_count = block_count
        self._erased = bytes([ERASED]) * block_size
        if isinstance(data, list):
            if len(data) != block_count:
                raise ValueError("data has %d blocks, expected %d" % (len(data), block_count))
            for b in data:
                if len(b) != block_size:
                    raise ValueError("every block must be %d bytes" % block_size)
            self.blocks = data
        else:
            if data is not None and len(data) != block_size * block_count:
                raise ValueError("data is %d bytes, expected %d" % (len(data), block_size * block_count))
            self.blocks = new_blocks(block_size, block_count)
            if data is not None:
                mv = memoryview(data)
                for i in range(block_count):
                    self.blocks[i][:] = mv[i * block_size:(i + 1) * block_size]
        self.events = 0
        self.writes = 0
        self.erases = 0
        self.cut_at = 0
        self.cut_torn = -1
        self.cut_image = None
        self._cut_into = None

    def arm_cut(self, n, torn=-1, into=None):
        """Capture the image after event n (counted from now) into `into` or a new block list.

        Passing a preallocated block list (new_blocks) keeps repeated trials from
        allocating images over and over.
        """
        if n < 1:
            raise ValueError("cut point counts events from 1")
        if into is not None and len(into) != self.block_count:
            raise ValueError("capture needs %d blocks" % self.block_count)
        self.events = 0
        self.cut_at = n
        self.cut_torn = torn
        self.cut_image = None
        self._cut_into = into

    def snapshot(self, into=None):
        """A copy of the image as a block list (into: a block list to reuse)."""
        if into is None:
            into = new_blocks(self.block_size, self.block_count)
        copy_blocks(self.blocks, into)
        return into

    def restore(self, blocks):
        """Overwrite the whole image with a block list (a snapshot)."""
        copy_blocks(blocks, self.blocks)

    def _spans(self, block_num, offset, n):
        """(block, position in it, position in the buffer, length) for n bytes from offset."""
        bs = self.block_size
        done = 0
        while done < n:
            block = block_num + (offset + done) // bs
            pos = (offset + done) % bs
            step = bs - pos if bs - pos < n - done else n - done
            yield block, pos, done, step
            done += step

    def readblocks(self, block_num, buf, offset=0):
        mv = memoryview(buf)
        for block, pos, done, step in self._spans(block_num, offset, len(buf)):
            mv[done:done + step] = memoryview(self.blocks[block])[pos:pos + step]

    def writeblocks(self, block_num, buf, offset=0):
        self.writes += 1
        self._apply(block_num, offset, buf)

    def ioctl(self, op, arg):
        if op == IOCTL_BLOCK_COUNT:
            return self.block_count
        if op == IOCTL_BLOCK_SIZE:
            return self.block_size
        if op == IOCTL_BLOCK_ERASE:
            self.erases += 1
            self._apply(arg, 0, None)
            return 0
        if op == IOCTL_INIT or op == IOCTL_DEINIT or op == IOCTL_SYNC:
            return 0
        return None

    def _apply(self, block_num, offset, buf):
        # buf None means erase one block to ERASED.
        self.events += 1
        if buf is None:
            buf = self._erased
        n = len(buf)
        if self.events == self.cut_at:
            part = n
            if 0 <= self.cut_torn < n:
                part = self.cut_torn
            self._store(block_num, offset, memoryview(buf)[:part])
            self.cut_image = self.snapshot(self._cut_into)
            self._store(block_num, offset + part, memoryview(buf)[part:])
        else:
            self._store(block_num, offset, buf)

    def _store(self, block_num, offset, buf):
        src = memoryview(buf)
        for block, pos, done, step in self._spans(block_num, offset, len(buf)):
            memoryview(self.blocks[block])[pos:pos + step] = src[done:done + step]


def new_blocks(block_size, block_count):
    """An erased image as a list of block bytearrays."""
    erased = bytes([ERASED]) * block_size
    return [bytearray(erased) for _ in range(block_count)]


def copy_blocks(src, dst):
    for i in range(len(src)):
        dst[i][:] = src[i]
