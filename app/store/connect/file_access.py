"""Reading a SQLite file without writing anything beside it: live, immutable, or a private snapshot.

SQLite's `mode=ro` still writes beside the file. On a WAL-mode file whose `-wal` and `-shm` are gone (the
host closed it cleanly) it creates both, and a read-only connection cannot remove them again; in a folder
it cannot write it cannot create them, so the open fails ("attempt to write a readonly database"), as it
does when a hot `-journal` would have to be rolled back. So every read that must stay a read (the checks
before a file is accepted, a read-only store) picks one of three ways:

- live (`mode=ro`): a rollback-mode file, or a WAL-mode file whose `-wal` and `-shm` exist (the host has
  it open). Nothing is created; the host's later commits are seen.
- immutable (`mode=ro&immutable=1`): a WAL-mode file nobody has open (no `-shm`) whose log holds nothing,
  so the file alone is the whole database. SQLite then creates and locks nothing, and assumes the file
  never changes: what the host writes later is not seen until the file is opened again.
- snapshot: a copy of the file and its `-wal` or `-journal` in a private temporary folder, made whole
  there (the log replayed, a hot journal rolled back), never in the host's file. Used when the log holds
  data that `immutable` would ignore, or when the live open was refused for a write it needed.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from app.core.clock import format_instant
from app.store.connect import held_files

LIVE = "live"
IMMUTABLE = "immutable"
SNAPSHOT = "snapshot"
NOT_SEEN = "changes by the host are not seen until it is reopened"
_WAL_VERSION = 2  # header bytes 18 and 19 (file format write/read version) are 2 in WAL mode
_READ_ONLY_CODE = 8  # SQLITE_READONLY and its extended codes (ROLLBACK, CANTINIT, DIRECTORY, ...)
_CANT_OPEN_CODE = 14  # SQLITE_CANTOPEN: e.g. a `-shm` that could be neither opened nor created
SNAPSHOT_PREFIX = "memory-dashboard-snapshot-"  # then the process's id
# Snapshot folders not released yet: removed at exit too, for a store nobody closed (kill -9 leaves them
# in the temporary folder, which the system cleans).
_PRIVATE_FOLDERS: set[Path] = set()


@atexit.register
def _remove_private_folders() -> None:
    for folder in list(_PRIVATE_FOLDERS):
        shutil.rmtree(folder, ignore_errors=True)


def remove_snapshots_of(pid: int) -> None:
    """The snapshot folders process `pid` made and could not remove (a launch's child ended by the
    launch: its store never closed): each is named by the process that made it; only this user's own
    folders, never a link."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SNAPSHOT_PREFIX}{pid}-*"):
        with suppress(OSError):
            found = folder.lstat()
            if stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid():
                shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True, slots=True)
class ReadAccess:
    """How to read one database file: the file SQLite opens, and what a person should know about it."""

    kind: str
    path: Path  # the host's file, or its private snapshot
    note: str | None  # None for a live view
    private_folder: Path | None = None  # the snapshot's folder, removed by `release`

    @property
    def uri(self) -> str:
        uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
        return uri if self.kind == LIVE else uri + "&immutable=1"  # a private snapshot never changes

    def release(self) -> None:
        if self.private_folder is not None:
            shutil.rmtree(self.private_folder, ignore_errors=True)
            _PRIVATE_FOLDERS.discard(self.private_folder)


def side_file(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _holds_data(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


def is_wal_mode(path: Path) -> bool:
    header = held_files.read_head(path, 20)
    return header is not None and len(header) == 20 and header[18] == header[19] == _WAL_VERSION


def first_choice(path: Path) -> ReadAccess:
    """The way to try first: live where that creates nothing, else immutable or a snapshot."""
    if not is_wal_mode(path):
        return ReadAccess(LIVE, path, None)
    if side_file(path, "-wal").exists() and side_file(path, "-shm").exists():
        return ReadAccess(LIVE, path, None)
    return fallback(path)


def fallback(path: Path) -> ReadAccess:
    """Immutable where the file alone is the database; a snapshot where a log or journal holds data."""
    if _holds_data(side_file(path, "-wal")) or _holds_data(side_file(path, "-journal")):
        return snapshot(path)
    return ReadAccess(IMMUTABLE, path, f"opened immutable: {NOT_SEEN}")


def needs_fallback(exc: sqlite3.Error) -> bool:
    """A live open refused because it would have had to write (create `-shm`, roll a journal back)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return "readonly" in str(exc).lower() or "unable to open" in str(exc).lower()
    return code & 0xFF in (_READ_ONLY_CODE, _CANT_OPEN_CODE)


def snapshot(path: Path) -> ReadAccess:
    """A private copy of `path` with its `-wal` or `-journal`, made whole in the copy.

    The copy is taken when nobody holds the file open (no `-shm`) or when a live read was refused, so
    the host is not writing it meanwhile. sqlite3.Error and OSError reach the caller (a message there)."""
    folder = Path(tempfile.mkdtemp(prefix=f"{SNAPSHOT_PREFIX}{os.getpid()}-"))  # whose: `remove_snapshots_of`
    _PRIVATE_FOLDERS.add(folder)
    copy = folder / path.name
    try:
        taken = format_instant(int(time.time() * 1000))
        held_files.copy(path, copy)  # the file read through `held_files`: a store of ours may hold it
        for suffix in ("-wal", "-journal"):
            if side_file(path, suffix).is_file():
                shutil.copyfile(side_file(path, suffix), side_file(copy, suffix))
        _make_whole(copy)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        _PRIVATE_FOLDERS.discard(folder)
        raise
    return ReadAccess(SNAPSHOT, copy, f"a private snapshot as of {taken}: {NOT_SEEN}", folder)


def _make_whole(copy: Path) -> None:
    """Replay the copied log or roll back the copied hot journal (the first read does either), then
    leave one self-contained file, which the store reads as immutable."""
    connection = sqlite3.connect(copy, isolation_level=None)
    try:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        connection.execute("PRAGMA journal_mode=DELETE").fetchone()
    finally:
        connection.close()
