"""A store keeps its locks on the file while this process opens the same file again.

POSIX locks belong to a process and a file: closing any descriptor of the file drops every lock the
process holds on it, SQLite's connections' included. In WAL mode a connection's shared lock on the file
is what tells the host's closing connection it is not the last one; without it, that close checkpoints
the log ignoring our readers and deletes it while our connections still write to it, and a write is
lost. A second store on the same file in one process (the hub's publish and copy, File → Open of the
file already open) reads the file's header first: it must not drop the first store's locks.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.cli.arguments import read_text_input
from app.cli.safe_output import write_bytes
from app.core.errors import DatabaseOpenError, DatabaseReplacedError, InvalidInputError
from app.store import MemoryStore
from app.store.connect import engine, held_files
from app.store.connect.file_access import snapshot
from app.store.connect.file_checks import check_sqlite_header
from app.store.write.edits import MemoryEdits
from tests.support.host_close import HOST_WRITE, host, host_close_leaves_the_log, shm_held_by
from tests.support.hostdb import build_host_db


def _nobody_writes_between(path: Path) -> None:
    assert host_close_leaves_the_log(path), "the host's close took itself for the last connection"


def test_a_second_store_on_the_same_file_loses_no_write(store: MemoryStore, host_db: Path) -> None:
    before = store.get(2).updated_at or 0
    store.get(1)  # the store's connection is open: its shared lock says so to the host
    with closing(store.reopened()) as again:  # as the hub's publish opens it, in this process
        again.get(1)
    host(host_db, HOST_WRITE, "SELECT 1")
    store.edit(1, "Written after the second store closed")
    host(host_db, HOST_WRITE, "SELECT 1")
    rows = host(host_db, "SELECT content FROM user_memories WHERE id = 1")
    assert rows == [("Written after the second store closed",)]
    assert host(host_db, "SELECT updated_at FROM user_memories WHERE id = 2") == [(before + 2,)]


def test_reading_the_header_again_keeps_the_locks(store: MemoryStore, host_db: Path) -> None:
    store.get(1)
    check_sqlite_header(host_db)  # what every open of the file reads first
    _nobody_writes_between(host_db)


def test_a_snapshot_of_the_open_file_keeps_the_locks(store: MemoryStore, host_db: Path) -> None:
    store.get(1)
    taken = snapshot(host_db)
    try:
        copy = sqlite3.connect(taken.path)
        assert copy.execute("SELECT count(*) FROM user_memories").fetchone()[0] > 0
        copy.close()
    finally:
        taken.release()
    _nobody_writes_between(host_db)


def test_a_descriptor_of_a_file_no_store_holds_is_closed_at_once(host_db: Path) -> None:
    opened = set(os.listdir("/proc/self/fd"))
    check_sqlite_header(host_db)
    assert held_files.read_head(host_db, 16) == b"SQLite format 3\x00"
    assert set(os.listdir("/proc/self/fd")) == opened


def test_the_descriptors_kept_go_with_the_last_store(host_db: Path) -> None:
    opened = set(os.listdir("/proc/self/fd"))
    first = MemoryStore.open(host_db)
    second = first.reopened()
    first.close()
    _nobody_writes_between(host_db)  # the second still holds its locks
    second.close()
    assert set(os.listdir("/proc/self/fd")) == opened


@pytest.mark.parametrize("suffix", ["", "-shm", "-wal"])
def test_the_open_database_is_never_read_as_a_text(store: MemoryStore, host_db: Path, suffix: str) -> None:
    """Import, `edit --file` and a review's verdict read a file the person names: named by mistake, the
    open database or its -shm is refused unopened (its close would drop the store's locks)."""
    store.get(1)
    with pytest.raises(InvalidInputError, match="open database, not a text to read"):
        read_text_input(f"{host_db}{suffix}")
    _nobody_writes_between(host_db)


def test_a_text_beside_the_open_database_is_read(store: MemoryStore, host_db: Path) -> None:
    text = host_db.with_name("context.db-notes")
    text.write_text("a note", encoding="utf-8")
    assert read_text_input(str(text)) == "a note"


def test_a_connection_still_out_keeps_the_file_claimed(host_db: Path) -> None:
    """A store closed while a task still has one of its connections out (a review, while the person
    opens another database): that connection keeps its locks until it comes back, and is then closed."""
    opened = _descriptors()
    store = MemoryStore.open(host_db)
    with store.database.engine.connect() as out:
        out.exec_driver_sql("SELECT count(*) FROM user_memories").all()
        store.close()
        _nobody_writes_between(host_db)
        out.exec_driver_sql("SELECT count(*) FROM user_memories").all()
    assert _descriptors() == opened


def test_a_file_replaced_while_it_opens_is_refused(host_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim on the file and the identity the store keeps are of one file: another file renamed over
    the path between the two is refused, not opened under the first one's claim."""
    other = build_host_db(host_db.with_name("other.db"))
    checked = check_sqlite_header

    def renamed_over(path: Path) -> None:
        checked(path)
        os.replace(other, path)

    monkeypatch.setattr(engine, "check_sqlite_header", renamed_over)
    opened = _descriptors()
    with pytest.raises(DatabaseReplacedError, match="replaced while it was being opened"):
        MemoryStore.open(host_db)
    assert _descriptors() == opened


def test_an_open_failing_after_its_engine_leaves_nothing_open(
    host_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def replaced(_edits: MemoryEdits) -> list[int]:
        raise DatabaseReplacedError("replaced while it was swept")

    monkeypatch.setattr(MemoryEdits, "sweep", replaced)  # the sweep, after the engine, as it would raise
    opened = _descriptors()
    with pytest.raises(DatabaseReplacedError):
        MemoryStore.open(host_db)
    assert _descriptors() == opened


def _descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_a_closed_store_used_again_claims_its_file_again(host_db: Path) -> None:
    """A review's verdict applied through the store the person switched away from: its new connection
    keeps its locks while another store of the process opens and closes the file."""
    store = MemoryStore.open(host_db)
    store.close()
    with store.database.engine.connect() as out:
        out.exec_driver_sql("SELECT count(*) FROM user_memories").all()
        MemoryStore.open(host_db).close()
        _nobody_writes_between(host_db)


def test_a_failed_reconnect_leaves_the_count_of_connections_out_right(host_db: Path, tmp_path: Path) -> None:
    """A pooled connection invalidated, then reconnected while the file is away: the pool checks it back
    in without a checkout. A connection out when the store closes still keeps the file claimed."""
    store = MemoryStore.open(host_db)
    with store.database.engine.connect() as broken:
        broken.invalidate()  # as after an error that closed it
    host_db.rename(tmp_path / "away.db")
    with pytest.raises(Exception, match="unable to open"):
        store.get(1)
    (tmp_path / "away.db").rename(host_db)
    with store.database.engine.connect() as out:
        out.exec_driver_sql("SELECT count(*) FROM user_memories").all()
        store.close()
        _nobody_writes_between(host_db)


def test_a_link_to_the_open_databases_shm_is_never_read_as_a_text(store: MemoryStore, host_db: Path) -> None:
    store.get(1)
    link = host_db.with_name("notes.txt")
    link.symlink_to(f"{host_db}-shm")
    with pytest.raises(InvalidInputError, match="shm file of an open database"):
        read_text_input(str(link))


def test_the_open_databases_shm_is_never_opened_as_a_database(store: MemoryStore, host_db: Path) -> None:
    """File → Open with All files, on the -shm of the open database: refused unopened, since closing a
    descriptor of it drops the store's lock there (the one that tells the host's next open it is not
    alone)."""
    store.get(1)
    assert shm_held_by(host_db) == os.getpid()
    with pytest.raises(DatabaseOpenError, match="shm file of an open database"):
        MemoryStore.open(Path(f"{host_db}-shm"))
    assert shm_held_by(host_db) == os.getpid()


def test_an_export_over_a_link_to_the_open_databases_shm_is_refused(
    store: MemoryStore, host_db: Path
) -> None:
    store.get(1)
    link = host_db.with_name("backup.json")
    os.link(f"{host_db}-shm", link)
    with pytest.raises(InvalidInputError, match="shm file of an open database"):
        write_bytes(str(link), b"{}", databases=[], force=True)
    assert shm_held_by(host_db) == os.getpid()


def test_a_file_away_at_the_claim_is_refused(host_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file renamed away and back around the claim (a host's rename-save): opened with no claim, a
    later store's close would drop its locks, so it is refused as replaced."""
    claim = held_files.hold
    away = host_db.with_name("away.db")

    def missing_meanwhile(path: Path) -> held_files.Hold:
        host_db.rename(away)
        try:
            return claim(path)
        finally:
            away.rename(host_db)

    monkeypatch.setattr(held_files, "hold", missing_meanwhile)
    with pytest.raises(DatabaseReplacedError, match="replaced while it was being opened"):
        MemoryStore.open(host_db)
