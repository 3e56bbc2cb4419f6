"""As of: every memory as it was at a past instant, from the revision log (observed revisions included).

A memory's state at T is its state now with every change after T undone: the first revision after T
holds the text (`previous_content`) and, among the revisions after T, the first that moved the status
or the expiry holds what they were before it. A memory first created after T (its first revision after
T creates it, or the host's `promoted_at` is after T) is absent; one deleted at or before T is absent.
Where the dashboard has no record at or before T (it first saw the memory later), the state is unknown
and is said so ("unknown before <first seen>"), never guessed.

`fetch_facts` reads each memory's facts with one set-based query: per memory, its first and last
revision instants around T and the few revisions after T that matter (`_FACTS`, over the index by
memory), and Python resolves them (`resolve`). The whole past at once is read faster by `as_of_scan`
(most memories have no revision after T: their state then is their row now). `facts_from_history`
computes the same facts from a list of revisions (a read-only store's revisions kept in memory).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any

from sqlalchemy import BindParameter, Connection, Select, Table, bindparam, case, or_, select, union

from app.core.models import Revision, RevisionKind
from app.core.models.as_of import MemoryAsOf
from app.core.text_input import tolerant_json_loads
from app.store.read.host_cells import status_value, text_value, time_value
from app.store.read.reads import chunks
from app.store.schema.tables import INT64, expiry, revisions, seen, user_memories

r = revisions.c
m = user_memories.c
# A delete revision's detail keeps the deleted row's `first_seen_at` under this key (its `mdash_seen` row
# goes with it): the writers that delete read it with FIRST_SEEN.
FIRST_SEEN_KEY = "first_seen_at"
FIRST_SEEN = select(seen.c.first_seen_at).where(seen.c.memory_id == bindparam("b_id"))
_AT = bindparam("b_at", type_=INT64)


@dataclass(frozen=True, slots=True)
class Facts:
    """What decides one memory's state at T: its row now and the revisions around T."""

    memory_id: int
    host: tuple[str, str, int] | None  # content, status, promoted_at now; None: no host row
    first_seen_at: int | None
    expires_now: int | None
    next_at: int | None  # its first revision after T (with none at or before T: its first of all)
    last_at: int | None  # its last revision at or before T
    next_kind: str | None  # its first revision after T (None: none)
    next_previous: str | None  # that revision's previous text
    status_after: str | None  # the status before the first status change after T
    expiry_after: tuple[str, str | None] | None  # kind and detail of the first expiry (or delete) after T
    deleted_promoted_at: int | None = None  # a deleted memory's, from its delete revision's snapshot


# Every memory: the host's rows, and the memories known only from their revisions (deleted since); or
# those of the ids given (each arm filtered on its own index, not the whole union).
_GIVEN: BindParameter[Any] = bindparam("b_ids", expanding=True)


def _ids(by_ids: bool) -> Any:
    hosts = select(m.id.label("memory_id"))
    logged = select(r.memory_id).group_by(r.memory_id)
    if by_ids:
        hosts, logged = hosts.where(m.id.in_(_GIVEN)), logged.where(r.memory_id.in_(_GIVEN))
    return union(hosts, logged).subquery("asof_ids").c.memory_id


def _seek(memory: Any, column: Any, *conditions: Any, descending: bool = False) -> Any:
    """A correlated subquery: `column` of the memory's first (or last) revision meeting `conditions`.
    Over the `(memory_id, changed_at, id)` index: a seek per memory, not a scan of the log."""
    order = (r.changed_at.desc(), r.id.desc()) if descending else (r.changed_at, r.id)
    return (
        select(column).where(r.memory_id == memory, *conditions).order_by(*order).limit(1).scalar_subquery()
    )


_EXPIRY_KINDS = (RevisionKind.EXPIRY, RevisionKind.DELETE)
_MOVES_EXPIRY = r.kind.in_(_EXPIRY_KINDS)
_HAS_STATUS = r.previous_status.is_not(None)


def facts_query(memory: Any) -> Select[Any]:
    """The facts at T of the memories `memory` (a column of a subquery) names: `fetch_facts`'s rows."""
    # First the index alone answers, per memory: its first revision after T and its last one at or
    # before T. The rest is read only for memories changed after T (or deleted).
    seeks = select(
        memory.label("memory_id"),
        _seek(memory, r.id, r.changed_at > _AT).label("next_id"),
        _seek(memory, r.changed_at, r.changed_at <= _AT, descending=True).label("last_at"),
    )
    around = seeks.cte("asof_around")
    # Materialized: else the planner copies each seek into every place that reads its column.
    around = around.prefix_with("MATERIALIZED")
    key = around.c.memory_id
    changed_after = around.c.next_id.is_not(None)

    def after(column: Any, *conditions: Any) -> Any:
        found = (
            select(column)
            .where(r.memory_id == key, r.changed_at > _AT, *conditions)
            .order_by(r.changed_at, r.id)
            .limit(1)
            .scalar_subquery()
        )
        return case((changed_after, found))

    # A memory's first delete keeps when the dashboard first saw it: read for a deleted memory (its
    # `mdash_seen` row went with it) and for one restored since (its `mdash_seen` row is the restore's).
    first_delete = (
        select(r.detail)
        .where(r.memory_id == key, r.kind == RevisionKind.DELETE)
        .order_by(r.changed_at, r.id)
        .limit(1)
        .scalar_subquery()
    )
    following = revisions.alias("asof_next")
    return select(
        key,
        m.id.label("host_id"),
        m.content,
        m.status,
        m.promoted_at,
        seen.c.first_seen_at,
        expiry.c.expires_at,
        following.c.changed_at,
        around.c.last_at,
        around.c.next_id,
        # One scan after T answers both the status and the expiry before T's changes (`_markers`).
        after(r.id, or_(_HAS_STATUS, _MOVES_EXPIRY)).label("marker_id"),
        first_delete.label("deleted_detail"),
        following.c.kind,
        following.c.previous_content,
    ).select_from(
        around.outerjoin(user_memories, m.id == key)
        .outerjoin(seen, seen.c.memory_id == key)
        .outerjoin(expiry, expiry.c.memory_id == key)
        .outerjoin(following, following.c.id == around.c.next_id)
    )


_FACTS = {by_ids: facts_query(_ids(by_ids)) for by_ids in (False, True)}


def host_state(content: Any, status: Any, promoted_at: Any) -> tuple[str, str, int]:
    """Content, status and promoted_at of a host row, whatever its cells hold."""
    if type(content) is str and type(status) is str and type(promoted_at) is int:
        return content, status, promoted_at  # the usual row, as the host writes it
    return text_value(content), status_value(status), time_value(promoted_at)


def _host_state(row: Sequence[Any]) -> tuple[str, str, int] | None:
    return None if row[1] is None else host_state(row[2], row[3], row[4])


def first_seen_of(stored: int | None, deleted_detail: str | None) -> int | None:
    """When the dashboard first saw a memory: its `mdash_seen` row's, or its first delete's record if
    earlier (deleted, or deleted and restored)."""
    if deleted_detail is None:
        return stored if type(stored) is int else None
    detail = tolerant_json_loads(deleted_detail) if deleted_detail else None
    kept = detail.get(FIRST_SEEN_KEY) if isinstance(detail, dict) else None
    found = [item for item in (stored, kept) if type(item) is int]
    return min(found, default=None)


def _snapshot_promoted_at(deleted_detail: str | None) -> int | None:
    detail = tolerant_json_loads(deleted_detail) if deleted_detail else None
    row = detail.get("row") if isinstance(detail, dict) else None
    value = row.get("promoted_at") if isinstance(row, dict) else None
    return value if type(value) is int else None


def recorded_first_seen(
    conn: Connection, memory_id: int, seen_table: Table = seen, log: Table = revisions
) -> int | None:
    """`first_seen_of` one memory (blame's "as first seen on"); a project memory's from its own seen
    copy and log (`mdash_project_seen`, `mdash_project_revisions`)."""
    stored = conn.execute(
        select(seen_table.c.first_seen_at).where(seen_table.c.memory_id == memory_id)
    ).scalar()
    deleted = conn.execute(
        select(log.c.detail)
        .where(log.c.memory_id == memory_id, log.c.kind == RevisionKind.DELETE)
        .order_by(log.c.changed_at, log.c.id)
        .limit(1)
    ).scalar()
    return first_seen_of(stored, deleted)


def known_at(at: int, now: int, first_seen_at: int | None, last_at: int | None) -> bool:
    """Whether a memory's state at `at` is known: `at` is now, the dashboard had seen it by then, or it
    has a revision at or before `at`. Otherwise it is unknown, never guessed."""
    return at >= now or (first_seen_at is not None and first_seen_at <= at) or last_at is not None


def fetch_facts(conn: Connection, at: int, ids: Sequence[int] | None = None) -> list[Facts]:
    """Every memory's facts at `at` (host rows and memories known only from revisions), or those of
    `ids`, in no order. Needs the dashboard's own tables. (`as_of_scan` reads the whole past faster,
    where every revision is in the tables.)"""
    rows: list[Any] = []
    if ids is None:
        rows = list(conn.execute(_FACTS[False], {"b_at": at}))
    else:
        for part in chunks(ids):
            rows += conn.execute(_FACTS[True], {"b_at": at, "b_ids": list(part)})
    return facts_of_rows(conn, at, rows)


def facts_of_rows(conn: Connection, at: int, rows: Sequence[Any]) -> list[Facts]:
    markers = _markers(conn, at, {int(row[0]): row[10] for row in rows if row[10] is not None})
    none: Marker = (None, None)
    return [
        Facts(
            memory_id=int(row[0]),
            host=_host_state(row),
            first_seen_at=first_seen_of(row[5], row[11]),
            expires_now=row[6],
            next_at=row[7],
            last_at=row[8],
            next_kind=row[12],
            next_previous=None if row[13] is None else text_value(row[13]),
            status_after=markers.get(int(row[0]), none)[0],
            expiry_after=markers.get(int(row[0]), none)[1],
            deleted_promoted_at=_snapshot_promoted_at(row[11]),
        )
        for row in rows
    ]


Marker = tuple[str | None, tuple[str, str | None] | None]  # the status before T's changes, an expiry move


def _markers(conn: Connection, at: int, marker_ids: dict[int, int]) -> dict[int, Marker]:
    """For each memory (id: its first revision after T that moved its status or its expiry), the status
    before the first status change after T, and kind and detail of the first expiry change (or delete)
    after T. One revision answers both for most memories; the other answer is looked up for the rest."""
    by_revision = {revision_id: memory_id for memory_id, revision_id in marker_ids.items()}
    marked: dict[int, tuple[str, Any, str | None]] = {}
    columns = select(r.id, r.kind, r.previous_status, r.detail)
    for part in chunks(list(by_revision)):
        for revision_id, kind, status, detail in conn.execute(columns.where(r.id.in_(part))):
            marked[by_revision[revision_id]] = (kind, status, detail)
    statuses = _first_after(conn, at, [mid for mid, found in marked.items() if found[1] is None], _HAS_STATUS)
    moves = _first_after(
        conn, at, [mid for mid, found in marked.items() if found[0] not in _EXPIRY_KINDS], _MOVES_EXPIRY
    )
    result: dict[int, Marker] = {}
    for memory_id, (kind, status, detail) in marked.items():
        if status is None and memory_id in statuses:
            status = statuses[memory_id][1]
        moved = (kind, detail) if kind in _EXPIRY_KINDS else None
        if moved is None and memory_id in moves:
            moved = (moves[memory_id][0], moves[memory_id][2])
        result[memory_id] = (None if status is None else status_value(status), moved)
    return result


def _first_after(
    conn: Connection, at: int, memory_ids: Sequence[int], condition: Any
) -> dict[int, tuple[str, Any, str | None]]:
    """Kind, previous status and detail of each memory's first revision after `at` meeting `condition`."""
    found: dict[int, tuple[str, Any, str | None]] = {}
    query = select(r.memory_id, r.kind, r.previous_status, r.detail).where(r.changed_at > at, condition)
    for part in chunks(memory_ids):
        newest_first = query.where(r.memory_id.in_(part)).order_by(
            r.memory_id, r.changed_at.desc(), r.id.desc()
        )
        for memory_id, kind, status, detail in conn.execute(newest_first):
            found[memory_id] = (kind, status, detail)  # the last one kept: the first after `at`
    return found


def host_only_facts(conn: Connection, ids: Sequence[int] | None = None) -> list[Facts]:
    """Facts from the host's rows alone (a store without its own tables: no record of any past)."""
    query = select(m.id, m.id, m.content, m.status, m.promoted_at).order_by(m.id)
    rows: list[Any] = []
    if ids is None:
        rows = list(conn.execute(query))
    else:
        for part in chunks(ids):
            rows += conn.execute(query.where(m.id.in_(part)))
    return [
        Facts(int(row[0]), _host_state(row), None, None, None, None, None, None, None, None) for row in rows
    ]


def facts_from_history(base: Facts, history: Sequence[Revision], at: int) -> Facts:
    """`base` (the query's facts of one memory) with what its revisions say recomputed from `history`
    (oldest first), as the query computes it: a read-only store's revisions kept in memory."""
    ordered = sorted(history, key=lambda rev: (rev.changed_at, abs(rev.id)))
    after = [rev for rev in ordered if rev.changed_at > at]
    before = [rev.changed_at for rev in ordered if rev.changed_at <= at]
    status = next((rev.previous_status for rev in after if rev.previous_status is not None), None)
    moved = next((rev for rev in after if rev.kind in (RevisionKind.EXPIRY, RevisionKind.DELETE)), None)
    detail = json.dumps(dict(moved.detail), sort_keys=True) if moved is not None and moved.detail else None
    return replace(
        base,
        next_at=after[0].changed_at if after else None,
        last_at=max(before) if before else None,
        next_kind=after[0].kind if after else None,
        next_previous=after[0].previous_content if after else None,
        status_after=status,
        expiry_after=None if moved is None else (moved.kind, detail),
    )


def _expiry_at(facts: Facts) -> int | None:
    if facts.expiry_after is None:
        return facts.expires_now
    kind, raw = facts.expiry_after
    detail = tolerant_json_loads(raw) if raw else None
    key = "previous_expires_at" if kind == RevisionKind.EXPIRY else "expires_at"
    value = detail.get(key) if isinstance(detail, dict) else None
    return value if type(value) is int else None


def resolve(facts: Facts, at: int, now: int) -> MemoryAsOf | None:
    """The memory at `at` (None: it did not exist then). `at` at or after `now` is now."""
    if facts.next_kind == RevisionKind.CREATE:
        return None  # created after `at` (or, deleted then, brought back after it)
    if facts.next_kind is None and facts.host is None:
        return None  # deleted at or before `at`
    promoted = facts.host[2] if facts.host is not None else facts.deleted_promoted_at
    known = known_at(at, now, facts.first_seen_at, facts.last_at)
    if not known and promoted is not None and promoted > at:
        return None  # the host created it after `at`
    if facts.next_kind is None:
        assert facts.host is not None
        content: str | None = facts.host[0]
        status: str | None = facts.host[1]
    else:
        content = facts.next_previous
        status = facts.status_after if facts.status_after is not None else (facts.host or (None, None))[1]
    if not known or content is None:
        first = [item for item in (facts.first_seen_at, facts.next_at) if item is not None]
        return MemoryAsOf(
            facts.memory_id,
            at,
            False,
            None,
            None,
            promoted,
            None,
            None,
            facts.host is not None,
            min(first, default=None),
        )
    return MemoryAsOf(
        facts.memory_id,
        at,
        True,
        content,
        status,
        promoted,
        facts.last_at,
        _expiry_at(facts),
        facts.host is not None,
    )


_BY_PROMOTION = attrgetter("promoted_at")
_BY_ID = attrgetter("memory_id")


def ordered(states: Iterable[MemoryAsOf]) -> list[MemoryAsOf]:
    """The profile's order: promoted_at, then id; then the deleted memories without a known promoted_at,
    by id. Sorted by id first (runs already in id order are merged, not sorted), then, stably, by
    promoted_at alone: a read may order a hundred thousand states, and an int compares fastest."""
    given = sorted(states, key=_BY_ID)
    dated = [state for state in given if state.promoted_at is not None]
    dated.sort(key=_BY_PROMOTION)
    if len(dated) == len(given):
        return dated
    return dated + [state for state in given if state.promoted_at is None]


# The first ids of the window's listing of the past, newest first: the host's rows promoted at or before
# T, read down the primary key (no sort of every row, no count). Host ids grow with promotion.
_FIRST_IDS = select(m.id).where(m.promoted_at <= _AT).order_by(m.id.desc()).limit(bindparam("b_limit"))


def first_ids(conn: Connection, at: int, limit: int) -> list[int]:
    """Up to `limit` ids of host rows promoted at or before `at`, highest first (a first screen)."""
    return [int(item) for item in conn.execute(_FIRST_IDS, {"b_at": at, "b_limit": limit}).scalars()]
