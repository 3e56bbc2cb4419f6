"""Merge likely duplicates: the preview of a merge (`plan`) read through the store, and its Apply, one
command of the command layer (`apply`), for user memories and for the memories of one project.

The window's preview dialog and the CLI's `merge` both come here; neither writes anything itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from app.commands.merging import MergeMemories, MergeProjectMemories
from app.commands.runner import execute
from app.core.errors import NotFoundError
from app.store.project.hashing import normalized_hash
from app.store.project.merging import refuse_mixed
from app.tidy.merge_plan import MergeMember, MergePlan, plan_merge, sentence_sources

if TYPE_CHECKING:
    from app.store import MemoryStore

Kind = Literal["user", "project"]


def _missing(ids: Sequence[int], found: Sequence[int], what: str) -> None:
    missing = [f"#{item}" for item in ids if item not in found]
    if missing:
        raise NotFoundError(f"{what} {', '.join(missing)} does not exist; nothing was changed")


def user_members(store: MemoryStore, ids: Sequence[int]) -> list[MergeMember]:
    """The user memories `ids` as merge members; every one must exist."""
    found = {memory.id: memory for memory in store.get_many(list(dict.fromkeys(ids)), deleted=False)}
    _missing(ids, list(found), "memory")
    return [
        MergeMember(
            memory.id, memory.content, memory.promoted_at, memory.source_candidate_ids, memory.sources
        )
        for memory in found.values()
    ]


def project_members(store: MemoryStore, ids: Sequence[int]) -> list[MergeMember]:
    """The project memories `ids` as merge members: every one must exist, all of one project."""
    found = {i: memory for i in dict.fromkeys(ids) if (memory := store.project.memory(i)) is not None}
    _missing(ids, list(found), "project memory")
    refuse_mixed(list(found.values()))
    return [
        MergeMember(m.id, m.content, m.created_at, (), (m.source_session_id,) if m.source_session_id else ())
        for m in found.values()
    ]


def plan(
    store: MemoryStore, ids: Sequence[int], into: int | None = None, *, kind: Kind = "user"
) -> MergePlan:
    """The preview of merging the memories `ids` of `kind` into `into` (default: the oldest)."""
    if kind == "user":
        return plan_merge(user_members(store, ids), into)
    found = plan_merge(project_members(store, ids), into)
    if into is None:
        # The host's UNIQUE(project, category, hash) counts archived rows too: a member that already says
        # the whole draft is the one to keep (no other may take its text).
        whole = normalized_hash(found.draft)
        same = [m.id for m in found.members if normalized_hash(m.text) == whole]
        if same:
            found = replace(found, kept=same[0])
    return found


def apply(store: MemoryStore, merge: MergePlan, content: str, origin: str, *, kind: Kind = "user") -> int:
    """Apply a previewed merge with the text the person settled on: one command (undoable); the id kept."""
    sentences = sentence_sources(content, merge.members, merge.kept)
    if kind == "project":
        execute(store, MergeProjectMemories(merge.kept, merge.absorbed, content, sentences), origin)
    else:
        execute(store, MergeMemories(merge.kept, merge.absorbed, content, sentences), origin)
    return merge.kept
