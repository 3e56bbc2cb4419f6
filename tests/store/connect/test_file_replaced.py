"""The file under your feet: a database deleted or replaced while a store has it open.

SQLite goes on writing the file it opened; once its name is gone (deleted, or another file renamed over
it) every write lands in a file nobody can open again. The store notices (`file_problem`) and refuses.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.store import DatabaseOpenError, MemoryStore
from app.store.write import writes
from tests.support.cli_run import digest
from tests.support.hostdb import host_sql, query

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="Windows refuses to delete or rename over a file SQLite holds open"
)
REOPEN = "was deleted or replaced since it was opened"


def delete_database(path: Path) -> None:
    """`rm context.db*`."""
    for item in path.parent.glob(path.name + "*"):
        item.unlink()


def test_an_open_store_has_no_file_problem_while_the_host_writes(store: MemoryStore, host_db: Path) -> None:
    assert store.file_problem() is None
    host_sql(host_db, "UPDATE user_memories SET content = 'Lives in Hamburg' WHERE id = 4")
    host_sql(host_db, "PRAGMA wal_checkpoint(TRUNCATE)")
    assert store.file_problem() is None
    assert store.edit(4, "Lives in Hamburg, Germany").content == "Lives in Hamburg, Germany"


def test_a_deleted_database_refuses_every_write(store: MemoryStore, host_db: Path) -> None:
    store.observe()
    delete_database(host_db)
    with pytest.raises(DatabaseOpenError, match=f"{REOPEN}.*reopen it") as refused:
        store.edit(5, "Prefers yarn")
    assert refused.value.exit_code == EXIT_UNUSABLE_DATABASE
    for write in (lambda: store.dismiss(4), lambda: store.promote([141]), lambda: store.delete(1)):
        with pytest.raises(DatabaseOpenError, match=REOPEN):
            write()
    problem = store.file_problem()  # what a window polls
    assert problem is not None and REOPEN in problem and "no file is there now" in problem
    assert store.get(5).content == "Prefers pnpm"  # nothing went into the unlinked file
    assert store.list_ids() == [1, 2, 3, 4, 5]  # reads go on, from the file as it was


def test_a_database_replaced_by_a_rename_refuses_writes_and_is_left_as_it_is(
    store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    store.observe()
    other = tmp_path / "other.db"
    shutil.copyfile(host_db, other)
    host_sql(other, "UPDATE user_memories SET content = 'from the other file' WHERE id = 5")
    os.replace(other, host_db)  # what a sync tool or a restore from backup does
    before = digest(host_db)
    with pytest.raises(DatabaseOpenError, match=REOPEN):
        store.edit(5, "Prefers yarn")
    assert digest(host_db) == before
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 5") == [("from the other file",)]
    problem = store.file_problem()
    assert problem is not None and "another file is there now" in problem


def test_a_file_deleted_during_a_write_keeps_nothing(store: MemoryStore, host_db: Path) -> None:
    with pytest.raises(DatabaseOpenError, match=REOPEN), store.write() as ctx:
        writes.set_status(ctx, 4, "dismissed")
        delete_database(host_db)
    assert store.get(4).status == "active"  # rolled back, not committed unseen


def test_a_read_only_store_says_so_too(host_db: Path) -> None:
    store = MemoryStore.open(host_db, read_only=True)
    try:
        assert store.file_problem() is None
        delete_database(host_db)
        assert REOPEN in (store.file_problem() or "")
    finally:
        store.close()
