"""Observed rewrites: the host changes memories without us, so each read compares with what we saw.

The host moves `updated_at` when it writes a row, but two writes within one millisecond leave it as it
was: so a change is found by content too, not by timestamps and statuses alone. SQLite compares each
host row with its copy in `mdash_seen` (`IS NOT`, byte for byte, in one scan); only the changed rows are
read into Python. The comparison runs only after someone else committed (`change_watch`). A read stays
a read: the write transaction is taken only when something was found. Read-only stores keep their
observations in memory and compare there (see `MemoryObservations`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, bindparam, delete, exists, insert, not_, or_, select

from app.core.models import Revision, RevisionKind, RevisionSource
from app.store.observe.batch import load_before, record_rows
from app.store.past.as_of import FIRST_SEEN, FIRST_SEEN_KEY
from app.store.read.reads import chunks, fetch_rows
from app.store.read.rows import HostRow, OwnFacts, looks_rewritten
from app.store.schema.tables import expiry, meta, seen, user_memories
from app.store.write.revision_log import SeenRow, WriteContext, add_revision

TRACKING_KEY = "tracking_since"
m = user_memories.c
_EXPIRES = select(expiry.c.expires_at).where(expiry.c.memory_id == bindparam("b_id"))


@dataclass(frozen=True, slots=True)
class Changes:
    changed: tuple[int, ...]  # new to us, or moved since we saw them
    gone: tuple[int, ...]  # seen, no longer in the host table

    def __bool__(self) -> bool:
        return bool(self.changed or self.gone)


def find_changes(conn: Connection) -> Changes:
    """The cheap check, against the dashboard's `mdash_seen` table."""
    moved = (
        select(m.id)
        .outerjoin(seen, seen.c.memory_id == m.id)
        .where(
            or_(
                seen.c.memory_id.is_(None),
                seen.c.updated_at.is_distinct_from(m.updated_at),
                seen.c.status.is_distinct_from(m.status),
                seen.c.content.is_distinct_from(m.content),  # a rewrite within the same millisecond
                seen.c.promoted_at.is_distinct_from(m.promoted_at),  # the first page's order
            )
        )
    )
    gone = select(seen.c.memory_id).where(not_(exists().where(m.id == seen.c.memory_id)))
    return Changes(
        tuple(int(row[0]) for row in conn.execute(moved)),
        tuple(int(row[0]) for row in conn.execute(gone)),
    )


def _recheck(conn: Connection, found: Changes) -> Changes:
    """`found` (by a read just before) as it stands now: vanished rows are caught by the next look."""
    gone = set(found.gone)
    for part in chunks(found.gone):
        gone.difference_update(int(i) for i in conn.execute(select(m.id).where(m.id.in_(part))).scalars())
    return Changes(found.changed, tuple(i for i in found.gone if i in gone))


def record_changes(ctx: WriteContext, found: Changes | None = None) -> Changes:
    """Inside a write transaction: record the changes, found again here (the host may have moved on).

    With `found` from a read just before, only those rows are looked at again (the write transaction then
    costs no second scan of every memory); anything newer is left to the next look, which scans.
    """
    changes = find_changes(ctx.conn) if found is None else _recheck(ctx.conn, found)
    tracking = ctx.conn.execute(select(meta.c.value).where(meta.c.key == TRACKING_KEY)).first() is not None
    before = load_before(ctx.conn, changes.changed + changes.gone)
    record_rows(ctx, fetch_rows(ctx.conn, changes.changed), before, tracking)
    for memory_id in changes.gone:
        gone = before[memory_id].seen
        add_revision(
            ctx,
            memory_id,
            RevisionKind.DELETE,
            RevisionSource.OBSERVED,
            previous_content=gone.content,
            previous_status=gone.status,
            detail={
                FIRST_SEEN_KEY: ctx.conn.execute(FIRST_SEEN, {"b_id": memory_id}).scalar(),
                # As a delete of ours keeps it: what the past reads as the expiry before the delete.
                "expires_at": ctx.conn.execute(_EXPIRES, {"b_id": memory_id}).scalar(),
            },
        )
        ctx.conn.execute(delete(seen).where(seen.c.memory_id == memory_id))
        ctx.conn.execute(delete(expiry).where(expiry.c.memory_id == memory_id))
    if not tracking:
        ctx.conn.execute(insert(meta).values(key=TRACKING_KEY, value=str(ctx.now)))
    return changes


Look = tuple[Any, Any, Any]  # a host row's updated_at, status and content, as the driver returns them


@dataclass
class MemoryObservations:
    """Read-only mode: what we saw and what changed, kept in this process only (negative revision ids).

    Each look reads every row's `updated_at`, status and content and compares them with what was seen
    (content too: see the module's docstring). `seen` holds the rows as shown (`HostRow`); where the
    driver's values differ from those (an odd row the row builder had to convert), `raw` keeps the
    driver's, so an odd row compares as itself and is not found changed on every look.
    """

    seen: dict[int, SeenRow] = field(default_factory=dict)
    raw: dict[int, Look] = field(default_factory=dict)
    revisions: dict[int, list[Revision]] = field(default_factory=dict)
    baseline_rewritten: dict[int, int] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    started: bool = False

    def observe(
        self, conn: Connection, now: int, initial: Mapping[int, SeenRow] | None = None
    ) -> list[Revision]:
        if not self.started and initial:
            self.seen.update(initial)
        looks = conn.execute(select(m.id, m.updated_at, m.status, m.content))
        current: dict[int, Look] = {int(r[0]): (r[1], r[2], r[3]) for r in looks}
        moved = tuple(mid for mid, look in current.items() if self._last_look(mid) != look)
        gone = [mid for mid in self.seen if mid not in current]
        found: list[Revision] = []
        for row in fetch_rows(conn, moved):
            found.extend(self._compare(row, current[row.id]))
        for mid in gone:
            before = self.seen.pop(mid)
            self.raw.pop(mid, None)
            found.append(
                self._revision(mid, now, RevisionKind.DELETE, before.content, None, before.status, None)
            )
        self.started = True
        return found

    def _last_look(self, memory_id: int) -> Look | None:
        """What the last look saw of a row (None: never seen)."""
        odd = self.raw.get(memory_id)
        if odd is not None:
            return odd
        shown = self.seen.get(memory_id)
        return None if shown is None else (shown.updated_at, shown.status, shown.content)

    def _compare(self, row: HostRow, look: Look) -> list[Revision]:
        before, last = self.seen.get(row.id), self._last_look(row.id)
        self.seen[row.id] = SeenRow(row.content, row.status, row.updated_at)
        if look != (row.updated_at, row.status, row.content):
            self.raw[row.id] = look
        else:
            self.raw.pop(row.id, None)
        if before is None or last is None:
            if looks_rewritten(row.promoted_at, row.updated_at):
                self.baseline_rewritten[row.id] = row.updated_at
            return []
        status = (before.status, row.status) if last[1] != look[1] else (None, None)
        if last[2] != look[2]:
            return [
                self._revision(
                    row.id, row.updated_at, RevisionKind.CONTENT, before.content, row.content, *status
                )
            ]
        if status[0] is not None:
            return [
                self._revision(row.id, row.updated_at, RevisionKind.STATUS, row.content, row.content, *status)
            ]
        return []

    def _revision(
        self,
        memory_id: int,
        at: int,
        kind: str,
        old: str | None,
        new: str | None,
        old_status: str | None,
        new_status: str | None,
    ) -> Revision:
        revision = Revision(
            id=-next(self._ids),
            memory_id=memory_id,
            changed_at=at,
            kind=kind,
            source=RevisionSource.OBSERVED,
            run_id=None,
            candidate_ids=(),
            previous_content=old,
            new_content=new,
            previous_status=old_status,
            new_status=new_status,
        )
        self.revisions.setdefault(memory_id, []).append(revision)
        return revision

    def facts(self, base: OwnFacts | None, memory_id: int) -> OwnFacts | None:
        """Merge what this process observed into the stored facts of one memory."""
        extra = self.revisions.get(memory_id, [])
        baseline = self.baseline_rewritten.get(memory_id)
        if not extra and baseline is None and memory_id not in self.seen:
            return base
        current = base or OwnFacts()
        changes = [r.changed_at for r in extra if r.kind == RevisionKind.CONTENT]
        last = max([*changes, current.last_content_change or 0]) or None
        return OwnFacts(
            expires_at=current.expires_at,
            own_sources=current.own_sources,
            revision_count=current.revision_count + len(extra),
            last_content_change=last,
            tracked=True if base is None or not base.tracked else base.tracked,
            baseline_rewritten_at=current.baseline_rewritten_at if current.tracked else baseline,
            first_seen_at=current.first_seen_at,
        )


def initial_seen(conn: Connection) -> dict[int, SeenRow]:
    """The stored baseline, for a read-only store whose own tables exist."""
    rows = conn.execute(select(seen.c.memory_id, seen.c.content, seen.c.status, seen.c.updated_at))
    return {int(r[0]): SeenRow(r[1], r[2], r[3]) for r in rows}
