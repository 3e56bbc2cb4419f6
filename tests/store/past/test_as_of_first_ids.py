"""`MemoryStore.first_ids_as_of`: the first screen of the window's past, highest ids first among the
host's rows promoted by then, on a real file (odd promotion times included)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.hostdb import DAY, T0, host_sql, memory_row


def test_the_first_ids_are_the_highest_promoted_by_then(store: MemoryStore) -> None:
    assert store.first_ids_as_of(T0 + 2 * DAY, 10) == [3, 2, 1]  # #4 and #5 were promoted later
    assert store.first_ids_as_of(T0 + 2 * DAY, 2) == [3, 2]
    assert store.first_ids_as_of(T0 - 1, 10) == []
    assert store.first_ids_as_of(store.now() + 100 * DAY, 10) == [5, 4, 3, 2, 1]  # the future is now


def test_odd_promotion_times_and_deleted_rows(host_db: Path, clock: ManualClock) -> None:
    conn = sqlite3.connect(host_db)
    memory_row(conn, 9, "Promoted at a text", promoted_at=T0)
    conn.commit()
    conn.close()
    host_sql(host_db, "UPDATE user_memories SET promoted_at = 'yesterday' WHERE id = 9")
    store = MemoryStore.open(host_db, clock=clock)
    store.delete(4)
    # A text is no time: the first screen leaves it to the whole past; a deleted row is not the host's
    assert store.first_ids_as_of(store.now(), 10) == [5, 3, 2, 1]
    assert {state.memory_id for state in store.as_of(store.now())} >= {9, 5}
    store.close()
