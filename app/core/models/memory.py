"""The read models the store hands out: frozen rows, safe to pass between threads and cache in a view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from app.core.provenance import ProvenanceEntry


class MemoryStatus(StrEnum):
    """The statuses the host means. A row's `status` is any string the host stored (typed `str`):
    compare it with these, never assume it is one of them."""

    ACTIVE = "active"
    DISMISSED = "dismissed"
    # Not a host status: a memory no longer in the host's table (the trash), shown from its revisions.
    DELETED = "deleted"


class RevisionKind(StrEnum):
    """What a revision changed (stored as these strings)."""

    CREATE = "create"
    CONTENT = "content"
    STATUS = "status"
    DELETE = "delete"
    EXPIRY = "expiry"


UNDO_KEY: Final = "undo_of_run"  # in the detail of each revision a run's undo wrote: the run's id
IMPORTED_FROM: Final = "imported_from"  # detail of the revision an import adds to each memory it brings
IMPORTED_SOURCE: Final = "imported_source"  # detail of an old revision an import copied in: its source
MERGED_FROM: Final = "merged_from"  # detail of a merge's revision of the kept memory: members, sentences


class RevisionSource(StrEnum):
    """Who made a revision (stored as these strings); not a memory's trust source (`app.core.trust`)."""

    REVIEW = "review"
    DASHBOARD = "dashboard"
    RESTORE = "restore"
    OBSERVED = "observed"
    EXPIRY = "expiry"
    IMPORT = "import"  # history brought in from an export file (`app.transfer`)


class ChangeKind(StrEnum):
    """What the digest ("since you last looked") calls one change (`app.store.read.digest`)."""

    NEW = "new"
    REWRITTEN = "rewritten"
    DISMISSED = "dismissed"
    EXPIRED = "expired"
    REACTIVATED = "reactivated"
    RESTORED = "restored"  # a deleted memory brought back
    DELETED = "deleted"
    EXPIRY = "expiry"  # its expiry was set or cleared
    STATUS = "status"  # any other status the host stored
    CANDIDATE = "candidate"  # a new candidate in the pool


REWRITE_THRESHOLD_MS = 60_000

EMPTY_DETAIL: Mapping[str, Any] = MappingProxyType({})  # a revision with no detail


@dataclass(frozen=True, slots=True)
class Memory:
    """One row of `user_memories` with what the dashboard knows about it, judged at `as_of`."""

    id: int
    content: str
    status: str
    promoted_at: int
    created_at: int
    updated_at: int
    source_candidate_ids: tuple[int, ...]
    provenance: tuple[ProvenanceEntry, ...] | None  # None: provenance unknown (NULL or unreadable)
    provenance_raw: str | None
    expires_at: int | None
    as_of: int
    rewritten: bool
    content_changed_at: int | None  # the last content change, when rewritten
    sources: tuple[str, ...]
    trust: str
    has_hidden_characters: bool
    revision_count: int = 0
    # When the dashboard first read this memory (None: not yet, or not recorded). The dashboard's record of
    # its own look, not the memory's state: a first look changes no memory, so it takes no part in `==`.
    first_seen_at: int | None = field(default=None, compare=False)
    # What was odd in the stored row (`app.store.read.rows`): one note per oddity, raw values escaped, e.g.
    # "updated_at is text 'yesterday', not epoch milliseconds in range: shown as 1970-01-01 00:00:00 UTC".
    oddities: tuple[str, ...] = ()
    # Why `trust` is what it is (`app.core.trust.grade`): the weakest sources, or "screened: ...".
    trust_reasons: tuple[str, ...] = ()

    @property
    def malformed(self) -> bool:
        """The row held something the host's schema does not mean (see `oddities`): show a badge."""
        return bool(self.oddities)

    @property
    def expired(self) -> bool:
        """Half-open expiry: recallable at T-1 ms, expired from T on."""
        return self.expires_at is not None and self.as_of >= self.expires_at

    @property
    def injected(self) -> bool:
        """What the agent is shown: status exactly `active` and not expired."""
        return self.status == MemoryStatus.ACTIVE and not self.expired

    @property
    def unknown_provenance_ids(self) -> tuple[int, ...]:
        if self.provenance is None:
            return self.source_candidate_ids
        known = {entry.candidate_id for entry in self.provenance}
        return tuple(item for item in self.source_candidate_ids if item not in known)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A pending row of `user_memory_candidates`."""

    id: int
    content: str
    session_id: str
    compartment_start: int | None
    compartment_end: int | None
    created_at: int
    oddities: tuple[str, ...] = ()  # as `Memory.oddities`

    @property
    def malformed(self) -> bool:
        return bool(self.oddities)


@dataclass(frozen=True, slots=True)
class Revision:
    """One change to a memory. Ids are negative for observations kept in memory only (read-only mode)."""

    id: int
    memory_id: int
    changed_at: int
    kind: str
    source: str
    run_id: str | None
    candidate_ids: tuple[int, ...]
    previous_content: str | None
    new_content: str | None
    previous_status: str | None = None
    new_status: str | None = None
    detail: Mapping[str, Any] = field(default_factory=lambda: EMPTY_DETAIL, compare=False)
    texts_loaded: bool = True  # False: read without its two texts (`history(texts=False)`); both are None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "memory_id": self.memory_id,
            "changed_at": self.changed_at,
            "kind": self.kind,
            "source": self.source,
            "run_id": self.run_id,
            "candidate_ids": list(self.candidate_ids),
            "previous_content": self.previous_content,
            "new_content": self.new_content,
        }
        if self.previous_status is not None or self.new_status is not None:
            data["previous_status"] = self.previous_status
            data["new_status"] = self.new_status
        if self.detail:
            data["detail"] = dict(self.detail)
        return data


@dataclass(frozen=True, slots=True)
class Counts:
    active: int
    dismissed: int
    other: int
    expired: int
    candidates: int

    @property
    def total(self) -> int:
        return self.active + self.dismissed + self.other


class Keep:
    """`reactivate`'s default: keep the memory's current expiry (`KEEP`, the one instance)."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = Keep()
