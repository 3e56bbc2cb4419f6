"""The revision log of project memories (`mdash_project_revisions`) and what the store last saw of each
(`mdash_project_seen`): written by our own writes (a command's do and undo, a merge, an import) and by
the observer of outside rewrites, read by the history, blame and as-of of project memories.

A revision is the same `Revision` as a user memory's (its texts, its statuses, its source and run),
plus the row's other fields before and after (`TRACKED`, as JSON in `previous_row` / `new_row`):
an as-of of a project needs them, since category, status, expiry and `updated_at` decide what the host
injected and in what order. Reading a revision goes through `revision_from_row`, as for user memories,
so a cell an older version stored oddly reads the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, delete, insert, select, update

from app.core.models import Revision
from app.core.text_input import tolerant_json_loads
from app.store.project.model import ProjectMemory
from app.store.project.tables import memories
from app.store.read.reads import chunks, revision_from_row
from app.store.schema.tables import project_revisions, project_seen
from app.store.write.revision_log import WriteContext, inserted_id

r = project_revisions.c
m = memories.c

# The fields of a project memory besides its text and status that its history keeps, before and after.
TRACKED = (
    "category",
    "importance",
    "scope",
    "shareable",
    "updated_at",
    "expires_at",
    "verification_status",
    "superseded_by",
    "merged_from",
    "metadata_json",
)

# The host's cells the seen copy keeps (compared `IS NOT` with the row, so any change is noticed).
SEEN_CELLS = (
    "project_path",
    "category",
    "content",
    "status",
    "updated_at",
    "expires_at",
    "superseded_by_memory_id",
    "merged_from",
)


def snapshot(memory: ProjectMemory) -> dict[str, Any]:
    """The `TRACKED` fields of `memory`, as `previous_row` / `new_row` hold them."""
    return {name: getattr(memory, name) for name in TRACKED}


def _row_json(memory: ProjectMemory | None) -> str | None:
    return None if memory is None else json.dumps(snapshot(memory), sort_keys=True)


def record(
    ctx: WriteContext,
    kind: str,
    source: str,
    before: ProjectMemory | None,
    after: ProjectMemory | None,
    *,
    run_id: str | None = None,
    detail: Mapping[str, Any] | None = None,
    changed_at: int | None = None,
) -> int:
    """One revision of a project memory (`before` None: it was created; `after` None: it is gone);
    its id. The caller records what the row now is with `mark_seen` when it wrote the row itself."""
    known = after if after is not None else before
    assert known is not None, "a revision needs the memory before or after"
    values = {
        "memory_id": known.id,
        "project_path": known.project_path,
        "changed_at": ctx.now if changed_at is None else changed_at,
        "kind": kind,
        "source": source,
        "run_id": run_id,
        "previous_content": None if before is None else before.content,
        "new_content": None if after is None else after.content,
        "previous_status": None if before is None else before.status,
        "new_status": None if after is None else after.status,
        "detail": json.dumps(dict(detail), sort_keys=True) if detail else None,
        "previous_row": _row_json(before),
        "new_row": _row_json(after),
    }
    revision_id = inserted_id(ctx.conn.execute(insert(project_revisions).values(**values)))
    ctx.revision_ids.append(revision_id)
    return revision_id


_SEEN_FROM_HOST = {
    name: select(m[name]).where(m.id == bindparam("b_id")).scalar_subquery() for name in SEEN_CELLS
}
_UPDATE_SEEN = (
    update(project_seen).where(project_seen.c.memory_id == bindparam("b_id")).values(**_SEEN_FROM_HOST)
)
_INSERT_SEEN = insert(project_seen).from_select(
    ["memory_id", *SEEN_CELLS, "first_seen_at", "baseline_rewritten_at"],
    select(m.id, *(m[name] for name in SEEN_CELLS), bindparam("b_now"), bindparam("b_baseline")).where(
        m.id == bindparam("b_id")
    ),
)


def mark_seen(ctx: WriteContext, memory_id: int, *, baseline_rewritten_at: int | None = None) -> None:
    """After our write to a `memories` row (or on first sight): what the row now is, copied from it, so our
    own write is never mistaken for an outside rewrite."""
    done = ctx.conn.execute(_UPDATE_SEEN, {"b_id": memory_id})
    if done.rowcount == 0:
        ctx.conn.execute(
            _INSERT_SEEN, {"b_id": memory_id, "b_now": ctx.now, "b_baseline": baseline_rewritten_at}
        )


def forget_seen(ctx: WriteContext, memory_ids: Iterable[int]) -> None:
    """After our delete of `memories` rows (recorded as a revision): their seen copies go, so the delete
    is never also observed as an outside one."""
    wanted = list(dict.fromkeys(memory_ids))
    for part in chunks(wanted):
        ctx.conn.execute(delete(project_seen).where(project_seen.c.memory_id.in_(part)))


# The columns `revision_from_row` reads, in its order (the history, the runs).
REVISION_COLUMNS = (
    r.id,
    r.memory_id,
    r.changed_at,
    r.kind,
    r.source,
    r.run_id,
    r.candidate_ids,
    r.previous_content,
    r.new_content,
    r.previous_status,
    r.new_status,
    r.detail,
)
_HISTORY = select(*REVISION_COLUMNS).where(r.memory_id == bindparam("b_memory")).order_by(r.changed_at, r.id)


def fetch_history(conn: Connection, memory_id: int) -> list[Revision]:
    """A project memory's revisions, oldest first (changed_at, then id)."""
    return [revision_from_row(row) for row in conn.execute(_HISTORY, {"b_memory": memory_id})]


RowPair = tuple[dict[str, Any] | None, dict[str, Any] | None]  # a revision's rows before and after


def _row(cell: object) -> dict[str, Any] | None:
    parsed = tolerant_json_loads(cell) if isinstance(cell, str) else None
    return parsed if isinstance(parsed, dict) else None


def rows_of(conn: Connection, revision_id: int) -> RowPair:
    """A revision's `previous_row` and `new_row`, parsed (None where absent or not a JSON object)."""
    found = conn.execute(select(r.previous_row, r.new_row).where(r.id == revision_id)).first()
    if found is None:
        return None, None
    return _row(found[0]), _row(found[1])


_ROWS = select(r.id, r.previous_row, r.new_row).where(r.memory_id == bindparam("b_memory"))


def rows_of_memory(conn: Connection, memory_id: int) -> dict[int, RowPair]:
    """Every revision of a project memory: its rows before and after, parsed as `rows_of` does, by id."""
    found = conn.execute(_ROWS, {"b_memory": memory_id})
    return {int(revision_id): (_row(before), _row(after)) for revision_id, before, after in found}
