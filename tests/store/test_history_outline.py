"""`history(texts=False)` (the window's list of revisions) and `revision(id)` (one read whole)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import REVIEW_TIME
from hostdb import host_sql

from app.clock import ManualClock
from app.store import MemoryStore, NotFoundError
from app.store.reads import REVISION_COLUMNS
from app.store.tables import revisions


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


def test_revisions_kept_in_memory_on_a_read_only_store(host_db: Path) -> None:
    store = MemoryStore.open(host_db, read_only=True, clock=ManualClock(REVIEW_TIME))
    store.list_ids()
    host_sql(
        host_db,
        "UPDATE user_memories SET content = 'Lives in Hamburg', updated_at = ? WHERE id = 4",
        (REVIEW_TIME,),
    )
    observed = store.history(4, texts=False)[-1]
    assert observed.id < 0 and observed.texts_loaded  # kept in memory, whole
    assert store.revision(observed.id).new_content == "Lives in Hamburg"
    store.close()


def test_revision_rows_are_unpacked_in_the_tables_column_order() -> None:
    # revision_from_row reads columns by position: a column added or moved must be added there too.
    assert tuple(revisions.c.keys()) == REVISION_COLUMNS
