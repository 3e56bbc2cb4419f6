"""`DriverQuery`: a Core select run on the driver's cursor gives the rows SQLAlchemy would, and refuses
statements whose rows or parameters SQLAlchemy would have to process."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import DateTime, Integer, bindparam, cast, literal, select
from sqlalchemy.exc import OperationalError

from app.store import MemoryStore
from app.store.connect.driver_query import DriverQuery, driver_rows
from app.store.connect.engine import transaction
from app.store.schema.tables import revisions, user_memories


def test_rows_are_the_rows_sqlalchemy_returns(store: MemoryStore) -> None:
    store.edit(5, "Prefers pnpm v2")
    statement = (
        select(revisions)
        .where(revisions.c.memory_id == bindparam("b_memory"), revisions.c.kind != bindparam("b_kind"))
        .order_by(revisions.c.id)
    )
    engine = store._db.engine
    with transaction(engine, write=False, location="test") as conn:
        expected = [tuple(row) for row in conn.execute(statement, {"b_memory": 5, "b_kind": "create"})]
        found = DriverQuery(statement).rows(conn, {"b_memory": 5, "b_kind": "create"})
        missing = DriverQuery(statement).rows(conn, {"b_memory": 4_000, "b_kind": "create"})
    assert expected and [tuple(row) for row in found] == expected
    assert missing == []


def test_rows_read_in_the_open_transaction(store: MemoryStore) -> None:
    # A write transaction's own uncommitted change is what the query run inside it reads.
    query = DriverQuery(select(user_memories.c.content).where(user_memories.c.id == bindparam("b_id")))
    engine = store._db.engine
    with pytest.raises(RuntimeError), transaction(engine, write=True, location="test") as conn:
        conn.execute(user_memories.update().where(user_memories.c.id == 5).values(content="draft"))
        assert [tuple(row) for row in query.rows(conn, {"b_id": 5})] == [("draft",)]
        raise RuntimeError("roll back")
    with transaction(engine, write=False, location="test") as conn:
        assert [tuple(row) for row in query.rows(conn, {"b_id": 5})] == [(store.get(5).content,)]


def test_statements_that_need_sqlalchemys_processing_are_refused() -> None:
    with pytest.raises(ValueError, match="result processing: when"):
        DriverQuery(select(cast(literal("2026-12-03"), DateTime).label("when")))
    with pytest.raises(ValueError, match="rendered at execution"):
        DriverQuery(select(revisions.c.id).where(revisions.c.id.in_(bindparam("ids", expanding=True))))
    with pytest.raises(ValueError, match="bind processing: b_when"):
        DriverQuery(
            select(revisions.c.id).where(revisions.c.changed_at < bindparam("b_when", type_=DateTime))
        )
    assert DriverQuery(select(literal(1, Integer).label("one")))  # plain columns are fine


def test_driver_errors_are_sqlalchemys_as_through_execute(store: MemoryStore, host_db: Path) -> None:
    # The window and the command line tell a failing database from a bug by SQLAlchemy's errors.
    store.edit(5, "Prefers pnpm v2")
    engine = store._db.engine
    with (
        transaction(engine, write=False, location="test") as conn,
        pytest.raises(OperationalError, match="no such"),
    ):
        driver_rows(conn, "SELECT * FROM no_such_table")
    raw = sqlite3.connect(host_db)
    raw.execute("ALTER TABLE mdash_revisions RENAME COLUMN detail TO detail_renamed")
    raw.commit()
    raw.close()
    with pytest.raises(OperationalError, match="no such column"):
        store.history(5, texts=False, newest_whole=True)
