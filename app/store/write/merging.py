"""Merging user memories into one, inside the caller's write: the kept memory gets the merged text as one
content revision whose evidence is the other members' candidates, and the others are dismissed.

The absorbed memories' candidates were consumed when they were promoted: their words live on in the
rows' provenance (and the evidence archive), so the kept memory's provenance gains those entries, read
as the host reads them (`app.core.provenance`), written so the host can still read the list. A member
whose provenance the host reads as "unknown" gives its candidate ids alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.core.errors import InvalidInputError
from app.core.models import Candidate, MemoryStatus
from app.core.models.memory import MERGED_FROM
from app.core.provenance import parse_candidate_ids, parse_provenance
from app.store.read.rows import HostRow
from app.store.write import writes
from app.store.write.revision_log import WriteContext


def merge_detail(
    members: Sequence[int], sentences: Sequence[tuple[str, int]], evidence: Mapping[int, Sequence[int]]
) -> dict[str, Any]:
    """What the merge revision keeps: the members, which sentence came from which member, and each
    absorbed member's candidates (blame follows a merged sentence back through them)."""
    return {
        MERGED_FROM: {
            "members": list(members),
            "sentences": [[text, member] for text, member in sentences],
            "candidates": {str(member): list(ids) for member, ids in evidence.items()},
        }
    }


def _described(rows: Sequence[HostRow]) -> dict[int, Candidate]:
    """The absorbed rows' candidates as their provenance describes them (their words are not needed:
    the kept row's provenance names the session and compartments only)."""
    pool: dict[int, Candidate] = {}
    for row in rows:
        for entry in parse_provenance(row.source_candidate_provenance) or ():
            pool.setdefault(
                entry.candidate_id,
                Candidate(
                    entry.candidate_id,
                    "",
                    entry.session_id,
                    entry.compartment_start,
                    entry.compartment_end,
                    0,
                ),
            )
    return pool


def merge_memories(
    ctx: WriteContext, kept: int, absorbed: Sequence[int], content: str, sentences: Sequence[tuple[str, int]]
) -> dict[int, tuple[int, ...]]:
    """`kept` gets `content` and the evidence of `absorbed` (dismissed, with the merge as their reason);
    returns each absorbed memory's candidate ids."""
    writes.validate_content(content)
    if kept in absorbed:
        raise InvalidInputError(f"memory #{kept} cannot be merged into itself; nothing was changed")
    writes.require_all(ctx, [kept, *absorbed])
    rows = [writes.require_row(ctx, memory_id) for memory_id in absorbed]
    evidence = {row.id: parse_candidate_ids(row.source_candidate_ids) for row in rows}
    appended = [item for ids in evidence.values() for item in ids]
    detail = merge_detail([kept, *absorbed], sentences, evidence)
    writes.update_content(ctx, kept, content, appended, pool=_described(rows), detail=detail)
    writes.set_statuses(ctx, list(absorbed), MemoryStatus.DISMISSED, reason=f"merged into #{kept}")
    return evidence
