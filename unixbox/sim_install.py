"""The virtual device's image commands of unixbox/sim_launch.py, which imports this only for
them: a new image written (--install) or the device files replaced in an existing one
(--update), from the manifest on stdin, and an image checked (--check). An image that
cannot be used raises unixbox.blockdev.StorageError, bad arguments or a bad manifest a
ValueError (the launcher's two exit statuses).
"""

import os
import sys

from unixbox.blockdev import StorageError, mount_image, unmount_image

BLOCK_SIZE = 4096  # what unixbox.blockdev.mount_image expects; the file size gives the count
BLOCK_COUNT = 512  # 2 MB, about what a Pico leaves for its filesystem
_COPY_CHUNK = 1024
USAGE = ("usage: micropython -i sim_launch.py IMAGE [--board NAME] | "
         "--install|--update SRC_ROOT IMAGE | --check IMAGE")


def _makedirs(mountpoint, rel):
    # Every directory on the way to mountpoint/rel.
    built = mountpoint
    for part in rel.split("/"):
        built = built + "/" + part
        try:
            os.mkdir(built)
        except OSError:
            pass  # exists already


def _copy(src, dest):
    with open(src, "rb") as fin:
        with open(dest, "wb") as fout:
            while True:
                chunk = fin.read(_COPY_CHUNK)
                if not chunk:
                    break
                fout.write(chunk)


def _read_manifest():
    manifest = []
    for line in sys.stdin:
        line = line.strip()
        if line:
            fields = line.split(" ")
            if len(fields) != 2 or fields[1].startswith("/") or ".." in fields[1].split("/"):
                raise ValueError("bad manifest line %r" % line)
            manifest.append(fields)
    if not manifest:
        raise ValueError("empty manifest on stdin")
    return manifest


def _remove_tree(path):
    for entry in list(os.ilistdir(path)):
        child = path + "/" + entry[0]
        if entry[1] == 0x4000:  # a directory
            _remove_tree(child)
        else:
            os.remove(child)
    os.rmdir(path)


def _remove_installed(mountpoint, manifest):
    """Delete what an earlier install put at the top of the image (engine/, firmware/, ...),
    so files that left the source tree leave the image too."""
    tops = [dest.split("/", 1)[0] for _, dest in manifest]
    for entry in list(os.ilistdir(mountpoint)):
        if entry[0] in tops:
            path = mountpoint + "/" + entry[0]
            if entry[1] == 0x4000:
                _remove_tree(path)
            else:
                os.remove(path)


def _load_image(image):
    """A RamBlockDev holding the image file's blocks (StorageError when it cannot be read)."""
    from unixbox.ram_blockdev import RamBlockDev

    blocks = []
    try:
        with open(image, "rb") as f:
            while True:
                block = f.read(BLOCK_SIZE)
                if not block:
                    break
                if len(block) != BLOCK_SIZE:
                    raise StorageError("image %s is not a whole number of %d-byte blocks"
                                       % (image, BLOCK_SIZE))
                blocks.append(bytearray(block))
    except StorageError:
        raise
    except OSError as e:
        raise StorageError("cannot read %s: %s" % (image, e))
    if not blocks:
        raise StorageError("image %s is empty" % image)
    return RamBlockDev(BLOCK_SIZE, len(blocks), blocks)


def install(src_root, image, mountpoint, update=False):
    """Copy every file named by the manifest on stdin into a new image (update=False) or into
    the existing one (update=True: data/ and other files stay; the device packages and the
    root scripts are replaced as a whole).

    The image is built in RAM and written in one go (run with a heap of a few MB): the
    file device syncs every block write, which would make an install slow for nothing.
    """
    import vfs

    from unixbox.ram_blockdev import RamBlockDev

    manifest = _read_manifest()
    if update:
        dev = _load_image(image)
        try:
            fs = vfs.VfsLfs2(dev)
        except OSError as e:
            raise StorageError("cannot mount %s (%r); it was not changed" % (image, e))
    else:
        dev = RamBlockDev(BLOCK_SIZE, BLOCK_COUNT)
        vfs.VfsLfs2.mkfs(dev)
        fs = vfs.VfsLfs2(dev)
    vfs.mount(fs, mountpoint)
    try:
        if update:
            _remove_installed(mountpoint, manifest)
        for src, dest in manifest:
            parent = dest.rsplit("/", 1)[0] if "/" in dest else ""
            if parent:
                _makedirs(mountpoint, parent)
            _copy(src_root + "/" + src, mountpoint + "/" + dest)
    finally:
        vfs.umount(mountpoint)
    tmp = image + ".tmp"
    with open(tmp, "wb") as f:
        for block in dev.blocks:
            f.write(block)
    os.rename(tmp, image)
    print("%s %d files in %s" % ("updated" if update else "installed", len(manifest), image))


def check(image, mountpoint):
    """Mount and unmount the image: StorageError when it cannot be used."""
    try:
        dev = mount_image(image, mountpoint)
    except OSError as e:  # StorageError, or an image file that cannot be opened
        raise StorageError(str(e))
    try:
        os.stat(mountpoint + "/main.py")
    except OSError:
        raise StorageError("image %s has no main.py (start it with --fresh to reinstall)" % image)
    finally:
        unmount_image(dev)


def command(argv, mountpoint):
    """sim_launch.py's arguments for an image command (install, update, check); ValueError
    with the usage for any other."""
    if len(argv) == 4 and argv[1] in ("--install", "--update"):
        install(argv[2].rstrip("/"), argv[3], mountpoint, update=argv[1] == "--update")
    elif len(argv) == 3 and argv[1] == "--check":
        check(argv[2], mountpoint)
    else:
        raise ValueError(USAGE)
