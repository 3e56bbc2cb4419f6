"""Observing project memories (`app.store.observe.project_observe`) on host files of schema v80: a first
look is a baseline (never a fabricated creation), an outside rewrite is found by content even within the
same millisecond, a supersession, a merge, a category move and a delete each become an observed revision,
and a look after nothing changed records nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.store import MemoryStore
from app.store.kinds import PROJECT_MEMORIES
from app.store.project import revisions as project_log
from tests.support.host80 import DAY, NOW, T0, Seeded
from tests.support.hostdb import query


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NOW)


@pytest.fixture
def store(host80: Path, seeded: Seeded, clock: ManualClock) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(host80, clock=clock)
    yield opened
    opened.close()


def host_writes(path: Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    """The host changing its rows in one transaction, as its own code does."""
    writer = sqlite3.connect(path, isolation_level=None, timeout=5)
    try:
        writer.execute("BEGIN IMMEDIATE")
        for sql, params in statements:
            writer.execute(sql, params)
        writer.execute("COMMIT")
    finally:
        writer.close()


def project_revision_count(path: Path) -> int:
    return len(query(path, "SELECT id FROM mdash_project_revisions"))


def test_a_first_look_is_a_baseline_not_a_creation(store: MemoryStore, host80: Path, seeded: Seeded) -> None:
    store.observe()
    assert project_revision_count(host80) == 0
    seen = {
        row[0]: row[1] for row in query(host80, "SELECT memory_id, first_seen_at FROM mdash_project_seen")
    }
    assert len(seen) == len(query(host80, "SELECT id FROM memories"))
    assert set(seen.values()) == {NOW}
    rewritten = query(
        host80, "SELECT baseline_rewritten_at FROM mdash_project_seen WHERE memory_id = ?", (seeded.active,)
    )
    assert rewritten == [(T0 + DAY,)]  # updated after it was created: rewritten before we saw it
    assert store.history(seeded.active, kind=PROJECT_MEMORIES) == []


def test_a_rewrite_in_the_same_millisecond_is_observed_by_content(
    store: MemoryStore, host80: Path, seeded: Seeded
) -> None:
    store.observe()
    host_writes(
        host80, ("UPDATE memories SET content = ? WHERE id = ?", ("Build with pnpm 9", seeded.active))
    )
    store.observe()
    history = store.history(seeded.active, kind=PROJECT_MEMORIES)
    assert [(r.kind, r.source, r.previous_content, r.new_content) for r in history] == [
        ("content", "observed", "Build with pnpm, never npm", "Build with pnpm 9")
    ]
    # Not the row's updated_at, which the host left as it was: the look's instant, when it was found.
    assert history[0].changed_at == NOW
    store.observe()
    assert project_revision_count(host80) == 1  # seen again: nothing new


def test_supersession_merge_category_and_delete_are_revisions(
    store: MemoryStore, host80: Path, seeded: Seeded, clock: ManualClock
) -> None:
    store.observe()
    later = NOW + 1_000
    host_writes(
        host80,
        (
            "UPDATE memories SET superseded_by_memory_id = ?, status = 'archived', updated_at = ?"
            " WHERE id = ?",
            (seeded.verified, later, seeded.permanent),
        ),
        ("UPDATE memories SET merged_from = '[1]', updated_at = ? WHERE id = ?", (later, seeded.expiring)),
        ("UPDATE memories SET category = 'TOOLING', updated_at = ? WHERE id = ?", (later, seeded.verified)),
        ("DELETE FROM memories WHERE id = ?", (seeded.beta,)),
    )
    clock.set(later + 5)
    store.observe()
    kinds = {
        memory_id: [
            (r.kind, r.previous_status, r.new_status) for r in store.history(memory_id, kind=PROJECT_MEMORIES)
        ]
        for memory_id in (seeded.permanent, seeded.expiring, seeded.verified, seeded.beta)
    }
    assert kinds == {
        seeded.permanent: [("superseded", "permanent", "archived")],
        seeded.expiring: [("merged", "active", "active")],
        seeded.verified: [("category", "active", "active")],
        seeded.beta: [("delete", "active", None)],
    }
    superseded = store.history(seeded.permanent, kind=PROJECT_MEMORIES)[0]
    assert superseded.changed_at == later and sorted(superseded.detail["changed"]) == [
        "status",
        "superseded_by_memory_id",
    ]
    with store.database.read() as conn:
        before, after = project_log.rows_of(conn, superseded.id)
    assert before is not None and before["superseded_by"] is None
    assert after is not None and after["superseded_by"] == seeded.verified
    deleted = store.history(seeded.beta, kind=PROJECT_MEMORIES)[0]
    assert deleted.changed_at == later + 5 and deleted.detail["first_seen_at"] == NOW
    assert query(host80, "SELECT count(*) FROM mdash_project_seen WHERE memory_id = ?", (seeded.beta,)) == [
        (0,)
    ]


def test_a_new_memory_after_the_first_look_is_a_baseline(
    store: MemoryStore, host80: Path, seeded: Seeded, clock: ManualClock
) -> None:
    store.observe()
    host_writes(
        host80,
        (
            "INSERT INTO memories (project_path, category, content, normalized_hash, scope, shareable,"
            " first_seen_at, created_at, updated_at, last_seen_at) SELECT project_path, category, 'New fact',"
            " 'h', scope, 0, ?, ?, ?, ? FROM memories WHERE id = ?",
            (NOW, NOW, NOW, NOW, seeded.active),
        ),
    )
    clock.advance(10)
    store.observe()
    assert project_revision_count(host80) == 0
    assert query(
        host80,
        "SELECT first_seen_at FROM mdash_project_seen WHERE memory_id = (SELECT max(id) FROM memories)",
    ) == [(NOW + 10,)]


def test_a_look_after_nothing_changed_scans_nothing(store: MemoryStore, host80: Path) -> None:
    store.observe()
    assert store.changed_elsewhere() is False  # the change watch: nobody committed since the clean look
    host_writes(host80, ("UPDATE memories SET content = 'Moved' WHERE id = 1", ()))
    assert store.changed_elsewhere() is True
