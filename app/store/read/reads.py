"""Reading rows: host rows by id, the dashboard's own facts about them, candidates and revisions.

Host rows are selected in `rows.HOST_COLUMNS` / `rows.CANDIDATE_COLUMNS` order and handed to `rows`,
the one place that turns whatever the host's cells hold into the app's rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from types import MappingProxyType
from typing import Any, TypeVar

from sqlalchemy import Connection, bindparam, case, func, null, select

from app.core.models import EMPTY_DETAIL, Candidate, Revision, RevisionKind
from app.core.provenance import parse_candidate_ids
from app.core.text_input import INT64_MAX, INT64_MIN, tolerant_json_loads
from app.store.read.host_cells import TIME_MAX, TIME_MIN, text_value, time_value
from app.store.read.rows import (
    CANDIDATE_COLUMNS,
    HOST_COLUMNS,
    HostRow,
    OwnFactRows,
    OwnFacts,
    build_candidate,
    host_row,
    own_facts,
)
from app.store.schema.tables import (
    expiry,
    memory_sources,
    revisions,
    seen,
    user_memories,
    user_memory_candidates,
)

CHUNK = 500
m = user_memories.c
c = user_memory_candidates.c
SELECT_HOST = select(*(m[name] for name in HOST_COLUMNS))
SELECT_CANDIDATES = select(*(c[name] for name in CANDIDATE_COLUMNS))


T = TypeVar("T")


def chunks(items: Sequence[T], size: int = CHUNK) -> Iterator[Sequence[T]]:
    """`items` in slices of `size`: how every query splits a long `IN` list (SQLite's variable limit)
    or a long list of values."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def fetch_rows(conn: Connection, ids: Sequence[int]) -> list[HostRow]:
    """Host rows for `ids`, in the order given; ids without a row are skipped."""
    found: dict[int, HostRow] = {}
    for part in chunks(ids):
        for row in conn.execute(SELECT_HOST.where(m.id.in_(part))):
            converted = host_row(row)
            found[converted.id] = converted
    return [found[item] for item in ids if item in found]


SELECT_ROW = SELECT_HOST.where(m.id == bindparam("b_id"))  # built once: writers run it per row


def fetch_row(conn: Connection, memory_id: int) -> HostRow | None:
    row = conn.execute(SELECT_ROW, {"b_id": memory_id}).first()
    return host_row(row) if row is not None else None


def fetch_own_facts(conn: Connection, ids: Sequence[int]) -> dict[int, OwnFacts]:
    """Expiry, own sources, revision counts and the seen baseline for `ids`, from the dashboard's tables."""
    found = OwnFactRows([], [], [], [])
    last_change = func.max(case((revisions.c.kind == RevisionKind.CONTENT, revisions.c.changed_at)))
    for part in chunks(ids):
        found.expiries += conn.execute(
            select(expiry.c.memory_id, expiry.c.expires_at).where(expiry.c.memory_id.in_(part))
        ).all()
        own = select(memory_sources.c.memory_id, memory_sources.c.source).where(
            memory_sources.c.memory_id.in_(part)
        )
        found.sources += conn.execute(own.order_by(memory_sources.c.added_at, memory_sources.c.source)).all()
        grouped = (
            select(revisions.c.memory_id, func.count(), last_change)
            .where(revisions.c.memory_id.in_(part))
            .group_by(revisions.c.memory_id)
        )
        found.stats += conn.execute(grouped).all()
        found.seen += conn.execute(
            select(seen.c.memory_id, seen.c.baseline_rewritten_at, seen.c.first_seen_at).where(
                seen.c.memory_id.in_(part)
            )
        ).all()
    return own_facts(found)


def fetch_candidates(conn: Connection, ids: Iterable[int] | None = None) -> list[Candidate]:
    """Pending candidates (all, oldest first, or those of `ids`)."""
    if ids is None:
        return [build_candidate(row) for row in conn.execute(SELECT_CANDIDATES.order_by(c.created_at, c.id))]
    # A memory's ids come from the host's JSON, which has no 64-bit limit; no row has such an id, and
    # SQLite could not take it as a parameter.
    wanted = [item for item in dict.fromkeys(ids) if INT64_MIN <= item <= INT64_MAX]
    found: list[Candidate] = []
    for part in chunks(wanted):
        found.extend(build_candidate(row) for row in conn.execute(SELECT_CANDIDATES.where(c.id.in_(part))))
    return found


_TEXT_OR_NULL = frozenset((str, type(None)))

# `revision_from_row` unpacks a row by position (a named attribute of a SQLAlchemy row costs ~0.5 µs,
# ten times a tuple's): the revisions table's columns, in this order, as every query here selects them
# (tests/store/test_history_outline.py checks the table against it).
REVISION_COLUMNS = (
    "id",
    "memory_id",
    "changed_at",
    "kind",
    "source",
    "run_id",
    "candidate_ids",
    "previous_content",
    "new_content",
    "previous_status",
    "new_status",
    "detail",
)


def revision_from_row(row: Sequence[Any], *, texts_loaded: bool = True) -> Revision:
    """A revision from a row of `REVISION_COLUMNS` in order (`select(revisions)`, `_HISTORY`)."""
    (
        id_,
        memory_id,
        changed_at,
        kind,
        source,
        run_id,
        candidate_ids,
        previous,
        new,
        old_status,
        new_status,
        detail,
    ) = row
    parsed = tolerant_json_loads(detail) if detail else None
    if not (
        type(changed_at) is int
        and TIME_MIN <= changed_at <= TIME_MAX
        and type(previous) in _TEXT_OR_NULL
        and type(new) in _TEXT_OR_NULL
        and type(old_status) in _TEXT_OR_NULL
        and type(new_status) in _TEXT_OR_NULL
    ):
        # Our own table holds what our writers made, but an older version recorded observed host
        # values as they were (a text `updated_at`, a blob status): shown like the host's rows.
        changed_at = time_value(changed_at)
        previous, new, old_status, new_status = (
            None if text is None else text_value(text) for text in (previous, new, old_status, new_status)
        )
    return Revision(
        id_,
        memory_id,
        changed_at,
        kind,
        source,
        run_id,
        parse_candidate_ids(candidate_ids),
        previous,
        new,
        old_status,
        new_status,
        MappingProxyType(parsed) if isinstance(parsed, dict) else EMPTY_DETAIL,
        texts_loaded,
    )


# Every revision column but the two texts, which stand in as NULL: a memory's outline of revisions.
_WITHOUT_TEXTS = [
    null().label(column.name) if column.name in ("previous_content", "new_content") else column
    for column in revisions.c
]
# Built once (SQLAlchemy caches their compiled form): the history panel reads one memory's revisions,
# and the newest one whole, at every selection.
_HISTORY = {
    texts: select(*(revisions.c if texts else _WITHOUT_TEXTS))
    .where(revisions.c.memory_id == bindparam("b_memory"))
    .order_by(revisions.c.changed_at, revisions.c.id)
    for texts in (True, False)
}


def fetch_revisions(conn: Connection, memory_id: int, *, texts: bool = True) -> list[Revision]:
    """A memory's revisions, oldest first (changed_at, then id); `texts=False` leaves out both texts
    (50 revisions of a 64 KiB memory hold 6 MB of them; a history list needs none)."""
    rows = conn.execute(_HISTORY[texts], {"b_memory": memory_id})
    return [revision_from_row(row, texts_loaded=texts) for row in rows]


def fetch_revisions_by_id(conn: Connection, revision_ids: Sequence[int]) -> list[Revision]:
    """Revisions by id, in the order given (a few IN queries, not one query per id)."""
    found: dict[int, Revision] = {}
    for part in chunks(revision_ids):
        for row in conn.execute(select(revisions).where(revisions.c.id.in_(part))):
            found[row.id] = revision_from_row(row)
    return [found[item] for item in revision_ids if item in found]


_ONE_REVISION = select(revisions).where(revisions.c.id == bindparam("b_revision"))


def fetch_revision(conn: Connection, revision_id: int) -> Revision | None:
    row = conn.execute(_ONE_REVISION, {"b_revision": revision_id}).first()
    return revision_from_row(row) if row is not None else None
