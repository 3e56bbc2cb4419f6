"""Building real SQLite files in the host's shape for tests (no mocks of the database).

`build_host_db` executes the host's schema and, with `seed=True`, writes the seed
scenario: memory #5 promoted from candidates 46, 47, 48 (consumed: gone from the pool, provenance in the
row), later candidates 141-152 pending, a few other memories, a dismissed one and a legacy row whose
provenance is NULL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Required, TypedDict, Unpack

from app.store.connect.engine import host_schema_sql
from app.store.schema.tables import user_memories, user_memory_candidates

DAY = 86_400_000
HOUR = 3_600_000
PROMOTED_5 = 1_790_521_080_000  # 2026-09-27 14:58 UTC
T0 = PROMOTED_5 - 10 * DAY

SEED_PROVENANCE_5 = [
    {"candidate_id": 46, "session_id": "ses_a1", "source_compartment_start": 4, "source_compartment_end": 9},
    {
        "candidate_id": 47,
        "session_id": "ses_a1",
        "source_compartment_start": 10,
        "source_compartment_end": 12,
    },
    {
        "candidate_id": 48,
        "session_id": "ses_b7",
        "source_compartment_start": 2,
        "source_compartment_end": None,
    },
]

PENDING = [
    (141, "Prefers pnpm over npm for every JavaScript project", "ses_c3f1", 1, 3),
    (143, "Uses pnpm workspaces in monorepos", "ses_c3f1", 4, 6),
    (145, "Asks for code first, explanation after", "ses_d9e2", 2, None),
    (146, "Wants pnpm commands in examples, never yarn", "ses_d9e2", 7, 9),
    (151, "Runs tests with pytest -q before committing", "ses_e004", 1, 2),
    (152, "Keeps commit messages in the imperative", "ses_e004", 3, 4),
]


class RowFields(TypedDict, total=False):
    """`memory_row`'s keyword arguments, as `memory_row_insert` takes them."""

    promoted_at: Required[int]
    updated_at: int | None
    status: str
    ids: list[int] | None
    provenance: list[dict[str, object]] | str | None


def memory_row(conn: sqlite3.Connection, memory_id: int, content: str, **fields: Unpack[RowFields]) -> None:
    conn.execute(*memory_row_insert(memory_id, content, **fields))


def memory_row_insert(
    memory_id: int,
    content: str,
    *,
    promoted_at: int,
    updated_at: int | None = None,
    status: str = "active",
    ids: list[int] | None = None,
    provenance: list[dict[str, object]] | str | None = "auto",
) -> tuple[str, tuple[object, ...]]:
    """`memory_row`'s statement and parameters (`?` placeholders), for any engine's connection."""
    ids = ids or []
    if provenance == "auto":
        provenance = [
            {
                "candidate_id": i,
                "session_id": "ses_seed",
                "source_compartment_start": None,
                "source_compartment_end": None,
            }
            for i in ids
        ]
    return (
        "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids,"
        " source_candidate_provenance, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
        (
            memory_id,
            content,
            status,
            promoted_at,
            json.dumps(ids),
            None if provenance is None else json.dumps(provenance),
            promoted_at,
            promoted_at if updated_at is None else updated_at,
        ),
    )


def build_host_db(path: Path, *, seed: bool = True) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(host_schema_sql())
    if seed:
        memory_row(conn, 1, "Works mostly in Python and TypeScript", promoted_at=T0, ids=[1, 2])
        memory_row(
            conn,
            2,
            "Prefers tabs over spaces",
            promoted_at=T0 + DAY,
            ids=[3],
            updated_at=T0 + 3 * DAY,
            status="dismissed",
        )
        memory_row(
            conn, 3, "Legacy memory without provenance", promoted_at=T0 + 2 * DAY, ids=[7, 8], provenance=None
        )
        memory_row(conn, 4, "Lives in Berlin (CET)", promoted_at=T0 + 3 * DAY, ids=[9])
        memory_row(
            conn, 5, "Prefers pnpm", promoted_at=PROMOTED_5, ids=[46, 47, 48], provenance=SEED_PROVENANCE_5
        )
        for cid, content, session, start, end in PENDING:
            conn.execute(
                "INSERT INTO user_memory_candidates (id, content, session_id, source_compartment_start,"
                " source_compartment_end, created_at) VALUES (?,?,?,?,?,?)",
                (cid, content, session, start, end, PROMOTED_5 + 20 * DAY),
            )
        conn.execute(
            "INSERT INTO project_state (project_path, project_memory_epoch, project_user_profile_version,"
            " updated_at) VALUES ('__global__', 0, 7, ?)",
            (T0,),
        )
    conn.commit()
    conn.close()
    return path


def profile_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        row = conn.execute(
            "SELECT project_user_profile_version FROM project_state WHERE project_path='__global__'"
        ).fetchone()
        return int(row[0]) if row else 0
    finally:
        conn.close()


def host_sql(path: Path, sql: str, params: tuple[object, ...] = ()) -> None:
    """Write with plain SQL, as the host does (outside the dashboard)."""
    conn = sqlite3.connect(path, timeout=5)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def query(path: Path, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.execute(sql, params))
    finally:
        conn.close()


def has_table(path: Path, name: str) -> bool:
    return bool(query(path, "SELECT 1 FROM sqlite_master WHERE name = ?", (name,)))


def pending_index_changes(path: Path) -> int:
    """Memories whose change waits to reach the search index (0 where SQLite has no index for us)."""
    if not has_table(path, "mdash_search_pending"):
        return 0
    count = query(path, "SELECT count(*) FROM mdash_search_pending")[0][0]
    assert isinstance(count, int)
    return count


def search_index_intact(path: Path) -> bool:
    """The index holds exactly `mdash_seen`'s texts: its (trigram, memory) pairs equal those of an index
    built afresh from `mdash_seen` (FTS5's own integrity-check ignores the content table before 3.44)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.held USING fts5vocab(main, mdash_search, instance)")
        conn.execute("CREATE VIRTUAL TABLE temp.fresh USING fts5(content, tokenize='trigram', detail=none)")
        conn.execute("INSERT INTO temp.fresh(rowid, content) SELECT memory_id, content FROM mdash_seen")
        conn.execute("CREATE VIRTUAL TABLE temp.wanted USING fts5vocab(temp, fresh, instance)")
        held = set(conn.execute("SELECT term, doc FROM temp.held"))
        return held == set(conn.execute("SELECT term, doc FROM temp.wanted")) and bool(held)
    finally:
        conn.close()


def host_dump(path: Path) -> list[tuple[object, ...]]:
    """Both fenced tables byte for byte (`hex`: text that is not UTF-8 cannot come back as str)."""
    conn = sqlite3.connect(path)
    try:
        dump: list[tuple[object, ...]] = []
        for table in (user_memories, user_memory_candidates):
            cells = ", ".join(f"typeof({c.name}), hex({c.name})" for c in table.c)
            dump += conn.execute(f"SELECT {cells} FROM {table.name} ORDER BY id").fetchall()
        return dump
    finally:
        conn.close()


def damage_new_pages(path: Path, fill: Callable[[sqlite3.Connection], object]) -> None:
    """The rows `fill` writes, on pages of their own at the end of the file, then those pages overwritten:
    only a read of those rows, or a check of every page, finds the damage."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=DELETE")
    pages_before = conn.execute("PRAGMA page_count").fetchone()[0]
    fill(conn)
    conn.commit()
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    for offset in range(pages_before * page, len(data), page):
        data[offset : offset + 64] = b"\xde\xad\xbe\xef" * 16
    path.write_bytes(bytes(data))


def damage_unread_pages(path: Path) -> None:
    """Damaged rows of `dream_state`, which neither an open nor a first screen reads."""
    damage_new_pages(
        path,
        lambda conn: conn.execute(
            "INSERT INTO dream_state (key, value) SELECT 'filler ' || i, hex(randomblob(1500)) FROM "
            "(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200) SELECT i FROM n)"
        ),
    )


def damaged_never_opened(path: Path) -> bytes:
    """A host file at `path` the dashboard has never opened, damaged where neither an open nor a first
    screen reads (its pages are checked by the store that writes); gives its bytes before the damage."""
    build_host_db(path)
    sound = path.read_bytes()
    damage_unread_pages(path)
    return sound


def damage_read_pages(path: Path) -> None:
    """Damaged memories, the newest promoted: the first screen's reads meet them."""

    def fill(conn: sqlite3.Connection) -> None:
        for memory_id in range(100, 400):
            text = f"filler memory {memory_id} " + "x" * 1500
            memory_row(conn, memory_id, text, promoted_at=T0 + 100 * DAY + memory_id, ids=[memory_id])

    damage_new_pages(path, fill)
