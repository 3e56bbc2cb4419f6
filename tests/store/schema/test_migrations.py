"""The dashboard's migrations carry their own frozen SQL: every revision's schema is exactly what it was.

`own_schema_by_revision.json` is `sqlite_master` of a fresh file after each revision, recorded when the
migrations still built their SQL from the live search module. Upgrading through every revision and back
down must give those objects, byte for byte.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine

from app.store.schema.migrate import alembic_config

EXPECTED = Path(__file__).with_name("own_schema_by_revision.json")
VERSIONS = Path(__file__).parents[3] / "app" / "store" / "schema" / "migrations" / "versions"


def _schema(path: Path) -> list[list[str]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            " ORDER BY type, name"
        )
        return [list(row) for row in rows]
    finally:
        conn.close()


def _has_trigram() -> bool:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE probe USING fts5(x, tokenize='trigram')")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()


@pytest.mark.skipif(not _has_trigram(), reason="this SQLite has no FTS5 trigram tokenizer")
def test_each_revision_up_and_down_gives_the_recorded_schema(tmp_path: Path) -> None:
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    path = tmp_path / "fresh.db"
    sqlite3.connect(path).close()
    engine = create_engine(f"sqlite:///{path}")
    steps = [
        (command.upgrade, "0001"),
        (command.upgrade, "0002"),
        (command.upgrade, "0003"),
        (command.upgrade, "0004_trust_marks"),
        (command.downgrade, "0003"),
        (command.downgrade, "0002"),
        (command.downgrade, "0001"),
        (command.downgrade, "base"),
    ]
    try:
        for move, revision in steps:
            with engine.begin() as conn:
                move(alembic_config(conn), revision)
            assert _schema(path) == expected[revision], f"{move.__name__} to {revision}"
    finally:
        engine.dispose()


def test_migrations_import_nothing_of_the_app() -> None:
    """A migration that imports a live module must keep that module's old SQL forever."""
    for migration in sorted(VERSIONS.glob("*.py")):
        source = migration.read_text(encoding="utf-8")
        assert "from app" not in source and "import app" not in source, migration.name


def test_every_revision_name_fits_the_version_column() -> None:
    """Alembic's `version_num` is VARCHAR(32) on PostgreSQL: a longer name fails the upgrade there."""
    for migration in sorted(VERSIONS.glob("0*.py")):
        found = re.search(r'^revision = "([^"]+)"$', migration.read_text(encoding="utf-8"), re.MULTILINE)
        assert found is not None and len(found[1]) <= 32, migration.name
