"""Merging memories of one project, the host's way, inside the caller's write: the kept memory's text
edited (`writes.edit_content`), the others superseded by it (`writes.supersede`: archived, with
`superseded_by_memory_id`), each change a revision in the project log; and back again for an undo
(`writes.restore` of each absorbed memory to its status before, the kept memory's text edited back),
refused as a whole if one of them changed since.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.core.errors import InvalidInputError, NotFoundError
from app.core.models import RevisionKind, RevisionSource
from app.store.project import revisions, writes
from app.store.project.hashing import normalized_hash
from app.store.project.model import ProjectMemory
from app.store.project.reads import fetch_memory
from app.store.write.merging import merge_detail
from app.store.write.revision_log import WriteContext


@dataclass(frozen=True, slots=True)
class ProjectMergeState:
    """What a merge changed, for its undo and redo: the kept memory's text before and after, and each
    absorbed memory's status before."""

    kept: int
    text_before: str
    text_after: str
    statuses_before: Mapping[int, str]


def members(ctx: WriteContext, ids: Sequence[int]) -> list[ProjectMemory]:
    """The project memories `ids`, all of one project and category (else refused, nothing written)."""
    found = []
    for memory_id in dict.fromkeys(ids):
        memory = fetch_memory(ctx.conn, memory_id)
        if memory is None:
            raise NotFoundError(f"no project memory #{memory_id}; nothing was changed")
        found.append(memory)
    refuse_mixed(found)
    return found


def refuse_mixed(found: Sequence[ProjectMemory]) -> None:
    """Memories of several projects (or categories) are never merged: the host keeps each apart."""
    projects = dict.fromkeys(memory.project_path for memory in found)
    if len(projects) > 1:
        named = "; ".join(
            f"{path}: " + ", ".join(f"#{m.id}" for m in found if m.project_path == path) for path in projects
        )
        raise InvalidInputError(f"only memories of one project can be merged ({named}); nothing was changed")
    categories = dict.fromkeys(memory.category for memory in found)
    if len(categories) > 1:
        raise InvalidInputError(
            "only memories of one category can be merged (" + ", ".join(categories) + "); nothing was changed"
        )


def merge(
    ctx: WriteContext, kept: int, absorbed: Sequence[int], content: str, sentences: Sequence[tuple[str, int]]
) -> ProjectMergeState:
    """`kept` gets `content`; every memory of `absorbed` is superseded by it. One revision each."""
    if kept in absorbed:
        raise InvalidInputError(f"project memory #{kept} cannot be merged into itself; nothing was changed")
    found = {memory.id: memory for memory in members(ctx, [kept, *absorbed])}
    same = [i for i in absorbed if found[i].normalized_hash == normalized_hash(content)]
    if same:
        # The host's UNIQUE(project, category, hash) holds archived rows too: keep that one instead.
        raise InvalidInputError(
            f"the merged text is #{same[0]}'s own text: keep #{same[0]} instead; nothing was changed"
        )
    for memory_id in absorbed:
        written = writes.supersede(ctx.conn, memory_id, kept, ctx.now)
        _record(ctx, RevisionKind.STATUS, written, {"merged_into": kept})
    edited = writes.edit_content(ctx.conn, kept, content, ctx.now)
    evidence = {i: () for i in absorbed}
    _record(ctx, RevisionKind.CONTENT, edited, merge_detail([kept, *absorbed], sentences, evidence))
    statuses = {memory_id: found[memory_id].status for memory_id in absorbed}
    return ProjectMergeState(kept, found[kept].content, content, statuses)


def unmerge(ctx: WriteContext, state: ProjectMergeState, *, back: bool) -> None:
    """Undo (`back`) or redo a merge, refused if one of its memories is not as the step starts from."""
    step, verb = ("Undo", "merged") if back else ("Redo", "put back")
    found = {memory.id: memory for memory in members(ctx, [state.kept, *state.statuses_before])}
    text = state.text_after if back else state.text_before
    moved = [state.kept] if found[state.kept].content != text else []
    for memory_id, status in state.statuses_before.items():
        now = found[memory_id]
        merged = now.superseded_by == state.kept
        if merged != back or (not back and now.status != status):
            moved.append(memory_id)
    if moved:
        raise InvalidInputError(
            f"Project memory #{moved[0]} changed since it was {verb}, so {step} left it as it is"
        )
    if back:
        for memory_id, status in state.statuses_before.items():
            _record(ctx, RevisionKind.STATUS, writes.restore(ctx.conn, memory_id, ctx.now, status), None)
        edited = writes.edit_content(ctx.conn, state.kept, state.text_before, ctx.now)
        _record(ctx, RevisionKind.CONTENT, edited, None)
        return
    for memory_id in state.statuses_before:
        written = writes.supersede(ctx.conn, memory_id, state.kept, ctx.now)
        _record(ctx, RevisionKind.STATUS, written, {"merged_into": state.kept})
    _record(
        ctx, RevisionKind.CONTENT, writes.edit_content(ctx.conn, state.kept, state.text_after, ctx.now), None
    )


def _record(
    ctx: WriteContext, kind: str, written: writes.ProjectWrite, detail: Mapping[str, object] | None
) -> None:
    if not written.changed:
        return
    revisions.record(ctx, kind, RevisionSource.DASHBOARD, written.before, written.after, detail=detail)
    revisions.mark_seen(ctx, written.after.id)
