"""Opening a database: checks that never modify a file we refuse, then an engine with the host's rules.

SQLite files are checked before anything is written (`file_checks`), through a read that creates nothing
beside the file (`file_access`): the header must say SQLite, the host's tables must be there, a file never
opened has every page read, and a lock held past the busy timeout is a message. Writes take `BEGIN
IMMEDIATE` (as the host does), reads a plain `BEGIN`; the busy timeout is at least 5 s. A file that cannot
be written, or any file opened read-only, is read the way `file_access` chose (live `mode=ro`, immutable, or
a private snapshot), so SQLite itself refuses every write, and the reason says which. The file's identity is
kept (`file_identity`) so that a store can tell when its file was deleted or replaced under it. A PostgreSQL
URL is opened by `server`, whose transaction rules `transaction` applies for that dialect.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, QueuePool, Select, create_engine, event, inspect, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError

from app.core.errors import DatabaseLockedError, DatabaseOpenError, DatabaseReplacedError
from app.core.paths import make_folder
from app.store.connect import held_files, server
from app.store.connect.connections_out import ConnectionsOut
from app.store.connect.file_access import ReadAccess
from app.store.connect.file_checks import (
    WriteNeeded,
    busy_timeout_ms,
    check_sqlite_header,
    checked_access,
    connect_file,
    is_locked_error,
    locked_message,
    refusal,
    unwritable,
)
from app.store.connect.file_identity import FileIdentity
from app.store.connect.held_files import Hold
from app.store.schema.legacy import LegacyGaps, install_stand_ins
from app.store.schema.tables import HOST_TABLES

BEGIN_OPTION = "sqlite_begin"
# A first look at a never-opened file reads it mapped (`PRAGMA mmap_size`, up to SQLite's own 2 GB cap):
# its first page is a scan of every memory (no index of ours yet), ~40 ms faster without copying each
# page into SQLite's cache. A mapped file truncated under a read is a SIGBUS, not an error; a first look
# is only ever taken by the launch's child (`ui.runtime.first_screen`), which then dies alone, and the
# window reads its first screen through its own store, as when any read aside fails.
FIRST_LOOK_MAP = 1 << 31


@dataclass(frozen=True, slots=True)
class OpenedDatabase:
    engine: Engine
    location: str  # a path for files, the URL (password hidden) otherwise
    read_only: bool
    read_only_reason: str | None
    is_sqlite: bool
    identity: FileIdentity | None = None  # the file opened (files only), to notice it deleted or replaced
    access: ReadAccess | None = None  # how a read-only file is read; a private snapshot goes at `close`
    notes: tuple[str, ...] = ()  # what a person should be told on opening (an older host's file)
    # A first look at a never-opened file: read as it is, nothing written to it; it says of itself what
    # the store that writes (opened next, its pages checked, then migrating) will say.
    first_look: bool = False
    unchecked: bool = False  # a never-opened file whose pages a first look left unread (for the next open)
    asked_read_only: bool = False  # opened read-only because the person asked (`--read-only`)
    held: ConnectionsOut | None = None  # the file claimed while it is open (files only): `held_files`

    def confirm_first_look(self) -> None:
        """Once a first look's reads are done, raise what the store that writes would refuse the file for
        at once: a write lock another process holds past the busy timeout (its migration waits for it).
        Nothing otherwise. Its pages are read by that store as it opens (`checked_access`), after the
        window's first frame: a check of every page is a fifth of a second of a large file, and the reads
        of a first frame go to few of them."""
        if not self.first_look:
            return
        error = _write_lock_refused(Path(self.location))
        if error is not None:
            refused = refusal(error, Path(self.location))
            if isinstance(refused, WriteNeeded):  # the read the probe made could not be made again
                refused = DatabaseOpenError(f"{self.location} cannot be read ({error}); nothing was changed.")
            raise refused from error

    def check_unread_pages(self) -> bool:
        """After a read of a file whose pages were not checked (`unchecked`) failed: the file checked as an
        open checks it now (`checked_access`: live where the host has it open, every page read), and its
        refusal raised (damage, in the words the store that writes would use). True when it was checked
        and is sound now (the read failed for another reason: a file the host rewrote under a look that
        held no lock); False when there was nothing to check. Not through this look's own access: one
        that took no lock (immutable, or a snapshot of a file nobody had open) may have met the host
        writing its log back into the file meanwhile."""
        if not self.unchecked:
            return False
        path = Path(self.location)
        access, _probe = checked_access(path, busy_timeout_ms(), migrating=False, first_look=False)
        access.release()
        return True

    def close(self) -> None:
        self.engine.dispose()
        if self.access is not None:
            self.access.release()
        if self.held is not None:
            self.held.close()  # after the connections: the last store's close lets go of the file


def host_schema_sql() -> str:
    return resources.files("app.store.schema").joinpath("host_schema.sql").read_text(encoding="utf-8")


def create_host_database(path: Path) -> None:
    """A new, empty store in the host's shape (standalone mode). Only ever for a file that does not exist:
    one that cannot be made is a `DatabaseOpenError`, and what was begun of it is removed."""
    problem = make_folder(path.parent)
    if problem is not None:
        raise DatabaseOpenError(f"cannot create {path}: {problem}; nothing was changed")
    try:
        with closing(sqlite3.connect(path)) as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(host_schema_sql())
            connection.commit()
    except sqlite3.Error as exc:
        path.unlink(missing_ok=True)
        raise DatabaseOpenError(f"cannot create {path}: {exc}; nothing was changed") from exc


def _writable_uri(path: Path) -> str:
    return f"file:{quote(str(path.resolve()))}?mode=rw"


def _write_lock_refused(path: Path) -> sqlite3.Error | None:
    """Whether the write lock a migration takes can be had now (taken and given back at once, nothing
    written): what another process's write would make it wait for, past the busy timeout."""
    connection = connect_file(_writable_uri(path), busy_timeout_ms())
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
    except sqlite3.Error as exc:
        return exc
    finally:
        connection.close()
    return None


def plain_rows(conn: Connection, statement: Select[Any], params: dict[str, Any]) -> Sequence[Sequence[Any]]:
    """The rows of `statement`, for a read of a hundred thousand rows and texts: on SQLite, plain tuples
    from the DB-API cursor (no SQLAlchemy row per row), each text decoded by sqlite3 itself (no Python
    call per text, as the connections' `decode_text` makes). If the cursor fails in any way (a text that
    is not valid UTF-8 fails sqlite3's own decoding), the statement runs again as every other read
    does: the answer is the one the store's factory gives, and an error is SQLAlchemy's, as every other
    read raises it (a locked or damaged file says so). On PostgreSQL, as every other read."""
    driver = conn.connection.driver_connection
    compiled = statement.compile(dialect=conn.dialect)
    if not isinstance(driver, sqlite3.Connection) or compiled.post_compile_params:
        return conn.execute(statement, params).all()  # (an `IN` list is rendered by SQLAlchemy alone)
    values = compiled.construct_params(params)
    positional = [values[name] for name in compiled.positiontup or ()]
    own_factory = driver.text_factory
    driver.text_factory = str
    try:
        cursor = driver.cursor()
        try:
            return cursor.execute(str(compiled), positional).fetchall()
        finally:
            cursor.close()
    except sqlite3.Error:
        pass  # read again below, with the store's decoding and its errors
    finally:
        driver.text_factory = own_factory
    return conn.execute(statement, params).all()


def _install_transaction_events(engine: Engine) -> None:
    """pysqlite's own transaction handling is off; emit BEGIN ourselves (IMMEDIATE for writes), as the
    SQLAlchemy sqlite dialect documents: a driver error surfaces as SQLAlchemy's (`OperationalError`)."""

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get(BEGIN_OPTION, "")
        conn.exec_driver_sql(f"BEGIN {mode}".strip())


def _ensure_wal(uri: str, timeout_ms: int, location: str) -> None:
    """Switch to WAL (as the host runs it) on a plain connection: never inside a transaction."""
    connection = connect_file(uri, timeout_ms)
    try:
        mode = connection.execute("PRAGMA journal_mode").fetchone()
        if str(mode[0] if mode else "").lower() != "wal":
            connection.execute("PRAGMA journal_mode=WAL")
    except sqlite3.OperationalError as exc:
        if is_locked_error(exc):
            raise DatabaseLockedError(locked_message(location)) from exc
        raise DatabaseOpenError(f"{location} cannot be switched to WAL mode ({exc}).") from exc
    finally:
        connection.close()


def open_sqlite_file(
    path: Path, *, read_only: bool, create: bool, first_look: bool = False
) -> OpenedDatabase:
    """Check and open a file. `first_look`: a read before the store that writes opens (the window's
    first frame): a file this store has never opened is then read as it is, neither migrated nor made
    WAL, nor its pages checked (`OpenedDatabase.confirm_first_look`, `check_unread_pages`); any other file
    opens as it would without it."""
    timeout_ms = busy_timeout_ms()
    if not path.exists():
        if not create:
            raise DatabaseOpenError(f"{path} does not exist.")
        create_host_database(path)
    if path.is_dir():
        raise DatabaseOpenError(f"{path} is a folder, not a database file.")
    part = held_files.held_companion(path)  # its -shm holds our locks: never opened, not even to check
    if part is not None:
        raise DatabaseOpenError(f"{path} is {part}, not a database to open; nothing was changed.")
    held = held_files.hold(path)  # the checks below read its bytes: this process's locks on it stay
    try:
        return _open_held(path, timeout_ms, held, read_only=read_only, first_look=first_look)
    except BaseException:
        held.release()
        raise


def _open_held(
    path: Path, timeout_ms: int, held: Hold, *, read_only: bool, first_look: bool
) -> OpenedDatabase:
    check_sqlite_header(path)
    if path.stat().st_size == 0:
        raise DatabaseOpenError(f"{path} is an empty file, not an agent memory database; nothing changed.")
    identity = FileIdentity.of(path)  # before any check: a file replaced from here on is noticed too
    if held.key is None or (identity.inode and (identity.device, identity.inode) != held.key):
        raise DatabaseReplacedError(f"{path} was replaced while it was being opened; nothing was changed.")
    access, probe = checked_access(path, timeout_ms, migrating=not read_only, first_look=first_look)
    gaps = probe.gaps
    why = gaps.message() if gaps else "opened with --read-only" if read_only else unwritable(path)
    looking = probe.unchecked and why is None
    if why is None and not looking:
        access.release()  # a writable store reads and writes the file itself
        uri, kept = _writable_uri(path), None
    else:
        uri, kept = access.uri, access
    # An explicit QueuePool: the URL looks in-memory to SQLAlchemy, whose default for that (a pool per
    # thread) closes connections other threads are still using once it holds more than five. Last in,
    # first out: one connection serves a run of reads, with its page cache warm and the change watch's
    # clean look on it (`change_watch`: a look on another connection means a scan).
    engine = create_engine(
        "sqlite+pysqlite://",
        creator=lambda: _legacy_connect(uri, timeout_ms, gaps, mapped=looking),
        poolclass=QueuePool,
        pool_size=4,
        pool_use_lifo=True,
    )
    _install_transaction_events(engine)
    if kept is None:
        _ensure_wal(uri, timeout_ms, str(path))
    if looking:
        why = "a first look, before the store that writes it opens"
    reason = why if why is None or access.note is None else f"{why}; {access.note}"
    notes = (
        (f"{path}: {gaps.message()}; opened read-only (update the agent host to write to it)",)
        if gaps
        else ()
    )
    return OpenedDatabase(
        engine,
        str(path),
        why is not None,
        reason,
        True,
        identity,
        kept,
        notes,
        looking,
        probe.unchecked,
        asked_read_only=read_only,
        held=ConnectionsOut(engine, held, path),
    )


def _legacy_connect(
    uri: str, timeout_ms: int, gaps: LegacyGaps, *, mapped: bool = False
) -> sqlite3.Connection:
    """A connection; for an older host's file, with its TEMP stand-ins (`app.store.schema.legacy`);
    `mapped`: a first look's (`FIRST_LOOK_MAP`)."""
    connection = connect_file(uri, timeout_ms)
    if mapped:
        connection.execute(f"PRAGMA mmap_size = {FIRST_LOOK_MAP}")
    if gaps:
        install_stand_ins(connection, gaps)
    return connection


def is_server_url(url: str) -> bool:
    """A URL of a database server this store runs on (PostgreSQL)."""
    try:
        return make_url(url).get_backend_name() == server.DIALECT
    except ArgumentError:
        return False


def sqlite_file_of(url: str) -> Path | None:
    """The file of a `sqlite:///PATH` URL (it gets every check a plain path gets), else None."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


def open_url(url: str, *, read_only: bool) -> OpenedDatabase:
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise DatabaseOpenError(f"cannot use the database URL: {exc}") from exc
    if parsed.get_backend_name() == server.DIALECT:
        engine = server.open_server(parsed, read_only=read_only, timeout_ms=busy_timeout_ms())
        reason = "opened with --read-only" if read_only else None
        location = server.location_of(parsed)
        return OpenedDatabase(engine, location, read_only, reason, False, asked_read_only=read_only)
    try:
        engine = create_engine(url)
    except Exception as exc:  # unknown dialect, missing driver, malformed URL: all the person's to fix
        raise DatabaseOpenError(f"cannot use the database URL: {exc}") from exc
    if engine.dialect.name == "sqlite":
        _install_transaction_events(engine)
    try:
        tables = set(inspect(engine).get_table_names())
    except Exception as exc:
        raise DatabaseOpenError(
            f"cannot open {engine.url.render_as_string(hide_password=True)}: {exc}"
        ) from exc
    location = engine.url.render_as_string(hide_password=True)
    missing = [name for name in HOST_TABLES if name not in tables]
    if missing:
        raise DatabaseOpenError(
            f"{location} lacks the host's tables: {', '.join(missing)}; nothing was changed."
        )
    reason = "opened with --read-only" if read_only else None
    is_sqlite = engine.dialect.name == "sqlite"
    return OpenedDatabase(engine, location, read_only, reason, is_sqlite, asked_read_only=read_only)


@contextmanager
def transaction(engine: Engine, *, write: bool, location: str) -> Iterator[Connection]:
    """One transaction: `BEGIN IMMEDIATE` for a write (on PostgreSQL the rules of `server`); a lock held
    past the timeout becomes a message, and so does a server that cannot be reached."""
    on_server = server.is_server(engine)
    options: dict[str, Any] = (
        server.transaction_options(write) if on_server else {BEGIN_OPTION: "IMMEDIATE" if write else ""}
    )
    try:
        with engine.connect().execution_options(**options) as conn, conn.begin():
            if write and on_server:
                server.take_write_lock(conn)
            yield conn
    except OperationalError as exc:
        if is_locked_error(exc):
            raise DatabaseLockedError(locked_message(location)) from exc
        if on_server:
            raise DatabaseOpenError(server.unreachable_message(location, exc)) from exc
        raise
    except DBAPIError as exc:
        if on_server and (exc.connection_invalidated or server.sqlstate(exc) is None):
            raise DatabaseOpenError(server.unreachable_message(location, exc)) from exc
        if on_server and server.sqlstate(exc) == server.OUT_OF_RANGE:
            raise DatabaseOpenError(server.narrow_column_message(location, exc)) from exc
        raise
