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

from sqlalchemy import Connection, func, select

from app.core.models import IMPORTED_FROM, ChangeKind, MemoryStatus, Revision, RevisionKind, RevisionSource
from app.core.models.digest import BY_HOST, Digest, DigestChange, Watermark
from app.store.read.reads import REVISION_COLUMNS, SELECT_CANDIDATES, revision_from_row
from app.store.read.rows import build_candidate
from app.store.schema.tables import meta, revisions, user_memory_candidates

WATERMARK_AT = "digest_seen_at"
WATERMARK_REVISION = "digest_seen_revision"


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
