"""Observed rewrites of project memories: the host's historian, dreamer and dashboard change its `memories`
rows in place, so each look compares them with what the store last saw (`mdash_project_seen`).

As for user memories (`observe`): the database compares every host row with its seen copy, cell by cell
on every `SEEN_CELLS` cell (`IS DISTINCT FROM`, byte for byte on SQLite: a rewrite within the millisecond
of the last one leaves `updated_at` as it was, so the content decides too), in one scan; only the rows
that moved are read into Python, and the write transaction is taken only when something was found.

- A memory seen for the first time is a baseline, never a fabricated creation: its seen copy with
  `first_seen_at` (and `baseline_rewritten_at` = its `updated_at` where the host had already rewritten it,
  `updated_at > created_at`). The baselines of every new row are one `INSERT ... SELECT`, so the first
  look at a table of 100,000 memories reads none of them into Python.
- A memory that moved is one `observed` revision in the project log (`revisions.record`), whose kind
  names the most telling change: `content` (its statuses too, where the status moved with it), else
  `superseded` (`superseded_by_memory_id`), `merged` (`merged_from`), `status`, `category`, `expiry`
  (`expires_at`), `project` (`project_path`). Its `previous_row` / `new_row` hold every tracked field, so
  a look that found several moves at once keeps them all; `detail.changed` names the cells that moved.
  A row whose `updated_at` alone moved (the host touched a field the seen copy does not keep) gets no
  revision: its seen copy follows it. `changed_at` is the row's `updated_at` where the host moved it;
  where it did not (a rewrite within the millisecond of its last write), the look's instant: the row's
  old time would date the change before the look that still saw the old text, and an as-of would then
  show the new text at instants it was not there yet.
- A memory gone from the table is a `delete` revision at the look's instant; its detail keeps when the
  store first saw it (`first_seen_at`), as its seen copy goes with it. The row before the delete is
  what the seen copy kept; fields the seen copy does not keep read as the empty row's.

A read-only store records nothing here: its project history is what the revision table already holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    Select,
    bindparam,
    case,
    delete,
    exists,
    insert,
    inspect,
    literal,
    not_,
    or_,
    select,
)

from app.core.models import RevisionKind, RevisionSource
from app.store.past.as_of import FIRST_SEEN_KEY
from app.store.project import revisions as project_log
from app.store.project.model import PROJECT_COLUMNS, ProjectMemory, project_memory
from app.store.project.reads import select_memories
from app.store.project.tables import memories
from app.store.read.reads import chunks
from app.store.schema.tables import project_seen
from app.store.write.revision_log import WriteContext

m = memories.c
s = project_seen.c
SEEN_CELLS = project_log.SEEN_CELLS

# What a move is called, most telling first: the first cell in this order that moved names the revision.
CELL_KINDS = (
    ("content", RevisionKind.CONTENT.value),
    ("superseded_by_memory_id", "superseded"),
    ("merged_from", "merged"),
    ("status", RevisionKind.STATUS.value),
    ("category", "category"),
    ("expires_at", RevisionKind.EXPIRY.value),
    ("project_path", "project"),
)


@dataclass(frozen=True, slots=True)
class ProjectChanges:
    """What a look found: rows new to us (their baselines), rows that moved, rows gone."""

    new: bool
    moved: tuple[int, ...]
    gone: tuple[int, ...]

    def __bool__(self) -> bool:
        return bool(self.new or self.moved or self.gone)


NOTHING = ProjectChanges(False, (), ())


# One scan of `memories` beside its seen copy: rows without one (new) and rows that moved, told apart.
_LOOK = (
    select(m.id, s.memory_id.is_(None))
    .select_from(memories.outerjoin(project_seen, s.memory_id == m.id))
    .where(or_(s.memory_id.is_(None), *(s[name].is_distinct_from(m[name]) for name in SEEN_CELLS)))
)
_GONE = select(s.memory_id).where(not_(exists().where(m.id == s.memory_id)))


def find_project_changes(conn: Connection) -> ProjectChanges:
    """The cheap check: one scan of `memories` against the seen copy, and one of the seen copy (nothing
    where the file has no `memories` table: an older host, the embedded store)."""
    if not inspect(conn).has_table(memories.name):
        return NOTHING
    new = False
    moved: list[int] = []
    for memory_id, unseen in conn.execute(_LOOK):
        if unseen:
            new = True
        else:
            moved.append(int(memory_id))
    return ProjectChanges(new, tuple(moved), tuple(int(row[0]) for row in conn.execute(_GONE)))


def _baselines(now: int) -> Any:
    """Every row without a seen copy gets one, in one statement (a first look at 100,000 rows too)."""
    rewritten = case((m.updated_at > m.created_at, m.updated_at), else_=None)
    source = select(m.id, *(m[name] for name in SEEN_CELLS), literal(now, BigInteger), rewritten).where(
        ~exists().where(s.memory_id == m.id)
    )
    columns = ["memory_id", *SEEN_CELLS, "first_seen_at", "baseline_rewritten_at"]
    return insert(project_seen).from_select(columns, source)


def _seen_against_host(ids: Sequence[int]) -> Select[Any]:
    """The seen cells of `ids` beside the database's verdict on each (moved or not)."""
    verdicts = [s[name].is_distinct_from(m[name]) for name, _ in CELL_KINDS]
    verdicts.append(s.updated_at.is_distinct_from(m.updated_at))
    return (
        select(s.memory_id, *(s[name] for name in SEEN_CELLS), *verdicts)
        .select_from(project_seen.join(memories, m.id == s.memory_id))
        .where(s.memory_id.in_(ids))
    )


def _as_memory(cells: dict[str, Any], base: Sequence[Any] | None) -> ProjectMemory:
    """A memory as its seen copy kept it: the host row's other cells (`base`), or the empty row's."""
    raw = list(base) if base is not None else [None] * len(PROJECT_COLUMNS)
    if base is None:
        raw[PROJECT_COLUMNS.index("shareable")] = 0
    for name, value in cells.items():
        raw[PROJECT_COLUMNS.index(name)] = value
    return project_memory(raw)


def _raw_rows(conn: Connection, ids: Sequence[int]) -> dict[int, Sequence[Any]]:
    """The host rows of `ids`, as the driver returns them (the seen cells go in before they are read)."""
    found: dict[int, Sequence[Any]] = {}
    for part in chunks(ids):
        for row in conn.execute(select_memories().where(m.id.in_(part))):
            found[int(row[0])] = tuple(row)
    return found


def _record_moved(ctx: WriteContext, ids: Sequence[int]) -> None:
    raw = _raw_rows(ctx.conn, ids)
    for part in chunks(ids):
        for row in ctx.conn.execute(_seen_against_host(part)):
            memory_id = int(row[0])
            cells = dict(zip(SEEN_CELLS, row[1 : 1 + len(SEEN_CELLS)], strict=True))
            *flags, dated = row[1 + len(SEEN_CELLS) :]
            moved = [name for (name, _), flag in zip(CELL_KINDS, flags, strict=True) if flag]
            if moved:
                kind = next(kind for name, kind in CELL_KINDS if name in moved)
                before = _as_memory(cells, raw[memory_id])
                now_row = project_memory(raw[memory_id])
                project_log.record(
                    ctx,
                    kind,
                    RevisionSource.OBSERVED,
                    before,
                    now_row,
                    detail={"changed": moved},
                    # The row's time when the host moved it; else (a rewrite within the millisecond of
                    # its last write) the look's, as nothing tells when it happened since the last look.
                    changed_at=now_row.updated_at if dated else ctx.now,
                )
            project_log.mark_seen(ctx, memory_id)


_FIRST_SEEN = select(s.first_seen_at).where(s.memory_id == bindparam("b_id"))
_STILL_GONE = select(s.memory_id, *(s[name] for name in SEEN_CELLS)).where(
    not_(exists().where(m.id == s.memory_id))
)


def _record_gone(ctx: WriteContext, ids: Sequence[int]) -> None:
    for part in chunks(ids):
        for row in ctx.conn.execute(_STILL_GONE.where(s.memory_id.in_(part))):
            memory_id = int(row[0])
            cells = dict(zip(SEEN_CELLS, row[1:], strict=True))
            before = _as_memory({"id": memory_id, **cells}, None)
            first_seen = ctx.conn.execute(_FIRST_SEEN, {"b_id": memory_id}).scalar()
            project_log.record(
                ctx,
                RevisionKind.DELETE,
                RevisionSource.OBSERVED,
                before,
                None,
                detail={FIRST_SEEN_KEY: first_seen},
            )
            ctx.conn.execute(delete(project_seen).where(s.memory_id == memory_id))


def record_project_changes(ctx: WriteContext, found: ProjectChanges) -> None:
    """Inside a write transaction: the baselines, the observed revisions and the deletes `found` (by a read
    just before) names, each checked again here (the host may have moved on; newer moves wait for the
    next look)."""
    if found.new:
        ctx.conn.execute(_baselines(ctx.now))
    if found.moved:
        _record_moved(ctx, found.moved)
    if found.gone:
        _record_gone(ctx, found.gone)
