"""What the archive keeps of a candidate (`Evidence`) and how one reads in a line, a tooltip and JSON.

An id the archive never saw is shown as `NOT_ARCHIVED`: the host deleted the candidate before the
dashboard first looked at the file, and nothing else kept its words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.models import Candidate, Memory
from app.core.screening import make_visible

NOT_ARCHIVED = "not archived (consumed before the dashboard first opened this file)"
WORDS_CHARS = 160  # of a candidate's words on one line


@dataclass(frozen=True, slots=True)
class Evidence:
    """One archived candidate: its row as the host held it (odd cells shown escaped, see `oddities`) and
    when the dashboard first archived it (None: read from the host's pool, never archived: blame on a store
    without the archive table)."""

    candidate_id: int
    content: str
    session_id: str
    compartment_start: int | None
    compartment_end: int | None
    created_at: int
    archived_at: int | None
    oddities: tuple[str, ...] = ()

    @classmethod
    def of(cls, candidate: Candidate, archived_at: int | None) -> Evidence:
        return cls(
            candidate.id,
            candidate.content,
            candidate.session_id,
            candidate.compartment_start,
            candidate.compartment_end,
            candidate.created_at,
            archived_at,
            candidate.oddities,
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "content": self.content,
            "session_id": self.session_id,
            "archived_at": self.archived_at,
            "created_at": self.created_at,
            "source_compartment_start": self.compartment_start,
            "source_compartment_end": self.compartment_end,
        }
        if self.oddities:
            data["oddities"] = list(self.oddities)
        return data


def memory_candidate_ids(memory: Memory) -> list[int]:
    """Every candidate id a memory names: its ids, then provenance entries' ids not among them."""
    named = [*memory.source_candidate_ids, *(entry.candidate_id for entry in memory.provenance or ())]
    return list(dict.fromkeys(named))


def flat(text: str, width: int = WORDS_CHARS) -> str:
    """Host text on one line: hidden characters visible, whitespace runs as one space, cut at `width`."""
    shown = " ".join(make_visible(text).split())
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def evidence_words(found: Evidence | None, width: int = WORDS_CHARS) -> str:
    """`"Prefers pnpm…" (session ses_c3f1)`, or `NOT_ARCHIVED`."""
    if found is None:
        return NOT_ARCHIVED
    odd = " (malformed)" if found.oddities else ""
    return f"\u201c{flat(found.content, width)}\u201d (session {flat(found.session_id, 80)}){odd}"


def evidence_lines(
    candidate_ids: Sequence[int], found: dict[int, Evidence], indent: str = "    "
) -> list[str]:
    """One line per candidate id: `    #141 "words" (session …)`."""
    return [f"{indent}#{item} {evidence_words(found.get(item))}" for item in candidate_ids]


def evidence_json(found: Evidence | None) -> dict[str, Any] | None:
    return None if found is None else found.to_json()
