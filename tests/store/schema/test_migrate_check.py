"""Opening an up-to-date file: whether a migration has to run is read from our version row and SQLite's
catalogue in two statements, and Alembic is not imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, event

from app.store import MemoryStore
from app.store.schema.migrate import HEAD_REVISION, own_schema, upgrade
from app.store.schema.tables import OWN_TABLES
from tests.support.hostdb import build_host_db

ROOT = Path(__file__).resolve().parents[3]


def test_an_up_to_date_file_is_checked_in_two_statements(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    MemoryStore.open(path).close()  # migrated to head
    engine = create_engine(f"sqlite:///{path}")
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    try:
        assert upgrade(engine, str(path)) is False
        with engine.connect() as conn:
            schema = own_schema(conn)
    finally:
        engine.dispose()
    assert len(statements) == 4  # the version row and the table list, by `upgrade`, then by `own_schema`
    assert schema.revision == HEAD_REVISION and schema.tables.issuperset(OWN_TABLES) and schema.at_head


def test_a_file_without_our_tables_has_no_revision(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            schema = own_schema(conn)
    finally:
        engine.dispose()
    assert schema.revision is None and not schema.readable and not schema.at_head


def test_opening_an_up_to_date_file_does_not_import_alembic(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    MemoryStore.open(path).close()
    script = (
        "import sys; from app.store import MemoryStore; "
        f"MemoryStore.open({str(path)!r}).close(); print('alembic' in sys.modules)"
    )
    env = {"PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env=env)
    assert done.stdout.strip() == "False", done.stderr
