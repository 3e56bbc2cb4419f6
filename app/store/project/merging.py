"""Merging memories of one project, the host's way, inside the caller's write: the kept memory's text
edited (`writes.edit_content`) and its `merged_from` written (`writes.set_merged_from`), the others
superseded by it (`writes.supersede`: archived, with `superseded_by_memory_id`), each memory's change
one revision in the project log; and back again for an undo (`writes.restore` of each absorbed memory
to its status before, the kept memory's text and `merged_from` put back as they were), refused as a
whole if one of them changed since.

`merged_from` is written as the host's own merge writes it (its ctx_memory tool): a JSON list of ids,
compact as `JSON.stringify` makes it, holding the ids already there (read as `links.parse_merged_from`
reads them), then each absorbed memory's id followed by the ids it was itself merged from, each once,
so a merge of merges keeps its whole lineage. The kept memory never lists itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.core.errors import InvalidInputError, NotFoundError
from app.core.models import RevisionKind, RevisionSource
from app.store.project import revisions, writes
from app.store.project.hashing import normalized_hash
from app.store.project.links import parse_merged_from
from app.store.project.model import ProjectMemory
from app.store.project.reads import fetch_memory
from app.store.write.merging import merge_detail
from app.store.write.revision_log import WriteContext


@dataclass(frozen=True, slots=True)
class ProjectMergeState:
    """What a merge changed, for its undo and redo: the kept memory's text and `merged_from` before and
    after, and each absorbed memory's status before. `merged_from_after` None: the merge was made before
    merges wrote `merged_from`, whose undo and redo leave it as it is."""

    kept: int
    text_before: str
    text_after: str
    statuses_before: Mapping[int, str]
    merged_from_before: str | None = None
    merged_from_after: str | None = None

    def merged_from_moved(self, now: ProjectMemory, *, back: bool) -> bool:
        """Whether the kept memory's `merged_from` is no longer what the undo (`back`) or redo starts from."""
        if self.merged_from_after is None:
            return False
        return now.merged_from != (self.merged_from_after if back else self.merged_from_before)


MERGED = "merged"  # the revision kind of a merge that left the kept memory's text as it was


def merged_from(kept: ProjectMemory, absorbed: Sequence[ProjectMemory]) -> str:
    """The kept memory's `merged_from` once `absorbed` are merged into it (see the module docstring)."""
    ids = list(parse_merged_from(kept.merged_from).ids)
    for memory in absorbed:
        ids += [memory.id, *parse_merged_from(memory.merged_from).ids]
    return json.dumps([i for i in dict.fromkeys(ids) if i != kept.id], separators=(",", ":"))


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
    lineage = merged_from(found[kept], [found[i] for i in absorbed])
    for memory_id in absorbed:
        written = writes.supersede(ctx.conn, memory_id, kept, ctx.now)
        _record(ctx, RevisionKind.STATUS, written, {"merged_into": kept})
    detail = merge_detail([kept, *absorbed], sentences, {i: () for i in absorbed})
    _rewrite_kept(ctx, kept, content, lineage, detail)
    statuses = {memory_id: found[memory_id].status for memory_id in absorbed}
    return ProjectMergeState(kept, found[kept].content, content, statuses, found[kept].merged_from, lineage)


def _rewrite_kept(
    ctx: WriteContext,
    kept: int,
    text: str,
    lineage: str | None,
    detail: Mapping[str, object] | None,
    *,
    with_lineage: bool = True,
) -> None:
    """The kept memory's text, then its `merged_from` (`lineage`, unless not `with_lineage`): one
    revision for both."""
    whole = writes.edit_content(ctx.conn, kept, text, ctx.now)
    if with_lineage:
        linked = writes.set_merged_from(ctx.conn, kept, lineage, ctx.now)
        whole = writes.ProjectWrite(whole.before, linked.after)
    kind = RevisionKind.CONTENT if whole.before.content != whole.after.content else MERGED
    _record(ctx, kind, whole, detail)


def unmerge(ctx: WriteContext, state: ProjectMergeState, *, back: bool) -> None:
    """Undo (`back`) or redo a merge, refused if one of its memories is not as the step starts from."""
    step, verb = ("Undo", "merged") if back else ("Redo", "put back")
    found = {memory.id: memory for memory in members(ctx, [state.kept, *state.statuses_before])}
    kept = found[state.kept]
    text = state.text_after if back else state.text_before
    moved = [state.kept] if kept.content != text or state.merged_from_moved(kept, back=back) else []
    for memory_id, status in state.statuses_before.items():
        now = found[memory_id]
        merged = now.superseded_by == state.kept
        if merged != back or (not back and now.status != status):
            moved.append(memory_id)
    if moved:
        raise InvalidInputError(
            f"Project memory #{moved[0]} changed since it was {verb}, so {step} left it as it is"
        )
    with_lineage = state.merged_from_after is not None
    if back:
        for memory_id, status in state.statuses_before.items():
            _record(ctx, RevisionKind.STATUS, writes.restore(ctx.conn, memory_id, ctx.now, status), None)
        lineage = state.merged_from_before
        _rewrite_kept(ctx, state.kept, state.text_before, lineage, None, with_lineage=with_lineage)
        return
    for memory_id in state.statuses_before:
        written = writes.supersede(ctx.conn, memory_id, state.kept, ctx.now)
        _record(ctx, RevisionKind.STATUS, written, {"merged_into": state.kept})
    lineage = state.merged_from_after
    _rewrite_kept(ctx, state.kept, state.text_after, lineage, None, with_lineage=with_lineage)


def _record(
    ctx: WriteContext, kind: str, written: writes.ProjectWrite, detail: Mapping[str, object] | None
) -> None:
    if not written.changed:
        return
    revisions.record(ctx, kind, RevisionSource.DASHBOARD, written.before, written.after, detail=detail)
    revisions.mark_seen(ctx, written.after.id)
