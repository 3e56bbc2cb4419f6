"""Merge likely duplicates: the preview of a merge (`plan`) read through the store, and its Apply, one
command of the command layer (`apply`), for user memories and for the memories of one project.

The window's preview dialog and the CLI's `merge` both come here; neither writes anything itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.commands.merging import MergeMemories
from app.commands.runner import execute
from app.core.errors import NotFoundError
from app.tidy.merge_plan import MergeMember, MergePlan, plan_merge, sentence_sources

if TYPE_CHECKING:
    from app.store import MemoryStore


def user_members(store: MemoryStore, ids: Sequence[int]) -> list[MergeMember]:
    """The user memories `ids` as merge members; every one must exist."""
    found = {memory.id: memory for memory in store.get_many(list(dict.fromkeys(ids)), deleted=False)}
    missing = [f"#{item}" for item in ids if item not in found]
    if missing:
        raise NotFoundError(f"memory {', '.join(missing)} does not exist; nothing was changed")
    return [
        MergeMember(
            memory.id, memory.content, memory.promoted_at, memory.source_candidate_ids, memory.sources
        )
        for memory in found.values()
    ]


def plan(store: MemoryStore, ids: Sequence[int], into: int | None = None) -> MergePlan:
    """The preview of merging the user memories `ids` into `into` (default: the oldest)."""
    return plan_merge(user_members(store, ids), into)


def apply(store: MemoryStore, merge: MergePlan, content: str, origin: str) -> int:
    """Apply a previewed merge with the text the person settled on: one command (undoable); the id kept."""
    sentences = sentence_sources(content, merge.members, merge.kept)
    execute(store, MergeMemories(merge.kept, merge.absorbed, content, sentences), origin)
    return merge.kept
