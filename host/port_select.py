"""Which serial port a command talks to when --port is not given.

Order: --port, then the TABLEMATE_PORT environment variable (a path that does not exist
is an error that names the variable), then the one Raspberry Pi board (USB vendor id
0x2E8A) that is plugged in. None or several boards is a clear
error that lists what was found; the virtual device is always named explicitly (its
path is the `serial:` line `tablemate sim` prints).
"""

import os

RPI_VID = 0x2E8A  # Raspberry Pi: Pico, Pico W, Pico 2 running MicroPython
PORT_ENV = "TABLEMATE_PORT"


def add_port_argument(parser):
    parser.add_argument("--port", metavar="PATH",
                        help="serial port of the box or the virtual device (default: $%s, else the one "
                             "Raspberry Pi board plugged in)" % PORT_ENV)


def find_boards():
    """[(device path, description)] of the Raspberry Pi boards on USB."""
    from serial.tools import list_ports

    found = []
    for p in list_ports.comports():
        if p.vid == RPI_VID:
            found.append((p.device, p.description or p.product or "Raspberry Pi board"))
    return sorted(found)


def resolve_port(port=None, boards=None):
    """The port to use; CliError (status 2) when none or several boards are found."""
    from host.cli import CliError

    if port:
        return port
    env = os.environ.get(PORT_ENV)
    if env:
        if "://" not in env and not os.path.exists(env):  # pyserial URLs (socket://...) name no file
            raise CliError("%s=%s: no such port; set it to the box's port (the virtual box's is the "
                           "`serial:` path `tablemate sim` prints), unset it, or pass --port"
                           % (PORT_ENV, env))
        return env
    boards = find_boards() if boards is None else boards
    if len(boards) == 1:
        return boards[0][0]
    if not boards:
        raise CliError("no Raspberry Pi board found on USB (vendor id 2E8A): plug one in or pass --port PATH "
                       "(for the virtual device, the path `tablemate sim` prints)")
    listing = ", ".join("%s (%s)" % b for b in boards)
    raise CliError("%d Raspberry Pi boards found: %s; choose one with --port" % (len(boards), listing))
