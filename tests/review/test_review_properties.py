"""Property tests (hypothesis): the union of candidate ids and the invariants of every review write.

Whatever sequence of rewrites happens, with candidates found, pruned, repeated or never seen, and a clock
that may run behind the row: ids are never duplicated or dropped, provenance is never NULL-ed and stays
readable to the host, and `updated_at` only moves forward.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.clock import ManualClock
from app.core.provenance import (
    ProvenanceEntry,
    host_can_read,
    merged_provenance_json,
    serialize_provenance,
    union_ids,
)
from app.review.apply import apply_verdict
from app.review.verdict import Dismissal, Update, Verdict
from app.store import MemoryStore
from tests.review.review_helpers import add_candidates, copy_database, memory_row
from tests.support.hostdb import DAY, PROMOTED_5, SEED_PROVENANCE_5, build_host_db

REVIEW_TIME = 1_792_552_412_000
ids_lists = st.lists(st.integers(min_value=1, max_value=60), max_size=12)


@given(existing=ids_lists, appended=ids_lists)
def test_union_is_ordered_deduplicated_and_keeps_everything(existing: list[int], appended: list[int]) -> None:
    merged, added = union_ids(existing, appended)
    base = list(dict.fromkeys(existing))
    assert list(merged[: len(base)]) == base  # the earlier ids first, in their order
    assert len(set(merged)) == len(merged)
    assert set(merged) == set(existing) | set(appended)
    assert list(added) == [i for i in dict.fromkeys(appended) if i not in set(existing)]
    assert union_ids(merged, appended) == (merged, ())  # idempotent


def entry(candidate_id: int) -> ProvenanceEntry:
    return ProvenanceEntry(candidate_id, f"ses_{candidate_id}", None, candidate_id, "update", 1)


@given(previous=st.lists(st.integers(1, 40), unique=True, max_size=8), appended=ids_lists)
def test_merged_provenance_never_drops_or_repeats_and_stays_readable(
    previous: list[int], appended: list[int]
) -> None:
    raw = serialize_provenance(entry(i) for i in previous)
    merged = merged_provenance_json(raw, [entry(i) for i in dict.fromkeys(appended)])
    assert merged is not None and host_can_read(merged)
    ids = [item["candidate_id"] for item in json.loads(merged)]
    assert ids[: len(previous)] == previous and len(set(ids)) == len(ids)
    assert set(ids) == set(previous) | set(appended)
    assert merged_provenance_json(raw, []) == raw
    assert merged_provenance_json(None, []) is None  # a legacy NULL stays NULL until something is found


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = build_host_db(tmp_path_factory.mktemp("template") / "context.db")
    MemoryStore.open(path, clock=ManualClock(REVIEW_TIME)).close()  # migrated once
    yield path


@dataclass(frozen=True)
class Step:
    fresh: int  # new candidates the host collects before this run
    used: tuple[bool, ...]  # which of them the update names (the rest are only consumed)
    pruned: tuple[bool, ...]  # which vanish before the run (they are then named by the store's writer)
    clock_offset: int  # the run's clock relative to the review time; may be far behind the row
    dismiss_other: bool


steps = st.builds(
    Step,
    fresh=st.integers(0, 4),
    used=st.lists(st.booleans(), min_size=4, max_size=4).map(tuple),
    pruned=st.lists(st.booleans(), min_size=4, max_size=4).map(tuple),
    clock_offset=st.integers(-40 * DAY, 2 * DAY),
    dismiss_other=st.booleans(),
)


def run_step(
    store: MemoryStore, db: Path, clock: ManualClock, step: Step, index: int, next_id: int
) -> list[int]:
    """One review run on memory #5; returns the ids it appended (in order)."""
    fresh = list(range(next_id, next_id + step.fresh))
    add_candidates(db, [(cid, f"observation {cid}", f"ses_{cid % 3}") for cid in fresh])
    pruned = [cid for cid, gone in zip(fresh, step.pruned, strict=False) if gone]
    if pruned:
        conn = sqlite3.connect(db)
        conn.execute(
            f"DELETE FROM user_memory_candidates WHERE id IN ({','.join('?' * len(pruned))})", pruned
        )
        conn.commit()
        conn.close()
    pending = [cid for cid in fresh if cid not in pruned]
    used = [cid for cid, flag in zip(pending, step.used, strict=False) if flag]
    clock.set(REVIEW_TIME + step.clock_offset)
    content = f"Prefers pnpm (run {index})"
    if pruned:  # the pruned ones reach the row through the store's writer, with no provenance to copy
        store.update_content(5, content + " pruned", pruned, run_id=f"direct-{index}", source="review")
    dismissals = (Dismissal(4, "obsolete"),) if step.dismiss_other and index == 0 else ()
    verdict = Verdict(
        update_existing=(Update(5, content, tuple(used)),),
        dismiss_existing=dismissals,
        consume_candidate_ids=tuple(pending),
    )
    apply_verdict(store, verdict, run_id=f"run-{index}", holder="prop")
    return pruned + used


def check_invariants(
    db: Path, before: dict[str, object], appended: list[int], sessions: dict[int, str]
) -> None:
    row = memory_row(db, 5)
    ids = json.loads(str(row["source_candidate_ids"]))
    old = json.loads(str(before["source_candidate_ids"]))
    assert ids == old + appended and len(set(ids)) == len(ids)
    raw = row["source_candidate_provenance"]
    assert raw is not None and host_can_read(str(raw))
    provenance = json.loads(str(raw))
    assert provenance[:3] == SEED_PROVENANCE_5
    described = [item["candidate_id"] for item in provenance]
    assert described == [i for i in ids if i in set(described)]  # same order as the ids, no repeats
    assert all(sessions[item["candidate_id"]] == item["session_id"] for item in provenance[3:])
    assert int(str(row["updated_at"])) > int(str(before["updated_at"]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(run=st.lists(steps, min_size=1, max_size=5))
def test_review_runs_keep_every_invariant(template: Path, run: list[Step]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = copy_database(template, Path(folder) / "context.db")
        clock = ManualClock(REVIEW_TIME)
        store = MemoryStore.open(db, clock=clock)
        try:
            next_id, sessions = 1000, {}
            for index, step in enumerate(run):
                before = memory_row(db, 5)
                sessions.update({cid: f"ses_{cid % 3}" for cid in range(next_id, next_id + step.fresh)})
                appended = run_step(store, db, clock, step, index, next_id)
                next_id += step.fresh
                check_invariants(db, before, appended, sessions)
                assert memory_row(db, 5)["promoted_at"] == PROMOTED_5
        finally:
            store.close()
