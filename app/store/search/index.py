"""The dashboard's own full-text index of memory contents (SQLite FTS5, trigram tokenizer), `mdash_search`.

Why: a search is `LIKE '%term%'` over every content, a scan of the whole host table, which grows
with it. The index answers a selective term at once. It indexes `mdash_seen`
(an external-content table: no second copy of the text), the store's record of every memory as last
seen, kept current by the observation that precedes every listing; triggers on `mdash_seen` (our own
table, never the host's) keep the index in step (see "Pending changes"). `detail=none` keeps it small
(about 40% of the text).

How it is used: only for a term of at least 3 characters without LIKE wildcards, only while the store
knows `mdash_seen` matches the host (see `ChangeWatch`), and only when the term is selective (fewer than
2,000 hits, by a capped count; for a common term the plain scan is faster). The index is asked for the
rows holding every trigram of the term (`MATCH`, never FTS5's own LIKE, which reads texts back from
`mdash_seen`); the host's own `content LIKE` stays in the query, so the result is exactly the scan's.

Filling: rows up to `mdash_meta['search_indexed_upto']` are indexed (the triggers act on those only);
`fill` indexes the next rows in short transactions, so a large existing database is indexed once, in
steps that never hold the write lock for long.

Pending changes: a content written to `mdash_seen` is not re-indexed in the writing transaction (FTS5
upkeep of a ~1 KB text was a third of the cost of recording 1,000 rewrites). Since migration 0003 the
triggers only note the memory in `mdash_search_pending`, with the text the index still holds for it
(NULL: none); `index_pending_step` brings the index up to date in short transactions of their own,
which the window runs when idle. Meanwhile a search takes the pending memories as candidates too, and
the host's `content LIKE` decides, so results never depend on how far the indexing has got. Without
FTS5 (or trigram) in the SQLite at hand there is no index and every search scans, as before. On PostgreSQL
the index is `server_index`'s (pg_trgm); the functions here hand over to it.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, Connection, column, func, literal, literal_column, or_, select, table

from app.store.schema.tables import user_memories
from app.store.search import server_index
from app.store.search.text_match import per_dialect

SEARCH_TABLE = "mdash_search"
UPTO_KEY = "search_indexed_upto"
COMPLETE = 2**63 - 1  # every memory id, present and future, is indexed
MIN_TERM = 3  # the trigram tokenizer cannot narrow a shorter pattern
FILL_CHUNK = 5_000
INDEX_CHUNK = 100  # memories per `index_pending_step`: ~1 ms each at 100,000 (old entry out, new in)
SELECTIVE_CAP = 2_000

PENDING_TABLE = "mdash_search_pending"

search = table(SEARCH_TABLE, column("rowid"), column("content"))
pending = table(PENDING_TABLE, column("memory_id"))
# The table, its triggers and the fill mark are the migrations' (0002, 0003), each with its SQL frozen.


def _on_server(conn: Connection) -> bool:
    return conn.dialect.name == "postgresql"


def exists(conn: Connection) -> bool:
    if _on_server(conn):
        return server_index.exists(conn)
    if conn.dialect.name != "sqlite":
        return False
    found = conn.exec_driver_sql(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (SEARCH_TABLE,)
    ).first()
    return found is not None


def indexed_upto(conn: Connection) -> int:
    if _on_server(conn):
        return COMPLETE  # PostgreSQL keeps its index whole by itself
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


def has_pending(conn: Connection) -> bool:
    if _on_server(conn):
        return False
    return conn.exec_driver_sql(f"SELECT EXISTS (SELECT 1 FROM {PENDING_TABLE})").scalar() == 1


_CHUNK = f"(SELECT memory_id FROM {PENDING_TABLE} ORDER BY memory_id LIMIT ?)"


def index_pending_step(conn: Connection, chunk: int | None = None) -> bool:
    """Index up to `chunk` pending changes (inside a write transaction); True when none is left.

    The index's old entry goes with the text it was made from (FTS5 needs exactly that text to remove
    it), and the memory's current text in `mdash_seen`, if it still has a row, is indexed anew.
    """
    chunk = chunk or INDEX_CHUNK
    conn.exec_driver_sql(
        f"INSERT INTO {SEARCH_TABLE}({SEARCH_TABLE}, rowid, content) SELECT 'delete', memory_id, indexed"
        f" FROM {PENDING_TABLE} WHERE indexed IS NOT NULL AND memory_id IN {_CHUNK}",
        (chunk,),
    )
    conn.exec_driver_sql(
        f"INSERT INTO {SEARCH_TABLE}(rowid, content) SELECT memory_id, content FROM mdash_seen"
        f" WHERE memory_id IN {_CHUNK}",
        (chunk,),
    )
    done = conn.exec_driver_sql(f"DELETE FROM {PENDING_TABLE} WHERE memory_id IN {_CHUNK}", (chunk,))
    return done.rowcount < chunk


def usable_term(term: str) -> bool:
    """A term the index can narrow: long enough, no LIKE wildcard, not a memory id (`#12` matches by id)."""
    bare = term.removeprefix("#")
    return len(term) >= MIN_TERM and not bare.isdigit() and not any(c in term for c in "%_\\")


def _trigrams(term: str) -> str:
    """An FTS5 query for the rows holding every trigram of `term` (case-folded like the index).

    A superset of the rows whose content contains `term`, found from the index alone: FTS5's own LIKE
    would read each candidate's text back from `mdash_seen`, which a change waiting in
    `mdash_search_pending` may already have altered or removed. The host's LIKE decides.
    """
    grams = dict.fromkeys(term[start : start + 3] for start in range(len(term) - 2))
    return " AND ".join('"' + gram.replace('"', '""') + '"' for gram in grams)


def _matches(term: str) -> ColumnElement[bool]:
    return literal_column(SEARCH_TABLE).op("MATCH")(_trigrams(term))


def selective_terms(conn: Connection, terms: list[str], cap: int = SELECTIVE_CAP) -> list[str]:
    """The usable terms the index finds in fewer than `cap` memories (a count stopped at `cap`: ~3 ms).

    Past a few thousand hits, walking the index and then every hit costs about what the scan does (a term
    in most memories: twice as much), so the scan is kept; so it is while that many changes wait to be
    indexed (each is a candidate of every indexed search).
    """
    if _on_server(conn):
        return [term for term in terms if usable_term(term) and server_index.hits_below(conn, term, cap)]
    waiting = conn.execute(
        select(func.count()).select_from(select(pending.c.memory_id).limit(cap).subquery())
    )
    if waiting.scalar_one() >= cap:
        return []
    chosen = []
    for term in terms:
        if not usable_term(term):
            continue
        capped = select(literal(1)).select_from(search).where(_matches(term)).limit(cap)
        count = conn.execute(select(func.count()).select_from(capped.subquery())).scalar_one()
        if count < cap:
            chosen.append(term)
    return chosen


def matching_ids(term: str) -> ColumnElement[bool]:
    """`id IN (rows of the index whose content contains term, or whose change is not indexed yet)`,
    for the host table's `id` column (on PostgreSQL, `server_index`'s: chosen when compiled)."""
    rows = select(search.c.rowid).where(_matches(term))
    fts = or_(user_memories.c.id.in_(rows), user_memories.c.id.in_(select(pending.c.memory_id)))
    return per_dialect(fts, postgresql=server_index.matching_ids(term))
