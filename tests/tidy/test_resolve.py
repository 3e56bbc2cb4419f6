"""Keeping one memory of a pair that may contradict, on real host files: the other one dismissed (user
memories) or archived with a reason the host's way (project memories), a `resolved_contradiction` link
made by the command's log entry, read both ways after reopening; undo reactivates and drops the link,
redo makes both again; a pair that cannot be resolved is refused with nothing written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.commands import runner
from app.core.clock import ManualClock
from app.core.errors import InvalidInputError, NotFoundError
from app.store import MemoryStore
from app.store.links import links_of
from app.tidy.resolve import keep_over
from tests.conftest import REVIEW_TIME
from tests.support.host80 import ALPHA, BETA, NOW, T0, add_memory, add_project, build_host80, connect
from tests.support.hostdb import PROMOTED_5, build_host_db, memory_row, profile_version, query


@pytest.fixture
def user_db(tmp_path: Path) -> Path:
    """The seed's #5 "Prefers pnpm" and a contradicting #6."""
    path = build_host_db(tmp_path / "context.db")
    conn = sqlite3.connect(path)
    with conn:
        memory_row(conn, 6, "Never pnpm, uses npm instead", promoted_at=PROMOTED_5 + 1000)
    conn.close()
    return path


def _status(path: Path, memory_id: int) -> object:
    return query(path, "SELECT status FROM user_memories WHERE id = ?", (memory_id,))[0][0]


def test_keep_one_user_memory_undo_and_redo(user_db: Path) -> None:
    store = MemoryStore.open(user_db, clock=ManualClock(REVIEW_TIME))
    version = profile_version(user_db)
    try:
        keep_over(store, 5, 6, "cli")
        assert (_status(user_db, 5), _status(user_db, 6)) == ("active", "dismissed")
        assert profile_version(user_db) == version + 1
        entry = runner.history(store)[-1]
        assert entry.label == "keep #5 over #6"
    finally:
        store.close()
    reopened = MemoryStore.open(user_db, clock=ManualClock(REVIEW_TIME + 1000))
    try:
        with reopened.read_snapshot() as conn:
            found = links_of(conn, "user", [5, 6])
        assert [link.phrase_for(5) for link in found[5]] == ["kept over the contradicting #6"]
        assert [link.phrase_for(6) for link in found[6]] == ["contradicted, set aside for #5"]
        assert found[5][0].made_by == f"command:{entry.id}"
        runner.undo(reopened)
        assert _status(user_db, 6) == "active"
        with reopened.read_snapshot() as conn:
            assert links_of(conn, "user", [5, 6]) == {}
        runner.redo(reopened)
        assert _status(user_db, 6) == "dismissed"
        with reopened.read_snapshot() as conn:
            assert [link.relation for link in links_of(conn, "user", [6])[6]] == ["resolved_contradiction"]
    finally:
        reopened.close()


def test_a_pair_that_cannot_be_resolved_is_refused(user_db: Path) -> None:
    store = MemoryStore.open(user_db, clock=ManualClock(REVIEW_TIME))
    try:
        with pytest.raises(InvalidInputError, match="cannot be kept over itself"):
            keep_over(store, 5, 5, "cli")
        with pytest.raises(NotFoundError, match="#99 does not exist"):
            keep_over(store, 99, 6, "cli")
        keep_over(store, 5, 6, "cli")
        with pytest.raises(InvalidInputError, match="#6 is not active"):
            keep_over(store, 5, 6, "cli")
        with pytest.raises(InvalidInputError, match="#6 is not active"):
            keep_over(store, 6, 5, "cli")  # a dismissed memory is not kept over an active one
        assert len(runner.history(store)) == 1 and _status(user_db, 5) == "active"
    finally:
        store.close()


@pytest.fixture
def project_db(tmp_path: Path) -> tuple[Path, list[int]]:
    path = build_host80(tmp_path / "context.db")
    with connect(path) as conn:
        add_project(conn, ALPHA, ("ses_alpha1",))
        add_project(conn, BETA, ("ses_beta1",))
        ids = [
            add_memory(conn, ALPHA, "Build with pnpm", category="CONFIG_VALUES", created_at=T0),
            add_memory(conn, ALPHA, "Never pnpm: build with npm", category="CONVENTIONS", created_at=T0 + 1),
            add_memory(conn, BETA, "Build with yarn", category="CONFIG_VALUES", created_at=T0),
        ]
    return path, ids


def _project_row(path: Path, memory_id: int) -> tuple[object, ...]:
    return query(path, "SELECT status, metadata_json FROM memories WHERE id = ?", (memory_id,))[0]


def test_keep_one_project_memory_undo_and_redo(project_db: tuple[Path, list[int]]) -> None:
    path, (kept, other, _) = project_db
    store = MemoryStore.open(path, clock=ManualClock(NOW))
    try:
        keep_over(store, kept, other, "cli", kind="project")
        status, metadata = _project_row(path, other)
        assert status == "archived"
        assert json.loads(str(metadata))["archive_reason"] == f"contradicts #{kept}, which was kept"
        with store.read_snapshot() as conn:
            found = links_of(conn, "project", [kept, other])
        assert [link.phrase_for(other) for link in found[other]] == [f"contradicted, set aside for #{kept}"]
        assert runner.undo(store) is not None
        assert _project_row(path, other)[0] == "active"
        with store.read_snapshot() as conn:
            assert links_of(conn, "project", [kept, other]) == {}
        runner.redo(store)
        assert _project_row(path, other)[0] == "archived"
        with store.read_snapshot() as conn:
            assert [link.phrase_for(kept) for link in links_of(conn, "project", [kept])[kept]] == [
                f"kept over the contradicting #{other}"
            ]
    finally:
        store.close()


def test_project_memories_of_two_projects_are_refused(project_db: tuple[Path, list[int]]) -> None:
    path, (kept, _, elsewhere) = project_db
    store = MemoryStore.open(path, clock=ManualClock(NOW))
    try:
        with pytest.raises(InvalidInputError, match="different projects"):
            keep_over(store, kept, elsewhere, "cli", kind="project")
        assert _project_row(path, elsewhere)[0] == "active"
    finally:
        store.close()
