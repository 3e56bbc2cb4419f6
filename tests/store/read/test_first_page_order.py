"""The first page by promotion read along our index (`app.store.read.first_page`): the very ids, in the
very order, of the host's own `ORDER BY promoted_at, id` on the same file, whatever the host stored in
`promoted_at` and whatever happened since the last look."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine

from app.cli.commands.export import export_data
from app.core.clock import ManualClock
from app.store import MemoryFilter, MemoryStore
from app.store.read.first_page import select_first_page
from app.store.schema.migrate import alembic_config
from app.transfer.export_format import parse_export
from tests.support.hostdb import DAY, T0, build_host_db, host_sql, memory_row, query

STATUSES = {
    "active": "status = 'active'",
    "dismissed": "status = 'dismissed'",
    "other": "status NOT IN ('active', 'dismissed')",
    "all": "1",
}
LIMITS = (1, 7, 60, 1_000)
# The host's column is INTEGER with NOT NULL; an older or hand-made file may hold anything, NULL too.
LOOSE_TABLE = (
    "CREATE TABLE user_memories (id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL,"
    " status TEXT NOT NULL DEFAULT 'active', promoted_at INTEGER, source_candidate_ids TEXT DEFAULT '[]',"
    " source_candidate_provenance TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)"
)


def _odd_value(rng: random.Random, nulls: bool) -> object:
    """A `promoted_at` of any type SQLite keeps, with many ties."""
    kinds: list[Callable[[], object]] = [
        lambda: T0 + rng.randrange(5) * DAY,  # ties
        lambda: rng.choice([-(2**63), 2**63 - 1, -1, 0, 7]),
        lambda: rng.choice([1.5, -2.25, 7.0, 1e300, float(T0)]),  # 7.0 and 7 are equal
        lambda: rng.choice(["", "abc", "Abc", "123x", " 9"]),
        lambda: rng.choice([b"", b"\x00", b"\xff\xfe", b"abc"]),
    ]
    if nulls:
        kinds.append(lambda: None)
    return rng.choice(kinds)()


def _add_host_rows(path: Path, rng: random.Random, ids: range, nulls: bool) -> None:
    conn = sqlite3.connect(path)
    for memory_id in ids:
        memory_row(conn, memory_id, f"Memory {memory_id}", promoted_at=0, status="active")
        status = rng.choice(["active", "active", "dismissed", "archived"])
        conn.execute(
            "UPDATE user_memories SET promoted_at = ?, status = ? WHERE id = ?",
            (_odd_value(rng, nulls), status, memory_id),
        )
    conn.commit()
    conn.close()


def _host_order(path: Path, status: str, descending: bool, limit: int) -> list[int]:
    way = "DESC" if descending else "ASC"
    sql = (
        f"SELECT id FROM user_memories WHERE {STATUSES[status]} ORDER BY promoted_at {way}, id {way} LIMIT ?"
    )
    return [int(str(row[0])) for row in query(path, sql, (limit,))]


def _assert_host_order(store: MemoryStore, path: Path) -> None:
    for status in STATUSES:
        for descending in (True, False):
            flt = MemoryFilter(status=status, sort="promoted", descending=descending)  # type: ignore[arg-type]
            for limit in LIMITS:
                expected = _host_order(path, status, descending, limit)
                with store.read_snapshot() as conn:
                    walk = select_first_page(conn, flt, store.now(), limit)
                    assert walk is not None  # the index serves this listing
                    walked = [int(i) for i in conn.execute(walk).scalars()]
                assert walked == expected, (status, descending, limit)
                assert store.first_ids(flt, limit)[0] == expected, (status, descending, limit)


def _exported(tmp_path: Path, rng: random.Random) -> str:
    """An export file of another person's memories (ids the target has too: they get new ones)."""
    path = build_host_db(tmp_path / "other.db", seed=False)
    conn = sqlite3.connect(path)
    for memory_id in range(100, 108):  # ids the target holds: they come in under new ones
        memory_row(conn, memory_id, f"Imported {memory_id}", promoted_at=T0 + rng.randrange(5) * DAY)
    conn.commit()
    conn.close()
    with closing(MemoryStore.open(path, clock=ManualClock(T0 + 30 * DAY))) as other:
        return json.dumps(export_data(other))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("nulls", [False, True])
def test_the_first_page_is_the_host_order_through_every_change(
    tmp_path: Path, seed: int, nulls: bool
) -> None:
    rng = random.Random(seed)
    path = tmp_path / "context.db"
    if nulls:
        conn = sqlite3.connect(path)
        conn.execute(LOOSE_TABLE)
        conn.close()
    build_host_db(path, seed=False)
    _add_host_rows(path, rng, range(1, 201), nulls)
    # A row the host could take back, for our delete and restore below.
    host_sql(
        path,
        "UPDATE user_memories SET status = 'dismissed', promoted_at = ?, updated_at = ? WHERE id = 20",
        (T0, T0),
    )
    clock = ManualClock(T0 + 30 * DAY)
    with closing(
        MemoryStore.open(path, clock=clock)
    ) as store:  # migrated: every row's copy, from the migration
        _assert_host_order(store, path)
        store.observe()
        _assert_host_order(store, path)
        # The host moves on, unobserved: new rows, deleted rows, statuses changed.
        _add_host_rows(path, rng, range(201, 241), nulls)
        conn = sqlite3.connect(path)
        conn.execute("DELETE FROM user_memories WHERE id IN (3, 50, 200, 240)")
        conn.execute("UPDATE user_memories SET status = 'dismissed' WHERE id % 9 = 0")
        conn.execute("UPDATE user_memories SET status = 'active' WHERE id % 13 = 0")
        conn.commit()
        conn.close()
        _assert_host_order(store, path)
        # Our own writes over unobserved host rows: they take ids above those rows.
        store.dismiss([10, 11, 12])
        store.reactivate(11)
        store.delete(20)
        store.restore([20])
        store.add("Written in the dashboard")
        store.import_export(parse_export(_exported(tmp_path, rng)), "other.json")
        _assert_host_order(store, path)
        _add_host_rows(path, rng, range(300, 310), nulls)  # above our own rows
        _assert_host_order(store, path)
        store.observe()
        _assert_host_order(store, path)
        # A copy follows its row's promoted_at at the next look.
        conn = sqlite3.connect(path)
        conn.execute("UPDATE user_memories SET promoted_at = 'moved' WHERE id IN (1, 100, 230)")
        conn.commit()
        conn.close()
        store.observe()
        _assert_host_order(store, path)


def test_the_first_page_walks_our_index_and_stops_early(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db", seed=False)
    _add_host_rows(path, random.Random(4), range(1, 301), nulls=False)
    with closing(MemoryStore.open(path, clock=ManualClock(T0 + 30 * DAY))) as store:
        store.observe()
        marked = query(path, "SELECT value FROM mdash_meta WHERE key = 'seen_through'")
        assert marked == [("300",)]  # every row seen: none is read from the host's side
        _add_host_rows(path, random.Random(5), range(301, 311), nulls=False)
        for descending in (True, False):
            flt = MemoryFilter(status="active", sort="promoted", descending=descending)
            with store.read_snapshot() as conn:
                walk = select_first_page(conn, flt, store.now(), 20)
                assert walk is not None
                compiled = walk.compile(conn, compile_kwargs={"literal_binds": True})
                plan = [str(row[3]) for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}")]
            assert any("ix_mdash_seen_promoted" in step for step in plan), plan
            assert not any(step.startswith("SCAN user_memories") for step in plan), plan
            assert not any("USE TEMP B-TREE" in step and "mdash_seen" in step for step in plan), plan


def test_the_migration_copies_every_seen_row_and_marks_what_it_covers(tmp_path: Path) -> None:
    """A file whose rows were seen before the copy existed: the migration fills it from the host's rows,
    and its mark stops under the first row nobody saw yet."""
    path = build_host_db(tmp_path / "context.db", seed=False)
    _add_host_rows(path, random.Random(6), range(1, 101), nulls=False)
    with closing(MemoryStore.open(path, clock=ManualClock(T0 + 30 * DAY))) as store:
        store.observe()
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0012_project_revisions_by_path")
    finally:
        engine.dispose()
    _add_host_rows(path, random.Random(7), range(101, 111), nulls=False)  # unseen
    host_sql(
        path,
        "INSERT INTO mdash_seen SELECT id, content, status, updated_at, 0, NULL FROM user_memories"
        " WHERE id = 110",  # one of ours above them (an own write, say)
    )
    with closing(MemoryStore.open(path, clock=ManualClock(T0 + 30 * DAY))) as store:
        copied = query(
            path,
            "SELECT count(*) FROM mdash_seen s JOIN user_memories u ON u.id = s.memory_id"
            " WHERE s.promoted_at IS u.promoted_at",
        )
        assert copied == [(101,)]
        assert query(path, "SELECT value FROM mdash_meta WHERE key = 'seen_through'") == [("100",)]
        _assert_host_order(store, path)
