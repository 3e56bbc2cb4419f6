"""The digest's read model: what changed since the person last looked (`Digest`, `DigestChange`) and
the look itself (`Watermark`).

Built by `app.store.read.digest`; said in words by `app.present.digest`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.core.models.memory import ChangeKind, RevisionSource

# Who made a change, as the digest groups them; a source not listed is shown as it is.
BY_LABEL: dict[str, str] = {
    RevisionSource.REVIEW: "Review run",
    RevisionSource.DASHBOARD: "You, in the dashboard",
    RevisionSource.RESTORE: "You, in the dashboard",
    RevisionSource.EXPIRY: "Expiry sweep",
    RevisionSource.OBSERVED: "Another process (seen from outside)",
    RevisionSource.IMPORT: "Import",
}


BY_HOST = "host"  # a candidate the host's sessions added


BY_LABEL_HOST = "The host's sessions (new candidates)"


@dataclass(frozen=True, slots=True)
class Watermark:
    """The person's last look: the newest revision they had seen, and when."""

    at: int
    revision_id: int
    kept: int = 0  # a read-only store: the observations kept in memory it covers (their ids are -1, -2, ...)


@dataclass(frozen=True, slots=True)
class DigestChange:
    """One change: to a memory (its revision), or a new candidate (`candidate_id`, no memory)."""

    kind: str
    at: int
    by: str
    memory_id: int | None = None
    revision_id: int | None = None
    candidate_id: int | None = None
    run_id: str | None = None
    previous_content: str | None = None
    new_content: str | None = None
    previous_status: str | None = None
    new_status: str | None = None

    @property
    def group(self) -> str:
        """Who did it, as a heading: a review run names its run."""
        if self.by == RevisionSource.REVIEW and self.run_id:
            return f"{BY_LABEL[RevisionSource.REVIEW]} {self.run_id}"
        if self.by == BY_HOST:
            return BY_LABEL_HOST
        return BY_LABEL.get(self.by, self.by)

    def to_json(self, texts: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "memory_id": self.memory_id,
            "kind": self.kind,
            "at": self.at,
            "by": self.by,
            "run_id": self.run_id,
            "revision_id": self.revision_id,
        }
        if self.candidate_id is not None:
            data["candidate_id"] = self.candidate_id
        if self.previous_status is not None or self.new_status is not None:
            data["previous_status"] = self.previous_status
            data["new_status"] = self.new_status
        if texts:
            data["previous_content"] = self.previous_content
            data["new_content"] = self.new_content
        return data


@dataclass(frozen=True, slots=True)
class Digest:
    """The changes since `since` (None: the person never looked), oldest first; `upto` is the watermark
    that marks exactly these as seen."""

    since: int | None
    changes: tuple[DigestChange, ...]
    upto: Watermark

    def __bool__(self) -> bool:
        return bool(self.changes)

    @property
    def memory_ids(self) -> frozenset[int]:
        return frozenset(c.memory_id for c in self.changes if c.memory_id is not None)

    def groups(self) -> list[tuple[str, list[DigestChange]]]:
        """The changes by who made them, groups in order of their first change."""
        found: dict[str, list[DigestChange]] = {}
        for change in self.changes:
            found.setdefault(change.group, []).append(change)
        return list(found.items())

    def counts(self) -> dict[str, int]:
        """How many changes of each kind, in `ChangeKind` order."""
        tally = {kind.value: 0 for kind in ChangeKind}
        for change in self.changes:
            tally[change.kind] = tally.get(change.kind, 0) + 1
        return {kind: n for kind, n in tally.items() if n}
