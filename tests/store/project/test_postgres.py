"""The same reads and writes on PostgreSQL: the seeded project memories copied into the host's tables in
PostgreSQL form (our Core descriptions of them), then injection, links, projects and the writers; and a
store there observing outside rewrites and reading a project memory's past."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, insert, select, update

from app.core.clock import ManualClock
from app.core.errors import ReadOnlyError
from app.store import MemoryStore
from app.store.kinds import PROJECT_MEMORIES
from app.store.project import writes
from app.store.project.injection import injected
from app.store.project.links import links_of
from app.store.project.projects import list_projects
from app.store.project.reads import fetch_memory
from app.store.project.tables import (
    authority_managed,
    authority_repair_pending,
    memories,
    memory_mutation_log,
    project_metadata,
    session_projects,
)
from app.store.schema.tables import project_state
from tests.support.host80 import ALPHA, BETA, DAY, NOW, Seeded
from tests.support.pg_host import seed_postgres

COPIED = (memories, session_projects, authority_managed, authority_repair_pending)


@pytest.fixture
def pg(postgres_db: str, host80: Path, seeded: Seeded) -> Iterator[Engine]:
    engine = create_engine(postgres_db)
    project_metadata.create_all(engine)
    project_state.create(engine)
    source = sqlite3.connect(host80)
    try:
        with engine.begin() as conn:
            for table in COPIED:
                names = [column.name for column in table.c]
                rows = source.execute(f"SELECT {', '.join(names)} FROM {table.name}").fetchall()
                if rows:
                    conn.execute(insert(table), [dict(zip(names, row, strict=True)) for row in rows])
    finally:
        source.close()
    yield engine
    engine.dispose()


def test_reads_on_postgresql(pg: Engine, seeded: Seeded) -> None:
    with pg.connect() as conn:
        ids = [memory.id for memory in injected(conn, ALPHA, NOW)]
        assert ids[0] == seeded.chain[2] and ids[-2:] == [seeded.permanent, seeded.expiring]
        assert [memory.id for memory in injected(conn, BETA, NOW)] == [seeded.beta]
        first = fetch_memory(conn, seeded.chain[0])
        assert first is not None
        assert links_of(conn, first).chain.end == seeded.chain[2]
        names = {project.identity: project.display_name for project in list_projects(conn)}
        assert names[BETA] == "beta"


def test_writes_on_postgresql(pg: Engine, seeded: Seeded) -> None:
    with pg.begin() as conn:
        writes.edit_content(conn, seeded.active, "Build with pnpm 9", NOW)
        writes.archive(conn, seeded.permanent, NOW, reason="done")
    with pg.begin() as conn, pytest.raises(ReadOnlyError):
        writes.edit_content(conn, seeded.managed, "New words", NOW)
    with pg.connect() as conn:
        log = conn.execute(
            select(memory_mutation_log.c.mutation_type, memory_mutation_log.c.target_memory_id)
        )
        assert sorted(log.all()) == [("archive", seeded.permanent), ("update", seeded.active)]
        epoch = conn.execute(select(project_state.c.project_memory_epoch)).scalar_one()
        assert epoch == 1


def test_outside_rewrites_and_the_past_on_postgresql(
    postgres_db: str, host80: Path, seeded: Seeded, tmp_path: Path
) -> None:
    """The observer's one scan (`IS DISTINCT FROM` on every seen cell), the baselines' INSERT ... SELECT,
    the history, blame and a project's as-of on a PostgreSQL store with the host's tables."""
    seed_postgres(postgres_db, tmp_path)
    engine = create_engine(postgres_db)
    project_metadata.create_all(engine)
    source = sqlite3.connect(host80)
    try:
        names = [column.name for column in memories.c]
        rows = source.execute(f"SELECT {', '.join(names)} FROM memories").fetchall()
        with engine.begin() as conn:
            conn.execute(insert(memories), [dict(zip(names, row, strict=True)) for row in rows])
    finally:
        source.close()
    clock = ManualClock(NOW)
    store = MemoryStore.open(postgres_db, clock=clock)
    try:
        store.observe()
        assert store.history(seeded.active, kind=PROJECT_MEMORIES) == []
        with engine.begin() as conn:  # the host, in the same millisecond as its last write
            conn.execute(
                update(memories).where(memories.c.id == seeded.active).values(content="Build with bun")
            )
        clock.set(NOW + DAY)
        store.observe()
        history = store.history(seeded.active, kind=PROJECT_MEMORIES)
        assert [(r.kind, r.source, r.previous_content) for r in history] == [
            ("content", "observed", "Build with pnpm, never npm")
        ]
        assert [
            line.origin.revision_id for line in store.blame(seeded.active, kind=PROJECT_MEMORIES).lines
        ] == [history[0].id]
        then = {state.memory_id: state for state in store.project_as_of(ALPHA, NOW - DAY)}
        assert not then[seeded.active].known  # first seen at NOW: unknown before, not guessed
        store.observe()
        assert len(store.history(seeded.active, kind=PROJECT_MEMORIES)) == 1
    finally:
        store.close()
        engine.dispose()
