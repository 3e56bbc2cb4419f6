"""Importing an export file's project memories (`ExportFile.project_memories`) into the host's `memories`
table, the way the host inserts one (storage-memory.ts, insertMemory), in the caller's write transaction.

Each memory of the file becomes a new row with the file's values and `normalized_hash` computed here
(`hashing`), never taken from the file; `classified_at` and the mural cue are left for the host to make
(the rejection count 0, as its insert leaves it). Where the file has no number (`seen_count`,
`retrieval_count`) or no word (`source_type`, `verification_status`), the column's default is written, as
the host's insert writes it: the host's reader drops a row holding NULL there. Only the columns this file
has are written (older hosts lack the later ones).

Left out and reported (`ProjectImportResult.skipped`), the others imported: a memory the file's checks
refused (`app.transfer.project_format`), one of a project the host's native module owns (`authority`,
saying which project and why), one whose project already has its text in its category (by the host's
`normalized_hash`: the table's UNIQUE would abort the insert) or that repeats another memory of the file,
and all of them when this database has no `memories` table. Ids are kept where this database has never
used them (no row, no mutation log entry, no embedding, no link names them, nor `merged_from`, where a
host merge leaves the ids of the sources it deleted, nor our own history and links) and the file's
format allows (`MAX_KEPT_ID`), else new ones are taken; on PostgreSQL the identity then moves past the
ids kept. The links are written last, remapped to the ids here: `superseded_by_memory_id` and the ids
of `merged_from` that name another memory of the file, of the same project, now here (imported, or
already here as a duplicate); a link to anything else would name an unrelated row here, and the host
links a memory neither to itself nor across projects, so it is left out and noted. So is, in the file's
order, the supersession that would close a loop (2 superseded by 3, 3 by 2): the host never makes one,
and its chain would never end.

The host writes no `memory_mutation_log` row for an insert (that log's CHECK knows only `archive`,
`delete`, `update` and `superseded`); it finds new rows above the highest id it rendered. A kept id may
lie below that, so each project given a memory has its `project_memory_epoch` bumped once: the host then
renders the project afresh.

Each memory brought in gets its history's first revision, a `create` of source `import` (the file's label
and its id there in `detail`, as a user memory's import says), recorded once its links are written, and its
seen copy made from the row it now is: the observer never takes it for a new memory or a rewritten one.
An id the project revision log names is used too: a kept id must not inherit a deleted memory's history.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, insert, inspect, select, update

from app.core.incoming_checks import quoted
from app.core.models import IMPORTED_FROM, RevisionKind, RevisionSource
from app.core.models.imports import Imported, ProjectImportResult, Skipped
from app.store.connect.server import is_server
from app.store.kinds import PROJECT_MEMORIES
from app.store.project import revisions, write_steps
from app.store.project.authority import managed_projects
from app.store.project.hashing import normalized_hash
from app.store.project.links import parse_merged_from
from app.store.project.reads import fetch_memories
from app.store.project.tables import memories, memory_embeddings, memory_mutation_log
from app.store.schema.tables import links as own_links
from app.store.schema.tables import project_revisions, project_seen
from app.store.write.importer import move_identity
from app.store.write.revision_log import WriteContext, inserted_id
from app.transfer.export_format import MAX_KEPT_ID
from app.transfer.imported_detail import IMPORTED_MEMORY
from app.transfer.project_format import ExportedProjectMemory

m = memories.c
NO_TABLE = "this database has no project memories (no `memories` table): nowhere to put it"
ALREADY_HERE = "its project already has this text in this category (the host's normalized_hash)"
DEFAULTS = {
    "seen_count": 1,
    "retrieval_count": 0,
    "source_type": "historian",
    "verification_status": "unverified",
}


def _tables(conn: Connection) -> set[str]:
    return set(inspect(conn).get_table_names())


class _Plan:
    """What comes in and what not, read before anything is written."""

    def __init__(self, conn: Connection, incoming: Sequence[ExportedProjectMemory]) -> None:
        self.result = ProjectImportResult()
        self.wanted: list[ExportedProjectMemory] = []
        self.here: dict[int, int] = {}  # a file id whose memory is already here: its id here
        self.tables = _tables(conn)
        if memories.name not in self.tables:
            self.result.skipped = [Skipped(memory.id, NO_TABLE) for memory in incoming]
            return
        owned = managed_projects(conn)
        rows = conn.execute(select(m.project_path, m.category, m.normalized_hash, m.id))
        known: dict[tuple[object, ...], int] = {tuple(row[:3]): row[3] for row in rows}
        in_file: dict[tuple[object, ...], int] = {}
        for memory in incoming:
            key = (memory.project_path, memory.category, normalized_hash(memory.content))
            reason = memory.problem
            path = memory.project_path
            if reason is None and path in owned:
                reason = f"project {quoted(path, 200)} is read-only here: {owned[path]}"
            if reason is not None:
                self.result.skipped.append(Skipped(memory.id, reason))
            elif key in known:
                self.result.skipped.append(Skipped(memory.id, ALREADY_HERE, known[key]))
                self.here[memory.id] = known[key]
            elif key in in_file:
                reason = f"same project, category and text as #{in_file[key]} of the file"
                self.result.skipped.append(Skipped(memory.id, reason))
            else:
                in_file[key] = memory.id
                self.wanted.append(memory)

    def used_ids(self, conn: Connection) -> set[int]:
        """Every id this database has used or names: a kept id must be none of them."""
        columns: list[Any] = [m.id, m.superseded_by_memory_id]
        if memory_mutation_log.name in self.tables:
            log = memory_mutation_log.c
            columns += [log.target_memory_id, log.superseded_by_id]
        if memory_embeddings.name in self.tables:
            columns.append(memory_embeddings.c.memory_id)
        # Our own tables: a kept id they name would inherit that memory's history and links.
        if project_revisions.name in self.tables:
            columns.append(project_revisions.c.memory_id)
        if project_seen.name in self.tables:
            columns.append(project_seen.c.memory_id)
        queries: list[Any] = [select(column).distinct() for column in columns]
        if own_links.name in self.tables:
            kind = own_links.c.memory_kind == PROJECT_MEMORIES.name
            queries += [select(own_links.c.from_id).where(kind), select(own_links.c.to_id).where(kind)]
        used: set[int] = set()
        for query in queries:
            used.update(value for value in conn.execute(query).scalars() if type(value) is int)
        # The host's merge deletes its sources and keeps only their ids here.
        for raw in conn.execute(select(m.merged_from).where(m.merged_from.is_not(None))).scalars():
            if isinstance(raw, str | bytes):
                used.update(parse_merged_from(raw).ids)
        return used


def plan(conn: Connection, incoming: Sequence[ExportedProjectMemory]) -> ProjectImportResult:
    """What an import would do (new ids are 0): for `--dry-run`."""
    planned = _Plan(conn, incoming)
    planned.result.imported = [Imported(memory.id, 0) for memory in planned.wanted]
    return planned.result


def _row(memory: ExportedProjectMemory, present: frozenset[str]) -> dict[str, object]:
    values: dict[str, object] = {
        "project_path": memory.project_path,
        "category": memory.category,
        "content": memory.content,
        "normalized_hash": normalized_hash(memory.content),
        "importance": memory.importance,
        "scope": memory.scope,
        "shareable": int(memory.shareable),
        "source_session_id": memory.source_session_id,
        "source_type": memory.source_type,
        "seen_count": memory.seen_count,
        "retrieval_count": memory.retrieval_count,
        "first_seen_at": memory.first_seen_at,
        "created_at": memory.created_at,
        "updated_at": memory.updated_at,
        "last_seen_at": memory.last_seen_at,
        "last_retrieved_at": memory.last_retrieved_at,
        "status": memory.status,
        "expires_at": memory.expires_at,
        "verification_status": memory.verification_status,
        "verified_at": memory.verified_at,
        "metadata_json": memory.metadata_json,
        "mural_cue_rejection_count": 0,
    }
    values.update({key: default for key, default in DEFAULTS.items() if values[key] is None})
    return {key: value for key, value in values.items() if key in present}


def _link_problem(memory: ExportedProjectMemory, target: int, projects: dict[int, str]) -> str | None:
    """Why the memory's link to file id `target` is left out, or None (see the module docstring)."""
    if target == memory.id:
        return "itself"
    if target not in projects:
        return "not here"
    if projects[target] != memory.project_path:
        return "of another project"  # the host links only within a project
    return None


def _loop(memory_id: int, target: int, successors: dict[int, int]) -> list[int] | None:
    """The loop a link from `memory_id` to `target` would close, along the links already written (file
    ids, first to first again), or None. A memory here before the import links to none of the new ones."""
    path = [memory_id, target]
    while path[-1] != memory_id:
        following = successors.get(path[-1])
        if following is None:
            return None
        path.append(following)
    return path


def _links(
    conn: Connection,
    memory: ExportedProjectMemory,
    ids: dict[int, int],
    projects: dict[int, str],
    result: ProjectImportResult,
    successors: dict[int, int],
) -> None:
    """The memory's links, written with the ids here (see the module docstring); `successors` holds the
    supersessions written so far (file ids), so that none closes a loop."""
    values: dict[str, object] = {}
    target = memory.superseded_by
    why = None if target is None else _link_problem(memory, target, projects)
    loop = None if target is None or why is not None else _loop(memory.id, target, successors)
    if target is not None and why is None and loop is None:
        values["superseded_by_memory_id"] = ids[target]
        successors[memory.id] = target
    elif loop is not None:
        shown = " → ".join(f"#{i}" for i in loop)
        result.notes.append(
            (memory.id, f"superseded_by_memory_id #{target} left out: it would close a loop ({shown})")
        )
    elif target is not None:
        what = "that memory is not here" if why == "not here" else f"that memory is {why}"
        result.notes.append((memory.id, f"superseded_by_memory_id #{target} left out: {what}"))
    if memory.merged_from is not None:
        problems = {i: _link_problem(memory, i, projects) for i in memory.merged_from}
        kept = [ids[i] for i in memory.merged_from if problems[i] is None]
        if kept:
            values["merged_from"] = json.dumps(kept)
        for reason in dict.fromkeys(why for why in problems.values() if why is not None):
            gone = ", ".join(f"#{i}" for i in memory.merged_from if problems[i] == reason)
            result.notes.append((memory.id, f"merged_from left out {gone}: {reason}"))
    if values:
        conn.execute(update(memories).where(m.id == ids[memory.id]).values(values))


def _record_created(ctx: WriteContext, imported: Sequence[Imported], label: str, exported_at: int) -> None:
    """Each imported memory's `create` revision of source `import`, and its seen copy (see the module
    docstring)."""
    rows = fetch_memories(ctx.conn, [item.memory_id for item in imported])
    for item in imported:
        detail = {IMPORTED_FROM: label, IMPORTED_MEMORY: item.from_id, "exported_at": exported_at}
        revisions.record(
            ctx, RevisionKind.CREATE, RevisionSource.IMPORT, None, rows[item.memory_id], detail=detail
        )
        revisions.mark_seen(ctx, item.memory_id)


def import_project_memories(
    ctx: WriteContext, incoming: Sequence[ExportedProjectMemory], label: str, exported_at: int
) -> ProjectImportResult:
    """Write the file's project memories (see the module docstring); returns what came in and what not.
    `label` names the file and `exported_at` is when it was made, for each one's `create` revision."""
    conn, now = ctx.conn, ctx.now
    planned = _Plan(conn, incoming)
    result = planned.result
    for memory in planned.wanted:
        result.notes += [(memory.id, note) for note in memory.notes]
    if not planned.wanted:
        return result
    present = write_steps.present_columns(conn)
    used = planned.used_ids(conn)
    keeps = [1 <= memory.id <= MAX_KEPT_ID and memory.id not in used for memory in planned.wanted]
    ids = dict(planned.here)
    # Kept ids first, the identity moved past them, then the new ones: a new id taken first could be
    # one a later memory of the file was to keep.
    for memory, keep in zip(planned.wanted, keeps, strict=True):
        if keep:
            conn.execute(insert(memories).values(id=memory.id, **_row(memory, present)))
            ids[memory.id] = memory.id
    kept = [memory.id for memory, keep in zip(planned.wanted, keeps, strict=True) if keep]
    if kept and is_server(conn):
        move_identity(conn, max(kept), memories.name)
    for memory, keep in zip(planned.wanted, keeps, strict=True):
        if not keep:
            ids[memory.id] = inserted_id(conn.execute(insert(memories).values(**_row(memory, present))))
    # The project of each file id now here (imported, or already here with the same project).
    file_projects = {memory.id: memory.project_path for memory in incoming if memory.id in ids}
    projects: dict[str, int] = {}
    successors: dict[int, int] = {}
    for memory in planned.wanted:
        _links(conn, memory, ids, file_projects, result, successors)
        result.imported.append(Imported(memory.id, ids[memory.id]))
        projects.setdefault(memory.project_path, ids[memory.id])
    for memory_id in projects.values():
        write_steps.bump_epoch(conn, memory_id, now)
    _record_created(ctx, result.imported, label, exported_at)
    return result
