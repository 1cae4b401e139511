"""The emulated Pico's 2 MB flash image with the firmware already on its filesystem.

    micropython -X heapsize=8m rp2box/make_fs.py TREE IMAGE

TREE is a folder laid out as the box's filesystem (host/rp2box.py fills it with what
`tablemate flash` would copy). Runs under the MicroPython unix port, whose vfs.VfsLfs2 is
the same littlefs the rp2 port mounts: the filesystem takes the flash's last 1408 KB
(352 blocks of 4 KB at 0x0A0000, MICROPY_HW_FLASH_STORAGE_BYTES of the RPI_PICO board),
formatted with progsize=256 as rp2's own _boot.py formats it. The program area before it
stays erased; the harness writes the UF2 there at every start.
"""

import os
import sys

FLASH_SIZE = 2 * 1024 * 1024
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
FS_OFFSET = FLASH_SIZE - BLOCK_SIZE * BLOCK_COUNT
MOUNTPOINT = "/fs"


def _copy_tree(src, dest):
    for name, kind, *_ in os.ilistdir(src):
        if kind == 0x4000:
            os.mkdir(dest + "/" + name)
            _copy_tree(src + "/" + name, dest + "/" + name)
        else:
            with open(src + "/" + name, "rb") as f:
                data = f.read()
            with open(dest + "/" + name, "wb") as f:
                f.write(data)


def main(tree, image):
    import vfs

    sys.path.insert(0, __file__.rsplit("/", 2)[0] if "/" in __file__ else ".")
    sys.path.insert(0, ".")
    from unixbox.ram_blockdev import RamBlockDev

    dev = RamBlockDev(BLOCK_SIZE, BLOCK_COUNT)
    vfs.VfsLfs2.mkfs(dev, progsize=256)
    vfs.mount(vfs.VfsLfs2(dev, progsize=256), MOUNTPOINT)
    try:
        _copy_tree(tree, MOUNTPOINT)
    finally:
        vfs.umount(MOUNTPOINT)
    tmp = image + ".tmp"
    with open(tmp, "wb") as f:
        erased = b"\xff" * BLOCK_SIZE
        for _ in range(FS_OFFSET // BLOCK_SIZE):
            f.write(erased)
        for block in dev.blocks:
            f.write(block)
    os.rename(tmp, image)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.stderr.write("usage: micropython rp2box/make_fs.py TREE IMAGE\n")
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
