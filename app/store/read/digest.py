"""The digest: what changed since the person last looked, read from the revision log and the candidate pool.

A look is a watermark kept per database in `mdash_meta`: the newest revision id the person has seen and the
instant of the look. Everything recorded after that revision is new to them, whoever made it and whenever it
happened (a rewrite the host made while the window was closed is recorded, with the host's own time, on the
next look at the rows: the store observes before it reads this). New candidates are those created after the
instant. `--since WHEN` reads by time instead. History brought in by an import is one change (the memory
is new), not each of its old revisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select

from app.core.clock import format_instant
from app.core.models import IMPORTED_FROM as IMPORTED_FROM  # this and the next: the importer names them here
from app.core.models import IMPORTED_SOURCE as IMPORTED_SOURCE
from app.core.models import ChangeKind, MemoryStatus, Revision, RevisionKind, RevisionSource
from app.present.timefmt import relative
from app.store.read.reads import REVISION_COLUMNS, SELECT_CANDIDATES, revision_from_row
from app.store.read.rows import build_candidate
from app.store.schema.tables import meta, revisions, user_memory_candidates

WATERMARK_AT = "digest_seen_at"
WATERMARK_REVISION = "digest_seen_revision"

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


def count_label(kind: str, count: int) -> str:
    """`3 rewritten`, `2 new candidates`."""
    if kind == ChangeKind.CANDIDATE:
        return f"{count} new candidate{'' if count == 1 else 's'}"
    return f"{count} {kind}"


def headline(digest: Digest, now: int) -> str:
    """`Since you last looked (2026-10-21 03:13:32 UTC, 2h ago): 3 rewritten · 1 new`."""
    when = "you never looked" if digest.since is None else f"{format_instant(digest.since)}, "
    if digest.since is not None:
        when += relative(digest.since, now)
    counts = " · ".join(count_label(kind, n) for kind, n in digest.counts().items())
    return f"Since you last looked ({when}): {counts or 'nothing changed.'}"


def change_kind(revision: Revision) -> str | None:
    """What the digest calls a revision; None for an old revision an import copied in."""
    if revision.source == RevisionSource.IMPORT and IMPORTED_FROM not in revision.detail:
        return None
    if revision.kind == RevisionKind.CREATE:
        return ChangeKind.RESTORED if "restored_from" in revision.detail else ChangeKind.NEW
    if revision.kind == RevisionKind.CONTENT:
        return ChangeKind.REWRITTEN
    if revision.kind == RevisionKind.DELETE:
        return ChangeKind.DELETED
    if revision.kind == RevisionKind.EXPIRY:
        return ChangeKind.EXPIRY
    if revision.new_status == MemoryStatus.DISMISSED:
        return ChangeKind.EXPIRED if revision.source == RevisionSource.EXPIRY else ChangeKind.DISMISSED
    if revision.new_status == MemoryStatus.ACTIVE:
        return ChangeKind.REACTIVATED
    return ChangeKind.STATUS


def revision_change(revision: Revision) -> DigestChange | None:
    kind = change_kind(revision)
    if kind is None:
        return None
    return DigestChange(
        kind=kind,
        at=revision.changed_at,
        by=revision.source,
        memory_id=revision.memory_id,
        revision_id=revision.id,
        run_id=revision.run_id,
        previous_content=revision.previous_content,
        new_content=revision.new_content,
        previous_status=revision.previous_status,
        new_status=revision.new_status,
    )


def read_watermark(conn: Connection) -> Watermark | None:
    query = select(meta.c.key, meta.c.value).where(meta.c.key.in_([WATERMARK_AT, WATERMARK_REVISION]))
    values = {str(key): value for key, value in conn.execute(query)}
    try:
        return Watermark(int(values[WATERMARK_AT]), int(values[WATERMARK_REVISION]))
    except (KeyError, ValueError):
        return None


def changed_memory_ids(conn: Connection, after_id: int) -> set[int]:
    """Memories with a revision recorded after revision `after_id`: the cards to mark until seen."""
    query = select(revisions.c.memory_id).where(revisions.c.id > after_id).distinct()
    return {int(item) for item in conn.execute(query).scalars()}


def newest_revision_id(conn: Connection) -> int:
    return int(conn.execute(select(func.max(revisions.c.id))).scalar() or 0)


_COLUMNS = [revisions.c[name] for name in REVISION_COLUMNS]


def stored_revisions(
    conn: Connection, *, after_id: int | None = None, since: int | None = None
) -> list[Revision]:
    """Revisions recorded after revision `after_id` (the primary key answers), or made at `since` or later."""
    query = select(*_COLUMNS)
    if after_id is not None:
        query = query.where(revisions.c.id > after_id)
    if since is not None:
        query = query.where(revisions.c.changed_at >= since)
    return [revision_from_row(row) for row in conn.execute(query.order_by(revisions.c.id))]


def new_candidates(conn: Connection, since: int | None, *, inclusive: bool) -> list[DigestChange]:
    """Candidates created after `since` (at it or after, when `inclusive`): each one change by the host."""
    created = user_memory_candidates.c.created_at
    query = SELECT_CANDIDATES
    if since is not None:
        query = query.where(created >= since if inclusive else created > since)
    changes = []
    for row in conn.execute(query.order_by(created, user_memory_candidates.c.id)):
        candidate = build_candidate(row)
        changes.append(
            DigestChange(
                kind=ChangeKind.CANDIDATE,
                at=candidate.created_at,
                by=BY_HOST,
                candidate_id=candidate.id,
                new_content=candidate.content,
            )
        )
    return changes


def build_digest(
    since: int | None, found: Iterable[Revision], candidates: Sequence[DigestChange], upto: Watermark
) -> Digest:
    changes = [change for revision in found if (change := revision_change(revision)) is not None]
    changes.extend(candidates)
    changes.sort(key=lambda c: (c.at, c.revision_id or 0, c.candidate_id or 0))
    return Digest(since, tuple(changes), upto)
