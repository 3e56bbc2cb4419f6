"""`MemoryStore.changed_elsewhere`: only another connection's commit counts, never the store's own writes."""

from __future__ import annotations

from pathlib import Path

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.hostdb import host_sql

NOW = 1_800_000_000_000


def test_own_writes_do_not_count_and_the_hosts_do(host_db: Path) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(NOW))
    assert store.changed_elsewhere()  # nothing looked at yet: it cannot tell
    store.observe()  # records every memory's baseline (a write), then
    store.observe()  # a look that finds nothing new
    assert not store.changed_elsewhere()
    store.edit(2, "Prefers tabs, width 4")
    store.index_pending_changes()
    assert not store.changed_elsewhere()
    host_sql(
        host_db, "UPDATE user_memories SET content = 'Lives in Hamburg', updated_at = ? WHERE id = 4", (NOW,)
    )
    assert store.changed_elsewhere()
    store.observe()  # records the rewrite (a write of its own), then
    store.observe()  # a look that finds nothing new
    assert not store.changed_elsewhere()
    store.close()


def test_a_read_only_store_over_a_memory_log_always_says_yes(host_db: Path) -> None:
    store = MemoryStore.open(host_db, clock=ManualClock(NOW), read_only=True)
    store.observe()
    assert store.changed_elsewhere()
    store.close()


def test_a_look_that_recorded_everything_needs_no_second_look(host_db: Path) -> None:
    # Observing is an explicit call now (no read observes again behind it): a look whose write recorded
    # all there was, with nobody committing in between, leaves the store knowing it is current.
    store = MemoryStore.open(host_db, clock=ManualClock(NOW))
    assert store.observe() == []  # the first look records every memory's baseline
    assert not store.changed_elsewhere()
    host_sql(
        host_db, "UPDATE user_memories SET content = 'Lives in Hamburg', updated_at = ? WHERE id = 4", (NOW,)
    )
    assert store.changed_elsewhere()
    assert [rev.memory_id for rev in store.observe()] == [4]
    assert not store.changed_elsewhere()
    store.close()
