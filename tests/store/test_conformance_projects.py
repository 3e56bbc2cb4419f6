"""The conformance suite's project-memory contract: the same reads, links, injection as of an instant,
writes with the effects the host sees, refusals and import, on every store back end.

Back ends, as in `test_conformance`: a file of the host's whole schema (version 80), the embedded store
(the app makes it; the host's project-memory tables are added by the host's own statements) and a
PostgreSQL database (the tables in their PostgreSQL translation, `tests.support.project_tables`). Each
holds the shared scenario of `host80.seed_projects`, row for row.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.commands.export import export_data
from app.core.clock import ManualClock
from app.core.errors import ReadOnlyError
from app.core.paths import embedded_database_path
from app.store import MemoryStore
from app.store.project import writes
from app.store.project.authority import MANAGED_REASON, REPAIR_REASON
from app.store.project.hashing import normalized_hash
from app.store.project.injection import injected
from app.store.project.links import links_of, merged_into
from app.store.project.projects import list_projects
from app.store.project.reads import fetch_memory, fetch_project
from app.transfer.export_format import parse_export
from tests.support.host80 import ALPHA, BETA, DAY, MANAGED, NOW, REPAIRING, T0, Seeded, build_host80
from tests.support.pg_host import HostDb, PostgresHostDb, SqliteHostDb
from tests.support.project_tables import POSTGRES_DDL, add_to_sqlite, copy_seeded

Backend = tuple[MemoryStore, HostDb, Seeded]


@pytest.fixture(params=["host-file", "embedded", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    clock = ManualClock(NOW)
    host: HostDb
    if request.param == "host-file":
        host = SqliteHostDb(build_host80(tmp_path / "context.db"))
        store = MemoryStore.open(host.target, clock=clock)
    elif request.param == "embedded":
        store = MemoryStore.open(None, clock=clock)
        host = SqliteHostDb(embedded_database_path())
        assert store.origin == "embedded"
        add_to_sqlite(embedded_database_path())
    else:
        host = PostgresHostDb(request.getfixturevalue("postgres_db"))
        store = MemoryStore.open(host.target, clock=clock)
        host.script([(statement, ()) for statement in POSTGRES_DDL])
    seeded = copy_seeded(host, tmp_path)
    yield store, host, seeded
    store.close()


def epoch(host: HostDb, project: str) -> int:
    rows = host.query("SELECT project_memory_epoch FROM project_state WHERE project_path = ?", (project,))
    return int(str(rows[0][0])) if rows else 0


def log(host: HostDb) -> list[tuple[object, ...]]:
    return host.query(
        "SELECT mutation_type, target_memory_id, superseded_by_id, new_content"
        " FROM memory_mutation_log ORDER BY id"
    )


def test_projects_links_and_injection_as_of_an_instant(backend: Backend) -> None:
    store, _, seeded = backend
    with store.read_snapshot() as conn:
        projects = {project.identity: project for project in list_projects(conn)}
        assert projects[BETA].display_name == "beta" and projects[BETA].memory_count == 1
        assert projects[MANAGED].read_only_reason == MANAGED_REASON
        assert projects[REPAIRING].read_only_reason == REPAIR_REASON
        alpha = fetch_project(conn, ALPHA)
        for instant in (NOW, T0 + 2 * DAY - 1, T0 + 2 * DAY):  # expiry is half-open
            chosen = [memory.id for memory in injected(conn, ALPHA, instant)]
            expected = sorted(
                (memory for memory in alpha if memory.injectable_at(instant)),
                key=lambda memory: (memory.category.encode(), -memory.updated_at, memory.id),
            )
            assert chosen == [memory.id for memory in expected]
            assert (seeded.expired in chosen) == (instant < T0 + 2 * DAY)
        assert seeded.odd_status not in chosen and seeded.archived not in chosen
        first = fetch_memory(conn, seeded.chain[0])
        assert first is not None
        chain = links_of(conn, first).chain
        assert (chain.steps, chain.end, chain.problem) == (seeded.chain[1:], seeded.chain[2], None)
        looped = fetch_memory(conn, seeded.loop[0])
        dangling = fetch_memory(conn, seeded.dangling)
        merged = fetch_memory(conn, seeded.merged)
        assert looped is not None and dangling is not None and merged is not None
        assert "loops back" in str(links_of(conn, looped).chain.problem)
        assert "does not exist" in str(links_of(conn, dangling).chain.problem)
        sources = links_of(conn, merged).sources
        assert [(s.memory_id, s.source_session_id) for s in sources] == [
            (seeded.merge_sources[0], "ses_alpha1"),
            (seeded.merge_sources[1], "ses_alpha2"),
        ]
        assert merged_into(conn, seeded.merge_sources[0]) == (seeded.merged,)


def test_each_write_has_the_effects_the_host_sees(backend: Backend) -> None:
    store, host, seeded = backend
    host.sql(
        "INSERT INTO memory_embeddings (memory_id, embedding, model_id) VALUES (?, ?, ?)",
        (seeded.active, b"\x00" * 8, "local:minilm"),
    )
    with store.write() as ctx:
        writes.edit_content(ctx.conn, seeded.active, "Build with pnpm 9", NOW)
    row = host.query("SELECT normalized_hash, shareable FROM memories WHERE id = ?", (seeded.active,))
    assert row == [(normalized_hash("Build with pnpm 9"), 0)]
    assert host.query("SELECT count(*) FROM memory_embeddings") == [(0,)]
    assert log(host) == [("update", seeded.active, None, "Build with pnpm 9")]
    assert epoch(host, ALPHA) == 1
    with store.write() as ctx:
        writes.change_category(ctx.conn, seeded.active, "TOOLING", NOW)
        writes.archive(ctx.conn, seeded.permanent, NOW, reason="done")
        writes.supersede(ctx.conn, seeded.verified, seeded.chain[2], NOW)
    assert [entry[0] for entry in log(host)] == ["update", "update", "archive", "superseded"]
    assert log(host)[-1][1:3] == (seeded.verified, seeded.chain[2])
    assert epoch(host, ALPHA) == 2  # a category is part of what the host renders; an archive is logged
    meta = host.query("SELECT status, metadata_json FROM memories WHERE id = ?", (seeded.permanent,))
    assert meta[0][0] == "archived" and json.loads(str(meta[0][1])) == {"archive_reason": "done"}
    with store.write() as ctx:
        writes.restore(ctx.conn, seeded.permanent, NOW, status="permanent")
    assert epoch(host, ALPHA) == 3
    assert host.query("SELECT status FROM memories WHERE id = ?", (seeded.permanent,)) == [("permanent",)]


def test_duplicates_and_owned_projects_are_refused_and_nothing_is_written(backend: Backend) -> None:
    store, host, seeded = backend
    before = host.query("SELECT * FROM memories ORDER BY id")
    with pytest.raises(writes.DuplicateContentError) as refused, store.write() as ctx:
        writes.edit_content(ctx.conn, seeded.expiring, "  never PUSH to main\tdirectly", NOW)
    assert refused.value.existing_id == seeded.permanent
    assert f"already exists as ID {seeded.permanent}" in str(refused.value)
    for memory_id, reason in ((seeded.managed, "authority_managed"), (seeded.repairing, "repair_pending")):
        with pytest.raises(ReadOnlyError, match=reason), store.write() as ctx:
            writes.archive(ctx.conn, memory_id, NOW)
    assert host.query("SELECT * FROM memories ORDER BY id") == before
    assert log(host) == [] and epoch(host, ALPHA) == 0


def _item(memory_id: int, content: str, project: str = ALPHA, **changes: object) -> dict[str, object]:
    times = dict.fromkeys(("first_seen_at", "created_at", "updated_at", "last_seen_at"), T0)
    return {
        "id": memory_id,
        "project_path": project,
        "category": "ARCHITECTURE",
        "content": content,
        "scope": "project",
        "shareable": False,
        "status": "active",
        **times,
        **changes,
    }


def test_import_keeps_free_ids_renumbers_taken_ones_and_moves_the_identity(backend: Backend) -> None:
    store, host, seeded = backend
    items = [
        _item(500, "Kept id", superseded_by_memory_id=seeded.active),  # the file's #1, taken here
        _item(seeded.active, "Taken id"),
        _item(501, "Owned project", MANAGED),
    ]
    data = {"format": "memory-dashboard-export", "version": 2, "exported_at": T0, "memories": []}
    result = store.import_export(parse_export(json.dumps({**data, "project_memories": items})), "in.json")
    assert result.projects is not None
    ids = {item.from_id: item.memory_id for item in result.projects.imported}
    assert ids[500] == 500 and ids[seeded.active] > 500
    assert [s.from_id for s in result.projects.skipped] == [501]
    assert host.query("SELECT superseded_by_memory_id FROM memories WHERE id = 500") == [
        (ids[seeded.active],)
    ]
    assert epoch(host, ALPHA) == 1 and log(host) == []
    host.sql(  # the host's next insert takes an id past every imported one
        "INSERT INTO memories (project_path, category, content, normalized_hash, first_seen_at, created_at,"
        " updated_at, last_seen_at) VALUES (?, 'ARCHITECTURE', 'Next', 'h', ?, ?, ?, ?)",
        (BETA, T0, T0, T0, T0),
    )
    assert host.query("SELECT max(id) FROM memories WHERE content = 'Next'")[0][0] == ids[seeded.active] + 1
    exported = {item["id"] for item in export_data(store)["project_memories"]}
    assert {500, ids[seeded.active], seeded.beta} <= exported
