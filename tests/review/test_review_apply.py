"""Applying a verdict through the store's writers: the seed's acceptance, provenance, idempotency."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.core.provenance import host_can_read
from app.present.card import card_meta
from app.review.apply import ApplyResult, apply_verdict
from app.review.errors import VerdictError
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from tests.review.review_helpers import lease_rows, memory_row, pending_ids, seed_verdict, snapshot, verdict
from tests.support.hostdb import HOUR, PROMOTED_5, SEED_PROVENANCE_5, host_sql, profile_version, query

REVIEW_TIME = 1_792_552_412_000


def apply_document(store: MemoryStore, document: dict[str, object], run_id: str | None = None) -> ApplyResult:
    return apply_verdict(store, parse_verdict(document), run_id=run_id, holder="test-holder")


def test_the_seed_rewrite_accumulates_ids_and_provenance(store: MemoryStore, host_db: Path) -> None:
    result = apply_verdict(store, parse_verdict(seed_verdict()), run_id="run-1", holder="test-holder")
    assert (result.promoted, result.updated, result.dismissed, result.consumed) == (0, 1, 0, 4)
    assert result.changed_memory_ids == (5,) and result.run_id == "run-1" and not result.already_applied

    row = memory_row(host_db, 5)
    assert json.loads(row["source_candidate_ids"]) == [46, 47, 48, 141, 143, 145, 146]
    provenance = json.loads(row["source_candidate_provenance"])
    assert [e["candidate_id"] for e in provenance] == [46, 47, 48, 141, 143, 145, 146]
    assert provenance[:3] == SEED_PROVENANCE_5
    assert [(e["session_id"], e["origin"], e["added_at"]) for e in provenance[3:]] == [
        ("ses_c3f1", "update", REVIEW_TIME),
        ("ses_c3f1", "update", REVIEW_TIME),
        ("ses_d9e2", "update", REVIEW_TIME),
        ("ses_d9e2", "update", REVIEW_TIME),
    ]
    assert host_can_read(row["source_candidate_provenance"])
    assert row["updated_at"] == REVIEW_TIME and row["promoted_at"] == PROMOTED_5
    assert pending_ids(host_db) == [151, 152]
    assert profile_version(host_db) == 8  # bumped once
    assert lease_rows(host_db) == {"generation": "1"}  # released; the generation stays


def test_every_change_writes_a_review_revision_with_the_run_id(store: MemoryStore) -> None:
    document = seed_verdict()
    document["promote"] = [{"content": "Runs pytest -q before committing", "candidate_ids": [151]}]
    document["dismiss_existing"] = [{"memory_id": 4, "reason": "moved to Lisbon"}]
    document["consume_candidate_ids"] = [*document["consume_candidate_ids"], 151, 152]
    result = apply_verdict(store, parse_verdict(document), run_id="run-7")
    assert (result.promoted, result.updated, result.dismissed, result.consumed) == (1, 1, 1, 6)
    (new_id,) = result.promoted_memory_ids
    assert set(result.changed_memory_ids) == {new_id, 5, 4}

    revisions = [rev for memory_id in result.changed_memory_ids for rev in store.history(memory_id)]
    ours = [rev for rev in revisions if rev.run_id == "run-7"]
    assert {(rev.memory_id, rev.kind, rev.source) for rev in ours} == {
        (new_id, "create", "review"),
        (5, "content", "review"),
        (4, "status", "review"),
    }
    dismissal = next(rev for rev in ours if rev.memory_id == 4)
    assert dismissal.detail["reason"] == "moved to Lisbon" and dismissal.new_status == "dismissed"
    promoted = store.get(new_id)
    assert promoted.provenance is not None and promoted.provenance[0].origin == "promotion"
    assert promoted.provenance[0].session_id == "ses_e004"
    assert host_can_read(promoted.provenance_raw)
    assert store.get(4).status == "dismissed"


def test_nine_ids_collapse_to_eight_and_a_count(store: MemoryStore, clock: ManualClock) -> None:
    apply_document(store, seed_verdict())
    clock.advance(HOUR)
    apply_document(
        store,
        verdict(
            update_existing=[
                {"memory_id": 5, "content": "Prefers pnpm; tests first", "candidate_ids": [151, 152]}
            ],
            consume=[151, 152],
        ),
    )
    clock.advance(HOUR)
    memory = store.get(5)
    assert memory.source_candidate_ids == (46, 47, 48, 141, 143, 145, 146, 151, 152)
    assert card_meta(memory, clock.now_ms()).endswith("46, 47, 48, 141, 143, 145, 146, 151 +1 more")
    assert "updated 1h ago" in card_meta(memory, clock.now_ms())


def test_reapplying_a_run_id_is_a_no_op_that_says_so(store: MemoryStore, host_db: Path) -> None:
    first = apply_document(store, seed_verdict(), run_id="run-once")
    before = snapshot(host_db)
    again = apply_verdict(store, parse_verdict(seed_verdict("different text")), run_id="run-once")
    assert again.already_applied and again.applied_at == REVIEW_TIME
    assert again.counts_line() == first.counts_line()
    assert snapshot(host_db) == before


def test_a_new_run_id_is_made_when_none_is_given(store: MemoryStore, host_db: Path) -> None:
    result = apply_verdict(store, parse_verdict(verdict()))
    assert result.run_id.startswith("review-")
    assert query(host_db, "SELECT run_id FROM mdash_review_runs") == [(result.run_id,)]
    assert profile_version(host_db) == 7  # nothing the host injects changed


def test_a_rejected_verdict_changes_nothing(store: MemoryStore, host_db: Path) -> None:
    """A verdict that contradicts itself is rejected whole, whatever else in it could apply."""
    apply_document(store, seed_verdict(), run_id="first")
    before = snapshot(host_db)
    contradiction = seed_verdict("again")
    contradiction["dismiss_existing"] = [{"memory_id": 5, "reason": "stale"}, {"memory_id": 4}]
    with pytest.raises(VerdictError) as caught:
        apply_document(store, contradiction, run_id="second")
    assert "memory #5 is both dismissed and updated" in caught.value.message
    assert snapshot(host_db) == before


def test_candidates_deleted_before_the_review_cannot_clear_provenance(
    store: MemoryStore, host_db: Path
) -> None:
    """The update applies, its vanished candidates skipped and said; the provenance stays."""
    before = memory_row(host_db, 5)
    host_sql(host_db, "DELETE FROM user_memory_candidates WHERE id IN (141, 143, 145, 146)")
    result = apply_document(store, seed_verdict(), run_id="late")
    after = memory_row(host_db, 5)
    assert after["source_candidate_provenance"] == before["source_candidate_provenance"]
    assert json.loads(after["source_candidate_ids"]) == [46, 47, 48]
    assert result.updated == 1 and result.consumed == 0
    assert sum("#141 is not in the pool" in line for line in result.skipped) == 1
    (revision,) = store.history(5)
    assert revision.candidate_ids == () and revision.detail["evidence"].startswith("none")


def test_an_update_whose_candidate_rows_are_gone_keeps_the_provenance(
    store: MemoryStore, host_db: Path
) -> None:
    """The store's writer (the review's path): ids are still appended; the provenance JSON stays as it was."""
    before = memory_row(host_db, 5)["source_candidate_provenance"]
    host_sql(host_db, "DELETE FROM user_memory_candidates WHERE id IN (141, 143, 145, 146)")
    store.update_content(5, "Prefers pnpm everywhere", [141, 143, 145, 146], run_id="r", source="review")
    row = memory_row(host_db, 5)
    assert row["source_candidate_provenance"] == before
    assert json.loads(row["source_candidate_ids"]) == [46, 47, 48, 141, 143, 145, 146]
    assert store.get(5).unknown_provenance_ids == (141, 143, 145, 146)


def test_repeated_updates_never_duplicate_ids_and_time_never_goes_back(
    store: MemoryStore, host_db: Path, clock: ManualClock
) -> None:
    apply_document(store, seed_verdict())
    first = memory_row(host_db, 5)["updated_at"]
    clock.set(PROMOTED_5 - 5 * HOUR)  # a clock far behind the row
    apply_document(
        store,
        verdict(
            update_existing=[{"memory_id": 5, "content": "Prefers pnpm!", "candidate_ids": [151]}],
            consume=[151],
        ),
    )
    second = memory_row(host_db, 5)["updated_at"]
    apply_document(
        store,
        verdict(update_existing=[{"memory_id": 5, "content": "Prefers pnpm!!", "candidate_ids": []}]),
    )
    row = memory_row(host_db, 5)
    assert first < second < row["updated_at"]
    ids = json.loads(row["source_candidate_ids"])
    assert ids == [46, 47, 48, 141, 143, 145, 146, 151] and len(set(ids)) == len(ids)
    assert host_can_read(row["source_candidate_provenance"])


def test_a_legacy_row_without_provenance_gains_only_the_found_entries(
    store: MemoryStore, host_db: Path
) -> None:
    apply_document(
        store,
        verdict(
            update_existing=[{"memory_id": 3, "content": "Legacy, refined", "candidate_ids": [152]}],
            consume=[152],
        ),
    )
    row = memory_row(host_db, 3)
    assert json.loads(row["source_candidate_ids"]) == [7, 8, 152]
    assert [e["candidate_id"] for e in json.loads(row["source_candidate_provenance"])] == [152]
    assert store.get(3).unknown_provenance_ids == (7, 8)


def test_a_host_rewrite_not_yet_seen_is_recorded_before_the_review(store: MemoryStore, host_db: Path) -> None:
    store.observe()  # the store has looked once
    host_sql(
        host_db,
        "UPDATE user_memories SET content = 'Prefers pnpm, says the host', updated_at = ? WHERE id = 5",
        (REVIEW_TIME - HOUR,),
    )
    apply_document(store, seed_verdict("Prefers pnpm everywhere"), run_id="after-host")
    history = store.history(5)
    assert [(rev.source, rev.previous_content, rev.new_content) for rev in history[-2:]] == [
        ("observed", "Prefers pnpm", "Prefers pnpm, says the host"),
        ("review", "Prefers pnpm, says the host", "Prefers pnpm everywhere"),
    ]
