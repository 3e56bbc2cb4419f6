"""The shared selectors: one place that says which rows a listing or a recall sees.

Expiry rides in the selector every read shape uses (seed 001): a recall path that forgot a separate
expiry pass would serve expired memory. `injected_predicate` is the host's view (status exactly
`active`) with expiry on top; the listing filter keeps expired rows visible, marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sqlalchemy import ColumnElement, Select, and_, exists, false, func, not_, or_, select, true

from app.core.models import REWRITE_THRESHOLD_MS, MemoryStatus, RevisionKind
from app.core.models.filters import (  # re-exported: where the selectors' callers found them
    MAX_SEARCH_CHARS as MAX_SEARCH_CHARS,
)
from app.core.models.filters import (
    MAX_SEARCH_WORDS as MAX_SEARCH_WORDS,
)
from app.core.models.filters import (
    SORT_KEYS as SORT_KEYS,
)
from app.core.models.filters import (
    STATUS_FILTERS as STATUS_FILTERS,
)
from app.core.models.filters import (
    TRUST_FILTERS as TRUST_FILTERS,
)
from app.core.models.filters import (
    MemoryFilter as MemoryFilter,
)
from app.core.models.filters import (
    SortKey as SortKey,
)
from app.core.models.filters import (
    StatusFilter as StatusFilter,
)
from app.core.models.filters import (
    TrustFilter as TrustFilter,
)
from app.core.models.filters import (
    check_search as check_search,
)
from app.core.models.filters import (
    search_problem as search_problem,
)
from app.core.text_input import whole_number_int64
from app.store.kinds import USER_MEMORIES, MemoryKind
from app.store.read.sources import source_predicate
from app.store.schema.tables import expiry, revisions, seen, user_memories
from app.store.search import index as search_index
from app.store.search.text_match import contains_text

m = user_memories.c


def not_expired(now: int, own: bool) -> ColumnElement[bool]:
    """Half-open: a memory with expiry T is recalled at T-1 ms and not at T."""
    return not_(is_expired(now, own))


def is_expired(now: int, own: bool) -> ColumnElement[bool]:
    return with_expiry(own, expiry.c.expires_at <= now)


def with_expiry(own: bool, when: ColumnElement[bool] | None = None) -> ColumnElement[bool]:
    """The host rows with an expiry (one matching `when`): the ids are read from `mdash_expiry` (through
    its index by time) and each row is found by its key, instead of a lookup in `mdash_expiry` per host
    row. Its `memory_id` is a key (never NULL)."""
    if not own:
        return false()
    ids = select(expiry.c.memory_id)
    return m.id.in_(ids.where(when) if when is not None else ids)


def injected_predicate(now: int, own: bool, kind: MemoryKind = USER_MEMORIES) -> ColumnElement[bool]:
    """What the agent is shown: the kind's injection rule (user memories: status exactly `active`, as the
    host selects) and not expired."""
    return and_(kind.injection_rule(now), not_expired(now, own))


def _memory_id(term: str) -> int | None:
    """The memory id a term like `#12` or `12` names: ASCII digits (int() takes other scripts' too) that
    fit a 64-bit id; a longer number names no memory, it is only searched as text."""
    bare = term.removeprefix("#")
    return whole_number_int64(bare) if bare.isdigit() else None  # no sign: `#-5` names no memory


def search_predicate(text: str, indexed: Sequence[str] = ()) -> ColumnElement[bool]:
    """Every word must occur (case-insensitive); `#12` or `12` also matches memory #12.

    Every search (listing, recall, the window's filter) passes here, so its limits are checked here too
    (`check_search`; a listing's `MemoryFilter` checked them on creation). Terms in `indexed` are first
    narrowed by the search index (`app.store.search.index`); the LIKE on the host's content stays, so the
    rows are exactly those of the plain scan.
    """
    check_search(text)
    clauses: list[ColumnElement[bool]] = [search_index.matching_ids(term) for term in indexed]
    for term in text.split():
        match = contains_text(m.content, term)
        memory_id = _memory_id(term)
        if memory_id is not None:
            match = or_(match, m.id == memory_id)
        clauses.append(match)
    return and_(true(), *clauses)


def _rewritten(own: bool) -> ColumnElement[bool]:
    heuristic = m.updated_at - m.promoted_at > REWRITE_THRESHOLD_MS  # any status (`rows.looks_rewritten`)
    if not own:
        return heuristic
    has_content_revision = exists().where(
        and_(revisions.c.memory_id == m.id, revisions.c.kind == RevisionKind.CONTENT)
    )
    tracked = exists().where(seen.c.memory_id == m.id)
    baseline = exists().where(and_(seen.c.memory_id == m.id, seen.c.baseline_rewritten_at.is_not(None)))
    return or_(has_content_revision, baseline, and_(not_(tracked), heuristic))


def status_predicate(status: StatusFilter, now: int, own: bool) -> ColumnElement[bool]:
    if status == "active":
        return m.status == MemoryStatus.ACTIVE
    if status == "dismissed":
        return m.status == MemoryStatus.DISMISSED
    if status == "other":
        return m.status.not_in([MemoryStatus.ACTIVE, MemoryStatus.DISMISSED])
    if status == "expired":
        return is_expired(now, own)
    if status == "expiring":
        return with_expiry(own, expiry.c.expires_at > now)
    if status == "expiring_or_expired":
        return with_expiry(own)
    if status == "rewritten":
        return _rewritten(own)
    return true()


def sort_column(sort: SortKey) -> ColumnElement[int]:
    """The column a listing is ordered by (ties broken by id, in the same direction)."""
    return {"promoted": m.promoted_at, "updated": m.updated_at, "id": m.id}[sort]


def select_ids(flt: MemoryFilter, now: int, own: bool, indexed: Sequence[str] = ()) -> Select[int]:
    """The listing's ids in order; `indexed` names the search terms the search index may narrow. The
    trust filter is the store's (trust is judged in Python, under the person's marks)."""
    if flt.status == "deleted":
        return select_deleted_ids(flt, own)
    key = sort_column(flt.sort)
    order = [key.desc(), m.id.desc()] if flt.descending else [key.asc(), m.id.asc()]
    query = select(m.id).where(status_predicate(flt.status, now, own))
    if flt.search.strip():
        query = query.where(search_predicate(flt.search, indexed))
    if flt.source:
        query = query.where(source_predicate(flt.source, own))
    if flt.since is not None:
        query = query.where(m.promoted_at >= flt.since)
    if flt.until is not None:
        query = query.where(m.promoted_at < flt.until)
    return query.order_by(*order)


def select_deleted_ids(flt: MemoryFilter, own: bool) -> Select[int]:
    """The trash: ids with a delete revision and no host row, last deleted first (or `descending`
    False: first deleted first); the search matches their last content."""
    r = revisions.c
    if not own:
        return select(m.id).where(false())
    query = select(r.memory_id).where(
        r.kind == RevisionKind.DELETE, not_(exists().where(m.id == r.memory_id))
    )
    for term in flt.search.split():
        query = query.where(r.previous_content.contains(term, autoescape=True))
    deleted_at = func.max(r.changed_at)
    order = (
        [deleted_at.desc(), r.memory_id.desc()] if flt.descending else [deleted_at.asc(), r.memory_id.asc()]
    )
    return query.group_by(r.memory_id).order_by(*order)


def select_first_hits(flt: MemoryFilter, now: int, own: bool, window: int, limit: int) -> Select[int]:
    """The first `limit` ids of a search's listing among the first `window` ids of the same listing
    without the search: the search's text is only matched against those. Exactly the head of the
    search's listing when it finds `limit` ids (its hits are a subsequence of that listing, in the same
    order); fewer say nothing about the rows after the window."""
    if flt.status == "deleted":
        return select_ids(flt, now, own).limit(limit)
    stretch = select_ids(replace(flt, search=""), now, own).limit(window)
    return select_ids(flt, now, own).where(m.id.in_(stretch.scalar_subquery())).limit(limit)


def count_by_status() -> Select[str, int]:
    return select(m.status, func.count()).group_by(m.status)


def select_among(flt: MemoryFilter, now: int, own: bool, ids: Sequence[int]) -> Select[int]:
    """Which of `ids` the filter selects (unordered: the caller keeps the order it gave)."""
    return select_ids(flt, now, own).where(m.id.in_(ids)).order_by(None)
