"""The undo of an import takes back the project memories it brought in, on host files of schema v80: the
host's way (rows, embeddings and verifications gone, a `delete` mutation log row each, one epoch bump per
project), our links to them dropped and a `delete` revision each in the project log; the redo brings
them back with their ids. A memory the host changed since is left (and said), the others taken back; a
redo whose id or text is taken since leaves that one out (and says so)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.commands.export import export_text
from app.commands import log, runner
from app.commands.presence import Import
from app.core.clock import ManualClock
from app.store import MemoryStore
from app.store.project.hashing import normalized_hash
from app.transfer.export_format import parse_export
from tests.commands.test_commands import begun
from tests.support.host80 import (
    ALPHA,
    BETA,
    NOW,
    T0,
    Seeded,
    add_embedding,
    add_memory,
    build_host80,
    connect,
    seed_projects,
)
from tests.support.hostdb import host_sql, memory_row, query

# What the import wrote and a redo must write back the same.
ROW = (
    "project_path, category, content, normalized_hash, importance, scope, shareable, source_session_id,"
    " seen_count, first_seen_at, created_at, updated_at, status, expires_at, metadata_json"
)


@pytest.fixture
def seeded_source(tmp_path: Path) -> tuple[Path, Seeded]:
    path = build_host80(tmp_path / "source.db")
    return path, seed_projects(path)


@pytest.fixture
def target(tmp_path: Path) -> Path:
    return build_host80(tmp_path / "context.db")


@pytest.fixture
def store(target: Path) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(target, clock=ManualClock(NOW))
    yield opened
    opened.close()


def imported(store: MemoryStore, source: Path) -> list[int]:
    """The source's export imported as a command; the project memories' ids here."""
    reading = MemoryStore.open(source, clock=ManualClock(NOW))
    try:
        text = export_text(reading, "json")
    finally:
        reading.close()
    with begun(store) as transactions:
        result = runner.execute(store, Import(parse_export(text, "out.json"), "out.json"), "cli")
    assert len(transactions) == 1 and result.projects is not None
    return [item.memory_id for item in result.projects.imported]


def step(store: MemoryStore, back: bool) -> runner.Step:
    with begun(store) as transactions:
        made = runner.undo(store) if back else runner.redo(store)
    assert made is not None and len(transactions) == 1
    return made


def present(path: Path, ids: list[int]) -> set[int]:
    marks = ",".join("?" for _ in ids)
    return {
        int(str(row[0])) for row in query(path, f"SELECT id FROM memories WHERE id IN ({marks})", tuple(ids))
    }


def epochs(path: Path) -> dict[object, object]:
    return {
        row[0]: row[1] for row in query(path, "SELECT project_path, project_memory_epoch FROM project_state")
    }


def count(path: Path, sql: str, params: tuple[object, ...] = ()) -> int:
    return int(str(query(path, sql, params)[0][0]))


def kinds(path: Path, memory_id: int) -> list[tuple[object, ...]]:
    return query(
        path,
        "SELECT kind, source FROM mdash_project_revisions WHERE memory_id = ? ORDER BY id",
        (memory_id,),
    )


def test_undo_deletes_the_imported_project_memories_and_redo_brings_them_back(
    store: MemoryStore, target: Path, seeded_source: tuple[Path, Seeded]
) -> None:
    source, seeded = seeded_source
    with connect(source) as conn:  # a user memory too: the import was always logged with one
        memory_row(conn, 1, "Prefers pnpm", promoted_at=T0)
    conn.close()
    ids = imported(store, source)
    assert seeded.active in ids and seeded.beta in ids and len(ids) > 10
    assert runner.history(store)[0].label == f"import of #1 and {len(ids)} project memories"
    rows = {i: query(target, f"SELECT {ROW} FROM memories WHERE id = ?", (i,)) for i in ids}
    with connect(target) as conn:
        add_embedding(conn, seeded.active)  # the host's backfill embedded them meanwhile
        conn.execute(
            "INSERT INTO memory_verifications (memory_id, file_path, verified_at) VALUES (?, 'a.py', 1)",
            (seeded.active,),
        )
    conn.close()
    link = (
        "INSERT INTO mdash_links (memory_kind, from_id, to_id, relation, made_at, made_by)"
        " VALUES (?,?,?,?,?,?)"
    )
    host_sql(target, link, ("project", seeded.active, seeded.beta, "merged_into", T0, "command:1"))
    host_sql(target, link, ("user", seeded.active, seeded.beta, "merged_into", T0, "command:1"))
    before = epochs(target)

    made = step(store, back=True)
    assert made.note == ""
    assert present(target, ids) == set()
    assert count(target, "SELECT COUNT(*) FROM memory_embeddings") == 0
    assert count(target, "SELECT COUNT(*) FROM memory_verifications") == 0
    deletes = query(
        target,
        "SELECT target_memory_id, mutation_type, category, new_content FROM memory_mutation_log ORDER BY id",
    )
    assert sorted(int(str(row[0])) for row in deletes) == sorted(ids)
    assert {row[1:] for row in deletes if row[0] == seeded.active} == {("delete", "CONFIG_VALUES", None)}
    after = epochs(target)
    assert {path: int(str(after[path])) - int(str(before[path])) for path in (ALPHA, BETA)} == {
        ALPHA: 1,
        BETA: 1,
    }
    # Our project link to them went; a user-memory link with the same ids is another memory's.
    assert query(target, "SELECT memory_kind FROM mdash_links") == [("user",)]
    assert kinds(target, seeded.active)[-1] == ("delete", "dashboard")
    assert count(target, "SELECT COUNT(*) FROM mdash_project_seen") == 0

    step(store, back=False)
    assert present(target, ids) == set(ids)
    assert {i: query(target, f"SELECT {ROW} FROM memories WHERE id = ?", (i,)) for i in ids} == rows
    assert int(str(epochs(target)[ALPHA])) == int(str(after[ALPHA])) + 1
    assert kinds(target, seeded.active)[-1] == ("create", "restore")
    assert count(target, "SELECT COUNT(*) FROM mdash_project_seen") == len(ids)
    assert count(target, "SELECT COUNT(*) FROM memory_mutation_log") == len(ids)  # no row for an insert

    step(store, back=True)  # and out again, from the redo
    assert present(target, ids) == set()
    assert query(target, "SELECT id FROM user_memories WHERE content = 'Prefers pnpm'") == []


def test_a_memory_the_host_rewrote_since_is_left_and_said(
    store: MemoryStore, target: Path, seeded_source: tuple[Path, Seeded]
) -> None:
    source, seeded = seeded_source
    ids = imported(store, source)
    text = "Build with bun now"
    host_sql(
        target,
        "UPDATE memories SET content = ?, normalized_hash = ?, updated_at = ? WHERE id = ?",
        (text, normalized_hash(text), NOW, seeded.active),
    )

    made = step(store, back=True)
    assert made.note == (
        f"project memory #{seeded.active} changed since it was imported, so Undo left it as it is"
    )
    assert present(target, ids) == {seeded.active}
    assert query(target, "SELECT content FROM memories WHERE id = ?", (seeded.active,)) == [(text,)]
    assert (
        count(target, "SELECT COUNT(*) FROM memory_mutation_log WHERE target_memory_id = ?", (seeded.active,))
        == 0
    )
    assert [entry.done for entry in runner.history(store)] == [False]

    made = step(store, back=False)
    assert made.note.startswith(f"project memory #{seeded.active} is not as the import left it")
    assert present(target, ids) == set(ids)
    assert query(target, "SELECT content FROM memories WHERE id = ?", (seeded.active,)) == [(text,)]


def test_a_redo_leaves_out_a_memory_whose_id_or_text_is_taken_since(
    store: MemoryStore, target: Path, seeded_source: tuple[Path, Seeded]
) -> None:
    source, seeded = seeded_source
    ids = imported(store, source)
    step(store, back=True)
    with connect(target) as conn:  # the host writes again, meanwhile
        add_memory(conn, ALPHA, "Something else entirely", memory_id=seeded.permanent)
        again = add_memory(conn, BETA, "Beta uses Go 1.23", category="ENVIRONMENT")
    conn.close()

    made = step(store, back=False)
    assert made.note == (
        f"project memory #{seeded.permanent} is not as the import left it (the host changed it, or gave its"
        " id to another), so Redo left it as it is; "
        f"project memory #{seeded.beta} has its text in its project and category again since, as"
        f" #{again}; it was not brought back"
    )
    assert present(target, ids) == set(ids) - {seeded.beta}
    assert query(target, "SELECT content FROM memories WHERE id = ?", (seeded.permanent,)) == [
        ("Something else entirely",)
    ]


def test_an_import_of_project_memories_alone_is_logged_and_reads_back(
    store: MemoryStore, target: Path, seeded_source: tuple[Path, Seeded]
) -> None:
    source, _ = seeded_source
    ids = imported(store, source)
    [entry] = runner.history(store)
    assert entry.label.endswith(f"{len(ids)} project memories")
    with store.read_snapshot() as conn:
        found = log.newest_done(conn)
    assert found is not None
    payload = json.loads(str(found[1]))
    assert [item["id"] for item in payload["projects"]] == ids
    command = runner.load_entry(entry, json.dumps({"changes": []}))  # an entry from before: no projects
    assert isinstance(command, Import) and command.projects == ()
