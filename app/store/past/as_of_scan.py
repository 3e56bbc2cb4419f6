"""As of, every memory at once: the past profile (and the whole listing) at an instant T before now.

A memory with no revision after T is at T what its row is now: one scan of the host's rows gives all of
them (`plain_rows`: plain tuples, texts decoded by sqlite3 itself). Those changed after T are left out:
when few revisions follow T (a capped count in the index by time), by `NOT IN` their memories, read once
by a range scan of that index; else by a seek each in the revisions by memory. For the profile, the query
also drops the rows not active and known at T: their text is never read; the few active rows whose expiry
had passed by T (the expiries are read apart, not joined per row) are dropped in Python, unless the
dashboard has no revision of them (their state at T may be unknown: see below). Each row found brings its
last revision (its last at or before T, there being none after). The memories with revisions after T
(from the index by time when few, else from the index by memory) whose first revision after T creates
them did not exist at T and are dropped in the query (a seek each, in the index alone, which holds the
kind); only the others get their facts (`as_of.facts_query`, driven by that set in the same statement)
and are resolved (`as_of.resolve`). Where the dashboard has no revision of a memory, its first look at it
(`mdash_seen`) says whether its state at T is known.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from itertools import repeat
from typing import Any

from sqlalchemy import Connection, Select, bindparam, case, func, or_, select

from app.core.models import MemoryStatus, RevisionKind
from app.core.models.as_of import MemoryAsOf
from app.store.connect.engine import plain_rows
from app.store.past.as_of import facts_of_rows, facts_query, host_state, ordered, resolve
from app.store.read.reads import chunks
from app.store.schema.tables import INT64, expiry, revisions, seen, user_memories

r = revisions.c
m = user_memories.c
_AT = bindparam("b_at", type_=INT64)


def _changed_facts(few: bool) -> Select[Any]:
    """The facts of the memories changed after T whose first revision after T does not create them
    (a negative id: it does); each one's first revision after T comes from the index by memory. The
    distinct memories too, unless few revisions follow T: then they come from the range after T of the
    index by time (`memory_id + 0`: an expression, which SQLite cannot take in order from the index by
    memory, whose every entry it would otherwise scan for `DISTINCT`)."""
    memory = (r.memory_id + 0) if few else r.memory_id
    changed_ids = (
        select(memory.label("memory_id")).where(r.changed_at > _AT).distinct().subquery("asof_changed")
    )
    first_after = (
        select(case((r.kind == RevisionKind.CREATE, -r.id), else_=r.id))
        .where(r.memory_id == changed_ids.c.memory_id, r.changed_at > _AT)
        .order_by(r.changed_at, r.id)
        .limit(1)
        .scalar_subquery()
    )
    existed = select(changed_ids.c.memory_id).where(first_after > 0).subquery("asof_existed")
    return facts_query(existed.c.memory_id)


# Keyed by `few`: whether the count of revisions after T is within `FEW_AFTER`.
CHANGED_FACTS = {few: _changed_facts(few) for few in (False, True)}

# The host's rows with no revision after T, each with whether it is active and its last revision
# (all of its revisions are at or before T). For the profile, only those active (injected at T unless
# their expiry had passed by then: `_EXPIRIES`, read apart) or with no revision at all (whose state
# at T may be unknown); the text only of those active, the status only of the others (an active row's
# is 'active'). The expiries are not joined (a seek per row, for the few rows that have one).
_ACTIVE_ROW = m.status == MemoryStatus.ACTIVE
_LAST = (
    select(r.changed_at)
    .where(r.memory_id == m.id)
    .order_by(r.changed_at.desc(), r.id.desc())
    .limit(1)
    .scalar_subquery()
)
# The memories with a revision after T, from the index by time (a range scan of the revisions after T);
# counted first, up to `FEW_AFTER`.
_AFTER = select(r.memory_id).where(r.changed_at > _AT)
FEW_AFTER = 20_000
COUNT_AFTER = select(func.count()).select_from(_AFTER.limit(bindparam("b_cap")).subquery("asof_after"))
# The rows with no revision after T. Few revisions after T: `NOT IN` their memories, which SQLite reads
# once into a list of its own (a lookup per row); many: a seek per row in the index by memory.
# `EXISTS (SELECT id ...)`, not `SELECT *`: SQLite then reads the index alone, not each revision's row.
_UNCHANGED = {
    True: m.id.not_in(_AFTER),
    False: ~select(r.id).where(r.memory_id == m.id, r.changed_at > _AT).exists(),
}
_UNRECORDED = ~select(r.id).where(r.memory_id == m.id).exists()


def _host_rows(profile: bool, few: bool) -> Select[Any]:
    rows = select(
        m.id,
        case((_ACTIVE_ROW, 1), else_=0),
        case((_ACTIVE_ROW, m.content)) if profile else m.content,
        case((_ACTIVE_ROW, None), else_=m.status) if profile else m.status,
        m.promoted_at,
        _LAST,
    )
    return rows.where(_UNCHANGED[few], *([or_(_ACTIVE_ROW, _UNRECORDED)] if profile else []))


# Keyed by (profile, few).
UNCHANGED = {(profile, few): _host_rows(profile, few) for profile in (False, True) for few in (False, True)}
_ACTIVE = str(MemoryStatus.ACTIVE)
# Every expiry, and whether it had passed by T (compared in SQL, whatever the cell holds, as the join did).
_EXPIRIES = select(expiry.c.memory_id, expiry.c.expires_at, expiry.c.expires_at <= _AT)


def states_as_of(conn: Connection, at: int, now: int, *, profile: bool) -> list[MemoryAsOf]:
    """Every memory as it was at `at` (before `now`) in the profile's order; with `profile`, only those
    injected then and those whose state then is unknown. Needs the dashboard's own tables, holding every
    revision (a read-only store that kept revisions in memory reads `as_of.fetch_facts`)."""
    # The read builds a tuple or more per memory and frees none of them: the cyclic collector, which
    # runs every few hundred new containers, would only walk them again and again. It is off during the
    # read (for the whole process: the collector is one); after it, every object the process tracks goes
    # to the oldest generation (`freeze`, then `unfreeze`: a splice of each generation's list), where a
    # young object that survives its walks would end up, without the young collections' walks over each
    # state. The price, knowingly paid: a young cycle of another thread made meanwhile is freed by the
    # next full collection, not the next young one.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _states_as_of(conn, at, now, profile)
    finally:
        gc.freeze()
        gc.unfreeze()
        if collecting:
            gc.enable()


def _states_as_of(conn: Connection, at: int, now: int, profile: bool) -> list[MemoryAsOf]:
    cap = FEW_AFTER
    few = conn.execute(COUNT_AFTER, {"b_at": at, "b_cap": cap + 1}).scalar_one() <= cap
    states = _unchanged_states(conn, at, profile, few)
    for facts in facts_of_rows(conn, at, conn.execute(CHANGED_FACTS[few], {"b_at": at}).all()):
        state = resolve(facts, at, now)
        if state is not None and (not profile or state.injected or not state.known):
            states.append(state)
    return ordered(states)


def _unchanged_states(conn: Connection, at: int, profile: bool, few: bool) -> list[MemoryAsOf]:
    """The memories with no revision after `at`: their rows now (`UNCHANGED`). The usual rows (text,
    status and time as the host writes them, with revisions) in one comprehension; the others apart."""
    expiring: dict[int, Any] = {}
    lapsed: set[int] = set()  # expired by `at`
    for memory_id, expires_at, passed in conn.execute(_EXPIRIES, {"b_at": at}):
        expiring[memory_id] = expires_at
        if passed:
            lapsed.add(memory_id)
    rows = plain_rows(conn, UNCHANGED[profile, few], {"b_at": at})
    if profile and lapsed:
        # Out of the profile: an active row expired by `at`, unless its state then is unknown.
        rows = [row for row in rows if row[0] not in lapsed or row[5] is None]
    # In the profile only active rows have revisions and come back (status 'active', not read). Each
    # state's fields as a plain tuple, then made a `MemoryAsOf` by `tuple.__new__` through `map`: no
    # Python call per row (a named tuple's own `__new__` is one).
    expires = expiring.get
    fields = [
        (
            memory_id,
            at,
            True,
            content,
            _ACTIVE if profile else status,
            promoted,
            last,
            expires(memory_id),
            True,
            None,
        )
        for memory_id, _, content, status, promoted, last in rows
        if last is not None
        and type(content) is str
        and type(promoted) is int
        and (profile or type(status) is str)
    ]
    states: list[MemoryAsOf] = list(map(tuple.__new__, repeat(MemoryAsOf), fields))
    if len(states) == len(rows):
        return states
    odd = [row for row in rows if row[5] is not None and not _usual(row, profile)]
    for memory_id, _, content, status, promoted, last in odd:
        content, status, promoted = host_state(content, _ACTIVE if profile else status, promoted)
        states.append(
            MemoryAsOf(memory_id, at, True, content, status, promoted, last, expires(memory_id), True)
        )
    unrecorded = [row for row in rows if row[5] is None]
    first_seen = _first_seen(conn, [row[0] for row in unrecorded])
    for unseen in unrecorded:
        state = _unrecorded_state(unseen, at, first_seen.get(unseen[0]), expires(unseen[0]))
        if state is not None and (not profile or state.injected or not state.known):
            states.append(state)
    return states


def _usual(row: Sequence[Any], profile: bool) -> bool:
    return type(row[2]) is str and type(row[4]) is int and (profile or type(row[3]) is str)


def _first_seen(conn: Connection, memory_ids: Sequence[int]) -> dict[int, int]:
    found: dict[int, int] = {}
    query = select(seen.c.memory_id, seen.c.first_seen_at)
    for part in chunks(memory_ids):
        for memory_id, first_seen_at in conn.execute(query.where(seen.c.memory_id.in_(part))):
            if type(first_seen_at) is int:
                found[memory_id] = first_seen_at
    return found


def _unrecorded_state(
    row: Sequence[Any], at: int, first_seen: int | None, expires_at: Any
) -> MemoryAsOf | None:
    """A memory the dashboard has no revision of: its row now if it saw it by `at` (as `resolve`)."""
    memory_id, active, content, status, promoted_at, _ = row
    content, status, promoted_at = host_state(content, _ACTIVE if active else status, promoted_at)
    if first_seen is not None and first_seen <= at:
        return MemoryAsOf(memory_id, at, True, content, status, promoted_at, None, expires_at, True)
    if promoted_at > at:
        return None  # the host created it after `at`
    return MemoryAsOf(memory_id, at, False, None, None, promoted_at, None, None, True, first_seen)
