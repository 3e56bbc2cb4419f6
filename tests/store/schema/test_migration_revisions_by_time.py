"""Revision 0007_revisions_by_time: the covering time index replaces the plain one, and back down exactly
(to 0006_evidence, the revision before it)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from hostdb import build_host_db
from sqlalchemy import create_engine

from app.store.schema.fence import fence_fingerprints
from app.store.schema.migrate import alembic_config


def _schema(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY 1, 2"
        )
        return [tuple(row) for row in rows]
    finally:
        conn.close()


def _plan(path: Path, sql: str) -> str:
    conn = sqlite3.connect(path)
    try:
        return " ".join(str(row[-1]) for row in conn.execute("EXPLAIN QUERY PLAN " + sql, (0, 1)))
    finally:
        conn.close()


def test_up_swaps_the_index_and_down_restores_0006(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0006_evidence")
        before = _schema(path)
        with engine.begin() as conn:
            fence = fence_fingerprints(conn)
            command.upgrade(alembic_config(conn), "0007_revisions_by_time")
            assert fence_fingerprints(conn) == fence  # the host's tables are as they were
        after = _schema(path)
        names_before = {name for _, name, _ in before}
        names_after = {name for _, name, _ in after}
        assert names_after - names_before == {"ix_mdash_revisions_by_time"}
        assert names_before - names_after == {"ix_mdash_revisions_changed"}
        # The revisions after an instant are read from the index alone.
        after_t = "SELECT memory_id, id, changed_at, kind FROM mdash_revisions WHERE changed_at > ? AND ?"
        assert "COVERING INDEX ix_mdash_revisions_by_time" in _plan(path, after_t)
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0006_evidence")
        assert _schema(path) == before
    finally:
        engine.dispose()
