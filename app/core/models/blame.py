"""Blame's read model: each sentence (or line) of a memory with the revision that put it there
(`Blame`, `BlameLine`, `Origin`), and who that was in words (`origin_label`).

Built by `app.store.past.blame`; shown by the history panel and `blame`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.core.clock import format_instant
from app.core.models.evidence import Evidence, flat
from app.core.models.memory import RevisionKind, RevisionSource


@dataclass(frozen=True, slots=True)
class Origin:
    """What introduced a unit: a revision, or (revision_id None) the text as first seen."""

    revision_id: int | None
    source: str  # a `RevisionSource` value, or FIRST_SEEN
    kind: str | None
    at: int | None  # the revision's instant; for FIRST_SEEN when the dashboard first saw it (None: unknown)
    run_id: str | None = None
    candidate_ids: tuple[int, ...] = ()
    merged_from: int | None = None  # a merge brought the unit from this memory (its candidates above)


@dataclass(frozen=True, slots=True)
class BlameLine:
    text: str
    origin: Origin


@dataclass(frozen=True, slots=True)
class Blame:
    memory_id: int
    lines: tuple[BlameLine, ...]
    evidence: Mapping[int, Evidence]  # by candidate id; an id missing here has no words known

    def to_json(self) -> list[dict[str, object]]:
        return [
            {
                "text": line.text,
                "revision_id": line.origin.revision_id,
                "source": line.origin.source,
                "kind": line.origin.kind,
                "at": line.origin.at,
                "run_id": line.origin.run_id,
                "who": origin_label(line.origin),
                "candidate_ids": list(line.origin.candidate_ids),
                "merged_from": line.origin.merged_from,
                "evidence": [self.evidence_json(item) for item in line.origin.candidate_ids],
            }
            for line in self.lines
        ]

    def evidence_text(self, candidate_id: int, width: int = 120) -> str:
        """`#141 [session ses_c3f1] "Prefers pnpm…"`, or that its words are not known."""
        found = self.evidence.get(candidate_id)
        if found is None:
            return f"#{candidate_id} words not known (no longer in the candidate pool)"
        return f'#{candidate_id} [session {flat(found.session_id, 40)}] "{flat(found.content, width)}"'

    def evidence_json(self, candidate_id: int) -> dict[str, object]:
        """The candidate's evidence (`Evidence.to_json`; `archived_at` null for words read from the pool)."""
        found = self.evidence.get(candidate_id)
        if found is None:
            return {"candidate_id": candidate_id, "content": None, "session_id": None}
        return {"candidate_id": candidate_id, **found.to_json()}


_WHO: dict[str, str] = {
    RevisionSource.DASHBOARD: "dashboard edit",
    RevisionSource.REVIEW: "review run",
    RevisionSource.OBSERVED: "host (observed)",
    RevisionSource.RESTORE: "restore",
    RevisionSource.EXPIRY: "expiry",
}


def origin_label(origin: Origin) -> str:
    """Who, in words: `dashboard edit`, `review run run-7`, `host (observed)`, `as first seen on …`."""
    if origin.revision_id is None:
        return "as first seen" + (f" on {format_instant(origin.at)}" if origin.at is not None else "")
    who = _WHO.get(origin.source, origin.source)
    if origin.kind == RevisionKind.CREATE and origin.source == RevisionSource.DASHBOARD:
        who = "dashboard promotion"
    who = f"{who} {origin.run_id}" if origin.run_id else who
    return f"{who}, merged from #{origin.merged_from}" if origin.merged_from is not None else who
