"""A first look (`MemoryStore.open(first_look=True)`: the window's first frame, read before its own store
opens): a file the store has never opened is read as it is, nothing written to it, and one whose write
lock another process holds refused once the reads are done (`confirm_first_look`); its pages are left for
the store that writes, which refuses a damaged one, unless a read of the look fails (`check_unread_pages`:
damage is then called damage). Any other file opens as it always did."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.store import DatabaseLockedError, DatabaseOpenError, MemoryStore
from app.store.connect.file_access import IMMUTABLE
from app.store.schema.tables import VERSION_TABLE
from tests.support.cli_run import digest
from tests.support.hostdb import damage_unread_pages, query

NOW = 1_767_000_000_000


def own_tables(path: Path) -> list[str]:
    return [str(row[0]) for row in query(path, "SELECT name FROM sqlite_master WHERE name LIKE 'mdash%'")]


def test_a_never_opened_file_is_read_as_it_is_and_left_as_it_was(host_db: Path) -> None:
    before = digest(host_db)
    look = MemoryStore.open(host_db, clock=ManualClock(NOW), first_look=True)
    try:
        assert look.first_look and look.read_only
        look.confirm_first_look()
        looked = (look.counts(), [memory.id for memory in look.list_memories()])
    finally:
        look.close()
    assert own_tables(host_db) == [] and digest(host_db) == before
    store = MemoryStore.open(host_db, clock=ManualClock(NOW))  # the store that writes, next
    try:
        assert not store.first_look and not store.read_only
        assert VERSION_TABLE in own_tables(host_db)
        assert (store.counts(), [memory.id for memory in store.list_memories()]) == looked
    finally:
        store.close()


def test_a_damaged_never_opened_file_is_refused_by_the_store_that_writes(host_db: Path) -> None:
    """The look reads what it reads and leaves every page's check to the store that writes, opened after
    the window's first frame: that store refuses the file before it writes anything."""
    damage_unread_pages(host_db)
    before = digest(host_db)
    look = MemoryStore.open(host_db, clock=ManualClock(NOW), first_look=True)
    try:
        assert look.counts().active > 0  # the look's own reads meet no damaged page
        look.confirm_first_look()  # nor does it wait for a check of every page
        with pytest.raises(DatabaseOpenError, match=r"damaged|malformed") as refused:
            look.check_unread_pages()  # what a read that failed asks
        assert "nothing was changed" in str(refused.value)
    finally:
        look.close()
    with pytest.raises(DatabaseOpenError, match=r"damaged|malformed"):
        MemoryStore.open(host_db)  # the store that writes refuses it
    assert digest(host_db) == before


def mapped_bytes(store: MemoryStore) -> int:
    with store.database.read() as conn:
        return int(conn.exec_driver_sql("PRAGMA mmap_size").scalar() or 0)


def test_a_never_opened_file_is_looked_at_mapped_and_written_unmapped(host_db: Path) -> None:
    """The look's scan of every memory (no index of ours yet) reads the file mapped; the store that writes
    does not map it (a mapped file truncated under a read is a SIGBUS: only the launch's child looks)."""
    look = MemoryStore.open(host_db, clock=ManualClock(NOW), first_look=True)
    try:
        assert mapped_bytes(look) >= host_db.stat().st_size
    finally:
        look.close()
    store = MemoryStore.open(host_db, clock=ManualClock(NOW))
    try:
        assert mapped_bytes(store) == 0
    finally:
        store.close()


def test_a_file_opened_before_opens_as_always(host_db: Path) -> None:
    MemoryStore.open(host_db).close()
    store = MemoryStore.open(host_db, first_look=True)
    try:
        assert not store.first_look and not store.read_only
        assert mapped_bytes(store) == 0
        store.confirm_first_look()  # nothing to wait for
    finally:
        store.close()


def test_a_read_only_first_look_says_it_is_read_only(host_db: Path) -> None:
    damage_unread_pages(host_db)
    store = MemoryStore.open(host_db, read_only=True, first_look=True)
    try:
        assert store.read_only and not store.first_look
        assert "--read-only" in (store.read_only_reason or "")
        store.confirm_first_look()  # no migration follows: no write lock to ask for
        with pytest.raises(DatabaseOpenError, match=r"damaged|malformed"):
            store.check_unread_pages()  # its pages were left unread all the same
    finally:
        store.close()
    with pytest.raises(DatabaseOpenError, match=r"damaged|malformed"):
        MemoryStore.open(host_db, read_only=True)  # the window's own store, opened next


def test_a_write_lock_held_past_the_busy_timeout_refuses_the_look(host_db: Path) -> None:
    """The store that writes migrates a never-opened file, which waits for the write lock: a lock held
    elsewhere past the busy timeout refuses the look, as it refused the launch's migration."""
    holder = sqlite3.connect(host_db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        look = MemoryStore.open(host_db, first_look=True)
        try:
            assert look.counts().active > 0  # reads go on beside the writer
            with pytest.raises(DatabaseLockedError, match="locked by another process"):
                look.confirm_first_look()
        finally:
            look.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert own_tables(host_db) == []


def test_damage_is_judged_on_the_file_as_it_is_now(host_db: Path) -> None:
    """A never-opened file nobody has open is looked at without a lock (immutable): should the host open
    it and write its log back into it while the look reads, a read can meet half-written pages. A failed
    read has the file checked as it is now (as an open checks it): a file sound now is not called
    damaged; damage still there is refused."""
    sound = host_db.read_bytes()
    damage_unread_pages(host_db)
    with closing(sqlite3.connect(host_db)) as conn:
        conn.execute("PRAGMA journal_mode=WAL")  # and closed: no -wal, no -shm, so read immutable
    damaged = host_db.read_bytes()
    for later, refused in ((sound, False), (damaged, True)):
        host_db.write_bytes(damaged)
        look = MemoryStore.open(host_db, clock=ManualClock(NOW), first_look=True)
        try:
            opened = look.database.opened
            assert opened.access is not None and opened.access.kind == IMMUTABLE and opened.unchecked
            host_db.write_bytes(later)  # the file as the host left it meanwhile
            if refused:
                with pytest.raises(DatabaseOpenError, match=r"damaged|malformed"):
                    look.check_unread_pages()
            else:
                look.check_unread_pages()
        finally:
            look.close()


def test_a_file_opened_before_has_no_pages_left_unchecked(host_db: Path) -> None:
    MemoryStore.open(host_db).close()
    damage_unread_pages(host_db)  # after the check its first open made: nothing reads every page again
    look = MemoryStore.open(host_db, clock=ManualClock(NOW), first_look=True)
    try:
        assert not look.database.opened.unchecked
        look.check_unread_pages()
    finally:
        look.close()
