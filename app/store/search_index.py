"""The dashboard's own full-text index of memory contents (SQLite FTS5, trigram tokenizer), `mdash_search`.

Why: a search is `LIKE '%term%'` over every content, a scan of the whole host table (about 190 ms at
100,000 memories). The index answers a selective term in a few milliseconds. It indexes `mdash_seen`
(an external-content table: no second copy of the text), the store's record of every memory as last
seen, kept current by the observation that precedes every listing; triggers on `mdash_seen` (our own
table, never the host's) keep the index in step. `detail=none` keeps it small (about 40% of the text).

How it is used: only for a term of at least 3 characters without LIKE wildcards, only while the store
knows `mdash_seen` matches the host (see `ChangeWatch`), and only when the term is selective (fewer than
2,000 hits, by a capped count; for a common term the plain scan is faster). The host's own
`content LIKE` stays in the query, so the result is exactly the scan's; the index only narrows the rows.

Filling: rows up to `mdash_meta['search_indexed_upto']` are indexed (the triggers act on those only);
`fill` indexes the next rows in short transactions, so a large existing database is indexed once, in
steps that never hold the write lock for long.

Merging: FTS5 adds each transaction's changes as a new segment and, by default, merges segments inside
the writing transaction ("automerge"): at 100,000 memories that made recording 1,000 rewritten contents
cost ~1 s instead of ~0.35 s. Migration 0003 turns automerge off; `merge_step` does the same merging
later in short transactions of its own (the window runs it when idle: ~25-40 ms a step, ~7 steps after
3,000 rewrites). Unmerged segments only make a search walk a few more b-trees, and FTS5's "crisis merge"
still bounds their number if no merge ever runs. Without FTS5 (or trigram) in the SQLite at hand, or on
another database engine, there is no index and every search scans, as before.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, Connection, column, func, literal, select, table

from app.store.tables import user_memories

SEARCH_TABLE = "mdash_search"
UPTO_KEY = "search_indexed_upto"
COMPLETE = 2**63 - 1  # every memory id, present and future, is indexed
MIN_TERM = 3  # the trigram tokenizer cannot narrow a shorter pattern
FILL_CHUNK = 5_000
MERGE_PAGES = 200  # index pages (4 KB) merged per `merge_step`: a few tens of milliseconds
SELECTIVE_CAP = 2_000

search = table(SEARCH_TABLE, column("rowid"), column("content"))

_UPTO = f"(SELECT CAST(value AS INTEGER) FROM mdash_meta WHERE key = '{UPTO_KEY}')"
CREATE_STATEMENTS = (
    f"CREATE VIRTUAL TABLE {SEARCH_TABLE} USING fts5(content, content='mdash_seen',"
    " content_rowid='memory_id', tokenize='trigram', detail=none)",
    f"CREATE TRIGGER mdash_seen_search_insert AFTER INSERT ON mdash_seen WHEN new.memory_id <= {_UPTO}"
    f" BEGIN INSERT INTO {SEARCH_TABLE}(rowid, content) VALUES (new.memory_id, new.content); END",
    f"CREATE TRIGGER mdash_seen_search_delete AFTER DELETE ON mdash_seen WHEN old.memory_id <= {_UPTO}"
    f" BEGIN INSERT INTO {SEARCH_TABLE}({SEARCH_TABLE}, rowid, content)"
    " VALUES ('delete', old.memory_id, old.content); END",
    f"CREATE TRIGGER mdash_seen_search_update AFTER UPDATE OF content ON mdash_seen"
    f" WHEN old.memory_id <= {_UPTO} AND old.content IS NOT new.content BEGIN"
    f" INSERT INTO {SEARCH_TABLE}({SEARCH_TABLE}, rowid, content)"
    " VALUES ('delete', old.memory_id, old.content);"
    f" INSERT INTO {SEARCH_TABLE}(rowid, content) VALUES (new.memory_id, new.content); END",
    f"INSERT OR REPLACE INTO mdash_meta (key, value) VALUES ('{UPTO_KEY}', '0')",
)


def supported(conn: Connection) -> bool:
    """FTS5 with the trigram tokenizer (SQLite 3.34+) is available on this connection."""
    if conn.dialect.name != "sqlite":
        return False
    try:
        conn.exec_driver_sql("CREATE VIRTUAL TABLE temp.mdash_search_probe USING fts5(x, tokenize='trigram')")
    except Exception:
        return False
    conn.exec_driver_sql("DROP TABLE temp.mdash_search_probe")
    return True


def create(conn: Connection) -> None:
    """The index table, its triggers and an empty fill mark (a migration runs this)."""
    for statement in CREATE_STATEMENTS:
        conn.exec_driver_sql(statement)


def exists(conn: Connection) -> bool:
    if conn.dialect.name != "sqlite":
        return False
    found = conn.exec_driver_sql(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (SEARCH_TABLE,)
    ).first()
    return found is not None


def indexed_upto(conn: Connection) -> int:
    value = conn.exec_driver_sql("SELECT value FROM mdash_meta WHERE key = ?", (UPTO_KEY,)).scalar()
    return int(value) if value is not None else 0


def fill_step(conn: Connection, chunk: int = FILL_CHUNK) -> bool:
    """Index the next `chunk` memories (inside a write transaction); True once everything is indexed."""
    upto = indexed_upto(conn)
    if upto >= COMPLETE:
        return True
    end = conn.exec_driver_sql(
        "SELECT memory_id FROM mdash_seen WHERE memory_id > ? ORDER BY memory_id LIMIT 1 OFFSET ?",
        (upto, chunk - 1),
    ).scalar()
    last = COMPLETE if end is None else int(end)
    conn.exec_driver_sql(
        f"INSERT INTO {SEARCH_TABLE}(rowid, content)"
        " SELECT memory_id, content FROM mdash_seen WHERE memory_id > ? AND memory_id <= ?",
        (upto, last),
    )
    conn.exec_driver_sql("UPDATE mdash_meta SET value = ? WHERE key = ?", (str(last), UPTO_KEY))
    return last >= COMPLETE


def set_automerge(conn: Connection, level: int) -> None:
    """FTS5's merging inside each write (0: never, `merge_step` does it; 4: SQLite's default)."""
    conn.exec_driver_sql(
        f"INSERT INTO {SEARCH_TABLE}({SEARCH_TABLE}, rank) VALUES ('automerge', ?)", (level,)
    )


def merge_step(conn: Connection, pages: int = MERGE_PAGES) -> bool:
    """Merge up to `pages` pages of index segments (inside a write transaction); True when nothing was
    left to merge. FTS5 reports no result: a merge that wrote fewer than 2 rows did nothing (its docs)."""
    before = conn.exec_driver_sql("SELECT total_changes()").scalar_one()
    conn.exec_driver_sql(f"INSERT INTO {SEARCH_TABLE}({SEARCH_TABLE}, rank) VALUES ('merge', ?)", (pages,))
    return int(conn.exec_driver_sql("SELECT total_changes()").scalar_one()) - int(before) < 2


def usable_term(term: str) -> bool:
    """A term the index can narrow: long enough, no LIKE wildcard, not a memory id (`#12` matches by id)."""
    bare = term.removeprefix("#")
    return len(term) >= MIN_TERM and not bare.isdigit() and not any(c in term for c in "%_\\")


def _pattern(term: str) -> str:
    return f"%{term}%"


def selective_terms(conn: Connection, terms: list[str], cap: int = SELECTIVE_CAP) -> list[str]:
    """The usable terms the index finds in fewer than `cap` memories (a count stopped at `cap`: ~3 ms).

    Past a few thousand hits, walking the index and then every hit costs about what the scan does (a term
    in most memories: twice as much), so the scan is kept.
    """
    chosen = []
    for term in terms:
        if not usable_term(term):
            continue
        capped = (
            select(literal(1)).select_from(search).where(search.c.content.like(_pattern(term))).limit(cap)
        )
        count = conn.execute(select(func.count()).select_from(capped.subquery())).scalar_one()
        if count < cap:
            chosen.append(term)
    return chosen


def matching_ids(term: str) -> ColumnElement[bool]:
    """`id IN (rows of the index whose content contains term)`, for the host table's `id` column."""
    rows = select(search.c.rowid).where(search.c.content.like(_pattern(term)))
    return user_memories.c.id.in_(rows)
