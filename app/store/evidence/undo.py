"""Undo a review run: every memory it changed goes back to its state before the run, in one write.

One restore revision per memory (its detail names the run: `undo_of_run`), inside the caller's write
transaction, so the profile version moves once. A memory changed again since the run (by anyone: a person,
another run, the host) is not touched: it is listed with that later change, for the person to decide. A
memory the run created is deleted (its delete revision keeps the row, so a restore brings it back). A
memory the run rewrote stops citing the candidates the run added to it (ids and provenance entries).
Candidates the run consumed stay consumed: the host's pool is not refilled; the archive keeps their words.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import select, update

from app.core.errors import InvalidInputError
from app.core.models import UNDO_KEY as UNDO_KEY  # re-exported: the importer names it here
from app.core.models import Revision, RevisionKind, RevisionSource
from app.core.models.runs import Run, RunChange, UndoResult
from app.core.provenance import without_candidates
from app.store.observe.batch import catch_up
from app.store.read.reads import fetch_revision, fetch_row, revision_from_row
from app.store.schema.tables import revisions
from app.store.write import removal, writes
from app.store.write.revision_log import WriteContext, add_revision, mark_seen

DROPPED_KEY = "dropped_candidate_ids"  # a restore revision's: the run's candidates its memory no longer cites
r = revisions.c


def _later_change(ctx: WriteContext, memory_id: int, last: Revision, run_ids: set[int]) -> Revision | None:
    """The first revision of the memory after the run's last one that the run did not make."""
    query = (
        select(revisions)
        .where(r.memory_id == memory_id)
        .where((r.changed_at > last.changed_at) | ((r.changed_at == last.changed_at) & (r.id > last.id)))
        .order_by(r.changed_at, r.id)
    )
    for row in ctx.conn.execute(query):
        if row.id not in run_ids:
            return revision_from_row(row)
    return None


def _note(ctx: WriteContext, revision_id: int, run_id: str) -> None:
    """Add the run id to a revision a shared writer just made (the delete's snapshot stays as it is)."""
    revision = fetch_revision(ctx.conn, revision_id)
    detail = dict(revision.detail) if revision is not None else {}
    detail[UNDO_KEY] = run_id
    ctx.conn.execute(
        update(revisions).where(r.id == revision_id).values(detail=json.dumps(detail, sort_keys=True))
    )


def _before(made: Sequence[Revision], content: str, status: str) -> tuple[str, str]:
    """A memory's content and status before the run's changes `made` (oldest first); `content` and
    `status` (the row's now) for what the run did not change."""
    for revision in made:
        if revision.kind == RevisionKind.CONTENT and revision.previous_content is not None:
            content = revision.previous_content
            break
    for revision in made:
        if revision.previous_status is not None:
            status = revision.previous_status
            break
    return content, status


def _added(made: Sequence[Revision]) -> list[int]:
    """The candidates the run's rewrites added to the memory's sources."""
    return [i for revision in made if revision.kind == RevisionKind.CONTENT for i in revision.candidate_ids]


def _dropped(made: Sequence[Revision]) -> dict[str, list[int]]:
    added = _added(made)
    return {DROPPED_KEY: list(dict.fromkeys(added))} if added else {}


def _sources_before(
    made: Sequence[Revision], ids_raw: object, provenance_raw: object
) -> tuple[object, object]:
    """The memory's two source columns without the candidates the run added: the card no longer cites a
    run that was undone. A rewrite that kept the list it replaced (`previous_provenance`: unreadable to
    the host, or NULL) gives that list back as it was."""
    added = set(_added(made))
    if not added:
        return ids_raw, provenance_raw
    ids, provenance = without_candidates(ids_raw, provenance_raw, added)
    key = writes.PREVIOUS_PROVENANCE
    kept = [r.detail[key] for r in made if key in r.detail and isinstance(r.detail[key], (str, type(None)))]
    return ids, kept[0] if kept else provenance


def _restore(ctx: WriteContext, memory_id: int, made: Sequence[Revision], run_id: str) -> int | str:
    """Put one memory back as it was before the run's changes `made`; returns the restore revision id, or
    why not."""
    first = made[0]
    row = fetch_row(ctx.conn, memory_id)
    if first.kind == RevisionKind.CREATE:
        if row is None:
            return "the memory the run created is gone already"
        revision_id = removal.delete_memory(ctx, memory_id, source=RevisionSource.RESTORE)
        _note(ctx, revision_id, run_id)
        return revision_id
    if row is None:
        return "the memory no longer exists (a deletion is not undone here: restore it from its history)"
    undoable = (RevisionKind.CONTENT, RevisionKind.STATUS)
    odd = next((revision.kind for revision in made if revision.kind not in undoable), None)
    if odd is not None:
        return f"a {odd} change is not undone by a run undo"
    content, status = _before(made, row.content, row.status)
    ids, provenance = _sources_before(made, row.source_candidate_ids, row.source_candidate_provenance)
    sources_moved = (ids, provenance) != (row.source_candidate_ids, row.source_candidate_provenance)
    if content == row.content and status == row.status and not sources_moved:
        return "it already is as it was before the run"
    try:
        writes.validate_content(content)
    except InvalidInputError as exc:
        return f"its earlier content cannot be written back: {exc}"
    updated_at = writes.next_updated_at(ctx.now, row.updated_at)
    ctx.conn.execute(
        writes.UPDATE_MEMORY,
        {
            "b_id": memory_id,
            "content": content,
            "status": status,
            "updated_at": updated_at,
            "source_candidate_ids": ids,
            "source_candidate_provenance": provenance,
        },
    )
    status_moved = status != row.status
    revision_id = add_revision(
        ctx,
        memory_id,
        RevisionKind.CONTENT if content != row.content else RevisionKind.STATUS,
        RevisionSource.RESTORE,
        previous_content=row.content,
        new_content=content,
        previous_status=row.status if status_moved else None,
        new_status=status if status_moved else None,
        detail={UNDO_KEY: run_id, "restored_from": first.id, **_dropped(made)},
        changed_at=updated_at,
    )
    mark_seen(ctx, memory_id)
    ctx.profile_changed = True
    return revision_id


def undo_run(ctx: WriteContext, run: Run, changes: Sequence[RunChange]) -> UndoResult:
    """Inside a write transaction: undo `run`, whose changes are `changes` (oldest first)."""
    by_memory: dict[int, list[Revision]] = {}
    for change in changes:
        by_memory.setdefault(change.revision.memory_id, []).append(change.revision)
    run_ids = {change.revision.id for change in changes}
    restored: list[tuple[int, int]] = []
    kept: list[tuple[int, Revision]] = []
    refused: list[tuple[int, str]] = []
    for memory_id, made in by_memory.items():
        row = fetch_row(ctx.conn, memory_id)
        if row is not None:
            catch_up(ctx, row)  # an outside change no read has seen yet is a later change too
        later = _later_change(ctx, memory_id, made[-1], run_ids)
        if later is not None:
            kept.append((memory_id, later))
            continue
        done = _restore(ctx, memory_id, made, run.run_id)
        if isinstance(done, int):
            restored.append((memory_id, done))
        else:
            refused.append((memory_id, done))
    named = dict.fromkeys(item for change in changes for item in change.revision.candidate_ids)
    return UndoResult(run.run_id, tuple(restored), tuple(kept), tuple(refused), run.consumed, tuple(named))
