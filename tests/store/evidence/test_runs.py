"""Review runs on real databases, a host-shaped file and PostgreSQL (`seeded_host`): the dashboard's own
runs and the host's, with inferred changes; unreadable `dream_runs` rows; undo of a run, with a memory
changed after it. Cells only SQLite can hold (text in a time column, a blob) are tested on the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.core.errors import NotFoundError, ReadOnlyError
from app.core.models import RevisionSource
from app.core.models.runs import UNREADABLE
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.review.review_helpers import SEED_UPDATE_IDS, seed_verdict
from tests.support.hostdb import HOUR, host_sql
from tests.support.pg_host import HostDb
from tests.support.runs_helpers import add_dream_run, host_has_it_open, review_tasks

NEW_TEXT = "Prefers pnpm: workspaces, and pnpm in every example"


def host_rewrites(host: HostDb, memory_id: int, content: str, at: int, status: str = "active") -> None:
    """The host's own review rewriting a memory (its own connection)."""
    host.sql(
        "UPDATE user_memories SET content = ?, status = ?, updated_at = ? WHERE id = ?",
        (content, status, at, memory_id),
    )


def pending_ids(host: HostDb) -> list[int]:
    return [int(str(row[0])) for row in host.query("SELECT id FROM user_memory_candidates ORDER BY id")]


def review_run(store: MemoryStore) -> str:
    """The seed's rewrite of #5 plus a dismissal of #4 and a promotion, as one dashboard run."""
    data = seed_verdict(NEW_TEXT)
    data["dismiss_existing"] = [{"memory_id": 4, "reason": "moved"}]
    data["promote"] = [{"content": "Runs pytest -q", "candidate_ids": [151]}]
    data["consume_candidate_ids"] = [*SEED_UPDATE_IDS, 151]
    return apply_verdict(store, parse_verdict(data)).run_id


def test_a_dashboard_run_lists_its_counts_and_its_changes(seeded_store: MemoryStore) -> None:
    store = seeded_store
    run_id = review_run(store)
    (run,) = store.runs()
    assert (run.run_id, run.origin, run.promoted, run.rewrote, run.dismissed, run.consumed) == (
        run_id,
        "dashboard",
        1,
        1,
        1,
        5,
    )
    detail = store.run(run_id)
    assert sorted(detail.memory_ids) == sorted([5, 4, detail.memory_ids[0]])
    assert {change.revision.run_id for change in detail.changes} == {run_id}
    assert not any(change.inferred for change in detail.changes)


def test_undo_restores_what_the_run_changed_in_one_write_and_keeps_a_memory_changed_since(
    seeded_store: MemoryStore, seeded_host: HostDb, clock: ManualClock
) -> None:
    store, host = seeded_store, seeded_host
    run_id = review_run(store)
    promoted = next(mid for mid in store.run(run_id).memory_ids if mid not in (4, 5))
    clock.advance(HOUR)
    store.edit(5, "Prefers pnpm (edited after the review)")  # changed again since the run
    before = host.profile_version()
    clock.advance(HOUR)
    result = store.undo_run(run_id)
    assert host.profile_version() == before + 1  # one write, one bump
    assert {mid for mid, _ in result.restored} == {4, promoted}
    ((kept_id, later),) = result.kept
    assert kept_id == 5 and later.new_content == "Prefers pnpm (edited after the review)"
    assert store.get(5).content == "Prefers pnpm (edited after the review)"  # not touched
    assert store.get(4).status == "active"  # the dismissal is undone
    assert host.query("SELECT count(*) FROM user_memories WHERE id = ?", (promoted,)) == [(0,)]
    for mid, revision_id in result.restored:
        revision = store.revision(revision_id)
        assert revision.memory_id == mid and revision.source == RevisionSource.RESTORE
        assert revision.detail["undo_of_run"] == run_id and revision.run_id is None
    # consumed candidates are not resurrected, but their words stay in the archive
    assert pending_ids(host) == [152]
    assert result.consumed == 5 and set(SEED_UPDATE_IDS) <= set(result.candidate_ids)
    assert {i: e.session_id for i, e in store.evidence(SEED_UPDATE_IDS).items()}[141] == "ses_c3f1"


def test_undo_restores_content_and_status_changed_in_one_run_as_one_revision(
    seeded_store: MemoryStore, seeded_host: HostDb
) -> None:
    store, host = seeded_store, seeded_host
    store.observe()
    start = REVIEW_TIME + HOUR
    host_rewrites(host, 1, "Works in Go", start, status="dismissed")
    host_rewrites(host, 1, "Works in Go only", start + 10, status="dismissed")
    add_dream_run(host, 9, start - 1, start + 60_000, review_tasks("review-user-memories"))
    store.observe()
    before = len(store.history(1))
    ((_, revision_id),) = store.undo_run("host:9").restored
    memory = store.get(1)
    assert (memory.content, memory.status) == ("Works mostly in Python and TypeScript", "active")
    history = store.history(1)
    assert len(history) == before + 1 and history[-1].id == revision_id
    assert (history[-1].previous_status, history[-1].new_status) == ("dismissed", "active")


def test_undoing_twice_touches_nothing_the_second_time(
    seeded_store: MemoryStore, seeded_host: HostDb
) -> None:
    store, host = seeded_store, seeded_host
    run_id = review_run(store)
    store.undo_run(run_id)
    before = host.profile_version()
    again = store.undo_run(run_id)
    assert not again.restored and {mid for mid, _ in again.kept} == {4, 5, *store.run(run_id).memory_ids}
    assert host.profile_version() == before


def test_undo_of_an_unknown_run_is_refused(seeded_store: MemoryStore) -> None:
    with pytest.raises(NotFoundError):
        seeded_store.undo_run("review-none")
    with pytest.raises(NotFoundError):
        seeded_store.undo_run("host:99")


def test_undo_on_a_read_only_store_is_refused(seeded_host: HostDb, clock: ManualClock) -> None:
    writable = MemoryStore.open(seeded_host.target, clock=clock)
    run_id = review_run(writable)
    writable.close()
    read_only = MemoryStore.open(seeded_host.target, read_only=True, clock=clock)
    try:
        assert [run.run_id for run in read_only.runs()] == [run_id]
        with pytest.raises(ReadOnlyError):
            read_only.undo_run(run_id)
    finally:
        read_only.close()


def test_host_runs_with_inferred_changes_and_unreadable_rows(
    seeded_store: MemoryStore, seeded_host: HostDb
) -> None:
    store, host = seeded_store, seeded_host
    store.observe()
    start = REVIEW_TIME + HOUR
    host_rewrites(host, 4, "Lives in Lisbon", start + 5)
    add_dream_run(host, 1, start, start + 60_000, review_tasks("verify", "review-user-memories"))
    add_dream_run(host, 2, start, start + 60_000, review_tasks("curate"))  # no user-memory review
    add_dream_run(host, 3, start - HOUR, start - HOUR, "{not json")
    add_dream_run(host, 4, start, start, '{"name": "review-user-memories"}')  # an object, not a list
    add_dream_run(host, 5, start - 2 * HOUR, start - 2 * HOUR, '[1, {"name": 5}, "review-user-memories"]')
    store.observe()
    found = {run.run_id: run for run in store.runs()}
    assert set(found) == {"host:1", "host:3", "host:4", "host:5"}
    assert found["host:1"].inferred == 1 and found["host:1"].readable
    assert found["host:3"].label == UNREADABLE and "text" in (found["host:3"].problem or "")
    assert found["host:4"].label == UNREADABLE
    assert found["host:5"].readable and found["host:5"].inferred == 0
    detail = store.run("host:1")
    ((change,),) = [detail.changes]
    assert change.inferred and change.revision.memory_id == 4
    assert change.revision.new_content == "Lives in Lisbon"
    assert store.run("host:3").changes == ()


def test_odd_cells_of_a_host_run_are_notes(store: MemoryStore, host_db: Path) -> None:
    """Cells only a file's untyped columns can hold: text in a time column, a blob for the tasks."""
    start = REVIEW_TIME + HOUR
    add_dream_run(host_db, 3, start - HOUR, "yesterday", "{not json")
    add_dream_run(host_db, 4, "soon", start, b"\x00\xff")
    found = {run.run_id: run for run in store.runs()}
    assert set(found) == {"host:3", "host:4"}
    assert found["host:3"].label == UNREADABLE and found["host:3"].notes
    assert found["host:4"].label == UNREADABLE and "blob" in (found["host:4"].problem or "")
    assert store.run("host:3").changes == ()


def test_a_host_run_can_be_undone(seeded_store: MemoryStore, seeded_host: HostDb) -> None:
    store, host = seeded_store, seeded_host
    store.observe()
    start = REVIEW_TIME + HOUR
    host_rewrites(host, 4, "Lives in Lisbon", start)
    add_dream_run(host, 7, start - 1, start + 1, review_tasks("review-user-memories"))
    store.observe()  # the rewrite is observed
    result = store.undo_run("host:7")
    assert [mid for mid, _ in result.restored] == [4]
    assert store.get(4).content == "Lives in Berlin (CET)"


def test_without_a_dream_runs_table_only_the_dashboards_runs_are_listed(seeded_store: MemoryStore) -> None:
    """The seed has no `dream_runs` (the shared schema does not define it): no host runs, no error."""
    assert seeded_store.runs() == []
    with pytest.raises(NotFoundError):
        seeded_store.run("host:1")
    run_id = review_run(seeded_store)
    assert [run.run_id for run in seeded_store.runs()] == [run_id]


def test_a_read_only_store_attributes_what_it_observed_in_memory(
    seeded_host: HostDb, clock: ManualClock
) -> None:
    with host_has_it_open(seeded_host):
        read_only = MemoryStore.open(seeded_host.target, read_only=True, clock=clock)
        try:
            attributes_in_memory(read_only, seeded_host)
        finally:
            read_only.close()


def attributes_in_memory(read_only: MemoryStore, host: HostDb) -> None:
    read_only.observe()
    start = REVIEW_TIME + HOUR
    host_rewrites(host, 4, "Lives in Lisbon", start)
    add_dream_run(host, 8, start - 1, start + 1, review_tasks("review-user-memories"))
    read_only.observe()
    (run,) = read_only.runs()  # the store has no tables of its own: its observations live in memory
    assert run.inferred == 1
    (change,) = read_only.run("host:8").changes
    assert change.inferred and change.revision.new_content == "Lives in Lisbon" and change.revision.id < 0


def test_a_dream_runs_table_of_another_shape_is_read_as_it_is(store: MemoryStore, host_db: Path) -> None:
    host_sql(
        host_db,
        "CREATE TABLE dream_runs (id TEXT PRIMARY KEY, started_at, tasks_json) WITHOUT ROWID",
    )
    host_sql(host_db, "INSERT INTO dream_runs VALUES ('n1', 5, '[\"review-user-memories\"]')")
    host_sql(host_db, "INSERT INTO dream_runs VALUES ('n2', x'00', NULL)")
    found = {run.run_id: run for run in store.runs()}
    assert found["host:n1"].readable and found["host:n1"].finished_at is None
    assert found["host:n2"].label == UNREADABLE and found["host:n2"].notes
    assert store.run("host:n1").run.started_at == 5


@pytest.mark.parametrize("key", ["id TEXT PRIMARY KEY, ", ""])
def test_a_dream_runs_table_of_another_shape_on_postgresql(
    postgres_db: str, tmp_path: Path, clock: ManualClock, key: str
) -> None:
    """A server's `dream_runs` of another shape: a text id, or no id at all (its rows are then told apart
    by their place in the table)."""
    from tests.support.pg_host import seed_postgres

    host = seed_postgres(postgres_db, tmp_path)
    host.sql(f"CREATE TABLE dream_runs ({key}started_at BIGINT, tasks_json TEXT, finished_at TEXT)")
    columns = "id, started_at, tasks_json" if key else "started_at, tasks_json"
    values = ["'n1', 5, '[\"review-user-memories\"]'", "'n2', NULL, NULL"]
    for row in values:
        shown = row if key else row.split(", ", 1)[1]
        host.sql(f"INSERT INTO dream_runs ({columns}) VALUES ({shown})")
    store = MemoryStore.open(postgres_db, clock=clock)
    try:
        runs = store.runs()
        readable = [run for run in runs if run.readable]
        unreadable = [run for run in runs if not run.readable]
        assert len(readable) == 1 and len(unreadable) == 1
        (first,) = readable
        assert first.started_at == 5 and first.finished_at is None
        assert (first.run_id == "host:n1") if key else first.run_id.startswith("host:")
        assert store.run(first.run_id).run == first
        assert unreadable[0].notes  # a NULL start is said
    finally:
        store.close()
