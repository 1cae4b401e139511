"""`tablemate sync [--port PATH] [--db FILE]`: copy the device's new journal records into the store.

Page by page from this database's own cursor for that device (the highest seq it
stores): each record's CRC is checked, each page is committed to SQLite in one
transaction, and only after that commit is the device told ack(seq). An ack deletes
nothing on the box: it only marks what a host holds, so the box may prune those records
later, oldest first, when it needs the room. A second database that is behind still
gets every record the box holds. When the box pruned records this database never
received, the page skips seqs: the skipped seqs are stored as a gap in the page's own
transaction, and sync says so in one line; their games show as incomplete.
A cut at any point loses nothing (the device keeps what was not acked) and duplicates
nothing (records are unique per device and seq): the next sync carries on from the
cursor and sends the ack the device missed. A Ctrl-C says up to which seq the records are
stored (exit status 130). A progress bar on stderr shows the records received when
stderr is a terminal. The database's folder must exist (a mistyped --db creates nothing).
"""

import os
import sys
import time

from host import db as dbmod
from host import paths
from host.cli import CliError, Interrupted
from host.port_select import add_port_argument, resolve_port
from host.progress import Progress
from host.serial_client import DeviceClient, DeviceError, LinkError
from host.words import count

# Records asked for per page. The device also caps a page by its reply size (about 4 KB,
# some ten game records); asking for many more only costs its heap.
PAGE_LIMIT = 10


def usb_serial_number(port):
    """The USB serial number behind a port (a Pico reports its unique board id), or None."""
    try:
        from serial.tools import list_ports

        real = os.path.realpath(port)
        for p in list_ports.comports():
            if p.device in (port, real) and p.serial_number:
                return p.serial_number
    except (ImportError, OSError):
        pass
    return None


def device_identity(dev, warn=None):
    """(device id, the hello fields worth keeping, journal stats) of a connected device.

    The id is the one the firmware reports (hello or status "device_id"); a firmware that
    reports none is known by its USB serial number, else by its board name (with a warning:
    two such boxes would share one id).
    """
    info = dict(dev.info or {})
    status = dev.status()
    app = status.get("status") if isinstance(status.get("status"), dict) else {}
    device_id = info.get("device_id") or app.get("device_id")
    if not isinstance(device_id, str) or not device_id:
        serial_number = usb_serial_number(dev.port)
        if serial_number:
            device_id = "usb-" + serial_number
        else:
            device_id = str(info.get("board") or app.get("board") or "box")
            if warn:
                warn("the box on %s reports no device id: its records are kept as device %r"
                     % (dev.port, device_id))
    keep = {k: info.get(k) for k in ("board", "firmware", "micropython", "proto") if k in info}
    return device_id, keep, status.get("journal") or app.get("journal") or {}


class SyncResult:
    def __init__(self, device_id):
        self.device_id = device_id
        self.added = 0
        self.received = 0
        self.pages = 0
        self.smaller_pages = 0  # times the device ran short of memory and got asked for less
        self.cursor = 0
        self.acked = None
        self.seconds = 0.0
        self.gaps = []  # (first_seq, last_seq) the box no longer held


class SyncInterrupted(Exception):
    """Ctrl-C during a sync: every page committed before it stays stored."""

    def __init__(self, device_id, stored_seq, added):
        Exception.__init__(self, device_id)
        self.device_id = device_id
        self.stored_seq = stored_seq  # the store's cursor for the device: records up to it are kept
        self.added = added  # of them, stored by this sync


def sync_device(dev, store, progress=None, page_limit=PAGE_LIMIT, warn=None):
    """Pull every record after the store's cursor; returns a SyncResult. LinkError/DatabaseError
    pass up; Ctrl-C raises SyncInterrupted once the device is known."""
    started = time.monotonic()
    device_id, info, journal = device_identity(dev, warn)
    result = SyncResult(device_id)
    held = store.count_records(device_id)
    try:
        return _pull(dev, store, result, info, journal, progress, page_limit, started)
    except KeyboardInterrupt:
        if store.conn.in_transaction:  # cut between a page's last write and its commit
            store.conn.execute("ROLLBACK")
        raise SyncInterrupted(device_id, store.cursor(device_id), store.count_records(device_id) - held) \
            from None


def _pull(dev, store, result, info, journal, progress, page_limit, started):
    device_id = result.device_id
    # The box has no clock of its own: each sync gives it the time, so the records it
    # writes from now on carry wall time (older ones keep t = null).
    dev.time_set()
    store.register_device(device_id, info)
    cursor = store.cursor(device_id)
    last_seq = journal.get("last_seq")
    if isinstance(last_seq, int) and last_seq < cursor:
        raise CliError("device %s's journal ends at seq %d but %s already holds up to seq %d for it: "
                       "its journal was reset; nothing synced" % (device_id, last_seq, store.path, cursor), 1)
    total = max(0, last_seq - cursor) if isinstance(last_seq, int) else None
    acked = journal.get("acked")
    limit = page_limit
    while True:
        try:
            page = dev.records(cursor, limit)  # raises CorruptRecord on a CRC mismatch
        except DeviceError as e:
            if "MemoryError" not in e.msg or limit == 1:
                raise
            limit = max(1, limit // 2)  # the device's heap cannot hold that page now: ask for less
            result.smaller_pages += 1
            continue
        records = page["records"]
        acked = page.get("acked", acked)
        if not records:
            break
        expected = cursor
        gaps = []
        for rec in records:
            if not isinstance(rec.get("seq"), int) or rec["seq"] <= expected:
                raise CliError("device sent record seq %r after seq %d: out of order, page dropped"
                               % (rec.get("seq"), expected), 1)
            if rec["seq"] > expected + 1:
                gaps.append((expected + 1, rec["seq"] - 1))  # pruned (or corrupt) on the box
            expected = rec["seq"]
        result.added += store.add_records(device_id, records, info, gaps)  # one transaction
        result.gaps.extend(gaps)
        result.received += len(records)
        result.pages += 1
        cursor = records[-1]["seq"]
        acked = dev.ack(cursor)  # only once the page is safely committed
        if progress:
            progress.count("sync %s: records" % device_id, result.received, total or None)
        if not page.get("more"):
            break
    if cursor and (not isinstance(acked, int) or acked < cursor):
        # the last pages, or a previous sync that was cut between its commit and its ack
        acked = dev.ack(cursor)
    result.cursor = cursor
    result.acked = acked
    result.seconds = time.monotonic() - started
    return result


def _warn(message):
    sys.stderr.write("tablemate: warning: %s\n" % message)


def add_parser(subparsers):
    p = subparsers.add_parser("sync", help="copy the box's new game records into the local store",
                              description=__doc__.split("\n\n")[0])
    add_port_argument(p)
    dbmod.add_db_argument(p)
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for each reply (default 3)")
    p.set_defaults(func=run)


def run(args):
    db_path = dbmod.db_path_from_args(args)
    if not args.db:
        paths.ensure_parent(db_path)  # the default folder is ours to create; a --db folder is not
    try:
        dbmod.check_database(db_path)  # refuse a bad store before touching the device
    except dbmod.DatabaseError as e:
        raise CliError(str(e), 1)
    port = resolve_port(args.port)
    progress = Progress()
    try:
        with DeviceClient(port, timeout=args.timeout) as dev:
            with dbmod.open_db(db_path, create=True) as store:
                result = sync_device(dev, store, progress, warn=_warn)
                games = len(store.games())
    except SyncInterrupted as e:
        if e.stored_seq:
            kept = "records up to seq %d from %s are stored in %s (%s by this sync)" % (
                e.stored_seq, e.device_id, db_path, count(e.added, "new record"))
        else:
            kept = "no record from %s is stored yet" % e.device_id
        raise Interrupted("sync interrupted: %s; the box keeps every record: run `tablemate sync` again "
                          "for the rest" % kept)
    except KeyboardInterrupt:
        raise Interrupted("sync interrupted before any record was asked for; nothing was stored: run "
                          "`tablemate sync` again")
    except LinkError as e:
        raise CliError(str(e), 1)
    except dbmod.DatabaseError as e:
        raise CliError(str(e), 1)
    finally:
        progress.done()
    rate = result.received / result.seconds if result.seconds > 0 else 0.0
    if result.gaps:
        missing = sum(b - a + 1 for a, b in result.gaps)
        print("missing on %s: seqs %s (%s) were pruned on the box before %s received them;"
              " kept as a gap, their games show as incomplete"
              % (result.device_id, dbmod.seq_ranges_text(result.gaps), count(missing, "record"), db_path))
    if result.added:
        print("synced %s from %s in %.1f s (%.0f records/s); %s in %s"
              % (count(result.added, "new record"), result.device_id, result.seconds, rate,
                 count(games, "game"), db_path))
    else:
        print("nothing new on %s (up to seq %d); %s in %s"
              % (result.device_id, result.cursor, count(games, "game"), db_path))
    return 0
