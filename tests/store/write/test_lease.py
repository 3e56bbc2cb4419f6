"""The host's lease protocol against a second sqlite3 connection (another process) holding or taking it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.core.errors import LeaseHeldError
from app.review.apply import ApplyResult, acquire_for, apply_under_lease, apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from app.store.write import lease as leases
from tests.review.review_helpers import (
    hold_lease,
    lease_rows,
    memory_row,
    pending_ids,
    seed_verdict,
    snapshot,
)
from tests.support.hostdb import host_sql, profile_version, query

NOW = 1_792_552_412_000
SEED = parse_verdict(seed_verdict())


def test_an_unexpired_lease_of_another_holder_refuses_and_changes_nothing(
    store: MemoryStore, host_db: Path
) -> None:
    hold_lease(host_db, "host-dreamer", expiry=NOW + 1, generation=4)
    before = snapshot(host_db)
    with pytest.raises(LeaseHeldError) as caught:
        apply_verdict(store, SEED, run_id="r", holder="dashboard")
    assert "held by host-dreamer until 2026-10-21 03:13:32 UTC" in caught.value.message
    assert "Nothing was changed" in caught.value.message
    assert snapshot(host_db) == before
    assert lease_rows(host_db) == {
        "holder": "host-dreamer",
        "heartbeat": str(NOW + 1 - 120_000),
        "expiry": str(NOW + 1),
        "generation": "4",
    }


def test_a_lease_expiring_now_is_taken_over(store: MemoryStore, host_db: Path) -> None:
    hold_lease(host_db, "host-dreamer", expiry=NOW, generation=4)  # held while now < expiry: not any more
    result = apply_verdict(store, SEED, run_id="r", holder="dashboard")
    assert result.updated == 1
    assert lease_rows(host_db) == {"generation": "5"}


def test_acquiring_writes_the_four_rows_as_text_and_other_processes_see_them(
    store: MemoryStore, host_db: Path
) -> None:
    hold_lease(host_db, "crashed-dreamer", expiry=NOW - 60_000, generation=9)
    taken = acquire_for(store, SEED, "r", "dashboard")
    assert isinstance(taken, leases.Lease)
    assert lease_rows(host_db) == {
        "holder": "dashboard",
        "heartbeat": str(NOW),
        "expiry": str(NOW + 120_000),
        "generation": "10",
    }
    assert taken.generation == 10


def test_a_crash_between_acquire_and_apply_blocks_only_until_expiry(
    store: MemoryStore, host_db: Path, clock: ManualClock
) -> None:
    acquire_for(store, SEED, "crashed-run", "dashboard-that-crashed")
    with pytest.raises(LeaseHeldError):
        apply_verdict(store, SEED, run_id="next", holder="another")
    clock.advance(leases.LEASE_DURATION_MS)
    assert apply_verdict(store, SEED, run_id="next", holder="another").updated == 1


def test_the_same_holder_may_take_its_own_unexpired_lease_again(store: MemoryStore, host_db: Path) -> None:
    hold_lease(host_db, "dashboard", expiry=NOW + 60_000, generation=2)
    assert apply_verdict(store, SEED, holder="dashboard").updated == 1
    assert lease_rows(host_db) == {"generation": "3"}


def test_a_lease_taken_over_before_the_apply_rolls_everything_back(store: MemoryStore, host_db: Path) -> None:
    before = memory_row(host_db, 5)
    lease = acquire_for(store, SEED, "r", "dashboard")
    assert isinstance(lease, leases.Lease)
    # Another process decides our lease is stale and takes it (generation moves).
    hold_lease(host_db, "host-dreamer", expiry=NOW + 120_000, generation=lease.generation + 1)
    with pytest.raises(LeaseHeldError) as caught:
        apply_under_lease(store, SEED, lease, "r")
    assert "taken over" in caught.value.message
    assert memory_row(host_db, 5) == before
    assert pending_ids(host_db) == [141, 143, 145, 146, 151, 152]
    assert lease_rows(host_db)["holder"] == "host-dreamer"


def test_a_generation_moved_right_before_commit_rolls_back(store: MemoryStore, host_db: Path) -> None:
    before_row, version = memory_row(host_db, 5), profile_version(host_db)

    def takeover(conn: object) -> None:
        conn.exec_driver_sql(  # type: ignore[attr-defined]
            "UPDATE dream_state SET value = '99' WHERE key = 'lease:user-memories:generation'"
        )

    with pytest.raises(LeaseHeldError):
        apply_verdict(store, SEED, run_id="r", holder="dashboard", before_commit=takeover)
    assert memory_row(host_db, 5) == before_row
    assert pending_ids(host_db) == [141, 143, 145, 146, 151, 152]
    assert profile_version(host_db) == version
    assert query(host_db, "SELECT count(*) FROM mdash_review_runs") == [(0,)]
    assert query(host_db, "SELECT count(*) FROM mdash_revisions WHERE run_id = 'r'") == [(0,)]
    assert lease_rows(host_db) == {"generation": "1"}  # our acquire stays counted; the lease is released


def test_a_candidate_pruned_between_acquire_and_apply_is_skipped_there_and_the_lease_released(
    store: MemoryStore, host_db: Path
) -> None:
    lease = acquire_for(store, SEED, "r", "dashboard")
    assert isinstance(lease, leases.Lease)
    host_sql(host_db, "DELETE FROM user_memory_candidates WHERE id = 143")  # pruned in between
    result = apply_under_lease(store, SEED, lease, "r")  # fitted again inside the write transaction
    assert result.skipped == (
        "update_existing[0].candidate_ids[1]: candidate #143 is not in the pool"
        " (unknown, consumed or pruned); skipped",
    )
    assert result.updated == 1
    assert memory_row(host_db, 5)["source_candidate_ids"] == "[46,47,48,141,145,146]"
    assert pending_ids(host_db) == [151, 152]
    assert lease_rows(host_db) == {"generation": "1"}


def test_release_keeps_another_holders_lease(store: MemoryStore, host_db: Path) -> None:
    lease = acquire_for(store, SEED, "r", "dashboard")
    assert isinstance(lease, leases.Lease)
    hold_lease(host_db, "host-dreamer", expiry=NOW + 120_000, generation=lease.generation + 1)
    with store.write() as ctx:
        assert leases.release(ctx.conn, lease) is False
    assert lease_rows(host_db)["holder"] == "host-dreamer"


def test_an_already_applied_run_does_not_touch_the_lease(store: MemoryStore, host_db: Path) -> None:
    apply_verdict(store, SEED, run_id="r", holder="dashboard")
    hold_lease(host_db, "host-dreamer", expiry=NOW + 120_000, generation=5)
    result = apply_verdict(store, SEED, run_id="r", holder="dashboard")
    assert isinstance(result, ApplyResult) and result.already_applied
    assert lease_rows(host_db)["generation"] == "5"


@pytest.mark.parametrize("expiry", ["not a number", ""])
def test_an_unreadable_expiry_reads_as_free(store: MemoryStore, host_db: Path, expiry: str) -> None:
    conn = sqlite3.connect(host_db)
    conn.executemany(
        "INSERT INTO dream_state (key, value) VALUES (?, ?)",
        [("lease:user-memories:holder", "x"), ("lease:user-memories:expiry", expiry)],
    )
    conn.commit()
    conn.close()
    assert apply_verdict(store, SEED, holder="dashboard").updated == 1


def test_numbers_written_as_floats_are_read(store: MemoryStore, host_db: Path) -> None:
    hold_lease(host_db, "host-dreamer", expiry=NOW + 5_000, generation=3)
    host_sql(
        host_db,
        "UPDATE dream_state SET value = ? WHERE key = ?",
        (f"{NOW + 5_000}.0", "lease:user-memories:expiry"),
    )
    with store.write() as ctx:
        state = leases.read_lease(ctx.conn)
    assert state.expiry == NOW + 5_000 and state.held_at(NOW) and state.generation == 3


def test_a_lease_that_expired_before_the_apply_is_not_used(
    store: MemoryStore, host_db: Path, clock: ManualClock
) -> None:
    taken = acquire_for(store, SEED, "late-run", "dashboard")
    assert isinstance(taken, leases.Lease)
    before = snapshot(host_db)
    clock.advance(3 * 60_000)  # past the two-minute lease
    with pytest.raises(LeaseHeldError, match="expired"):
        apply_under_lease(store, SEED, taken, "late-run")
    assert snapshot(host_db) == before
