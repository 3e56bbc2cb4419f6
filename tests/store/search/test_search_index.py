"""The search index (`mdash_search`) never changes what a search finds: always the rows of a plain LIKE scan.

Compared against raw `sqlite3` `content LIKE '%term%'` on the host table, through outside rewrites,
deletes, a fill in small steps, read-only opening and terms the index cannot narrow.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Connection, create_engine

from app.core.clock import ManualClock
from app.store import MemoryFilter, MemoryStore
from app.store.schema.migrate import alembic_config
from app.store.search import index as search_index
from tests.support.hostdb import (
    DAY,
    T0,
    build_host_db,
    has_table,
    host_sql,
    memory_row,
    pending_index_changes,
    search_index_intact,
)
from tests.support.search_words import QUERIES, WORDS

NOW = 1_800_000_000_000


def _scan(path: Path, text: str) -> set[int]:
    """What the plain scan finds (every term, ASCII case-insensitive LIKE; digits also match the id)."""
    conn = sqlite3.connect(path)
    try:
        found: set[int] | None = None
        for term in text.split():
            escaped = term.replace("/", "//").replace("%", "/%").replace("_", "/_")
            sql = "SELECT id FROM user_memories WHERE content LIKE ? ESCAPE '/'"
            rows = {int(r[0]) for r in conn.execute(sql, (f"%{escaped}%",))}
            bare = term.removeprefix("#")
            if bare.isdigit():
                rows |= {
                    int(r[0]) for r in conn.execute("SELECT id FROM user_memories WHERE id = ?", (int(bare),))
                }
            found = rows if found is None else found & rows
        return found or set()
    finally:
        conn.close()


@pytest.fixture
def many(tmp_path: Path) -> Path:
    path = build_host_db(tmp_path / "context.db", seed=False)
    rng = random.Random(5)
    conn = sqlite3.connect(path)
    for memory_id in range(1, 301):
        content = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        memory_row(conn, memory_id, content, promoted_at=T0 + memory_id * DAY // 10, ids=[memory_id])
    conn.commit()
    conn.close()
    return path


def _search(store: MemoryStore, text: str) -> set[int]:
    return set(store.list_ids(MemoryFilter(status="all", search=text)))


def test_index_is_built_and_finds_exactly_what_the_scan_finds(many: Path) -> None:
    store = MemoryStore.open(many, clock=ManualClock(NOW))
    if not has_table(many, "mdash_search"):
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    assert store.fill_search_index()
    for text in QUERIES:
        assert _search(store, text) == _scan(many, text), text
    store.close()


def test_outside_rewrites_and_deletes_reach_the_index(many: Path) -> None:
    store = MemoryStore.open(many, clock=ManualClock(NOW))
    store.observe()
    host_sql(
        many, "UPDATE user_memories SET content = 'now about kubernetes', updated_at = ? WHERE id = 7", (NOW,)
    )
    host_sql(many, "DELETE FROM user_memories WHERE id = 8")
    assert _search(store, "kubernetes") == {7}
    for text in QUERIES:
        assert _search(store, text) == _scan(many, text), text
    store.edit(9, "edited to mention kubernetes too")
    assert _search(store, "kubernetes") == {7, 9}
    store.close()


def test_filled_in_small_steps(many: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = MemoryStore.open(many, clock=ManualClock(NOW))
    first.observe()  # the baseline of every memory in mdash_seen, indexed as it is recorded
    first.close()
    conn = sqlite3.connect(many)
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'mdash_search'").fetchone():
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    # As after the upgrade of a database whose memories were seen before the index existed:
    conn.execute("INSERT INTO mdash_search(mdash_search) VALUES ('delete-all')")
    conn.execute("UPDATE mdash_meta SET value = '0' WHERE key = ?", (search_index.UPTO_KEY,))
    conn.commit()
    conn.close()
    monkeypatch.setattr(search_index, "FILL_CHUNK", 7)
    calls: list[bool] = []
    step = search_index.fill_step

    def counted_step(conn: Connection, chunk: int = 7) -> bool:
        calls.append(True)
        return step(conn, chunk)

    monkeypatch.setattr(search_index, "fill_step", counted_step)
    store = MemoryStore.open(many, clock=ManualClock(NOW))
    assert len(calls) > 40  # 300 memories, 7 at a time, each step its own transaction
    for text in QUERIES:
        assert _search(store, text) == _scan(many, text), text
    store.close()


def test_read_only_and_unobserved_searches_scan(many: Path) -> None:
    MemoryStore.open(many, clock=ManualClock(NOW)).close()
    host_sql(many, "UPDATE user_memories SET content = 'kubernetes now', updated_at = ? WHERE id = 3", (NOW,))
    reader = MemoryStore.open(many, clock=ManualClock(NOW), read_only=True)
    assert set(reader.list_ids(MemoryFilter(status="all", search="kubernetes"))) == {3}
    reader.close()
    writer = MemoryStore.open(many, clock=ManualClock(NOW))
    # Not observed yet: mdash_seen still has the old text, so the index must not be trusted.
    assert set(writer.list_ids(MemoryFilter(status="all", search="kubernetes"))) == {3}
    writer.close()


def test_writes_leave_indexing_to_idle_steps_and_searches_stay_exact(many: Path) -> None:
    store = MemoryStore.open(many, clock=ManualClock(NOW))
    if not has_table(many, "mdash_search"):
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    store.observe()
    while store.index_pending_changes():  # the baseline of every memory, recorded by that first look
        pass
    assert pending_index_changes(many) == 0 and search_index_intact(many)
    for memory_id in range(10, 16):
        store.edit(memory_id, f"edit {memory_id} mentions kubernetes")
        store.edit(memory_id, f"edit {memory_id} mentions kubernetes and helm")  # noted once, first text kept
        host_sql(
            many,
            "UPDATE user_memories SET content = 'host rewrote: helm', updated_at = ? WHERE id = ?",
            (NOW + memory_id, memory_id + 100),
        )
    host_sql(many, "DELETE FROM user_memories WHERE id IN (20, 21)")
    store.observe()  # observes the host's rewrites and deletes
    assert pending_index_changes(many) == 14
    assert not search_index_intact(many)  # the index still holds the old texts
    for text in [*QUERIES, "kubernetes", "helm", "rewrote"]:
        assert _search(store, text) == _scan(many, text), text
    assert _search(store, "kubernetes helm") == set(range(10, 16))
    assert store.index_pending_changes() is False  # 14 changes: one step takes them all
    assert pending_index_changes(many) == 0 and search_index_intact(many)
    for text in [*QUERIES, "kubernetes", "helm", "rewrote"]:
        assert _search(store, text) == _scan(many, text), text
    store.close()
    reader = MemoryStore.open(many, clock=ManualClock(NOW), read_only=True)
    assert not reader.index_pending_changes()
    reader.close()


def test_indexing_goes_in_steps_and_a_downgrade_indexes_what_waits(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MemoryStore.open(many, clock=ManualClock(NOW))
    if not has_table(many, "mdash_search"):
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    store.observe()  # 300 baselines wait to be indexed
    monkeypatch.setattr(search_index, "INDEX_CHUNK", 7)
    assert store.index_pending_changes() is True
    assert pending_index_changes(many) == 300 - 7
    store.edit(3, "now about kubernetes")
    store.close()
    engine = create_engine(f"sqlite:///{many}")
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0002")
    engine.dispose()
    assert not has_table(many, "mdash_search_pending")
    assert search_index_intact(many)
    host_sql(many, "UPDATE mdash_seen SET content = 'plain helm' WHERE memory_id = 4")  # 0002's triggers
    assert search_index_intact(many)
    store = MemoryStore.open(many, clock=ManualClock(NOW))  # upgraded again
    assert pending_index_changes(many) == 0
    assert _search(store, "kubernetes") == _scan(many, "kubernetes") == {3}
    store.close()
