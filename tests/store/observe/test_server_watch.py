"""PostgreSQL's change watch (`server_watch`): the server's snapshots tell whether anyone else committed
since the last clean look; our own writes do not count; what is pure is tested without a server.

"Nothing changed" holds on a quiet server: the throwaway cluster of `pg_cluster` (autovacuum off, one
test at a time). On a server of your own (MEMORY_DASHBOARD_TEST_PG) another database's commit during a
test is, rightly, a change to the watch."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

from app.core.clock import ManualClock
from app.store import MemoryStore
from app.store.observe.server_watch import SPAN_TOLD, Snapshot, parse_snapshot
from tests.support.pg_host import PostgresHostDb, libpq_conninfo, seed_postgres

NOW = 1_792_552_412_000


def test_a_snapshot_reads_as_postgresql_writes_it() -> None:
    assert parse_snapshot("10:14:10,12") == Snapshot(10, 14, frozenset({10, 12}))
    assert parse_snapshot("7:7:") == Snapshot(7, 7, frozenset())


@pytest.mark.parametrize(
    ("before", "after", "ended"),
    [
        ("10:14:10,12", "10:14:10,12", set()),  # nothing ended
        ("10:14:10,12", "10:14:10", {12}),  # a running one ended
        ("10:14:10,12", "10:16:10,12,14", {15}),  # 14 still runs, 15 ended
        ("10:14:", "16:16:", {14, 15}),
    ],
)
def test_the_ids_that_ended_between_two_snapshots(before: str, after: str, ended: set[int]) -> None:
    assert parse_snapshot(after).ended_since(parse_snapshot(before)) == frozenset(ended)


def test_too_many_ids_in_between_cannot_be_told() -> None:
    assert parse_snapshot(f"1:{SPAN_TOLD + 5}:").ended_since(parse_snapshot("1:2:")) is None


@pytest.fixture
def pg(postgres_db: str, tmp_path: Path) -> Iterator[tuple[MemoryStore, PostgresHostDb]]:
    host = seed_postgres(postgres_db, tmp_path)
    with closing(MemoryStore.open(postgres_db, clock=ManualClock(NOW))) as store:
        yield store, host


def test_own_writes_are_no_outside_change_and_the_hosts_are(pg: tuple[MemoryStore, PostgresHostDb]) -> None:
    store, host = pg
    store.observe()
    assert not store.changed_elsewhere()
    store.edit(5, "Prefers pnpm, always")  # our own commit
    store.dismiss(4)
    assert not store.changed_elsewhere()
    host.sql("UPDATE user_memories SET content = 'Works in Go' WHERE id = 1")  # the host's commit
    assert store.changed_elsewhere()
    (observed,) = store.observe()
    assert observed.memory_id == 1 and observed.new_content == "Works in Go"
    assert not store.changed_elsewhere()  # what the scan found is recorded
    assert store.observe() == []


def test_a_rewrite_keeping_updated_at_is_seen(pg: tuple[MemoryStore, PostgresHostDb]) -> None:
    store, host = pg
    store.observe()
    host.sql("UPDATE user_memories SET content = 'Prefers tabs, always' WHERE id = 2")
    assert store.changed_elsewhere()
    assert [revision.memory_id for revision in store.observe()] == [2]


def test_a_commit_elsewhere_that_changes_nothing_costs_one_scan(
    pg: tuple[MemoryStore, PostgresHostDb],
) -> None:
    store, host = pg
    store.observe()
    host.sql("INSERT INTO dream_state VALUES ('other', 'x')")  # a commit, not to the memories
    assert store.changed_elsewhere()  # the snapshot cannot tell which table: a scan tells
    assert store.observe() == []
    assert not store.changed_elsewhere()


def test_a_transaction_running_during_the_look_is_seen_when_it_commits(
    pg: tuple[MemoryStore, PostgresHostDb],
) -> None:
    store, host = pg
    with psycopg.connect(libpq_conninfo(host.url)) as other:
        other.execute("UPDATE user_memories SET content = 'Lives in Lisbon' WHERE id = 4")  # not committed
        store.observe()  # the look: that transaction still runs
        assert not store.changed_elsewhere()
        other.commit()
    assert store.changed_elsewhere()
    assert [revision.new_content for revision in store.observe()] == ["Lives in Lisbon"]


def test_a_read_only_store_tells_too(postgres_db: str, tmp_path: Path) -> None:
    host = seed_postgres(postgres_db, tmp_path)
    with closing(MemoryStore.open(postgres_db, read_only=True, clock=ManualClock(NOW))) as store:
        store.observe()
        assert not store.changed_elsewhere()
        host.sql("UPDATE user_memories SET content = 'Works in Go' WHERE id = 1")
        assert store.changed_elsewhere()
        assert [revision.memory_id for revision in store.observe()] == [1]
        assert not store.changed_elsewhere()
