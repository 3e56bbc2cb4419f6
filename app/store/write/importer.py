"""Importing an export file into the open store (`MemoryStore.import_export`), in the caller's transaction.

Each memory of the file whose content no memory here has (nor one imported before it) becomes a new host
row with the file's timestamps, status, candidate ids and provenance, each provenance entry's origin now
`import` (the entry's old origin kept beside it as `imported_origin`, a key the host ignores). It keeps its
id where this database has never used it and the file's format allows it (`ExportedMemory.id_keepable`),
else takes a new one; on PostgreSQL the identity is then moved past the ids kept, in the same transaction,
so that the next insert, ours or the host's, does not collide with them. Its revisions are copied as
revisions of source `import` (their old source, id and memory id kept in `detail`), and one more, a
`create` of source `import` at the import's instant, says where it came from. Expiry and the dashboard's
own sources come too.

An imported revision belongs to no run here: a run id names a run of the database the file came from, and
a local run of the same name would otherwise take it for its own (its undo would write the file's earlier
content back). The run id is kept in `detail` as `imported_run_id`, beside the file's database, never in
the `run_id` column. Its `detail` keeps only what the history shows (`app.transfer.imported_detail`: a key
the app acts on, such as a delete's `row` or `undo_of_run`, is kept as `imported_…`), a `restored_from`
names the copy here of the revision it named in the file, and it is never later than the import's own
revision (a later time is kept in `detail` as `imported_changed_at`): the file's history cannot be the
newest of anything, a delete a trash restore would bring back from.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, insert, select, text

from app.core.models import IMPORTED_FROM, IMPORTED_SOURCE, RevisionKind, RevisionSource
from app.core.models.imports import Imported, ImportResult, Skipped
from app.core.provenance import serialize_candidate_ids
from app.store.connect.server import is_server
from app.store.schema.tables import expiry, revisions, seen, user_memories
from app.store.write.revision_log import WriteContext, add_own_source, add_revision, insert_seen, inserted_id
from app.transfer.export_format import ExportedMemory, ExportFile, is_own_source
from app.transfer.imported_detail import (
    IMPORTED_CHANGED_AT,
    IMPORTED_DATABASE,
    IMPORTED_MEMORY,
    IMPORTED_REVISION,
    IMPORTED_RUN,
    RESTORED_FROM,
)

ORIGIN_IMPORT = "import"
# setval to the highest id kept, or where the identity already is if that is higher (never back): the
# next id it hands out is past both.
_MOVE_IDENTITY = text(
    "SELECT setval(seq, GREATEST(:top, COALESCE(pg_sequence_last_value(seq), 0)))"
    " FROM (SELECT pg_get_serial_sequence(:table, 'id')::regclass AS seq) AS found"
    " WHERE seq IS NOT NULL"
)


def _provenance_json(memory: ExportedMemory) -> str | None:
    if memory.provenance is None:
        return None
    entries = []
    for entry in memory.provenance:
        moved = {**entry, "origin": ORIGIN_IMPORT}
        moved["imported_origin"] = entry.get("origin", "promotion")
        entries.append(moved)
    return json.dumps(entries, separators=(",", ":"), ensure_ascii=False)


def _history(memory_id: int, memory: ExportedMemory, export: ExportFile, now: int) -> list[dict[str, Any]]:
    rows = []
    for revision in memory.revisions:
        detail = dict(revision.detail)
        detail[IMPORTED_SOURCE] = revision.source
        detail[IMPORTED_REVISION] = revision.id
        detail[IMPORTED_MEMORY] = memory.id
        if revision.run_id is not None:
            detail[IMPORTED_RUN] = revision.run_id
            detail[IMPORTED_DATABASE] = export.database
        if revision.changed_at > now:
            detail[IMPORTED_CHANGED_AT] = revision.changed_at
        rows.append(
            {
                "memory_id": memory_id,
                "changed_at": min(revision.changed_at, now),
                "kind": revision.kind,
                "source": RevisionSource.IMPORT,
                "run_id": None,  # a run of the file's database, not of this one (see the module docstring)
                "candidate_ids": serialize_candidate_ids(revision.candidate_ids),
                "previous_content": revision.previous_content,
                "new_content": revision.new_content,
                "previous_status": revision.previous_status,
                "new_status": revision.new_status,
                "detail": detail,
            }
        )
    return rows


def _detail_json(detail: dict[str, Any]) -> str:
    return json.dumps(detail, sort_keys=True, ensure_ascii=False)


def _insert_history(ctx: WriteContext, rows: list[dict[str, Any]]) -> None:
    """The copied revisions, in one statement; one at a time where a `restored_from` is to name the copy
    here of the revision it named in the file (copied before it: a restore brings back an earlier state)."""
    if not any(RESTORED_FROM in row["detail"] for row in rows):
        ctx.conn.execute(insert(revisions), [{**row, "detail": _detail_json(row["detail"])} for row in rows])
        return
    copies: dict[object, int] = {}
    for row in rows:
        detail = dict(row["detail"])
        copy = copies.get(detail.pop(RESTORED_FROM, None))
        if copy is not None:
            detail[RESTORED_FROM] = copy
        found = ctx.conn.execute(insert(revisions).values(**{**row, "detail": _detail_json(detail)}))
        copies[detail[IMPORTED_REVISION]] = inserted_id(found)


class _Plan:
    """Which memories of the file are new here, and under which ids (read before anything is written)."""

    def __init__(self, ctx_conn: Any, export: ExportFile) -> None:
        rows = ctx_conn.execute(select(user_memories.c.content, user_memories.c.id))
        self.contents: dict[object, int] = {content: int(mid) for content, mid in rows}
        self.used: set[int] = set(self.contents.values())
        self.used.update(int(i) for i in ctx_conn.execute(select(revisions.c.memory_id).distinct()).scalars())
        # A memory the host deleted since the last look keeps its copy here until then: not its id either.
        self.used.update(int(i) for i in ctx_conn.execute(select(seen.c.memory_id)).scalars())
        self.export = export

    def sort(self) -> tuple[list[ExportedMemory], list[Skipped]]:
        wanted: list[ExportedMemory] = []
        skipped: list[Skipped] = []
        imported_contents: dict[str, int] = {}
        for memory in self.export.memories:
            if memory.problem is not None:
                skipped.append(Skipped(memory.id, memory.problem))
            elif memory.content in self.contents:
                skipped.append(
                    Skipped(memory.id, "its content is already here", self.contents[memory.content])
                )
            elif memory.content in imported_contents:
                skipped.append(
                    Skipped(memory.id, f"same content as #{imported_contents[memory.content]} of the file")
                )
            else:
                imported_contents[memory.content] = memory.id
                wanted.append(memory)
        return wanted, skipped

    def keeps_id(self, memory: ExportedMemory) -> bool:
        if not memory.id_keepable or memory.id in self.used:
            return False
        self.used.add(memory.id)
        return True


def plan(conn: Any, export: ExportFile) -> ImportResult:
    """What an import would do (ids not known yet are 0): for `--dry-run`."""
    wanted, skipped = _Plan(conn, export).sort()
    return ImportResult([Imported(m.id, 0) for m in wanted], skipped, dry_run=True)


def import_memories(ctx: WriteContext, export: ExportFile, label: str) -> ImportResult:
    """Write the new memories of `export` (see the module docstring); returns what came in and what not."""
    planned = _Plan(ctx.conn, export)
    wanted, skipped = planned.sort()
    keeps = [planned.keeps_id(memory) for memory in wanted]
    # The memories that keep their ids go in first, and the identity moves past them before a new id is
    # handed out: a new id taken first could be one a later memory of the file was to keep.
    ids = {n: _insert(ctx, memory, memory.id) for n, memory in enumerate(wanted) if keeps[n]}
    if ids and is_server(ctx.conn):
        move_identity(ctx.conn, max(ids.values()))
    ids.update({n: _insert(ctx, memory, None) for n, memory in enumerate(wanted) if not keeps[n]})
    result = ImportResult(skipped=skipped)
    for number, memory in enumerate(wanted):
        _attach(ctx, ids[number], memory, export, label)
        result.imported.append(Imported(memory.id, ids[number]))
    if result.imported:
        ctx.profile_changed = True
    return result


def _insert(ctx: WriteContext, memory: ExportedMemory, memory_id: int | None) -> int:
    """The host row of an imported memory, under `memory_id` (None: the next id the database gives)."""
    values: dict[str, Any] = {
        "content": memory.content,
        "status": memory.status,
        "promoted_at": memory.promoted_at,
        "created_at": memory.created_at,
        "updated_at": memory.updated_at,
        "source_candidate_ids": serialize_candidate_ids(memory.source_candidate_ids),
        "source_candidate_provenance": _provenance_json(memory),
    }
    if memory_id is not None:
        values["id"] = memory_id
    return inserted_id(ctx.conn.execute(insert(user_memories).values(**values)))


def move_identity(conn: Connection, top: int, table: str = user_memories.name) -> None:
    """PostgreSQL's identity does not move for an insert that gives its id (SQLite's AUTOINCREMENT does):
    `table`'s moved past `top` here, or the next inserts would take the imported ids again and fail. (A
    sequence is not rolled back: an import that fails after this leaves a gap in the ids, nothing else.)"""
    conn.execute(_MOVE_IDENTITY, {"top": top, "table": table})


def _attach(
    ctx: WriteContext, memory_id: int, memory: ExportedMemory, export: ExportFile, label: str
) -> None:
    """The imported memory's history, baseline, expiry and own sources."""
    history = _history(memory_id, memory, export, ctx.now)
    if history:
        _insert_history(ctx, history)
    rewritten = memory.content_changed_at is not None
    has_content_revision = any(r.kind == RevisionKind.CONTENT for r in memory.revisions)
    baseline = memory.content_changed_at if rewritten and not has_content_revision else None
    insert_seen(ctx, [{"b_id": memory_id, "b_now": ctx.now, "b_baseline": baseline}])
    add_revision(
        ctx,
        memory_id,
        RevisionKind.CREATE,
        RevisionSource.IMPORT,
        new_content=memory.content,
        new_status=memory.status,
        detail={IMPORTED_FROM: label, IMPORTED_MEMORY: memory.id, "exported_at": export.exported_at},
    )
    if memory.expires_at is not None:
        ctx.conn.execute(
            insert(expiry).values(memory_id=memory_id, expires_at=memory.expires_at, set_at=ctx.now)
        )
    for source in filter(is_own_source, memory.sources):
        add_own_source(ctx, memory_id, source)
