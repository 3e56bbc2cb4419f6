"""Fuzz (hypothesis): a few `memories` rows holding any SQLite value in any column, linked to each other,
to nowhere or in a loop, go through every reader of project memories (projects, reads, links, injection)
and through export and import without an exception, each odd value shown as what it is."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from app.store.connect.engine import open_sqlite_file, transaction
from app.store.project.exporting import exported_project_memories
from app.store.project.importing import import_project_memories
from app.store.project.injection import injected
from app.store.project.links import MAX_CHAIN, links_of
from app.store.project.projects import list_projects
from app.store.project.reads import fetch_project
from app.store.schema.migrate import upgrade
from app.store.schema.tables import project_revisions
from app.store.write.revision_log import WriteContext
from app.transfer.export_format import parse_export
from tests.store.project.test_model import InvalidUtf8, nullable, rows
from tests.support.host80 import NOW, T0, build_host80

IDS = (1, 2, 3)
links = st.fixed_dictionaries(
    {
        "superseded_by_memory_id": st.one_of(st.sampled_from([*IDS, 99, -1]), nullable),
        "merged_from": st.one_of(
            st.sampled_from(["[1, 2]", "[3]", "[99]", '[1, "x"]', "{}", "not json", "[" * 80, "[2, 2]"]),
            nullable,
        ),
    }
)
linked_rows = st.lists(
    st.tuples(rows, links).map(lambda pair: {**pair[0], **pair[1]}), min_size=1, max_size=3
)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("fuzz-paths")
    target = build_host80(folder / "target.db")
    opened = open_sqlite_file(target, read_only=False, create=False)
    try:
        upgrade(opened.engine, opened.location)  # an import records each memory's creation in our log
    finally:
        opened.close()
    return build_host80(folder / "source.db"), target


def _write(path: Path, given_rows: list[dict[str, object]]) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute("DELETE FROM memories")
        for memory_id, row in zip(IDS, given_rows, strict=False):
            marks = ", ".join("CAST(? AS TEXT)" if isinstance(v, InvalidUtf8) else "?" for v in row.values())
            values = tuple(bytes(v) if isinstance(v, InvalidUtf8) else v for v in row.values())
            # Rows colliding on the host's UNIQUE: the second is not written, as the host's would not be.
            conn.execute(
                f"INSERT OR IGNORE INTO memories (id, {', '.join(row)}) VALUES ({memory_id}, {marks})", values
            )
        conn.commit()
    finally:
        conn.close()


def _clear(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute("DELETE FROM memories")
        conn.execute("DELETE FROM project_state")
        conn.execute("DELETE FROM mdash_project_revisions")
        conn.execute("DELETE FROM mdash_project_seen")
        conn.commit()
    finally:
        conn.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(given_rows=linked_rows)
def test_odd_rows_go_through_every_reader_export_and_import(
    files: tuple[Path, Path], given_rows: list[dict[str, object]]
) -> None:
    source, target = files
    _write(source, given_rows)
    opened = open_sqlite_file(source, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as conn:
            seen = []
            for project in list_projects(conn):
                memories = fetch_project(conn, project.key)
                seen += memories
                assert project.memory_count == len(memories)
                assert project.oddity is None or "project_path" in project.oddity
                chosen = {memory.id for memory in injected(conn, project.key, NOW)}
                assert chosen <= {memory.id for memory in memories}
            for memory in seen:
                found = links_of(conn, memory)
                assert len(found.chain.steps) <= MAX_CHAIN
                if found.merged.problem is not None:  # shown as what it is, never guessed at
                    assert "merged_from" in found.merged.problem
            items = exported_project_memories(conn)
    finally:
        opened.close()
    assert [item["id"] for item in items] == sorted(memory.id for memory in seen)
    text = json.dumps(
        {
            "format": "memory-dashboard-export",
            "version": 2,
            "exported_at": T0,
            "memories": [],
            "project_memories": items,
        },
        ensure_ascii=False,
    )
    export = parse_export(text)  # our own export of any rows is a file the import reads
    _clear(target)
    opened = open_sqlite_file(target, read_only=False, create=False)
    try:
        with transaction(opened.engine, write=True, location=opened.location) as conn:
            result = import_project_memories(WriteContext(conn, NOW), export.project_memories, "fuzz", T0)
            created = conn.execute(select(project_revisions.c.memory_id, project_revisions.c.kind)).all()
    finally:
        opened.close()
    assert sorted([*(i.from_id for i in result.imported), *(s.from_id for s in result.skipped)]) == sorted(
        memory.id for memory in seen
    )
    assert sorted(created) == sorted((item.memory_id, "create") for item in result.imported)
    for memory, item in zip(sorted(seen, key=lambda m: m.id), items, strict=True):
        if memory.oddities:
            assert item["oddities"] == list(memory.oddities)
