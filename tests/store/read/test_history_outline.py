"""`history(texts=False)` (the window's list of revisions), with its newest read whole (`newest_whole`, what
the window asks for), and `revision(id)` (one read whole)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.store import MemoryStore, NotFoundError
from app.store.read.reads import REVISION_COLUMNS
from app.store.schema.tables import revisions
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import host_sql


def test_outline_is_the_history_without_texts_and_revision_reads_one_whole(store: MemoryStore) -> None:
    store.edit(5, "Prefers pnpm v2")
    store.dismiss(5)
    store.edit(5, "Prefers pnpm v3")
    whole = store.history(5)
    outline = store.history(5, texts=False)
    assert len(whole) >= 3
    assert all(not rev.texts_loaded and rev.previous_content is rev.new_content is None for rev in outline)
    assert outline == [
        replace(rev, previous_content=None, new_content=None, texts_loaded=False) for rev in whole
    ]
    assert [store.revision(rev.id) for rev in outline] == whole
    with pytest.raises(NotFoundError):
        store.revision(10_000)


def test_newest_whole_reads_the_newest_revisions_texts_and_no_other(store: MemoryStore) -> None:
    store.edit(5, "Prefers pnpm v2")
    store.edit(5, "Prefers pnpm v3")
    whole = store.history(5)
    outline = store.history(5, texts=False, newest_whole=True)
    assert outline[-1] == whole[-1] and outline[-1].texts_loaded
    assert outline[-1].previous_content == "Prefers pnpm v2" and outline[-1].new_content == "Prefers pnpm v3"
    assert outline[:-1] == store.history(5, texts=False)[:-1]
    assert not any(rev.texts_loaded for rev in outline[:-1])
    assert store.history(4_000, texts=False, newest_whole=True) == []  # no revisions: nothing to read


def test_history_shows_a_rewrite_committed_elsewhere_once_observed(host_db: Path, store: MemoryStore) -> None:
    # A read never observes: the window's watch (or a CLI command) observes, then reads.
    store.observe()
    host_sql(
        host_db,
        "UPDATE user_memories SET content = 'Prefers yarn', updated_at = ? WHERE id = 5",
        (REVIEW_TIME + 1,),
    )
    assert all(rev.source != "observed" for rev in store.history(5, texts=False, newest_whole=True))
    store.observe()
    newest = store.history(5, texts=False, newest_whole=True)[-1]
    assert newest.source == "observed" and newest.new_content == "Prefers yarn" and newest.texts_loaded
    assert store.history(5, texts=False, newest_whole=True)[-1] == newest


def test_revisions_kept_in_memory_on_a_read_only_store(host_db: Path) -> None:
    host = sqlite3.connect(host_db)  # the host has the file open (its -wal, -shm exist): a live read
    host.execute("SELECT count(*) FROM user_memories").fetchone()
    store = MemoryStore.open(host_db, read_only=True, clock=ManualClock(REVIEW_TIME))
    store.observe()
    host_sql(
        host_db,
        "UPDATE user_memories SET content = 'Lives in Hamburg', updated_at = ? WHERE id = 4",
        (REVIEW_TIME,),
    )
    store.observe()
    observed = store.history(4, texts=False)[-1]
    assert observed.id < 0 and observed.texts_loaded  # kept in memory, whole
    assert store.revision(observed.id).new_content == "Lives in Hamburg"
    store.close()
    host.close()


def test_revision_rows_are_unpacked_in_the_tables_column_order() -> None:
    # revision_from_row reads columns by position: a column added or moved must be added there too.
    assert tuple(revisions.c.keys()) == REVISION_COLUMNS
