"""The past of project memories with the kind as a parameter (`app.store.past.project_past`): history
with word diffs, blame over the project log, and a project as of an instant before and after an
outside rewrite and an archive, with memories first seen later marked unknown."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect

from app.core.clock import ManualClock
from app.core.errors import NotFoundError
from app.diff.engine import raw_diff
from app.store import MemoryStore
from app.store.kinds import PROJECT_MEMORIES
from app.store.past.project_past import LOGGED_BY_PROJECT
from tests.support.host80 import ALPHA, DAY, NOW, T0, Seeded, add_memory, build_host80, seed_projects


@pytest.fixture
def seeded_file(tmp_path: Path) -> tuple[Path, Seeded]:
    path = build_host80(tmp_path / "context.db")
    return path, seed_projects(path)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NOW)


@pytest.fixture
def store(seeded_file: tuple[Path, Seeded], clock: ManualClock) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(seeded_file[0], clock=clock)
    opened.observe()  # the baseline, at NOW
    yield opened
    opened.close()


def host_update(path: Path, sql: str, *params: object) -> None:
    writer = sqlite3.connect(path, timeout=5)
    with writer:
        writer.execute(sql, params)
    writer.close()


def injected_ids(store: MemoryStore, at: int) -> list[int]:
    return [state.memory_id for state in store.project_as_of(ALPHA, at) if state.known]


def test_history_and_blame_of_a_project_memory(
    store: MemoryStore, seeded_file: tuple[Path, Seeded], clock: ManualClock
) -> None:
    path, seeded = seeded_file
    clock.set(NOW + DAY)
    host_update(
        path,
        "UPDATE memories SET content = ?, updated_at = ? WHERE id = ?",
        "Build with pnpm. Never use npm.",
        NOW + DAY,
        seeded.active,
    )
    store.observe()
    history = store.history(seeded.active, kind=PROJECT_MEMORIES)
    assert [(r.kind, r.source) for r in history] == [("content", "observed")]
    ops = raw_diff(history[0].previous_content or "", history[0].new_content or "")
    assert ("equal", "Build with pnpm") in ops  # a word diff: the words kept stay equal
    assert {op for op, _ in ops} == {"equal", "insert", "delete"}
    blame = store.blame(seeded.active, kind=PROJECT_MEMORIES)
    assert [(line.text.strip(), line.origin.revision_id) for line in blame.lines] == [
        ("Build with pnpm.", history[0].id),
        ("Never use npm.", history[0].id),
    ]
    untouched = store.blame(seeded.beta, kind=PROJECT_MEMORIES)
    assert [(line.origin.source, line.origin.at) for line in untouched.lines] == [("first_seen", NOW)]
    with pytest.raises(NotFoundError):
        store.blame(424_242, kind=PROJECT_MEMORIES)
    # The user memories' history is not the project's: the same id there has none.
    assert store.history(seeded.active) == []


def test_as_of_before_and_after_a_rewrite_and_an_archive(
    store: MemoryStore, seeded_file: tuple[Path, Seeded], clock: ManualClock
) -> None:
    path, seeded = seeded_file
    now_injected = injected_ids(store, NOW)
    assert seeded.active in now_injected and seeded.permanent in now_injected
    rewrite_at, archive_at = NOW + DAY, NOW + 2 * DAY
    host_update(
        path,
        "UPDATE memories SET content = 'Build with bun', updated_at = ? WHERE id = ?",
        rewrite_at,
        seeded.active,
    )
    clock.set(rewrite_at)
    store.observe()
    host_update(
        path,
        "UPDATE memories SET status = 'archived', updated_at = ? WHERE id = ?",
        archive_at,
        seeded.permanent,
    )
    clock.set(archive_at + 1)
    store.observe()

    def content_of(at: int, memory_id: int) -> str | None:
        found = {s.memory_id: s for s in store.project_as_of(ALPHA, at)}
        state = found.get(memory_id)
        return None if state is None or state.memory is None else state.memory.content

    assert content_of(NOW + 1, seeded.active) == "Build with pnpm, never npm"
    assert content_of(rewrite_at, seeded.active) == "Build with bun"
    assert seeded.permanent in injected_ids(store, archive_at - 1)
    assert seeded.permanent not in injected_ids(store, archive_at)
    assert injected_ids(store, archive_at + 1) == [m.id for m in store.project.injected(ALPHA)]
    # The host's order then: category, then updated_at descending, then id.
    states = [s.memory for s in store.project_as_of(ALPHA, NOW + 1) if s.memory is not None]
    assert [(m.category, -m.updated_at, m.id) for m in states] == sorted(
        (m.category, -m.updated_at, m.id) for m in states
    )
    # An archived memory's state before its archive says it was injected then (it was permanent).
    before = next(s for s in store.project_as_of(ALPHA, NOW + 1) if s.memory_id == seeded.permanent)
    assert before.memory is not None and before.memory.status == "permanent" and before.injected


def test_memories_first_seen_after_the_instant_are_unknown_not_guessed(
    store: MemoryStore, seeded_file: tuple[Path, Seeded], clock: ManualClock
) -> None:
    path = seeded_file[0]
    # Before the first look (NOW): nothing was recorded of them then, although the host had them.
    earlier = store.project_as_of(ALPHA, NOW - DAY)
    assert earlier and all(not state.known and state.memory is None for state in earlier)
    assert {state.unknown_before for state in earlier} == {NOW}
    # A memory the host created after an instant is not there at all then.
    writer = sqlite3.connect(path)
    with writer:
        late = add_memory(writer, ALPHA, "Created late", created_at=NOW + 5, updated_at=NOW + 5)
    writer.close()
    clock.set(NOW + 10)
    store.observe()
    assert late not in {state.memory_id for state in store.project_as_of(ALPHA, NOW + 1)}
    assert store.project_as_of(ALPHA, T0 - DAY) == []  # the host created every one of them after that
    assert earlier[0].to_json()["known"] is False and earlier[0].to_json()["content"] is None


def test_a_project_as_of_seeks_its_revisions_by_index_without_a_sort(
    store: MemoryStore, seeded_file: tuple[Path, Seeded]
) -> None:
    """The as-of reads one project's revisions: one seek of the index by project, in its order (the
    log of every project is never scanned, nor sorted)."""
    query = LOGGED_BY_PROJECT.compile(dialect=sqlite_dialect())
    conn = sqlite3.connect(seeded_file[0])
    try:
        plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {query}", (ALPHA,))]
    finally:
        conn.close()
    assert plan == [
        "SEARCH mdash_project_revisions USING INDEX ix_mdash_project_revisions_by_project (project_path=?)"
    ]
