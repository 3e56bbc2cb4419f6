"""Fuzz (hypothesis): host rows holding any SQLite value in any column, then every read command.

The host's tables have no CHECKs, so a row may hold text (also text that is not UTF-8), a blob, any
64-bit integer, any real (infinities too; SQLite stores NaN as NULL) or NULL, in every column but the
NOT NULL ones, and JSON of any shape or depth in the two JSON columns. Rows are written with plain
sqlite3, as a host could, into a real host-shaped file; every read command then runs in process through
`app.cli.main` and must answer (exit 0; 1 for a `show` of a missing id) without raising, and the host's
two fenced tables must be byte for byte what they were: a read repairs nothing.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import main
from app.store import MemoryStore
from app.store.schema.tables import user_memories, user_memory_candidates
from tests.support.hostdb import build_host_db, host_dump

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
SEED_IDS = (1, 2, 3, 4, 5)
MISSING_ID = 987_654


class InvalidUtf8(bytes):
    """Bytes to store as TEXT (`CAST(? AS TEXT)`): what sqlite3 itself could never write from a str."""


def _as_sql(value: object) -> tuple[str, object]:
    """The placeholder and parameter that store `value` with its own storage class."""
    return ("CAST(? AS TEXT)", bytes(value)) if isinstance(value, InvalidUtf8) else ("?", value)


integers = st.one_of(
    st.integers(INT64_MIN, INT64_MAX),
    st.sampled_from([INT64_MIN, INT64_MAX, -1, 0, 2**31, 32_535_216_000_000, 1_790_521_080_000]),
)
texts = st.one_of(
    st.text(max_size=24),
    st.sampled_from(["active", "dismissed", "yesterday", "", " active", "[1,2]", "1e400"]),
    st.binary(min_size=1, max_size=12).map(lambda raw: InvalidUtf8(raw + b"\xff")),
)
not_null = st.one_of(
    integers, st.floats(allow_nan=False), texts, st.binary(max_size=24)
)  # NaN would be stored as NULL: refused by a NOT NULL column
nullable = st.none() | not_null | st.just(float("nan"))

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**80), 2**80), st.floats(), st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
provenance_entries = st.fixed_dictionaries(
    {
        "candidate_id": json_values,
        "session_id": json_values,
        "source_compartment_start": json_values,
        "source_compartment_end": json_values,
    },
    optional={"origin": json_values, "added_at": json_values},
)
json_columns = st.one_of(
    nullable,
    json_values.map(json.dumps),
    st.lists(provenance_entries, max_size=3).map(json.dumps),
    st.lists(st.integers(-(2**70), 2**70), max_size=5).map(json.dumps),
    st.integers(1, 120_000).map(lambda depth: "[" * depth + "]" * (depth % 2)),  # deeper than Python parses
)
statuses = st.sampled_from(["active", "dismissed"]) | not_null  # mostly shown, injected and recalled
memory_rows = st.tuples(
    integers, not_null, statuses, not_null, json_columns, json_columns, not_null, not_null
)  # in `user_memories` column order
candidate_rows = st.tuples(integers, not_null, not_null, nullable, nullable, not_null)


def _insert(
    conn: sqlite3.Connection, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> None:
    for row in rows:
        placeholders, parameters = zip(*(_as_sql(value) for value in row), strict=True)
        conn.execute(
            f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({', '.join(placeholders)})",
            parameters,
        )


def read_commands(memory_id: int) -> list[tuple[list[str], int]]:
    """Every read command, with the exit code it owes."""
    return [
        (["list"], 0),
        (["list", "--json"], 0),
        (["list", "--status", "rewritten", "--search", "a"], 0),
        (["show", str(memory_id)], 0),
        (["show", str(memory_id), "--json"], 0),
        (["show", str(MISSING_ID)], 1),
        (["history", str(memory_id)], 0),
        (["history", str(memory_id), "--json"], 0),
        (["export"], 0),
        (["export", "--format", "markdown"], 0),
        (["profile"], 0),
        (["recall"], 0),
        (["recall", "--json", "--search", "a", "--order", "relevance"], 0),
        (["candidates"], 0),
        (["candidates", "--json"], 0),
        (["review", "prompt"], 0),
    ]


def run_quietly(argv: list[str]) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(argv)


@pytest.fixture
def templates(tmp_path: Path) -> dict[bool, Path]:
    """Host files to copy per example: one the dashboard never opened, one it already tracks (its own
    tables made, every seed row seen: the odd rows then arrive as outside changes to observe)."""
    fresh = build_host_db(tmp_path / "fresh.db")
    tracked = build_host_db(tmp_path / "tracked.db")
    MemoryStore.open(tracked).close()
    return {False: fresh, True: tracked}


@pytest.mark.slow
def test_every_read_command_survives_any_host_row(templates: dict[bool, Path], tmp_path: Path) -> None:
    memory_columns = [column.name for column in user_memories.c]
    candidate_columns = [column.name for column in user_memory_candidates.c]
    assert memory_columns[0] == candidate_columns[0] == "id"

    @settings(max_examples=20, deadline=None)
    @given(
        memories=st.lists(memory_rows, min_size=1, max_size=4, unique_by=lambda row: row[0]),
        candidates=st.lists(candidate_rows, max_size=3, unique_by=lambda row: row[0]),
        tracked=st.booleans(),
        read_only=st.booleans(),
    )
    def survives(
        memories: list[tuple[Any, ...]], candidates: list[tuple[Any, ...]], tracked: bool, read_only: bool
    ) -> None:
        folder = Path(tempfile.mkdtemp(dir=tmp_path))
        path = folder / "context.db"
        shutil.copyfile(templates[tracked], path)
        conn = sqlite3.connect(path)
        _insert(conn, "user_memories", memory_columns, [row for row in memories if row[0] != MISSING_ID])
        _insert(conn, "user_memory_candidates", candidate_columns, candidates)
        conn.commit()
        conn.close()
        before = host_dump(path)
        options = ["--db", str(path), *(["--read-only"] if read_only else [])]
        shown = memories[0][0] if memories[0][0] != MISSING_ID else SEED_IDS[0]
        for command, expected in read_commands(shown):
            assert run_quietly([*options, *command]) == expected, command
        assert host_dump(path) == before

    survives()
