"""Undoing a review run, on a host-shaped file and PostgreSQL: a rewritten memory stops citing the
candidates the run added to it (its two source columns as they were before the run, a legacy NULL
provenance too), the run is listed as undone, and a run says which candidates it consumed."""

from __future__ import annotations

import json

from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from tests.review.review_helpers import SEED_UPDATE_IDS, seed_verdict, verdict
from tests.support.pg_host import HostDb

NEW_TEXT = "Prefers pnpm: workspaces, and pnpm in every example"
SOURCES = "SELECT source_candidate_ids, source_candidate_provenance FROM user_memories WHERE id = ?"


def sources(host: HostDb, memory_id: int) -> list[object]:
    """The row's two source columns, parsed."""
    ((ids, provenance),) = host.query(SOURCES, (memory_id,))
    return [json.loads(str(ids)), json.loads(str(provenance))]


def test_undo_gives_back_the_sources_a_rewrite_had(seeded_store: MemoryStore, seeded_host: HostDb) -> None:
    store, host = seeded_store, seeded_host
    before = sources(host, 5)
    run_id = apply_verdict(store, parse_verdict(seed_verdict(NEW_TEXT))).run_id
    assert set(SEED_UPDATE_IDS) <= set(store.get(5).source_candidate_ids)
    ((_, revision_id),) = store.undo_run(run_id).restored
    assert sources(host, 5) == before  # every entry the host wrote, with its keys
    assert store.get(5).source_candidate_ids == (46, 47, 48)
    assert store.revision(revision_id).detail["dropped_candidate_ids"] == list(SEED_UPDATE_IDS)


def test_undo_gives_back_an_unknown_provenance(seeded_store: MemoryStore, seeded_host: HostDb) -> None:
    store, host = seeded_store, seeded_host
    assert host.query(SOURCES, (3,))[0][1] is None  # a legacy row: provenance unknown
    update = [{"memory_id": 3, "content": "Legacy memory, now with evidence", "candidate_ids": [141]}]
    run_id = apply_verdict(store, parse_verdict(verdict(update_existing=update, consume=[141]))).run_id
    assert store.get(3).provenance is not None
    store.undo_run(run_id)
    ((ids, provenance),) = host.query(SOURCES, (3,))
    assert json.loads(str(ids)) == [7, 8] and provenance is None  # NULL again, not an empty list
    assert store.get(3).provenance is None


def test_a_run_is_listed_as_undone_and_names_what_it_consumed(seeded_store: MemoryStore) -> None:
    store = seeded_store
    run_id = apply_verdict(store, parse_verdict(seed_verdict(NEW_TEXT))).run_id
    (run,) = store.runs()
    assert run.undone_at is None and run.consumed_ids == SEED_UPDATE_IDS
    store.clock.advance(60_000)  # type: ignore[attr-defined]
    store.undo_run(run_id)
    (run,) = store.runs()
    assert run.undone_at == store.now() and "· undone" in run.counts_line()
    assert store.run(run_id).run.undone_at == store.now()
    assert store.run(run_id).to_json()["consumed_candidate_ids"] == list(SEED_UPDATE_IDS)
