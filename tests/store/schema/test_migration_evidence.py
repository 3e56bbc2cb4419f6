"""Revision 0006_evidence: the evidence archive and the revisions' time index, and back down exactly (to
0004_trust_marks, the revision before it)."""

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


def test_up_adds_only_our_objects_and_down_restores_0004(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0004_trust_marks")
        before = _schema(path)
        with engine.begin() as conn:
            fence = fence_fingerprints(conn)
            command.upgrade(alembic_config(conn), "0006_evidence")
            assert fence_fingerprints(conn) == fence  # the host's tables are as they were
        added = {name for _, name, _ in _schema(path)} - {name for _, name, _ in before}
        assert added == {"mdash_evidence", "ix_mdash_revisions_changed"}
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0004_trust_marks")
        assert _schema(path) == before
    finally:
        engine.dispose()
