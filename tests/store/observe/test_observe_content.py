"""Observation that cannot miss: an outside change is found by content, not by `updated_at` alone.

The host may rewrite a row within the millisecond of its last write, leaving `updated_at` as it was. Such
a rewrite must still become an `observed` revision, reach the search index, and come before the next
dashboard revision (whose previous text is then the host's, as the observed one left it). What the store
has seen is copied from the host row byte for byte, so a BLOB or invalid UTF-8 never looks changed again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.store import MemoryFilter, MemoryStore, Revision
from app.store.connect.engine import transaction
from app.store.observe.observe import find_changes
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import build_host_db, has_table, host_sql, query, search_index_intact


def host_rewrite(path: Path, memory_id: int, content: str | bytes) -> None:
    """The host rewriting a row in the millisecond of its last write: `updated_at` stays as it was."""
    writer = sqlite3.connect(path, isolation_level=None, timeout=5)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE user_memories SET content = ? WHERE id = ?", (content, memory_id))
        writer.execute("COMMIT")
    finally:
        writer.close()


def nothing_to_observe(store: MemoryStore) -> bool:
    with transaction(store.database.engine, write=False, location=store.location) as conn:
        return not find_changes(conn)


def content_chain(revisions: list[Revision]) -> list[tuple[str | None, str | None, str]]:
    return [(r.previous_content, r.new_content, r.source) for r in revisions if r.kind == "content"]


@pytest.fixture
def running_host(host_db: Path) -> Iterator[sqlite3.Connection]:
    """The host holding the file open, as it does while it runs (so a read-only store reads live)."""
    host = sqlite3.connect(host_db)
    host.execute("SELECT count(*) FROM user_memories").fetchone()
    yield host
    host.close()


def test_a_same_millisecond_rewrite_is_an_observed_revision(store: MemoryStore, host_db: Path) -> None:
    store.observe()
    updated_at = query(host_db, "SELECT updated_at FROM user_memories WHERE id = 4")
    host_rewrite(host_db, 4, "Lives in Hamburg (CET)")
    assert query(host_db, "SELECT updated_at FROM user_memories WHERE id = 4") == updated_at
    observed = store.observe()
    assert [(r.memory_id, r.kind, r.source, r.previous_content, r.new_content) for r in observed] == [
        (4, "content", "observed", "Lives in Berlin (CET)", "Lives in Hamburg (CET)")
    ]
    assert store.observe() == [] and nothing_to_observe(store)


def test_search_finds_the_new_text_once_indexed(store: MemoryStore, host_db: Path) -> None:
    if not has_table(host_db, "mdash_search"):
        pytest.skip("this SQLite has no FTS5 trigram tokenizer")
    store.observe()
    while store.index_pending_changes():
        pass
    host_rewrite(host_db, 4, "Lives in Hamburg (CET)")
    store.observe()  # observes the rewrite
    while store.index_pending_changes():
        pass
    assert search_index_intact(host_db)
    assert store.list_ids(MemoryFilter(search="Hamburg")) == [4]
    assert store.list_ids(MemoryFilter(search="Berlin")) == []


def test_the_next_dashboard_revision_starts_where_the_host_left_the_text(
    store: MemoryStore, host_db: Path
) -> None:
    store.edit(4, "Lives in Berlin")
    host_rewrite(host_db, 4, "Lives in Hamburg")  # no read in between: the writer must catch it up
    store.edit(4, "Lives in Hamburg, Germany")
    assert content_chain(store.history(4)) == [
        ("Lives in Berlin (CET)", "Lives in Berlin", "dashboard"),
        ("Lives in Berlin", "Lives in Hamburg", "observed"),
        ("Lives in Hamburg", "Lives in Hamburg, Germany", "dashboard"),
    ]


def test_a_read_only_store_sees_a_same_millisecond_rewrite(
    host_db: Path, running_host: sqlite3.Connection
) -> None:
    store = MemoryStore.open(host_db, read_only=True, clock=ManualClock(REVIEW_TIME))
    try:
        store.observe()
        host_rewrite(host_db, 4, "Lives in Hamburg (CET)")
        observed = store.observe()
        assert [(r.memory_id, r.previous_content, r.new_content) for r in observed] == [
            (4, "Lives in Berlin (CET)", "Lives in Hamburg (CET)")
        ]
        assert store.observe() == []
    finally:
        store.close()


def _store_odd_contents(path: Path) -> None:
    """#3 a BLOB, #4 text that is not UTF-8 (Python reads it back with a replacement character)."""
    host_sql(path, "UPDATE user_memories SET content = ? WHERE id = 3", (b"Hello\xff",))
    host_sql(path, "UPDATE user_memories SET content = CAST(x'4c69766573206927ff6e' AS TEXT) WHERE id = 4")


def _seen_is_exact(path: Path) -> bool:
    rows = query(
        path,
        "SELECT typeof(s.content) = typeof(m.content) AND s.content = m.content FROM mdash_seen s"
        " JOIN user_memories m ON m.id = s.memory_id WHERE m.id IN (3, 4)",
    )
    return rows == [(1,), (1,)]


def test_odd_contents_are_seen_byte_for_byte_and_never_found_changed_again(
    store: MemoryStore, host_db: Path
) -> None:
    store.observe()
    _store_odd_contents(host_db)
    assert {r.memory_id for r in store.observe()} == {3, 4}
    assert _seen_is_exact(host_db)
    assert store.observe() == [] and nothing_to_observe(store)
    store.dismiss(4)  # a writer marks the row seen again: copied from the host row too
    assert _seen_is_exact(host_db) and nothing_to_observe(store)


def test_odd_contents_are_not_found_changed_on_every_look_by_a_read_only_store(tmp_path: Path) -> None:
    path = build_host_db(tmp_path / "context.db")
    _store_odd_contents(path)
    host = sqlite3.connect(path)
    host.execute("SELECT count(*) FROM user_memories").fetchone()
    store = MemoryStore.open(path, read_only=True, clock=ManualClock(REVIEW_TIME))
    try:
        assert store.observe() == []  # the first look: the baseline
        assert store.observe() == []
        host_rewrite(path, 3, b"Hello\xfe")
        assert [r.memory_id for r in store.observe()] == [3]
        assert store.observe() == []
    finally:
        store.close()
        host.close()
