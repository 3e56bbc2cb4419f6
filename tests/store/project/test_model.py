"""The read model: every status, expiry, verification and count of the seeded file, and rows holding any
SQLite value in any column (hypothesis), each read without an exception and its oddities noted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection

from app.store.connect.engine import open_sqlite_file, transaction
from app.store.project.model import PROJECT_COLUMNS, ProjectMemory, project_memory
from app.store.project.reads import fetch_memory, fetch_project
from app.store.read.host_cells import TIME_MAX, TIME_MIN
from tests.support.host80 import ALPHA, NOW, T0, Seeded, build_host80, connect

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _memory(conn: Connection, memory_id: int) -> ProjectMemory:
    memory = fetch_memory(conn, memory_id)
    assert memory is not None
    return memory


def test_every_status_is_shown_as_it_is(reading: Connection, seeded: Seeded) -> None:
    statuses = {memory.id: memory.status for memory in fetch_project(reading, ALPHA)}
    assert statuses[seeded.active] == "active"
    assert statuses[seeded.permanent] == "permanent"
    assert statuses[seeded.archived] == "archived"
    assert statuses[seeded.odd_status] == "deleted"
    assert all(not memory.oddities for memory in fetch_project(reading, ALPHA))


def test_the_card_fields_come_through(reading: Connection, seeded: Seeded) -> None:
    verified = _memory(reading, seeded.verified)
    assert (verified.verification_status, verified.verified_at) == ("verified", T0 + 3 * 86_400_000)
    assert (verified.seen_count, verified.retrieval_count, verified.importance) == (7, 12, 90)
    assert (verified.scope, verified.shareable, verified.source_session_id) == (
        "ecosystem",
        True,
        "ses_alpha1",
    )
    assert _memory(reading, seeded.active).shareable is False


def test_expiry_is_half_open(reading: Connection, seeded: Seeded) -> None:
    expiring = _memory(reading, seeded.expiring)
    assert expiring.expires_at is not None
    assert expiring.injectable_at(expiring.expires_at - 1)
    assert not expiring.injectable_at(expiring.expires_at)
    assert not _memory(reading, seeded.expired).injectable_at(NOW)
    assert not _memory(reading, seeded.odd_status).injectable_at(NOW)
    assert _memory(reading, seeded.permanent).injectable_at(NOW)


def test_a_path_that_is_not_utf8_is_marked_not_hidden(host80: Path) -> None:
    with connect(host80) as conn:
        conn.execute(
            "INSERT INTO memories (project_path, category, content, normalized_hash, first_seen_at,"
            " created_at, updated_at, last_seen_at) VALUES (CAST(? AS TEXT), 'NAMING', 'x', 'h', 1, 1, 1, 1)",
            (b"/home/\xff\xfeproj",),
        )
    conn.close()
    opened = open_sqlite_file(host80, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as reading:
            memory = _memory(reading, 1)
    finally:
        opened.close()
    assert memory.project_path == "/home/\ufffd\ufffdproj"
    assert memory.oddities == ("project_path is not valid UTF-8: the undecodable bytes are shown as U+FFFD",)


def test_a_blob_status_never_reads_as_active() -> None:
    row = list(_good_row())
    row[PROJECT_COLUMNS.index("status")] = b"active"
    memory = project_memory(row)
    assert memory.status == "x'616374697665'"
    assert not memory.injectable_at(NOW)
    assert memory.oddities == ("status is a blob x'616374697665' (6 bytes), not text",)


def test_odd_numbers_read_as_unknown_and_noted() -> None:
    row = list(_good_row())
    row[PROJECT_COLUMNS.index("seen_count")] = "many"
    row[PROJECT_COLUMNS.index("superseded_by_memory_id")] = 2.5
    row[PROJECT_COLUMNS.index("shareable")] = 7
    row[PROJECT_COLUMNS.index("updated_at")] = INT64_MAX
    memory = project_memory(row)
    assert (memory.seen_count, memory.superseded_by, memory.shareable) == (None, None, False)
    assert memory.updated_at == TIME_MAX
    assert [note.split(" ")[0] for note in memory.oddities] == [
        "shareable",
        "seen_count",
        "updated_at",
        "superseded_by_memory_id",
    ]


def _good_row() -> tuple[object, ...]:
    values: dict[str, object] = {
        "id": 1,
        "project_path": ALPHA,
        "category": "NAMING",
        "content": "x",
        "normalized_hash": "h",
        "importance": None,
        "scope": "project",
        "shareable": 0,
        "source_session_id": None,
        "source_type": None,
        "seen_count": 1,
        "retrieval_count": 0,
        "first_seen_at": T0,
        "created_at": T0,
        "updated_at": T0,
        "last_seen_at": T0,
        "last_retrieved_at": None,
        "status": "active",
        "expires_at": None,
        "verification_status": None,
        "verified_at": None,
        "classified_at": None,
        "superseded_by_memory_id": None,
        "merged_from": None,
        "metadata_json": None,
    }
    return tuple(values[name] for name in PROJECT_COLUMNS)


# -- fuzz: any SQLite value in any column -------------------------------------------------------------


class InvalidUtf8(bytes):
    """Bytes to store as TEXT (`CAST(? AS TEXT)`): what sqlite3 could never write from a str."""


integers = st.one_of(
    st.integers(INT64_MIN, INT64_MAX), st.sampled_from([INT64_MIN, INT64_MAX, -1, 0, 1, T0, TIME_MAX + 1])
)
texts = st.one_of(
    st.text(max_size=16),
    st.sampled_from(["active", "permanent", "archived", "", "[1,2]", "not json [", '{"a":1}']),
    st.binary(min_size=1, max_size=8).map(lambda raw: InvalidUtf8(raw + b"\xff")),
)
not_null = st.one_of(integers, st.floats(allow_nan=False), texts, st.binary(max_size=12))
nullable = st.none() | not_null
COLUMNS_NOT_NULL = {
    "project_path",
    "category",
    "content",
    "normalized_hash",
    "scope",
    "shareable",
    "first_seen_at",
    "created_at",
    "updated_at",
    "last_seen_at",
}
rows = st.fixed_dictionaries(
    {name: (not_null if name in COLUMNS_NOT_NULL else nullable) for name in PROJECT_COLUMNS if name != "id"}
)


@pytest.fixture(scope="module")
def fuzz_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_host80(tmp_path_factory.mktemp("fuzz") / "context.db")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=rows)
def test_any_value_in_any_column_is_read(fuzz_file: Path, row: dict[str, object]) -> None:
    conn = sqlite3.connect(fuzz_file)
    try:
        conn.execute("DELETE FROM memories")
        placeholders = ", ".join(
            "CAST(? AS TEXT)" if isinstance(v, InvalidUtf8) else "?" for v in row.values()
        )
        values = tuple(bytes(v) if isinstance(v, InvalidUtf8) else v for v in row.values())
        conn.execute(f"INSERT INTO memories (id, {', '.join(row)}) VALUES (1, {placeholders})", values)
        conn.commit()
    finally:
        conn.close()
    opened = open_sqlite_file(fuzz_file, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as reading:
            memory = _memory(reading, 1)
    finally:
        opened.close()
    for instant in (memory.first_seen_at, memory.created_at, memory.updated_at, memory.last_seen_at):
        assert TIME_MIN <= instant <= TIME_MAX
    assert all(
        type(text) is str for text in (memory.project_path, memory.category, memory.content, memory.status)
    )
    assert memory.injectable_at(NOW) == (
        memory.status in ("active", "permanent") and (memory.expires_at is None or memory.expires_at > NOW)
    )
