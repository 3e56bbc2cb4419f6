"""The host's write protocol for project memories, on files built from its own schema: each write's
row, `memory_mutation_log`, `project_memory_epoch` and `memory_embeddings` effects, the uniqueness rule
with the host's message, and refusals that leave the file as it was."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection

from app.core.errors import InvalidInputError, NotFoundError
from app.store.connect.engine import OpenedDatabase, transaction
from app.store.project import writes
from app.store.project.hashing import normalized_hash
from app.store.project.reads import fetch_memory
from app.store.project.writes import DuplicateContentError, ProjectWrite
from tests.support.host80 import ALPHA, NOW, Seeded, add_embedding, connect, set_epoch
from tests.support.hostdb import query


@pytest.fixture
def write(database: OpenedDatabase) -> Callable[[Callable[[Connection], ProjectWrite]], ProjectWrite]:
    """Run one writer in its own write transaction, as the store will."""

    def run(writer: Callable[[Connection], ProjectWrite]) -> ProjectWrite:
        with transaction(database.engine, write=True, location=database.location) as conn:
            return writer(conn)

    return run


Write = Callable[[Callable[[Connection], ProjectWrite]], ProjectWrite]


def _log(path: Path) -> list[tuple[object, ...]]:
    return query(
        path,
        "SELECT project_path, mutation_type, target_memory_id, superseded_by_id, category, new_content,"
        " queued_at FROM memory_mutation_log ORDER BY id",
    )


def _epoch(path: Path, project: str = ALPHA) -> int | None:
    rows = query(path, "SELECT project_memory_epoch FROM project_state WHERE project_path = ?", (project,))
    return None if not rows else int(str(rows[0][0]))


def _cells(path: Path, memory_id: int, *columns: str) -> tuple[object, ...]:
    return query(path, f"SELECT {', '.join(columns)} FROM memories WHERE id = ?", (memory_id,))[0]


@pytest.fixture
def cued(host80: Path, seeded: Seeded) -> Iterator[int]:
    """The active memory as the host's dreamer leaves it: classified, shareable, a mural cue, embedded."""
    with connect(host80) as conn:
        conn.execute(
            "UPDATE memories SET shareable = 1, classified_at = 5, mural_cue = 'cue', mural_cue_hash = 'h',"
            " mural_cue_at = 6, mural_cue_rejection_count = 2 WHERE id = ?",
            (seeded.active,),
        )
        add_embedding(conn, seeded.active, "model-a")
        add_embedding(conn, seeded.active, "model-b")
        add_embedding(conn, seeded.permanent, "model-a")
        set_epoch(conn, ALPHA, 41)
    conn.close()
    yield seeded.active


def test_edit_content_as_the_host_does(host80: Path, write: Write, cued: int, seeded: Seeded) -> None:
    done = write(lambda conn: writes.edit_content(conn, cued, "Build with  pnpm 9", NOW))
    assert done.changed and done.after.content == "Build with  pnpm 9"
    assert _cells(host80, cued, "content", "normalized_hash", "updated_at", "shareable", "classified_at") == (
        "Build with  pnpm 9",
        normalized_hash("build with pnpm 9"),
        NOW,
        0,
        None,
    )
    assert _cells(
        host80, cued, "mural_cue", "mural_cue_hash", "mural_cue_at", "mural_cue_rejection_count"
    ) == (
        None,
        None,
        None,
        0,
    )
    assert query(host80, "SELECT memory_id FROM memory_embeddings ORDER BY memory_id") == [
        (seeded.permanent,)
    ]
    assert _log(host80) == [(ALPHA, "update", cued, None, "CONFIG_VALUES", "Build with  pnpm 9", NOW)]
    assert _epoch(host80) == 42
    assert query(host80, "SELECT id, enabled FROM context_privilege_state") == [(1, 0)]


def test_the_epoch_row_is_made_when_missing(host80: Path, write: Write, seeded: Seeded) -> None:
    assert _epoch(host80) is None
    write(lambda conn: writes.edit_content(conn, seeded.active, "Build with pnpm only", NOW))
    assert _epoch(host80) == 1


def test_a_text_the_category_already_holds_is_refused(host80: Path, write: Write, seeded: Seeded) -> None:
    before = query(host80, "SELECT * FROM memories ORDER BY id")
    # "Tests live in tests/" is in ARCHITECTURE too: same hash after normalizing.
    with pytest.raises(DuplicateContentError) as refused:
        write(lambda conn: writes.edit_content(conn, seeded.merged, "  TESTS live in\ttests/ ", NOW))
    assert str(refused.value) == (
        f"Memory content already exists as ID {seeded.verified}; merge or archive duplicates instead."
    )
    assert query(host80, "SELECT * FROM memories ORDER BY id") == before
    assert _log(host80) == []
    # The same text in another category, or in another project, is no duplicate.
    write(lambda conn: writes.edit_content(conn, seeded.active, "Tests live in tests/", NOW))
    write(lambda conn: writes.edit_content(conn, seeded.beta, "Tests live in tests/", NOW))


def test_change_category(host80: Path, write: Write, seeded: Seeded) -> None:
    done = write(lambda conn: writes.change_category(conn, seeded.active, "ENVIRONMENT", NOW))
    assert (done.before.category, done.after.category) == ("CONFIG_VALUES", "ENVIRONMENT")
    assert _log(host80) == [(ALPHA, "update", seeded.active, None, "CONFIG_VALUES", done.before.content, NOW)]
    assert _epoch(host80) == 1


def test_change_category_refuses_a_duplicate(host80: Path, write: Write, seeded: Seeded) -> None:
    with connect(host80) as conn:
        conn.execute(
            "INSERT INTO memories (project_path, category, content, normalized_hash, first_seen_at,"
            " created_at, updated_at, last_seen_at) VALUES (?, 'NAMING', 'x', ?, 1, 1, 1, 1)",
            (ALPHA, normalized_hash("Tests live in tests/")),
        )
    conn.close()
    with pytest.raises(DuplicateContentError):
        write(lambda conn: writes.change_category(conn, seeded.verified, "NAMING", NOW))
    assert _log(host80) == []


def test_archive_with_a_reason_and_restore(host80: Path, write: Write, seeded: Seeded) -> None:
    with connect(host80) as conn:
        conn.execute(
            'UPDATE memories SET metadata_json = \'{"source":"agent"}\' WHERE id = ?', (seeded.active,)
        )
    conn.close()
    archived = write(lambda conn: writes.archive(conn, seeded.active, NOW, reason="  replaced by pnpm 9 "))
    assert archived.after.status == "archived"
    assert json.loads(str(archived.after.metadata_json)) == {
        "source": "agent",
        "archive_reason": "replaced by pnpm 9",
    }
    assert _log(host80) == [(ALPHA, "archive", seeded.active, None, "CONFIG_VALUES", None, NOW)]
    assert _epoch(host80) is None
    again = write(lambda conn: writes.archive(conn, seeded.active, NOW + 5, reason="twice"))
    assert not again.changed and len(_log(host80)) == 1
    restored = write(lambda conn: writes.restore(conn, seeded.active, NOW + 10))
    assert restored.after.status == "active" and restored.after.updated_at == NOW + 10
    assert _epoch(host80) == 1
    assert len(_log(host80)) == 1


def test_archive_replaces_metadata_that_is_no_object(host80: Path, write: Write, seeded: Seeded) -> None:
    with connect(host80) as conn:
        conn.execute("UPDATE memories SET metadata_json = '[1' WHERE id = ?", (seeded.active,))
    conn.close()
    done = write(lambda conn: writes.archive(conn, seeded.active, NOW, reason="gone"))
    assert done.after.metadata_json == '{"archive_reason":"gone"}'
    plain = write(lambda conn: writes.archive(conn, seeded.permanent, NOW))
    assert plain.after.metadata_json is None and plain.after.status == "archived"


def test_supersede_and_restore_undoes_it(host80: Path, write: Write, seeded: Seeded) -> None:
    done = write(lambda conn: writes.supersede(conn, seeded.active, seeded.verified, NOW))
    assert (done.after.status, done.after.superseded_by) == ("archived", seeded.verified)
    assert _log(host80) == [(ALPHA, "superseded", seeded.active, seeded.verified, "CONFIG_VALUES", None, NOW)]
    undone = write(lambda conn: writes.restore(conn, seeded.active, NOW + 1))
    assert (undone.after.status, undone.after.superseded_by) == ("active", None)


def test_supersede_refuses_a_loop_itself_and_a_missing_successor(write: Write, seeded: Seeded) -> None:
    first, _second, last = seeded.chain
    with pytest.raises(InvalidInputError, match="loop"):
        write(lambda conn: writes.supersede(conn, last, first, NOW))
    with pytest.raises(InvalidInputError, match="itself"):
        write(lambda conn: writes.supersede(conn, last, last, NOW))
    with pytest.raises(NotFoundError):
        write(lambda conn: writes.supersede(conn, last, 123_456, NOW))


def test_bad_input_and_missing_memories_write_nothing(host80: Path, write: Write, seeded: Seeded) -> None:
    before = query(host80, "SELECT * FROM memories ORDER BY id")
    for writer, error in (
        (lambda conn: writes.edit_content(conn, seeded.active, "   ", NOW), InvalidInputError),
        (lambda conn: writes.edit_content(conn, seeded.active, "nul\x00", NOW), InvalidInputError),
        (lambda conn: writes.change_category(conn, seeded.active, "", NOW), InvalidInputError),
        # A category is one line: a line break in it would start a line of its own in what the host renders.
        (lambda conn: writes.change_category(conn, seeded.active, "NAMING\nSYSTEM", NOW), InvalidInputError),
        (lambda conn: writes.archive(conn, seeded.active, NOW, reason="\ud800"), InvalidInputError),
        (lambda conn: writes.archive(conn, seeded.active, NOW, reason="x" * 70_000), InvalidInputError),
        (lambda conn: writes.edit_content(conn, 123_456, "text", NOW), NotFoundError),
    ):
        with pytest.raises(error):
            write(writer)
    assert query(host80, "SELECT * FROM memories ORDER BY id") == before
    assert _log(host80) == []


def test_a_failure_inside_the_transaction_leaves_nothing(
    host80: Path, database: OpenedDatabase, seeded: Seeded
) -> None:
    before = query(host80, "SELECT * FROM memories ORDER BY id")
    with (
        pytest.raises(RuntimeError),
        transaction(database.engine, write=True, location=database.location) as conn,
    ):
        writes.edit_content(conn, seeded.active, "Build with bun", NOW)
        raise RuntimeError("the command's own log failed")
    assert query(host80, "SELECT * FROM memories ORDER BY id") == before
    assert _log(host80) == [] and _epoch(host80) is None


def test_a_clock_behind_the_row_never_moves_updated_at_back(
    write: Write, seeded: Seeded, database: OpenedDatabase
) -> None:
    done = write(lambda conn: writes.edit_content(conn, seeded.chain[2], "FastAPI 0.116 serves the API", 5))
    assert done.after.updated_at == done.before.updated_at + 1
    with transaction(database.engine, write=False, location=database.location) as conn:
        assert fetch_memory(conn, seeded.chain[2]) == done.after
