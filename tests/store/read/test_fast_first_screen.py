"""The first screen read with `sqlite3` before the store opens (`app.store.first_screen`): it runs
the store's own statements for the first page of the default listing, shows every host row exactly as
the store does, and answers None wherever only the store can say what the window shows."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from app.core.clock import ManualClock
from app.store import MemoryStore, first_screen
from app.store.first_screen import FirstScreen, read_first_screen
from app.store.read.host_cells import decode_text
from app.store.schema import migrate, tables
from tests.support.hostdb import DAY, T0, build_host_db, host_sql, memory_row
from ui.cards.listing import FIRST_PAGE, FIRST_ROWS, ViewFilter, load_first_page

NOW = T0 + 400 * DAY
Statement = tuple[str, tuple[Any, ...]]


def opened(path: Path) -> Path:
    """The file as a launch finds it: the store opened it once (our tables at head)."""
    MemoryStore.open(path, clock=ManualClock(NOW)).close()
    return path


@pytest.fixture
def store(host_db: Path) -> Iterator[MemoryStore]:
    made = MemoryStore.open(host_db, clock=ManualClock(NOW))
    yield made
    made.close()


def stores_screen(store: MemoryStore) -> FirstScreen:
    listing = load_first_page(store, ViewFilter(), FIRST_PAGE, FIRST_ROWS)
    assert listing.total is not None
    return FirstScreen(listing.ids, listing.total, listing.rows)


def fast_screen(path: Path) -> FirstScreen | None:
    return read_first_screen(path, NOW, FIRST_PAGE, FIRST_ROWS)


def many_rows(path: Path, count: int) -> None:
    conn = sqlite3.connect(path)
    for number in range(count):
        memory_row(conn, 1000 + number, f"memory {number}", promoted_at=T0 + (number % 50) * DAY)
    conn.commit()
    conn.close()


# -- the same statements ---------------------------------------------------------------------------


class Recording(sqlite3.Connection):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.statements: list[Statement] = []

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        self.statements.append((sql, tuple(parameters)))
        return super().execute(sql, parameters)


def stores_statements(store: MemoryStore) -> list[Statement]:
    seen: list[Statement] = []

    def record(_conn: object, _cursor: object, sql: str, params: Any, _context: object, _many: bool) -> None:
        if sql.startswith("SELECT"):
            seen.append((sql, tuple(params)))

    engine = store._db.engine  # the store's own engine: what it runs is what the fast read must run
    event.listen(engine, "before_cursor_execute", record)
    try:
        stores_screen(store)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return seen


def fast_statements(path: Path) -> tuple[list[Statement], FirstScreen | None]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, factory=Recording)
    conn.text_factory = decode_text
    try:
        assert isinstance(conn, Recording)
        assert first_screen.usable(conn, NOW)
        conn.statements.clear()
        screen = first_screen.first_screen(conn, NOW, FIRST_PAGE, FIRST_ROWS)
        return conn.statements, screen
    finally:
        conn.close()


@pytest.mark.parametrize("extra", [0, FIRST_PAGE + 10], ids=["short listing", "counted listing"])
def test_the_fast_read_runs_the_stores_statements(host_db: Path, extra: int) -> None:
    many_rows(host_db, extra)
    store = MemoryStore.open(host_db, clock=ManualClock(NOW))
    try:
        store.set_trust("session:", "trusted")
        expected = stores_statements(store)
        statements, screen = fast_statements(host_db)
        assert statements == expected
        assert screen == stores_screen(store)
    finally:
        store.close()
    assert (first_screen.COUNT in (sql for sql, _ in expected)) == bool(extra)


def test_the_frozen_names_are_the_stores() -> None:
    assert first_screen.HEAD_REVISION == migrate.HEAD_REVISION
    assert first_screen.VERSION_TABLE == tables.VERSION_TABLE
    assert set(first_screen.OWN_TABLES) == {*tables.OWN_TABLES, *tables.OPTIONAL_OWN_TABLES}


# -- the same cards ----------------------------------------------------------------------------------


def test_the_fast_read_is_the_stores_first_page(store: MemoryStore, host_db: Path) -> None:
    store.edit(1, "Works mostly in Python, TypeScript and Rust")
    store.set_expiry(4, NOW + 3 * DAY)
    store.set_trust("session:ses_seed", "untrusted")
    screen = fast_screen(host_db)
    assert screen is not None and screen.rows
    assert screen == stores_screen(store)


ODD_ROWS = {
    "content empty": "UPDATE user_memories SET content = '' WHERE id = 4",
    "candidate ids NULL": "UPDATE user_memories SET source_candidate_ids = NULL WHERE id = 4",
    "provenance NULL": "UPDATE user_memories SET source_candidate_provenance = NULL WHERE id = 5",
    "content not UTF-8": "UPDATE user_memories SET content = CAST(x'4265726c696eff' AS TEXT) WHERE id = 4",
    "content blob": "UPDATE user_memories SET content = x'4265726c696eff' WHERE id = 4",
    "status blob": "UPDATE user_memories SET status = x'616374697665' WHERE id = 4",
    "status not UTF-8": "UPDATE user_memories SET status = CAST(x'61ff' AS TEXT) WHERE id = 1",
    "updated_at text": "UPDATE user_memories SET updated_at = 'yesterday' WHERE id = 4",
    "promoted_at text": "UPDATE user_memories SET promoted_at = 'last week' WHERE id = 4",
    "promoted_at real": "UPDATE user_memories SET promoted_at = 1.5e300 WHERE id = 1",
    "updated_at infinite": "UPDATE user_memories SET updated_at = 9e999 WHERE id = 4",
    "provenance not JSON": "UPDATE user_memories SET source_candidate_provenance = '[{' WHERE id = 5",
    "candidate ids past 64 bits": (
        "UPDATE user_memories SET source_candidate_ids = '[9, 123456789012345678901234567890]' WHERE id = 4"
    ),
    "hidden characters": "UPDATE user_memories SET content = 'Lives in Berlin' || char(8203) WHERE id = 4",
}


@pytest.mark.parametrize("statement", ODD_ROWS.values(), ids=ODD_ROWS.keys())
def test_odd_host_rows_read_as_the_store_reads_them(host_db: Path, statement: str) -> None:
    opened(host_db)
    host_sql(host_db, statement)
    store = MemoryStore.open(host_db, clock=ManualClock(NOW))
    try:
        expected = stores_screen(store)
    finally:
        store.close()
    assert fast_screen(host_db) == expected


# -- where only the store can say -------------------------------------------------------------------


def test_a_file_the_store_never_opened_is_left_to_it(host_db: Path) -> None:
    assert fast_screen(host_db) is None  # no tables of ours: the store creates them
    assert fast_screen(host_db.with_name("missing.db")) is None


def test_tables_at_an_older_revision_are_left_to_the_store(host_db: Path) -> None:
    opened(host_db)
    assert fast_screen(host_db) is not None
    host_sql(host_db, "UPDATE mdash_alembic_version SET version_num = '0006_evidence'")
    assert fast_screen(host_db) is None


def test_a_memory_the_open_would_sweep_is_left_to_the_store(store: MemoryStore, host_db: Path) -> None:
    store.set_expiry(4, NOW + DAY)
    assert fast_screen(host_db) is not None
    assert read_first_screen(host_db, NOW + DAY, FIRST_PAGE, FIRST_ROWS) is None


def test_no_memory_to_show_is_left_to_the_store(host_db: Path) -> None:
    opened(host_db)
    host_sql(host_db, "UPDATE user_memories SET status = 'dismissed'")
    assert fast_screen(host_db) is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_a_file_the_store_would_open_read_only_is_left_to_it(host_db: Path) -> None:
    opened(host_db)
    host_db.chmod(0o444)
    try:
        assert fast_screen(host_db) is None
    finally:
        host_db.chmod(0o644)


def test_a_broken_file_is_left_to_the_store(tmp_path: Path) -> None:
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database" * 100)
    assert fast_screen(broken) is None
    assert fast_screen(tmp_path) is None  # a folder


def test_a_host_table_without_a_column_is_left_to_the_store(tmp_path: Path) -> None:
    path = opened(build_host_db(tmp_path / "context.db"))
    host_sql(path, "ALTER TABLE user_memories DROP COLUMN source_candidate_provenance")
    assert fast_screen(path) is None
