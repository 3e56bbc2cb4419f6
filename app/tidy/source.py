"""The memories the tidy finder looks at, read through the store: the active ones, as the agent sees
them (a dismissed memory costs no tokens and contradicts nothing the agent reads)."""

from __future__ import annotations

from app.core.models.filters import MemoryFilter
from app.store import MemoryStore
from app.tidy.model import TidyItem


def active_items(store: MemoryStore) -> list[TidyItem]:
    """Every active memory as a `TidyItem` (id, content, sources, promotion time), in listing order."""
    memories = store.list_memories(MemoryFilter(status="active"))
    return [TidyItem(memory.id, memory.content, memory.sources, memory.promoted_at) for memory in memories]
