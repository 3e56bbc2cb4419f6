"""Projects the host's native module owns are read-only: our check refuses every writer with the reason
before its first statement, and the host's guard triggers really do abort any other writer."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import Connection, update
from sqlalchemy.exc import IntegrityError

from app.core.errors import ReadOnlyError
from app.store.connect.engine import OpenedDatabase, transaction
from app.store.project import writes
from app.store.project.authority import MANAGED_REASON, REPAIR_REASON, read_only_reason
from app.store.project.tables import memories
from app.store.project.writes import ProjectWrite
from tests.support.host80 import MANAGED, NOW, REPAIRING, Seeded, add_memory, connect
from tests.support.hostdb import query

GUARD_MESSAGE = "context.db memory writes are managed by the Rust module"

WRITERS: dict[str, Callable[[Connection, int], ProjectWrite]] = {
    "edit": lambda conn, memory_id: writes.edit_content(conn, memory_id, "New words", NOW),
    "category": lambda conn, memory_id: writes.change_category(conn, memory_id, "NAMING", NOW),
    "archive": lambda conn, memory_id: writes.archive(conn, memory_id, NOW, reason="old"),
    "restore": lambda conn, memory_id: writes.restore(conn, memory_id, NOW, status="permanent"),
    "supersede": lambda conn, memory_id: writes.supersede(conn, memory_id, 1, NOW),
}


def _everything(path: Path) -> list[tuple[object, ...]]:
    return query(path, "SELECT * FROM memories ORDER BY id") + query(
        path, "SELECT * FROM memory_mutation_log"
    )


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("owned", ["managed", "repairing"])
def test_every_writer_is_refused_with_the_reason(
    host80: Path, database: OpenedDatabase, seeded: Seeded, writer: str, owned: str
) -> None:
    memory_id, reason = (
        (seeded.managed, MANAGED_REASON) if owned == "managed" else (seeded.repairing, REPAIR_REASON)
    )
    before = _everything(host80)
    with (
        pytest.raises(ReadOnlyError) as refused,
        transaction(database.engine, write=True, location=database.location) as conn,
    ):
        WRITERS[writer](conn, memory_id)
    # Our message, not the trigger's: the check ran before any statement reached the table.
    assert str(refused.value) == f"project memory #{memory_id} is read-only: {reason}; nothing was written"
    assert _everything(host80) == before
    assert query(host80, "SELECT id, enabled FROM context_privilege_state") == [(1, 0)]


def test_the_host_guard_triggers_abort_a_raw_write(host80: Path, seeded: Seeded) -> None:
    conn = sqlite3.connect(host80)
    try:
        for statement, params in (
            ("UPDATE memories SET content = 'x' WHERE id = ?", (seeded.managed,)),
            ("UPDATE memories SET status = 'archived' WHERE id = ?", (seeded.repairing,)),
            ("DELETE FROM memories WHERE id = ?", (seeded.managed,)),
        ):
            with pytest.raises(sqlite3.IntegrityError, match=GUARD_MESSAGE):
                conn.execute(statement, params)
        with pytest.raises(sqlite3.IntegrityError, match=GUARD_MESSAGE):
            add_memory(conn, MANAGED, "Sneaked in")
        with pytest.raises(sqlite3.IntegrityError, match=GUARD_MESSAGE):
            add_memory(conn, REPAIRING, "Sneaked in")
    finally:
        conn.rollback()
        conn.close()


def test_without_our_check_the_trigger_is_what_stops_the_write(
    database: OpenedDatabase, seeded: Seeded
) -> None:
    """The same statement our writer would run, sent past the check: the host aborts it."""
    with (
        pytest.raises(IntegrityError, match=GUARD_MESSAGE),
        transaction(database.engine, write=True, location=database.location) as conn,
    ):
        conn.execute(update(memories).where(memories.c.id == seeded.managed).values(content="New words"))


def test_other_projects_stay_writable(reading: Connection, seeded: Seeded) -> None:
    assert read_only_reason(reading, seeded.active) is None
    assert read_only_reason(reading, seeded.beta) is None
    assert read_only_reason(reading, 123_456) is None


def test_a_file_without_the_authority_tables_owns_nothing(
    host80: Path, database: OpenedDatabase, seeded: Seeded
) -> None:
    with connect(host80) as conn:
        for name in (
            "memories_authority_guard_insert",
            "memories_authority_guard_update",
            "memories_authority_guard_delete",
        ):
            conn.execute(f"DROP TRIGGER {name}")
        for name in (
            "notes_authority_guard_insert",
            "notes_authority_guard_update",
            "notes_authority_guard_delete",
        ):
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DROP TABLE authority_managed")
        conn.execute("DROP TABLE authority_repair_pending")
    conn.close()
    with transaction(database.engine, write=True, location=database.location) as writing:
        done = writes.archive(writing, seeded.managed, NOW)
    assert done.after.status == "archived"
