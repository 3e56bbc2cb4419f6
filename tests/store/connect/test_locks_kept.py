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

from app.store import MemoryStore
from app.store.connect import held_files
from app.store.connect.file_access import snapshot
from app.store.connect.file_checks import check_sqlite_header
from tests.support.host_close import HOST_WRITE, host, host_close_leaves_the_log


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
