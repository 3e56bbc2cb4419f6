"""Checks of a SQLite file before the store uses it, none of which modifies a file it refuses: the header,
the host's tables, every page of a file never opened (`page_check`), a lock held past the busy timeout,
and whether this process can write the file; each refusal a message, never a traceback.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import DatabaseLockedError, DatabaseOpenError
from app.store.connect import file_access, held_files, server
from app.store.connect.file_access import ReadAccess
from app.store.connect.page_check import check_pages
from app.store.read.host_cells import decode_text
from app.store.schema.alembic_preload import load_alembic_beside
from app.store.schema.legacy import LegacyGaps, find_gaps
from app.store.schema.tables import HOST_TABLES, VERSION_TABLE

SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_BUSY_TIMEOUT_MS = 5_000
BUSY_ENV = "MEMORY_DASHBOARD_BUSY_TIMEOUT_MS"


def busy_timeout_ms() -> int:
    """The busy timeout: MEMORY_DASHBOARD_BUSY_TIMEOUT_MS may raise it, never below the host's 5 s."""
    try:
        requested = int(os.environ.get(BUSY_ENV, DEFAULT_BUSY_TIMEOUT_MS))
    except ValueError:
        requested = DEFAULT_BUSY_TIMEOUT_MS
    return max(requested, DEFAULT_BUSY_TIMEOUT_MS)


def is_locked_error(exc: BaseException) -> bool:
    if server.sqlstate(exc) in server.BUSY_STATES:
        return True
    text = str(exc).lower()
    return "database is locked" in text or "database is busy" in text or "database table is locked" in text


def locked_message(location: str) -> str:
    seconds = busy_timeout_ms() / 1000
    return (
        f"{location} is locked by another process (waited {seconds:g} s). "
        "The agent host may be writing to it; try again in a moment."
    )


def check_sqlite_header(path: Path) -> None:
    header = held_files.read_head(path, len(SQLITE_HEADER))  # never `open()`: a close drops our locks
    if header is None or (header and header != SQLITE_HEADER):
        raise DatabaseOpenError(f"{path} is not a SQLite database; nothing was changed.")


def connect_file(uri: str, timeout_ms: int) -> sqlite3.Connection:
    connection = sqlite3.connect(
        uri, uri=True, timeout=timeout_ms / 1000, check_same_thread=False, isolation_level=None
    )
    connection.text_factory = decode_text  # text that is not UTF-8 reads as marked text, not an error
    return connection


def _read_table_names(connection: sqlite3.Connection, migrating: bool, check: bool) -> set[str]:
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if VERSION_TABLE not in names and check:
        # Never opened by us, so the first write is near: read every page first (`page_check`).
        if migrating:  # and the migration's tool loads meanwhile
            load_alembic_beside()
        check_pages(connection)
    return names


class WriteNeeded(Exception):
    """A live read refused because SQLite would have had to write beside the file (see `file_access`)."""


def refusal(exc: sqlite3.Error, path: Path) -> Exception:
    if is_locked_error(exc):
        return DatabaseLockedError(locked_message(str(path)))
    if file_access.needs_fallback(exc):
        return WriteNeeded(str(exc))
    return DatabaseOpenError(f"{path} is not a usable SQLite database ({exc}); nothing was changed.")


@dataclass(frozen=True, slots=True)
class _Probe:
    gaps: LegacyGaps  # what an older host's file lacks (`app.store.schema.legacy`), usually nothing
    unchecked: bool  # a never-opened file whose pages a first look left for the store that writes


def _probe(access: ReadAccess, path: Path, timeout_ms: int, migrating: bool, first_look: bool) -> _Probe:
    """Validate through `access`, a read that writes nothing; `WriteNeeded` if SQLite wanted to write.
    A never-opened file's pages are read here, unless this is a first look (the store that writes, opened
    after it, reads them: `page_check`)."""
    try:
        connection = connect_file(access.uri, timeout_ms)
    except sqlite3.Error as exc:
        raise refusal(exc, path) from exc
    try:
        names = _read_table_names(connection, migrating, check=not first_look)
        gaps = find_gaps(connection, names)
    except sqlite3.Error as exc:
        raise refusal(exc, path) from exc
    finally:
        connection.close()
    missing = [name for name in HOST_TABLES if name not in names and name not in gaps.tables]
    if missing:
        raise DatabaseOpenError(
            f"{path} is a SQLite file but not an agent memory database "
            f"(missing tables: {', '.join(missing)}); nothing was changed."
        )
    return _Probe(gaps, first_look and VERSION_TABLE not in names)


def _prepare(choose: Callable[[Path], ReadAccess], path: Path) -> ReadAccess:
    """`choose(path)`, whose snapshot (if it makes one) may fail: a message then, not a traceback."""
    try:
        return choose(path)
    except sqlite3.Error as exc:
        raise refusal(exc, path) from exc
    except OSError as exc:
        raise DatabaseOpenError(
            f"{path} cannot be read ({exc.strerror or exc}); nothing was changed."
        ) from exc


def checked_access(
    path: Path, timeout_ms: int, migrating: bool, first_look: bool
) -> tuple[ReadAccess, _Probe]:
    """Check the file through a read that creates nothing beside it; returns that way of reading it.
    The first choice is a live read where that is possible; if SQLite refuses it for a write it would
    need (no `-shm` in a folder it cannot write, a hot journal), immutable or a private snapshot."""
    for choose in (file_access.first_choice, file_access.fallback):
        access = _prepare(choose, path)
        try:
            probe = _probe(access, path, timeout_ms, migrating, first_look)
        except WriteNeeded as exc:
            access.release()
            if access.kind == file_access.LIVE:
                continue
            raise DatabaseOpenError(f"{path} cannot be read ({exc}); nothing was changed.") from exc
        except BaseException:
            access.release()
            raise
        return access, probe
    raise DatabaseOpenError(f"{path} cannot be opened.")  # not reached: a fallback is never live


def unwritable(path: Path) -> str | None:
    """Why this process cannot write the database (SQLite needs its folder too, for `-wal`/`-journal`)."""
    file_ok = os.access(path, os.W_OK)
    folder_ok = os.access(path.parent, os.W_OK)
    if file_ok and folder_ok:
        return None
    if not (file_ok or folder_ok):
        return "the file and its folder cannot be written"
    return "the folder cannot be written" if file_ok else "the file cannot be written"
