"""Bootstrap of the virtual device; runs on the host under the MicroPython unix port.

    micropython -i unixbox/sim_launch.py IMAGE [--board NAME]
        Mount the littlefs2 image at /flash, make it the current directory and the only
        place imports come from (besides MicroPython's frozen modules), then run boot.py
        and main.py from the image: the firmware that runs is the one in the image, so
        `mpremote cp` changes what the next start runs. Ctrl-C (or a 0x03 byte on the
        serial line) stops the firmware and leaves the REPL (-i) with the image mounted.
    micropython -X heapsize=8m unixbox/sim_launch.py --install SRC_ROOT IMAGE  < manifest
        Write a new image, format it and copy in the device files; the manifest on stdin
        has one "SRC_REL DEVICE_PATH" line per file (host/device_files.py makes it).
    micropython -X heapsize=8m unixbox/sim_launch.py --update SRC_ROOT IMAGE  < manifest
        The same into the existing image: the installed packages and root scripts are
        replaced, data/ and everything else stays. A corrupt image is left untouched.
    micropython unixbox/sim_launch.py --check IMAGE
        Mount and unmount the image; exit status 3 with a message when it cannot be used.

The image's commands (install, update, check) and the usage message live in
unixbox/sim_install.py: the running firmware shares this process's heap and its table of
interned names, and compiles none of them. This file is part of unixbox/, which only a
unix-port box holds (host/device_files.py).
"""

import os
import sys

MOUNTPOINT = "/flash"
BOARD_ENV = "TABLEMATE_BOARD"
EXIT_BAD_IMAGE = 3
EXIT_USAGE = 2


def _source_root():
    # The directory holding firmware/ (this file's parent's parent), absolute.
    path = __file__
    if not path.startswith("/"):
        path = os.getcwd() + "/" + path
    parts = path.split("/")
    return "/".join(parts[:-2]) or "/"


def _fail(status, message):
    sys.stderr.write("sim_launch: %s\n" % message)
    sys.exit(status)


def _mount(image):
    from unixbox.blockdev import StorageError, mount_image

    try:
        return mount_image(image, MOUNTPOINT)
    except (StorageError, OSError) as e:
        _fail(EXIT_BAD_IMAGE, str(e))


def _forget_source_modules():
    # Modules loaded from the source tree (unixbox.blockdev) must not shadow the image's.
    for name in list(sys.modules):
        if name.split(".")[0] in ("firmware", "unixbox"):
            del sys.modules[name]


def _raw_stdin():
    # A pty would echo the protocol back and cook its line endings; the REPL that follows
    # sets its own mode. Over a pipe there is nothing to do.
    try:
        import termios

        termios.setraw(0)
    except (ImportError, OSError):
        pass


def run(image, board):
    from unixbox.blockdev import unmount_image  # kept: the image's copy would cost heap to load

    dev = _mount(image)
    os.chdir(MOUNTPOINT)
    sys.path[:] = [MOUNTPOINT, ".frozen", MOUNTPOINT + "/lib"]
    _forget_source_modules()
    if board:
        os.putenv(BOARD_ENV, board)
    _raw_stdin()
    try:
        import boot  # noqa: F401
        import main  # noqa: F401
    except KeyboardInterrupt:
        print("\r\nfirmware stopped: MicroPython REPL, image mounted at %s\r" % MOUNTPOINT)
        return dev
    except Exception as e:  # a firmware crash leaves the REPL for a look around
        sys.print_exception(e)  # on the serial line, for whoever is connected
        sys.print_exception(e, sys.stderr)  # and in the host's log
        return dev
    # A normal return is a quit: leave the image consistent for the next start.
    os.chdir("/")
    unmount_image(dev)
    return None


def main(argv):
    sys.path.insert(0, _source_root())
    if len(argv) in (2, 4) and argv[1][:2] != "--" and (len(argv) == 2 or argv[2] == "--board"):
        return run(argv[1], argv[3] if len(argv) == 4 else None)
    from unixbox.blockdev import StorageError
    from unixbox.sim_install import command

    try:
        command(argv, MOUNTPOINT)
    except StorageError as e:
        _fail(EXIT_BAD_IMAGE, str(e))
    except ValueError as e:  # the usage, or a manifest it cannot use
        _fail(EXIT_USAGE, str(e))
    return None


flash = main(sys.argv)  # the mounted image's block device stays reachable from the REPL
