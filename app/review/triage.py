"""Manual triage of the review queue (the window's candidates panel), through the same writers as the review.

Each helper is one write transaction: promote selected candidates as one memory, merge selected candidates
into an existing memory (an update that appends their ids and provenance), discard candidates. Each
consumes the candidates it used. While the automated review holds the `user-memories` lease these refuse:
the review is about to consume the same pool, and taking the lease from it would abort its whole run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.core.models import SOURCE_DASHBOARD, Candidate
from app.core.trust import DASHBOARD_SOURCE
from app.review import lease as leases
from app.store import InvalidInputError, Memory, MemoryStore, NotFoundError
from app.store.write import revision_log, writes


def _pool(
    ctx: revision_log.WriteContext, candidate_ids: Sequence[int]
) -> tuple[list[int], dict[int, Candidate]]:
    """The selected candidates, all still pending, in the order given (repeats dropped)."""
    ids = list(dict.fromkeys(candidate_ids))
    if not ids:
        raise InvalidInputError("select at least one candidate")
    pool = writes.load_pool(ctx.conn, ids)
    missing = [f"#{i}" for i in ids if i not in pool]
    if missing:
        raise NotFoundError(f"candidate {', '.join(missing)} is no longer in the pool (consumed or pruned)")
    return ids, pool


def joined_contents(ids: Sequence[int], pool: Mapping[int, Candidate]) -> str:
    return "\n".join(pool[i].content for i in ids)


def promote_candidates(
    store: MemoryStore, candidate_ids: Sequence[int], content: str | None = None
) -> Memory:
    """One new memory from the selected candidates (the store's promotion), refused while the review runs."""
    if not list(dict.fromkeys(candidate_ids)):
        raise InvalidInputError("select at least one candidate")
    return store.promote(candidate_ids, content, guard=lambda ctx: leases.ensure_free(ctx.conn, ctx.now))


def merge_candidates(
    store: MemoryStore, memory_id: int, candidate_ids: Sequence[int], content: str | None = None
) -> Memory:
    """Fold the selected candidates into a memory: their ids and provenance are appended, then consumed.

    `content` is the memory's new text; None keeps the memory's text and adds the candidates' lines.
    """
    with store.write() as ctx:
        leases.ensure_free(ctx.conn, ctx.now)
        ids, pool = _pool(ctx, candidate_ids)
        row = writes.require_row(ctx, memory_id)
        default = "\n".join([row.content, joined_contents(ids, pool)])
        text = default if content is None else content
        writes.update_content(ctx, memory_id, text, ids, source=SOURCE_DASHBOARD, pool=pool)
        if content is not None and content != default:
            revision_log.add_own_source(ctx, memory_id, DASHBOARD_SOURCE)
        writes.consume_candidates(ctx, ids)
    return store.get(memory_id, observe=False)


def discard_candidates(store: MemoryStore, candidate_ids: Sequence[int]) -> int:
    """Delete candidates from the pool without using them; returns how many were still there."""
    ids = list(dict.fromkeys(candidate_ids))
    if not ids:
        return 0
    with store.write() as ctx:
        leases.ensure_free(ctx.conn, ctx.now)
        return writes.consume_candidates(ctx, ids)
