"""`MemoryStore.first_ids`: a listing's first page and its size, exactly what `list_ids` would give (a
search's size only when its first page is short: a full one is counted with the complete listing)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.core.models.filters import STATUS_FILTERS
from app.store import MemoryFilter, MemoryStore
from app.store.read.query import SORT_KEYS
from tests.support.hostdb import DAY, T0, build_host_db, host_sql, memory_row


@pytest.fixture
def listing_store(tmp_path: Path) -> MemoryStore:
    path = build_host_db(tmp_path / "context.db")
    conn = sqlite3.connect(path)
    for memory_id in range(10, 70):
        memory_row(
            conn,
            memory_id,
            f"Memory {memory_id} about {'pnpm' if memory_id % 3 else 'yarn'}",
            promoted_at=T0 + (memory_id % 7) * DAY,  # ties: the id breaks them
            updated_at=T0 + (memory_id % 11) * DAY,
            status="dismissed" if memory_id % 5 == 0 else "active",
        )
    conn.commit()
    conn.close()
    return MemoryStore.open(path, clock=ManualClock(T0 + 30 * DAY))


@pytest.mark.parametrize("status", STATUS_FILTERS)
@pytest.mark.parametrize("search", ["", "pnpm", "yarn memory", "#12"])
def test_first_ids_is_the_head_of_the_listing_and_its_size(
    listing_store: MemoryStore, status: str, search: str
) -> None:
    for sort in SORT_KEYS:
        for descending in (True, False):
            flt = MemoryFilter(status=status, search=search, sort=sort, descending=descending)  # type: ignore[arg-type]
            every = listing_store.list_ids(flt)
            ids, total = listing_store.first_ids(flt, 7)
            counted = not search or len(every) < 7
            assert (ids, total) == (every[:7], len(every) if counted else None), flt
    listing_store.close()


def test_first_ids_does_not_observe(listing_store: MemoryStore, tmp_path: Path) -> None:
    listing_store.observe()
    host_sql(
        tmp_path / "context.db",
        "UPDATE user_memories SET content = 'Rewritten by the host', updated_at = ? WHERE id = 12",
        (T0 + 40 * DAY,),
    )
    ids, total = listing_store.first_ids(MemoryFilter(search="Rewritten"), 5)
    assert (ids, total) == ([12], 1)
    assert [r.source for r in listing_store.history(12)] == []  # nothing recorded yet
    listing_store.observe()
    assert [r.source for r in listing_store.history(12)] == ["observed"]
    listing_store.close()
