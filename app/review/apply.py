"""Apply a reviewer's verdict under the host's `user-memories` lease, through the store's shared writers.

Transaction boundaries (what another process sees):

1. **Acquire**, one short `BEGIN IMMEDIATE` transaction: skip a run id already applied, fit the verdict
   to the database (`app.review.fit`: unknown ids are skipped and noted), then take the lease and commit,
   so the host sees it held. A lease held by someone else rolls this back: nothing changes, the lease
   rows included. (A verdict that contradicts itself never gets here: `parse_verdict` rejects it.)
2. **Apply**, one `BEGIN IMMEDIATE` transaction: the lease must still be ours; fit again (the pool may
   have moved; the skips of this fit are the ones recorded); load the provenance of every candidate
   named; promotions, updates (their candidate ids appended, never dropped), dismissals, consumption
   (each writer first records a host rewrite of its row that the store has not seen, as `observed`, so it
   is not folded into the review's revision); record the run with its skips; re-check the generation
   right before commit and release the lease in the same transaction, so a committed verdict never leaves
   a lease behind; the store bumps the profile version once.
3. On any failure in 2 everything in it rolls back and a short transaction releases the lease (if it is
   still ours). A crash between 1 and 2 leaves a lease that blocks for at most its two minutes.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from sqlalchemy import Connection, insert, select

from app.core.models import Candidate, MemoryStatus, RevisionSource
from app.core.provenance import ORIGIN_PROMOTION
from app.review.fit import fit_to_database
from app.review.verdict import Verdict
from app.store import MemoryStore, StoreError
from app.store.read.reads import chunks
from app.store.schema.tables import review_runs, user_memories
from app.store.write import lease as leases
from app.store.write import revision_log, writes

BeforeCommit = Callable[[Connection], None]
# An update naming no candidates: said in its revision (`detail`), as the history shows it.
NO_NEW_EVIDENCE = {"evidence": "none: the verdict named no candidates for this update"}


@dataclass(frozen=True, slots=True)
class ApplyResult:
    run_id: str
    promoted: int
    updated: int
    dismissed: int
    consumed: int
    changed_memory_ids: tuple[int, ...]  # promoted, updated and dismissed memories (the GUI highlights them)
    promoted_memory_ids: tuple[int, ...]
    applied_at: int
    already_applied: bool = False
    skipped: tuple[str, ...] = ()  # what leniency ignored, added or skipped (`Verdict.notes`), one line each
    consumed_candidate_ids: tuple[int, ...] = ()  # which candidates `consumed` counts
    origin: str | None = None  # who asked for the run when not the review queue (`ORIGIN_TIDY`)

    def counts_line(self) -> str:
        return (
            f"promoted {self.promoted}, updated {self.updated}, dismissed {self.dismissed}, "
            f"consumed {self.consumed}"
        )

    def summary(self) -> dict[str, Any]:
        data = asdict(self)
        data["changed_memory_ids"] = list(self.changed_memory_ids)
        data["promoted_memory_ids"] = list(self.promoted_memory_ids)
        data["skipped"] = list(self.skipped)
        data["consumed_candidate_ids"] = list(self.consumed_candidate_ids)
        if self.origin is None:
            del data["origin"]  # a review's summary stays as it always was
        return data


def new_run_id() -> str:
    return f"review-{uuid.uuid4().hex}"


def _recorded_run(conn: Connection, run_id: str) -> ApplyResult | None:
    row = conn.execute(select(review_runs).where(review_runs.c.run_id == run_id)).first()
    if row is None:
        return None
    try:
        summary = json.loads(row.summary)
    except ValueError:
        summary = {}
    return ApplyResult(
        run_id=run_id,
        promoted=int(summary.get("promoted", 0)),
        updated=int(summary.get("updated", 0)),
        dismissed=int(summary.get("dismissed", 0)),
        consumed=int(summary.get("consumed", 0)),
        changed_memory_ids=tuple(summary.get("changed_memory_ids", ())),
        promoted_memory_ids=tuple(summary.get("promoted_memory_ids", ())),
        applied_at=int(row.applied_at),
        already_applied=True,
        skipped=tuple(str(line) for line in summary.get("skipped", ())),
        consumed_candidate_ids=tuple(summary.get("consumed_candidate_ids", ())),
        origin=str(summary["origin"]) if "origin" in summary else None,
    )


def _existing_memory_ids(conn: Connection, ids: list[int]) -> set[int]:
    found: set[int] = set()
    for part in chunks(list(dict.fromkeys(ids))):
        found.update(
            int(i)
            for i in conn.execute(select(user_memories.c.id).where(user_memories.c.id.in_(part))).scalars()
        )
    return found


def fit_in_transaction(conn: Connection, verdict: Verdict) -> tuple[Verdict, dict[int, Candidate]]:
    """The verdict fitted to the database as it is now, and the pool of the candidates it names."""
    pool = writes.load_pool(conn, verdict.candidate_ids())
    return fit_to_database(verdict, _existing_memory_ids(conn, verdict.memory_ids()), set(pool)), pool


def _write_verdict(
    ctx: revision_log.WriteContext, verdict: Verdict, pool: Mapping[int, Candidate], run_id: str
) -> ApplyResult:
    """The verdict's changes, in the host's order; the pool was loaded before anything is consumed."""
    promoted = [
        writes.promote(
            ctx,
            p.candidate_ids,
            p.content,
            source=RevisionSource.REVIEW,
            origin=ORIGIN_PROMOTION,
            run_id=run_id,
            pool=pool,
            consume=False,
        )
        for p in verdict.promote
    ]
    updated = [
        u.memory_id
        for u in verdict.update_existing
        if writes.update_content(
            ctx,
            u.memory_id,
            u.content,
            u.candidate_ids,
            run_id=run_id,
            source=RevisionSource.REVIEW,
            pool=pool,
            detail=None if u.candidate_ids else NO_NEW_EVIDENCE,
        )
        is not None
    ]
    dismissed = [
        d.memory_id
        for d in verdict.dismiss_existing
        if writes.set_status(
            ctx,
            d.memory_id,
            MemoryStatus.DISMISSED,
            source=RevisionSource.REVIEW,
            run_id=run_id,
            reason=d.reason,
        )
        is not None
    ]
    consumed = writes.consume_candidates(ctx, verdict.consume_candidate_ids)
    # The fitted verdict consumes only pending candidates, under the lease: these are the ones that went.
    consumed_ids = tuple(i for i in dict.fromkeys(verdict.consume_candidate_ids) if i in pool)
    return ApplyResult(
        run_id=run_id,
        promoted=len(promoted),
        updated=len(updated),
        dismissed=len(dismissed),
        consumed=consumed,
        changed_memory_ids=tuple(dict.fromkeys([*promoted, *updated, *dismissed])),
        promoted_memory_ids=tuple(promoted),
        applied_at=ctx.now,
        skipped=verdict.notes,
        consumed_candidate_ids=consumed_ids,
    )


def _record_run(conn: Connection, result: ApplyResult, holder: str) -> None:
    conn.execute(
        insert(review_runs).values(
            run_id=result.run_id,
            applied_at=result.applied_at,
            holder=holder,
            summary=json.dumps(result.summary(), sort_keys=True),
        )
    )


def acquire_for(store: MemoryStore, verdict: Verdict, run_id: str, holder: str) -> leases.Lease | ApplyResult:
    """Step 1: a run already applied comes back as its result; else validate and take the lease."""
    with store.write() as ctx:
        recorded = _recorded_run(ctx.conn, run_id)
        if recorded is not None:
            return recorded
        fit_in_transaction(ctx.conn, verdict)
        return leases.acquire(ctx.conn, holder, ctx.now)


def apply_under_lease(
    store: MemoryStore,
    verdict: Verdict,
    lease: leases.Lease,
    run_id: str,
    *,
    before_commit: BeforeCommit | None = None,
    origin: str | None = None,
) -> ApplyResult:
    """Step 2: the whole verdict in one transaction, committed only if the lease is still ours."""
    with store.write() as ctx:
        leases.verify(ctx.conn, lease, ctx.now)
        recorded = _recorded_run(ctx.conn, run_id)
        if recorded is not None:
            leases.release(ctx.conn, lease)
            return recorded
        fitted, pool = fit_in_transaction(ctx.conn, verdict)
        store.archive_in(ctx)  # the evidence archive keeps the candidates' words before they are consumed
        result = replace(_write_verdict(ctx, fitted, pool, run_id), origin=origin)
        _record_run(ctx.conn, result, lease.holder)
        if before_commit is not None:
            before_commit(ctx.conn)
        leases.verify(ctx.conn, lease, store.now())  # the clock now, not at the transaction's start
        leases.release(ctx.conn, lease)
    return result


def release_quietly(store: MemoryStore, lease: leases.Lease) -> None:
    """Step 3: give the lease back after a failure; if even that fails, its expiry frees it."""
    try:
        with store.write() as ctx:
            leases.release(ctx.conn, lease)
    except StoreError as exc:
        store.warnings.append(f"the review lease was not released ({exc}); it expires by itself")


def apply_verdict(
    store: MemoryStore,
    verdict: Verdict,
    *,
    run_id: str | None = None,
    holder: str | None = None,
    before_commit: BeforeCommit | None = None,
    origin: str | None = None,
) -> ApplyResult:
    """Apply a parsed verdict (see the module docstring for the transactions); idempotent per run id.
    `origin` names who asked when not the review queue (recorded with the run, shown in Runs)."""
    run = run_id or new_run_id()
    taken = acquire_for(store, verdict, run, holder or leases.default_holder())
    if isinstance(taken, ApplyResult):
        return taken
    try:
        return apply_under_lease(store, verdict, taken, run, before_commit=before_commit, origin=origin)
    except BaseException:
        release_quietly(store, taken)
        raise


__all__ = ["ApplyResult", "apply_verdict", "new_run_id"]
