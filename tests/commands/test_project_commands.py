"""The project memory commands on host files of schema v80: each change and its undo and redo, with what
the host sees both ways (content, `normalized_hash`, `memory_mutation_log`, `project_memory_epoch`,
embeddings), a revision in the project log for each step, one write transaction each, and the refusals
(the host moved the row since, a duplicate text, a project the host's native module owns) that write
nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from app.commands import log, runner
from app.commands.base import Command
from app.commands.payload import PayloadError
from app.commands.project import (
    ArchiveProjectMemory,
    ChangeProjectCategory,
    EditProjectContent,
    ProjectConflictError,
    RestoreProjectMemory,
)
from app.core.clock import ManualClock
from app.core.errors import InvalidInputError, ReadOnlyError
from app.store import MemoryStore
from app.store.project import revisions
from app.store.project.hashing import normalized_hash
from app.store.project.writes import DuplicateContentError
from tests.commands.test_commands import begun
from tests.support.host80 import (
    ALPHA,
    DANGLING_TARGET,
    NOW,
    Seeded,
    add_embedding,
    connect,
)
from tests.support.hostdb import host_sql, query


@pytest.fixture
def store(host80: Path, seeded: Seeded) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(host80, clock=ManualClock(NOW))
    yield opened
    opened.close()


def cells(path: Path, memory_id: int) -> tuple[object, ...]:
    return query(
        path,
        "SELECT content, normalized_hash, category, status, superseded_by_memory_id FROM memories"
        " WHERE id = ?",
        (memory_id,),
    )[0]


def mutations(path: Path, memory_id: int) -> list[tuple[object, ...]]:
    return query(
        path,
        "SELECT mutation_type, category, new_content, superseded_by_id FROM memory_mutation_log"
        " WHERE target_memory_id = ? ORDER BY id",
        (memory_id,),
    )


def epoch(path: Path, project: str = ALPHA) -> int:
    rows = query(path, "SELECT project_memory_epoch FROM project_state WHERE project_path = ?", (project,))
    return 0 if not rows else int(str(rows[0][0]))


def embedded(path: Path, memory_id: int) -> int:
    found = query(path, "SELECT COUNT(*) FROM memory_embeddings WHERE memory_id = ?", (memory_id,))
    return int(str(found[0][0]))


def embed(path: Path, memory_id: int) -> None:
    with connect(path) as conn:
        add_embedding(conn, memory_id)
    conn.close()


def history(store: MemoryStore, memory_id: int) -> list[tuple[str, str, str | None, str | None]]:
    with store.database.read() as conn:
        found = revisions.fetch_history(conn, memory_id)
    return [(item.kind, item.source, item.previous_content, item.new_content) for item in found]


def step(store: MemoryStore, back: bool) -> runner.Step:
    """One undo (`back`) or redo, in exactly one write transaction."""
    with begun(store) as transactions:
        made = runner.undo(store) if back else runner.redo(store)
    assert made is not None and len(transactions) == 1
    assert made.memory_kind == "project"
    return made


def execute(store: MemoryStore, command: Command[Any]) -> None:
    with begun(store) as transactions:
        runner.execute(store, command, "cli")
    assert len(transactions) == 1


def test_edit_undo_and_redo_are_each_an_edit_the_host_sees(
    store: MemoryStore, host80: Path, seeded: Seeded
) -> None:
    memory = seeded.active
    old = "Build with pnpm, never npm"
    new = "Build with pnpm 9, never npm"
    embed(host80, memory)
    execute(store, EditProjectContent(memory, new))
    assert cells(host80, memory)[:2] == (new, normalized_hash(new))
    assert mutations(host80, memory) == [("update", "CONFIG_VALUES", new, None)]
    assert (epoch(host80), embedded(host80, memory)) == (1, 0)
    assert [entry.label for entry in runner.history(store)] == [f"edit of project memory #{memory}"]

    embed(host80, memory)  # the host's backfill embedded the new text: the undo makes it stale again
    step(store, back=True)
    assert cells(host80, memory)[:2] == (old, normalized_hash(old))
    assert mutations(host80, memory)[-1] == ("update", "CONFIG_VALUES", old, None)
    assert (epoch(host80), embedded(host80, memory)) == (2, 0)

    step(store, back=False)
    assert cells(host80, memory)[:2] == (new, normalized_hash(new))
    assert len(mutations(host80, memory)) == 3 and epoch(host80) == 3
    assert history(store, memory) == [
        ("content", "dashboard", old, new),
        ("content", "dashboard", new, old),
        ("content", "dashboard", old, new),
    ]
    # Our own writes are what the store last saw: none of them reads as an outside rewrite.
    seen = query(host80, "SELECT content, updated_at FROM mdash_project_seen WHERE memory_id = ?", (memory,))
    assert seen == query(host80, "SELECT content, updated_at FROM memories WHERE id = ?", (memory,))


def test_category_change_and_its_undo(store: MemoryStore, host80: Path, seeded: Seeded) -> None:
    memory = seeded.active
    execute(store, ChangeProjectCategory(memory, "ENVIRONMENT"))
    assert cells(host80, memory)[2] == "ENVIRONMENT"
    step(store, back=True)
    assert cells(host80, memory)[2] == "CONFIG_VALUES"
    # Each logged under the category it left, as the host's renderer reads it.
    assert [row[:2] for row in mutations(host80, memory)] == [
        ("update", "CONFIG_VALUES"),
        ("update", "ENVIRONMENT"),
    ]
    assert epoch(host80) == 2
    assert [item[0] for item in history(store, memory)] == ["category", "category"]


def test_a_typed_category_is_screened_but_its_undo_writes_back_the_hosts(
    store: MemoryStore, host80: Path, seeded: Seeded
) -> None:
    memory = seeded.active
    before = query(host80, "SELECT * FROM memories ORDER BY id")
    with pytest.raises(InvalidInputError, match="hidden character"):
        execute(store, ChangeProjectCategory(memory, "RULES\u202eSECRET"))
    assert query(host80, "SELECT * FROM memories ORDER BY id") == before
    # A category the host wrote with one is its own: moved away, an undo puts it back as it was.
    host_sql(host80, "UPDATE memories SET category = 'HOST\u200bRULES' WHERE id = ?", (memory,))
    execute(store, ChangeProjectCategory(memory, "ENVIRONMENT"))
    step(store, back=True)
    assert cells(host80, memory)[2] == "HOST\u200bRULES"


def test_archive_with_a_reason_then_undo_and_redo(store: MemoryStore, host80: Path, seeded: Seeded) -> None:
    memory = seeded.permanent
    execute(store, ArchiveProjectMemory(memory, "  the repo allows it now "))
    assert cells(host80, memory)[3] == "archived"
    metadata = query(host80, "SELECT metadata_json FROM memories WHERE id = ?", (memory,))[0][0]
    assert json.loads(str(metadata)) == {"archive_reason": "the repo allows it now"}
    assert mutations(host80, memory) == [("archive", "PROJECT_RULES", None, None)]
    undone = step(store, back=True)
    assert cells(host80, memory)[3] == "permanent"  # the status it had, not merely active
    assert undone.note == "the archive reason stays in its metadata"
    step(store, back=False)
    assert cells(host80, memory)[3] == "archived"
    assert [(kind, status) for kind, status, *_ in _statuses(store, memory)] == [
        ("status", "archived"),
        ("status", "permanent"),
        ("status", "archived"),
    ]


def _statuses(store: MemoryStore, memory_id: int) -> list[tuple[str, str | None]]:
    with store.database.read() as conn:
        return [(item.kind, item.new_status) for item in revisions.fetch_history(conn, memory_id)]


def test_undo_of_a_restore_puts_the_supersession_back(
    store: MemoryStore, host80: Path, seeded: Seeded
) -> None:
    first, second, _ = seeded.chain
    execute(store, RestoreProjectMemory(first))
    assert cells(host80, first)[3:] == ("active", None)
    step(store, back=True)
    assert cells(host80, first)[3:] == ("archived", second)
    assert mutations(host80, first) == [("superseded", "ARCHITECTURE", None, second)]
    step(store, back=False)
    assert cells(host80, first)[3:] == ("active", None)


def test_undo_of_a_restore_whose_successor_is_gone_archives_it(
    store: MemoryStore, host80: Path, seeded: Seeded
) -> None:
    execute(store, RestoreProjectMemory(seeded.dangling))
    step(store, back=True)
    assert cells(host80, seeded.dangling)[3:] == ("archived", None)
    assert DANGLING_TARGET not in {row[3] for row in mutations(host80, seeded.dangling)}


def test_an_undo_after_the_host_moved_the_row_is_refused(
    store: MemoryStore, host80: Path, seeded: Seeded
) -> None:
    memory = seeded.active
    execute(store, EditProjectContent(memory, "Build with pnpm 9"))
    host_sql(host80, "UPDATE memories SET content = 'Rewritten by the dreamer' WHERE id = ?", (memory,))
    before = query(host80, "SELECT * FROM memories ORDER BY id")
    logged = len(query(host80, "SELECT * FROM memory_mutation_log"))
    with pytest.raises(ProjectConflictError) as refused:
        runner.undo(store)
    assert refused.value.message == (
        f"Project memory #{memory} changed since it was edited, so Undo left it as it is"
    )
    assert refused.value.current.content == "Rewritten by the dreamer"
    assert query(host80, "SELECT * FROM memories ORDER BY id") == before
    assert len(query(host80, "SELECT * FROM memory_mutation_log")) == logged
    assert [entry.done for entry in runner.history(store)] == [True]


def test_the_undo_checks_the_row_in_the_write_it_writes_in(
    store: MemoryStore, host80: Path, seeded: Seeded
) -> None:
    """The host writes right after the undo read the row: either it got in before the undo's write
    transaction (and the undo is refused) or it waits for it; its change is never overwritten."""
    memory = seeded.active
    command = EditProjectContent(memory, "Build with pnpm 9")
    runner.execute(store, command, "cli")
    host: list[str] = []

    def after(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        if host or not sql.lstrip().startswith("SELECT") or "FROM memories" not in sql:
            return
        conn = sqlite3.connect(host80, timeout=0)  # the host's write, between the check and the writes
        try:
            conn.execute("UPDATE memories SET content = 'Rewritten by the dreamer' WHERE id = ?", (memory,))
            conn.commit()
            host.append("written")
        except sqlite3.OperationalError:  # the undo's write transaction holds the lock
            host.append("waited")
        finally:
            conn.close()

    event.listen(store.database.engine, "after_cursor_execute", after)
    try:
        command.undo(store)  # called on its own, outside the runner's transaction
    except ProjectConflictError:
        pass
    finally:
        event.remove(store.database.engine, "after_cursor_execute", after)
    content = cells(host80, memory)[0]
    assert content == ("Rewritten by the dreamer" if host == ["written"] else "Build with pnpm, never npm")
    assert host == ["waited"]


def test_a_duplicate_text_is_refused_with_the_hosts_message(
    store: MemoryStore, host80: Path, seeded: Seeded
) -> None:
    with pytest.raises(DuplicateContentError) as refused:
        runner.execute(store, EditProjectContent(seeded.merged, "tests LIVE in tests/"), "cli")
    assert refused.value.message == (
        f"Memory content already exists as ID {seeded.verified}; merge or archive duplicates instead."
    )
    assert runner.history(store) == [] and mutations(host80, seeded.merged) == []
    # An undo that would bring back a text the category holds again is refused the same way.
    execute(store, EditProjectContent(seeded.active, "Build with pnpm 9"))
    with connect(host80) as conn:
        conn.execute(
            "UPDATE memories SET category = 'CONFIG_VALUES', content = 'Build with pnpm, never npm',"
            " normalized_hash = ? WHERE id = ?",
            (normalized_hash("Build with pnpm, never npm"), seeded.beta),
        )
        conn.execute("UPDATE memories SET project_path = ? WHERE id = ?", (ALPHA, seeded.beta))
    conn.close()
    with pytest.raises(DuplicateContentError):
        runner.undo(store)
    assert cells(host80, seeded.active)[0] == "Build with pnpm 9"
    assert [entry.done for entry in runner.history(store)] == [True]


@pytest.mark.parametrize("which", ["managed", "repairing"])
def test_a_project_the_hosts_module_owns_is_refused(
    store: MemoryStore, host80: Path, seeded: Seeded, which: str
) -> None:
    memory = getattr(seeded, which)
    before = query(host80, "SELECT * FROM memories ORDER BY id")
    for command in (
        EditProjectContent(memory, "Changed"),
        ChangeProjectCategory(memory, "NAMING"),
        ArchiveProjectMemory(memory, "stale"),
        RestoreProjectMemory(memory, "permanent"),
    ):
        with pytest.raises(ReadOnlyError, match="host's native module"):
            runner.execute(store, command, "window")
    assert query(host80, "SELECT * FROM memories ORDER BY id") == before
    assert query(host80, "SELECT COUNT(*) FROM memory_mutation_log") == [(0,)]
    assert runner.history(store) == []


def test_a_change_that_changes_nothing_is_not_logged(store: MemoryStore, seeded: Seeded) -> None:
    runner.execute(store, RestoreProjectMemory(seeded.active), "cli")
    runner.execute(store, ArchiveProjectMemory(seeded.archived), "cli")
    assert runner.history(store) == [] and history(store, seeded.active) == []


def test_a_logged_project_command_reads_back_strictly(store: MemoryStore, seeded: Seeded) -> None:
    runner.execute(store, EditProjectContent(seeded.active, "Build with pnpm 9"), "cli")
    with store.database.read() as conn:
        found = log.newest_done(conn)
    assert found is not None
    entry, raw = found
    payload = json.loads(str(raw))
    assert set(payload) == {"id", "before", "after"}
    assert payload["after"]["content"] == "Build with pnpm 9"
    payload["after"]["status"] = 5
    with pytest.raises(PayloadError, match=r"after\.status is not text"):
        runner.load_entry(entry, json.dumps(payload))
