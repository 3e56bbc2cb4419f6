"""The trash: memories no longer in the host's table, shown from their last delete revision.

A memory the dashboard deleted keeps its whole row in the delete revision (`removal.delete_memory`); one
observed deleted (the host or another process removed it) keeps only its last content and status. Either
comes back as a `HostRow` with status `deleted`, so the listing, the cards and the CLI show it like any
memory; `deleted_snapshot` is also the row a restore puts back, once `restorable_row` has checked it as
an edit's or an import's values are (`app.core.incoming_checks.host_row_problems`): a delete revision is
in the dashboard's own table, which more than the dashboard can write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, func, select

from app.core.errors import InvalidInputError
from app.core.incoming_checks import host_row_problems
from app.core.models import MemoryStatus, Revision, RevisionKind
from app.store.read.reads import chunks, revision_from_row
from app.store.read.rows import HOST_COLUMNS, HostRow, host_row
from app.store.schema.tables import revisions

r = revisions.c
ROW_COLUMNS = HOST_COLUMNS[1:]  # the host's columns a restore writes (the id aside): what a delete keeps
SHOWN_PROBLEMS = 3


def deleted_snapshot(revision: Revision, first_at: int | None) -> dict[str, Any]:
    """The host row a delete revision describes: the one the dashboard kept, else (observed) its last
    content and status, promoted when it was first recorded, provenance unknown."""
    kept = revision.detail.get("row")
    if isinstance(kept, Mapping):
        return dict(kept)
    at = revision.changed_at if first_at is None else first_at
    return {
        "content": revision.previous_content or "",
        "status": revision.previous_status or MemoryStatus.ACTIVE,
        "promoted_at": at,
        "created_at": at,
        "updated_at": revision.changed_at,
        "source_candidate_ids": "[]",
        "source_candidate_provenance": None,
    }


def restorable_row(revision: Revision, first_at: int | None) -> dict[str, Any]:
    """The host's columns a restore from `revision` writes back (`deleted_snapshot`), every value checked;
    InvalidInputError naming what is wrong (nothing is written then)."""
    snapshot = deleted_snapshot(revision, first_at)
    row = {column: snapshot.get(column) for column in ROW_COLUMNS}
    problems = host_row_problems(row)
    if not problems:
        return row
    said = "; ".join(f"{item.where} {item.what}" for item in problems[:SHOWN_PROBLEMS])
    more = f"; and {len(problems) - SHOWN_PROBLEMS} more" if len(problems) > SHOWN_PROBLEMS else ""
    raise InvalidInputError(
        f"revision #{revision.id} of memory #{revision.memory_id} does not hold a row the host can take "
        f"back ({said}{more}); nothing was changed"
    )


def first_recorded(conn: Connection, memory_id: int) -> int | None:
    found = conn.execute(select(func.min(r.changed_at)).where(r.memory_id == memory_id)).scalar()
    return int(found) if isinstance(found, int) else None


def last_deletes(conn: Connection, ids: Sequence[int]) -> dict[int, Revision]:
    """Each id's latest delete revision (ids never deleted are left out)."""
    found: dict[int, Revision] = {}
    for part in chunks(ids):
        query = (
            select(revisions)
            .where(r.memory_id.in_(part), r.kind == RevisionKind.DELETE)
            .order_by(r.changed_at, r.id)
        )
        for row in conn.execute(query):
            found[int(row[1])] = revision_from_row(row)
    return found


def fetch_deleted_rows(conn: Connection, ids: Sequence[int]) -> list[HostRow]:
    """Rows for the deleted memories among `ids` (status `deleted`), in no particular order."""
    rows = []
    for memory_id, revision in last_deletes(conn, ids).items():
        snap = deleted_snapshot(revision, first_recorded(conn, memory_id))
        values = (
            memory_id,
            snap.get("content"),
            MemoryStatus.DELETED.value,
            snap.get("promoted_at"),
            snap.get("source_candidate_ids"),
            snap.get("source_candidate_provenance"),
            snap.get("created_at"),
            snap.get("updated_at"),
        )
        rows.append(host_row(values))
    return rows
