"""The host's game store: SQLite holding every synced record, the devices and the games.

records  one row per journal record, UNIQUE (device_id, seq): the source of truth.
games    one row per game_start, kept up to date from its action/game_end records
         in the same transaction that stores them.
devices  one row per device id (from the device's hello/status).
gaps     seqs of a device this database never received because the box had pruned them
         (or lost them to corruption) before this database synced: their games are
         incomplete, never a mismatch.
meta     application marker; schema_version: the schema this file is at.

Opening never changes a file that is not ours to change: a file that is not SQLite,
an SQLite file of another application, a corrupt one, or one written by a newer
tablemate is inspected read-only and refused with a typed DatabaseError.
"""

import json
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

from firmware.record import canonical_json, record_crc
from host import game_ids
from host.paths import default_db_path

SCHEMA_VERSION = 2
APPLICATION_ID = 0x546D6462  # "Tmdb": PRAGMA application_id marks the file as ours
SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_S = 5.0

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at INTEGER NOT NULL);
CREATE TABLE devices (
    device_id  TEXT PRIMARY KEY,
    info       TEXT NOT NULL,          -- JSON: the hello/status fields
    first_seen INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL
);
CREATE TABLE records (
    id        INTEGER PRIMARY KEY,
    device_id TEXT NOT NULL REFERENCES devices(device_id),
    seq       INTEGER NOT NULL,
    kind      TEXT NOT NULL,
    t         INTEGER,
    data      TEXT NOT NULL,           -- canonical JSON (firmware.record.canonical_json)
    crc       INTEGER NOT NULL,        -- record_crc of the record, as the device computed it
    synced_at INTEGER NOT NULL,
    UNIQUE (device_id, seq)
);
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    device_id  TEXT NOT NULL REFERENCES devices(device_id),
    start_seq  INTEGER NOT NULL,
    name       TEXT,
    engine     TEXT,
    seed       INTEGER,
    players    TEXT NOT NULL,          -- JSON list of {"name", "colour"}
    options    TEXT NOT NULL,          -- JSON object
    start_t    INTEGER,
    actions    INTEGER NOT NULL DEFAULT 0,
    last_seq   INTEGER NOT NULL,
    end_seq    INTEGER,
    end_t      INTEGER,
    scores     TEXT,                   -- JSON list, from game_end
    winners    TEXT,                   -- JSON list, from game_end
    reason     TEXT,
    UNIQUE (device_id, start_seq)
);
"""

# Added by schema 2 (a schema 1 file gets it when opened).
_GAPS = """
CREATE TABLE gaps (
    device_id TEXT NOT NULL REFERENCES devices(device_id),
    first_seq INTEGER NOT NULL,
    last_seq  INTEGER NOT NULL,
    found_at  INTEGER NOT NULL,
    UNIQUE (device_id, first_seq)
)
"""


class DatabaseError(Exception):
    """A database the tools cannot use; the message names the file and what is wrong."""

    def __init__(self, path, message):
        Exception.__init__(self, "%s: %s" % (path, message))
        self.path = str(path)


class NoDatabase(DatabaseError):
    pass


class NoFolder(DatabaseError):
    """--db names a file in a folder that does not exist (nothing is created)."""


class NotTablemateDatabase(DatabaseError):
    pass


class CorruptDatabase(DatabaseError):
    pass


class NewerSchema(DatabaseError):
    pass


class DatabaseBusy(DatabaseError):
    pass


class RecordConflict(DatabaseError):
    """The device sent a record whose seq is stored with different content."""


class UnknownGame(LookupError):
    pass


def _dumps(value):
    return canonical_json(value).decode("utf-8")


def _loads(text):
    return None if text is None else json.loads(text)


def _inspect(path):
    """Read-only look at an existing file: 'new' (empty, ours to initialise) or 'ours'.

    Raises the matching DatabaseError for anything else, without writing a byte.
    """
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except IsADirectoryError:
        raise NotTablemateDatabase(path, "is a directory, not a database file")
    except OSError as e:
        raise DatabaseError(path, "cannot read: %s" % (e.strerror or e))
    if not head:
        return "new"
    if head != SQLITE_HEADER:
        raise NotTablemateDatabase(path, "not a tablemate database (not an SQLite file)")
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as e:
        raise CorruptDatabase(path, "cannot open: %s" % e)
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id != APPLICATION_ID:
            if app_id == 0 and not tables:
                return "new"
            raise NotTablemateDatabase(path, "an SQLite database of another application, not tablemate's")
        if "schema_version" not in tables:
            raise CorruptDatabase(path, "tablemate database without a schema_version table")
        row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        version = row[0] if row else None
        if not isinstance(version, int):
            raise CorruptDatabase(path, "tablemate database without a schema version")
        if version > SCHEMA_VERSION:
            raise NewerSchema(path, "written by a newer tablemate (schema %d, this version reads up to %d);"
                              " upgrade tablemate" % (version, SCHEMA_VERSION))
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            detail = "; ".join(line.strip() for r in check[:3] for line in str(r[0]).splitlines()
                               if line.strip() and not line.startswith("***"))
            raise CorruptDatabase(path, "corrupt database (%s)" % detail)
        return "ours"
    except sqlite3.OperationalError as e:
        if "locked" in str(e):
            raise DatabaseBusy(path, "database is in use by another program (locked)")
        if "readonly" in str(e):
            # A hot journal from an interrupted commit: only a read-write open rolls it back.
            return "recover"
        raise CorruptDatabase(path, "corrupt database (%s)" % e)
    except sqlite3.DatabaseError as e:
        raise CorruptDatabase(path, "corrupt database (%s)" % e)
    finally:
        conn.close()


def check_database(path, must_exist=False):
    """Verify path can be used without opening it for writing; raises DatabaseError."""
    path = Path(path)
    if not path.parent.is_dir():
        raise NoFolder(path, "the folder %s does not exist: nothing was created" % path.parent)
    if not path.exists():
        if must_exist:
            raise NoDatabase(path, "no database here yet (run `tablemate sync` first or pass --db)")
        return "missing"
    return _inspect(path)


def open_db(path, create=True):
    """Open (and if needed create) the store at path; raises DatabaseError subclasses.
    The folder must exist: a mistyped path creates nothing."""
    path = Path(path)
    state = check_database(path, must_exist=not create)
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as e:
        raise DatabaseError(path, "cannot open: %s" % e)
    store = Store(path, conn)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        if state in ("missing", "new"):
            store._create_schema()
        elif state == "ours":
            store._upgrade_schema()
        elif state == "recover":
            # The first read of a read-write connection rolls the interrupted commit back.
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            conn.close()
            if _inspect(path) != "ours":
                raise CorruptDatabase(path, "could not recover from an interrupted write")
            return open_db(path, create)
    except sqlite3.OperationalError as e:
        conn.close()
        if "locked" in str(e):
            raise DatabaseBusy(path, "database is in use by another program (locked)")
        raise DatabaseError(path, str(e))
    return store


class Store:
    def __init__(self, path, conn):
        self.path = Path(path)
        self.conn = conn

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextmanager
    def transaction(self):
        """One atomic write: all of it is committed or none of it."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if "locked" in str(e):
                raise DatabaseBusy(self.path, "database is in use by another program (locked)")
            raise
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def _create_schema(self):
        with self.transaction() as c:
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    c.execute(stmt)
            c.execute("PRAGMA application_id = %d" % APPLICATION_ID)
            c.execute("INSERT INTO meta VALUES ('application', 'tablemate')")
            c.execute(_GAPS)
            c.execute("INSERT INTO schema_version VALUES (?, ?)", (SCHEMA_VERSION, int(time.time())))

    def _upgrade_schema(self):
        """A schema 1 file gets the gaps table (nothing else changed)."""
        version = self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
        if version >= SCHEMA_VERSION:
            return
        with self.transaction() as c:
            c.execute(_GAPS)
            c.execute("INSERT INTO schema_version VALUES (?, ?)", (SCHEMA_VERSION, int(time.time())))

    # -- devices -----------------------------------------------------------
    def _touch_device(self, c, device_id, info):
        now = int(time.time())
        c.execute(
            "INSERT INTO devices (device_id, info, first_seen, last_seen) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (device_id) DO UPDATE SET info = excluded.info, last_seen = excluded.last_seen",
            (device_id, json.dumps(info or {}, sort_keys=True), now, now),
        )

    def register_device(self, device_id, info=None):
        """Record a device (once); a known device is left as it is."""
        if self.device(device_id) is None:
            with self.transaction() as c:
                self._touch_device(c, device_id, info)

    def device(self, device_id):
        row = self.conn.execute(
            "SELECT device_id, info, first_seen, last_seen FROM devices WHERE device_id = ?", (device_id,)
        ).fetchone()
        if row is None:
            return None
        return {"device_id": row[0], "info": json.loads(row[1]), "first_seen": row[2], "last_seen": row[3]}

    def devices(self):
        ids = [r[0] for r in self.conn.execute("SELECT device_id FROM devices ORDER BY device_id")]
        return [self.device(i) for i in ids]

    # -- records -----------------------------------------------------------
    def cursor(self, device_id):
        """The highest seq stored for the device (0 when none): where the next sync starts."""
        row = self.conn.execute("SELECT MAX(seq) FROM records WHERE device_id = ?", (device_id,)).fetchone()
        return row[0] or 0

    def add_records(self, device_id, records, device_info=None, gaps=()):
        """Store one page of records (dicts seq/kind/t/data) in ONE transaction; returns how many were new.

        A record already stored with the same content is skipped (so a repeated page
        adds nothing); the same seq with different content raises RecordConflict and
        the whole page is rolled back. gaps: (first_seq, last_seq) the page skipped over,
        stored in the same transaction (a gap is never passed by the cursor unrecorded).
        """
        added = 0
        now = int(time.time())
        with self.transaction() as c:
            self._touch_device(c, device_id, device_info)
            for first, last in gaps:
                c.execute("INSERT OR IGNORE INTO gaps (device_id, first_seq, last_seq, found_at)"
                          " VALUES (?, ?, ?, ?)", (device_id, first, last, now))
            for rec in records:
                seq, kind, t, data = rec["seq"], rec["kind"], rec["t"], rec["data"]
                crc = record_crc(seq, kind, data, t)
                text = _dumps(data)
                old = c.execute(
                    "SELECT kind, t, data FROM records WHERE device_id = ? AND seq = ?", (device_id, seq)
                ).fetchone()
                if old is not None:
                    if old != (kind, t, text):
                        raise RecordConflict(self.path, "device %s record %d differs from the stored copy"
                                             % (device_id, seq))
                    continue
                c.execute(
                    "INSERT INTO records (device_id, seq, kind, t, data, crc, synced_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (device_id, seq, kind, t, text, crc, now),
                )
                self._derive_game(c, device_id, seq, kind, t, data)
                added += 1
        return added

    def _derive_game(self, c, device_id, seq, kind, t, data):
        if kind == "game_start":
            players = data.get("players") or []
            c.execute(
                "INSERT OR IGNORE INTO games (device_id, start_seq, name, engine, seed, players, options,"
                " start_t, last_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (device_id, seq, data.get("name"), data.get("engine"), data.get("seed"),
                 _dumps(players), _dumps(data.get("options") or {}), t, seq),
            )
        elif kind == "action" and isinstance(data.get("game"), int):
            self._game_row(c, device_id, data["game"], seq)
            c.execute(
                "UPDATE games SET actions = actions + 1, last_seq = MAX(last_seq, ?)"
                " WHERE device_id = ? AND start_seq = ?",
                (seq, device_id, data["game"]),
            )
        elif kind == "game_end" and isinstance(data.get("game"), int):
            self._game_row(c, device_id, data["game"], seq)
            c.execute(
                "UPDATE games SET end_seq = ?, end_t = ?, scores = ?, winners = ?, reason = ?,"
                " last_seq = MAX(last_seq, ?) WHERE device_id = ? AND start_seq = ?",
                (seq, t, _dumps(data.get("scores")), _dumps(data.get("winners")), data.get("reason"),
                 seq, device_id, data["game"]),
            )

    def _game_row(self, c, device_id, start_seq, seq):
        """A row for a game whose game_start this database never received (it fell in a gap):
        what is known of it is its records; a gap covers its start, so it shows as incomplete."""
        if start_seq < seq:
            c.execute("INSERT OR IGNORE INTO games (device_id, start_seq, players, options, last_seq)"
                      " VALUES (?, ?, '[]', '{}', ?)", (device_id, start_seq, seq))

    def records(self, device_id=None):
        """All stored records (of one device) in (device, seq) order, as dicts with device_id."""
        sql = "SELECT device_id, seq, kind, t, data, crc FROM records"
        args = ()
        if device_id is not None:
            sql += " WHERE device_id = ?"
            args = (device_id,)
        return [_record(r) for r in self.conn.execute(sql + " ORDER BY device_id, seq", args)]

    def count_records(self, device_id=None):
        if device_id is None:
            return self.conn.execute("SELECT COUNT(*) FROM records").fetchone()[0]
        row = self.conn.execute("SELECT COUNT(*) FROM records WHERE device_id = ?", (device_id,)).fetchone()
        return row[0]

    # -- gaps --------------------------------------------------------------
    def gaps(self, device_id=None):
        """[(device_id, first_seq, last_seq)] in seq order."""
        sql = "SELECT device_id, first_seq, last_seq FROM gaps"
        args = ()
        if device_id is not None:
            sql += " WHERE device_id = ?"
            args = (device_id,)
        return [tuple(r) for r in self.conn.execute(sql + " ORDER BY device_id, first_seq", args)]

    def game_gaps(self, game):
        """The gaps that may hold records of this game: inside it, or after its start when it has
        no end in this database (its later records, its end among them, may be in the gap)."""
        end = game["end_seq"] if game["end_seq"] is not None else 2 ** 62
        rows = self.conn.execute(
            "SELECT first_seq, last_seq FROM gaps WHERE device_id = ? AND last_seq >= ? AND first_seq < ?"
            " ORDER BY first_seq", (game["device_id"], game["start_seq"], end))
        return [tuple(r) for r in rows]

    # -- games -------------------------------------------------------------
    _GAME_COLUMNS = ("id, device_id, start_seq, name, engine, seed, players, options, start_t, actions,"
                     " last_seq, end_seq, end_t, scores, winners, reason")

    def games(self):
        rows = self.conn.execute("SELECT %s FROM games ORDER BY id" % self._GAME_COLUMNS).fetchall()
        return [self._with_gaps(_game(r)) for r in rows]

    def game(self, game_id):
        """The game of a game id as the tools print it (game_ids.game_id): "SEQ@BOX", or
        the SEQ alone when one box of this database has a game of that seq. UnknownGame
        (its message says why) for anything else."""
        if isinstance(game_id, dict):
            return game_id
        seq, box = game_ids.parse(game_id)
        sql = "SELECT %s FROM games WHERE start_seq = ? ORDER BY id" % self._GAME_COLUMNS
        found = [_game(r) for r in self.conn.execute(sql, (seq,))]
        if box is not None:
            found = [g for g in found if game_ids.on_box(g["device_id"], box)]
        if not found:
            raise UnknownGame("no game %s in %s (see `tablemate games list`)" % (game_id, self.path))
        if len(found) > 1:
            raise UnknownGame("game %s is on more than one box: %s; give one of these ids"
                              % (game_id, ", ".join("%d@%s" % (seq, g["device_id"]) for g in found)))
        return self._with_gaps(found[0])

    def last_scores(self, game):
        """The scores after the game's last stored action (an open game's scores so far), or None."""
        row = self.conn.execute(
            "SELECT json_extract(data, '$.scores') FROM records WHERE device_id = ? AND seq = ?"
            " AND kind = 'action'", (game["device_id"], game["last_seq"])).fetchone()
        return _loads(row[0]) if row else None

    def _with_gaps(self, game):
        """game["missing"]: the gaps that may hold its records; game["incomplete"]: there are some."""
        game["missing"] = self.game_gaps(game)
        game["incomplete"] = bool(game["missing"])
        return game

    def game_records(self, game):
        """The game's records in seq order: its game_start, then everything carrying data.game.
        game: a game (as games() and game() give it) or its id."""
        g = self.game(game)
        rows = self.conn.execute(
            "SELECT device_id, seq, kind, t, data, crc FROM records"
            " WHERE device_id = ? AND seq BETWEEN ? AND ?"
            " AND (seq = ? OR json_extract(data, '$.game') = ?) ORDER BY seq",
            (g["device_id"], g["start_seq"], g["last_seq"], g["start_seq"], g["start_seq"]),
        )
        return [_record(r) for r in rows]


def _record(row):
    return {"device_id": row[0], "seq": row[1], "kind": row[2], "t": row[3], "data": json.loads(row[4]),
            "crc": row[5]}


def _game(row):
    keys = [k.strip() for k in Store._GAME_COLUMNS.split(",")]
    g = dict(zip(keys, row, strict=True))
    for k in ("players", "options", "scores", "winners"):
        g[k] = _loads(g[k])
    g["ended"] = g["end_seq"] is not None
    g["row"] = g["id"]  # the database's own row number: never shown, never asked for
    g["id"] = game_ids.game_id(g["device_id"], g["start_seq"])
    return g


# -- shared by the commands that read or write the store --------------------
def seq_ranges_text(gaps):
    """[(1, 100), (340, 340)] -> '1-100, 340'."""
    return ", ".join("%d" % a if a == b else "%d-%d" % (a, b) for a, b in gaps)


def add_db_argument(parser, nested=False):
    """--db FILE. nested: on a sub-subcommand, where a default would hide the parent's --db."""
    import argparse

    parser.add_argument("--db", metavar="FILE", default=argparse.SUPPRESS if nested else None,
                        help="game database (default: %s)" % default_db_path())


def db_path_from_args(args):
    return Path(args.db) if getattr(args, "db", None) else default_db_path()


def open_from_args(args, create=False):
    """The store named by --db (or the default one); a CliError (exit 1) if it cannot be used."""
    from host.cli import CliError

    try:
        return open_db(db_path_from_args(args), create=create)
    except DatabaseError as e:
        raise CliError(str(e), 1)


def game_from_args(store, game_id):
    from host.cli import CliError

    try:
        return store.game(game_id)
    except (UnknownGame, ValueError) as e:
        raise CliError(str(e), 2)
