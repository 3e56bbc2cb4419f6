"""Turning host rows plus the dashboard's own facts into frozen `Memory` objects."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.provenance import parse_candidate_ids, parse_provenance
from app.screening import has_hidden_characters
from app.store.models import REWRITE_THRESHOLD_MS, STATUS_ACTIVE, Memory
from app.trust import derive_sources, memory_trust


@dataclass(frozen=True, slots=True)
class HostRow:
    id: int
    content: str
    status: str
    promoted_at: int
    created_at: int
    updated_at: int
    source_candidate_ids: str | None
    source_candidate_provenance: str | None


@dataclass(frozen=True, slots=True)
class OwnFacts:
    """What the dashboard's tables (or its in-memory log) know about one memory."""

    expires_at: int | None = None
    own_sources: tuple[str, ...] = ()
    revision_count: int = 0
    last_content_change: int | None = None
    tracked: bool = False  # seen before: the baseline below is known
    baseline_rewritten_at: int | None = None


NO_FACTS = OwnFacts()


def looks_rewritten(status: str, promoted_at: int, updated_at: int) -> bool:
    """The host's own rule for a row without history: active and updated over a minute after promotion."""
    return status == STATUS_ACTIVE and updated_at - promoted_at > REWRITE_THRESHOLD_MS


def _content_change(row: HostRow, facts: OwnFacts) -> int | None:
    if facts.last_content_change is not None:
        return facts.last_content_change
    if facts.tracked:
        return facts.baseline_rewritten_at
    return row.updated_at if looks_rewritten(row.status, row.promoted_at, row.updated_at) else None


def build_memory(row: HostRow, facts: OwnFacts, as_of: int) -> Memory:
    ids = parse_candidate_ids(row.source_candidate_ids)
    provenance = parse_provenance(row.source_candidate_provenance)
    sources = derive_sources(ids, provenance, facts.own_sources)
    changed_at = _content_change(row, facts)
    return Memory(
        id=row.id,
        content=row.content,
        status=row.status,
        promoted_at=row.promoted_at,
        created_at=row.created_at,
        updated_at=row.updated_at,
        source_candidate_ids=ids,
        provenance=provenance,
        provenance_raw=row.source_candidate_provenance,
        expires_at=facts.expires_at,
        as_of=as_of,
        rewritten=changed_at is not None,
        content_changed_at=changed_at,
        sources=sources,
        trust=memory_trust(sources),
        has_hidden_characters=has_hidden_characters(row.content),
        revision_count=facts.revision_count,
    )


def build_memories(rows: Sequence[HostRow], facts: Mapping[int, OwnFacts], as_of: int) -> list[Memory]:
    return [build_memory(row, facts.get(row.id, NO_FACTS), as_of) for row in rows]
