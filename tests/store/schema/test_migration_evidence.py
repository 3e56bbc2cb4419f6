"""Revisions 0006_evidence (the evidence archive and the revisions' time index), 0007_revisions_by_time
(the covering time index in its place), 0008_revisions_by_memory (the index by memory, with kind and
previous status), 0010_command_log (the command log and its index), 0011_links_and_project_history
(the links and the project history) and 0012_project_revisions_by_path (the project log's index by
project): each up from the revision before it, and back down exactly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine

from app.store.schema.fence import fence_fingerprints
from app.store.schema.migrate import alembic_config
from tests.support.hostdb import build_host_db

Schema = list[tuple[str, str, str]]


def _schema(path: Path) -> Schema:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY 1, 2"
        )
        return [tuple(row) for row in rows]
    finally:
        conn.close()


def _names(schema: Schema) -> set[str]:
    return {name for _, name, _ in schema}


def _up_and_down(path: Path, previous: str, revision: str) -> tuple[Schema, Schema]:
    """The schema at `previous` and at `revision`; the host's tables untouched on the way up, and the
    way back down gives `previous`'s schema exactly."""
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), previous)
        before = _schema(path)
        with engine.begin() as conn:
            fence = fence_fingerprints(conn)
            command.upgrade(alembic_config(conn), revision)
            assert fence_fingerprints(conn) == fence  # the host's tables are as they were
        after = _schema(path)
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), previous)
        assert _schema(path) == before
        return before, after
    finally:
        engine.dispose()


def test_up_adds_only_our_objects_and_down_restores_0004(tmp_path: Path) -> None:
    before, after = _up_and_down(build_host_db(tmp_path / "context.db"), "0004_trust_marks", "0006_evidence")
    assert _names(after) - _names(before) == {"mdash_evidence", "ix_mdash_revisions_changed"}


def _swaps_an_index(path: Path, previous: str, revision: str, old: str, new: str) -> str:
    """`revision` replaces index `old` by `new` and nothing else, and down restores `previous`; the new
    index's SQL."""
    before, after = _up_and_down(path, previous, revision)
    assert _names(after) - _names(before) == {new}
    assert _names(before) - _names(after) == {old}
    return next(sql for _, name, sql in after if name == new)


def test_0007_swaps_the_time_index_and_down_restores_0006(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    index = _swaps_an_index(
        path,
        "0006_evidence",
        "0007_revisions_by_time",
        "ix_mdash_revisions_changed",
        "ix_mdash_revisions_by_time",
    )
    assert index.endswith("(changed_at, memory_id, id, kind)")


def test_0008_swaps_the_index_by_memory_and_down_restores_0007(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    index = _swaps_an_index(
        path,
        "0007_revisions_by_time",
        "0008_revisions_by_memory",
        "ix_mdash_revisions_memory",
        "ix_mdash_revisions_by_memory",
    )
    assert index.endswith("(memory_id, changed_at, id, kind, previous_status)")


def test_0010_adds_the_command_log_and_down_restores_0009(tmp_path: Path) -> None:
    before, after = _up_and_down(
        build_host_db(tmp_path / "context.db"), "0009_pg_trgm_search", "0010_command_log"
    )
    assert _names(after) - _names(before) == {"mdash_command_log", "ix_mdash_command_log_state"}
    assert _names(before) - _names(after) == set()


def test_0011_adds_links_and_project_history_and_down_restores_0010(tmp_path: Path) -> None:
    before, after = _up_and_down(
        build_host_db(tmp_path / "context.db"), "0010_command_log", "0011_links_and_project_history"
    )
    assert _names(after) - _names(before) == {
        "mdash_links",
        "ix_mdash_links_from",
        "ix_mdash_links_to",
        "ix_mdash_links_made_by",
        "mdash_project_revisions",
        "ix_mdash_project_revisions_by_memory",
        "ix_mdash_project_revisions_by_time",
        "ix_mdash_project_revisions_run",
        "mdash_project_seen",
    }
    assert _names(before) - _names(after) == set()


def test_0012_adds_the_project_revisions_index_and_down_restores_0011(tmp_path: Path) -> None:
    before, after = _up_and_down(
        build_host_db(tmp_path / "context.db"),
        "0011_links_and_project_history",
        "0012_project_revisions_by_path",
    )
    assert _names(after) - _names(before) == {"ix_mdash_project_revisions_by_project"}
    assert _names(before) - _names(after) == set()
    index = next(sql for _, name, sql in after if name == "ix_mdash_project_revisions_by_project")
    assert index.endswith("(project_path, memory_id, changed_at, id)")
