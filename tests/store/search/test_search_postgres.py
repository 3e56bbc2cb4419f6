"""The search index on PostgreSQL (`server_index`, migration 0009): a trigram index on our own copy of the
contents never changes what a search finds (always the rows of a plain ILIKE scan of the host's table),
is used only while that copy is known current, and is simply absent where the extension cannot be made.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import closing

import psycopg
import pytest
from sqlalchemy import make_url

from app.core.clock import ManualClock
from app.store import MemoryFilter, MemoryStore
from app.store.search import index as search_index
from app.store.search import server_index
from tests.support.hostdb import DAY, T0, memory_row_insert
from tests.support.pg_host import PostgresHostDb, libpq_conninfo
from tests.support.search_words import QUERIES, WORDS

NOW = 1_800_000_000_000


def _scan(host: PostgresHostDb, text: str) -> set[int]:
    """What the plain scan finds: every term by ILIKE on the host's table; digits also match the id."""
    found: set[int] | None = None
    for term in text.split():
        escaped = term.replace("/", "//").replace("%", "/%").replace("_", "/_")
        rows = host.query("SELECT id FROM user_memories WHERE content ILIKE ? ESCAPE '/'", (f"%{escaped}%",))
        ids = {int(str(row[0])) for row in rows}
        bare = term.removeprefix("#")
        if bare.isdigit():
            ids |= {
                int(str(row[0]))
                for row in host.query("SELECT id FROM user_memories WHERE id = ?", (int(bare),))
            }
        found = ids if found is None else found & ids
    return found or set()


def _fill(host: PostgresHostDb) -> None:
    rng = random.Random(5)
    statements = []
    for memory_id in range(1, 301):
        content = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        statements.append(memory_row_insert(memory_id, content, promoted_at=T0 + memory_id * DAY // 10))
    host.script(statements)


@pytest.fixture
def many(postgres_db: str) -> Iterator[tuple[MemoryStore, PostgresHostDb]]:
    MemoryStore.open(postgres_db, clock=ManualClock(NOW)).close()  # the host's tables and ours
    host = PostgresHostDb(postgres_db)
    _fill(host)
    with closing(MemoryStore.open(postgres_db, clock=ManualClock(NOW))) as store:
        yield store, host


def _search(store: MemoryStore, text: str, *, observe: bool = True) -> set[int]:
    if observe:
        store.observe()
    return set(store.list_ids(MemoryFilter(status="all", search=text)))


def _narrowed(store: MemoryStore, text: str) -> list[str]:
    """The terms the store would hand to the index now."""
    with store.database.read() as conn:  # the choice itself is under test
        return store.search.indexed_terms(conn, MemoryFilter(status="all", search=text))


def test_the_index_is_on_our_copy_and_finds_exactly_what_the_scan_finds(
    many: tuple[MemoryStore, PostgresHostDb],
) -> None:
    store, host = many
    assert host.query("SELECT tablename FROM pg_indexes WHERE indexname = ?", (server_index.INDEX_NAME,)) == [
        ("mdash_seen",)
    ]
    indexes = "SELECT indexname FROM pg_indexes WHERE tablename = 'user_memories' ORDER BY 1"
    assert host.query(indexes) == [("idx_um_status",), ("user_memories_pkey",)]  # the host's own, no more
    store.observe()
    assert _narrowed(store, "berlin review") == ["berlin", "review"]
    for text in QUERIES:
        assert _search(store, text) == _scan(host, text), text


def test_an_outside_rewrite_is_found_before_it_is_observed(many: tuple[MemoryStore, PostgresHostDb]) -> None:
    store, host = many
    store.observe()
    host.sql("UPDATE user_memories SET content = 'now about kubernetes' WHERE id = 7")
    host.sql("DELETE FROM user_memories WHERE id = 8")
    assert _narrowed(store, "kubernetes") == []  # our copy is stale: the index is not trusted
    assert _search(store, "kubernetes", observe=False) == {7}
    assert _search(store, "kubernetes") == {7}  # observed: the copy is current, the index used again
    assert _narrowed(store, "kubernetes") == ["kubernetes"]
    store.edit(9, "edited to mention kubernetes too")  # our own write keeps the copy current
    assert _narrowed(store, "kubernetes") == ["kubernetes"]
    assert _search(store, "kubernetes", observe=False) == {7, 9}
    for text in QUERIES:
        assert _search(store, text) == _scan(host, text), text


def test_a_common_term_scans(many: tuple[MemoryStore, PostgresHostDb]) -> None:
    """Past `cap` hits the index is not asked (the scan is as fast); too short a term cannot be narrowed."""
    store, _ = many
    store.observe()
    with store.database.read() as conn:
        chosen = search_index.selective_terms(conn, ["pnpm", "nothing-like-this", "pn"], cap=5)
    assert chosen == ["nothing-like-this"]


def test_without_the_right_to_create_the_extension_there_is_no_index_and_search_scans(
    postgres_db: str,
) -> None:
    admin = PostgresHostDb(postgres_db)
    name = make_url(postgres_db).database
    with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS mdash_plain")
        conn.execute("CREATE ROLE mdash_plain LOGIN")
        conn.execute("GRANT CREATE, USAGE ON SCHEMA public TO mdash_plain")  # its tables, not extensions
        conn.execute(f'REVOKE CREATE ON DATABASE "{name}" FROM PUBLIC')
    plain = make_url(postgres_db).set(username="mdash_plain").render_as_string(hide_password=False)
    try:
        with closing(MemoryStore.open(plain, clock=ManualClock(NOW))) as store:
            _fill(PostgresHostDb(plain))
            assert admin.query("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'") == [(0,)]
            assert admin.query(
                "SELECT count(*) FROM pg_indexes WHERE indexname = ?", (server_index.INDEX_NAME,)
            ) == [(0,)]
            store.observe()
            assert _narrowed(store, "berlin") == []
            for text in QUERIES:
                assert _search(store, text) == _scan(admin, text), text
    finally:
        with psycopg.connect(libpq_conninfo(postgres_db), autocommit=True) as conn:
            conn.execute("DROP OWNED BY mdash_plain")
            conn.execute("DROP ROLE mdash_plain")
