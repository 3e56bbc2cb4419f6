"""A person's triage of the candidate pool (the review queue, `promote`): promote, merge, discard.

Each takes the write transaction the store opened (the store refuses all three while the automated review
holds its lease: see `MemoryStore._triage`) and consumes the candidates it used. A text a person typed
that differs from the candidates' own adds the `user:dashboard` source, so the memory's trust says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.core.errors import InvalidInputError, NotFoundError
from app.core.models import Candidate, RevisionSource
from app.core.provenance import ORIGIN_MANUAL, ORIGIN_PROMOTION
from app.core.trust import MEMORY_SOURCE_USER_EDIT
from app.store.write import writes
from app.store.write.revision_log import WriteContext, add_own_source


def selected(candidate_ids: Sequence[int]) -> list[int]:
    """The selection in the order given, repeats dropped; refused when empty."""
    ids = list(dict.fromkeys(candidate_ids))
    if not ids:
        raise InvalidInputError("select at least one candidate")
    return ids


def pending_pool(ctx: WriteContext, candidate_ids: Sequence[int]) -> tuple[list[int], dict[int, Candidate]]:
    """The selected candidates, all still pending, in the order given (repeats dropped)."""
    ids = selected(candidate_ids)
    pool = writes.load_pool(ctx.conn, ids)
    missing = [f"#{i}" for i in ids if i not in pool]
    if missing:
        raise NotFoundError(f"candidate {', '.join(missing)} is no longer in the pool (consumed or pruned)")
    return ids, pool


def joined_contents(ids: Sequence[int], pool: Mapping[int, Candidate]) -> str:
    """The candidates' texts, one per line: a promotion's or a merge's text when the person gave none."""
    return "\n".join(pool[i].content for i in ids)


def one_line(texts: Sequence[str]) -> str:
    """Texts joined into one line, as the host's profile injects each memory (`- text`, one line each):
    white space inside each folded to single spaces, parts joined by `; ` (a space after a part that
    already ends a sentence)."""
    parts = [" ".join(text.split()) for text in texts]
    joined = ""
    for part in filter(None, parts):
        joined += ("" if not joined else " " if joined[-1] in ".!?;:" else "; ") + part
    return joined


def promote(
    ctx: WriteContext,
    candidate_ids: Sequence[int],
    content: str | None,
    *,
    run_id: str | None = None,
    source: str = RevisionSource.DASHBOARD,
) -> int:
    """One new memory from the selected candidates (content defaults to theirs, joined into one line:
    `one_line`); returns its id.

    A person's promotion (source `dashboard`) has provenance origin `manual`; one recorded as the review's
    (the demo's history) has origin `promotion`, as a verdict's has.
    """
    ids = selected(candidate_ids)
    pool = writes.load_pool(ctx.conn, ids)  # the writer refuses ids no longer in the pool
    joined = one_line([pool[i].content for i in ids if i in pool])
    by_person = source == RevisionSource.DASHBOARD
    memory_id = writes.promote(
        ctx,
        ids,
        joined if content is None else content,
        source=source,
        origin=ORIGIN_MANUAL if by_person else ORIGIN_PROMOTION,
        run_id=run_id,
        pool=pool,
    )
    if by_person and content is not None and content != joined:
        add_own_source(ctx, memory_id, MEMORY_SOURCE_USER_EDIT)
    return memory_id


def merge(ctx: WriteContext, memory_id: int, candidate_ids: Sequence[int], content: str | None) -> None:
    """Fold the selected candidates into a memory: their ids and provenance are appended, then consumed.

    `content` is the memory's new text; None keeps the memory's text and adds the candidates' lines.
    """
    ids, pool = pending_pool(ctx, candidate_ids)
    row = writes.require_row(ctx, memory_id)
    default = "\n".join([row.content, joined_contents(ids, pool)])
    text = default if content is None else content
    writes.update_content(ctx, memory_id, text, ids, pool=pool)
    if content is not None and content != default:
        add_own_source(ctx, memory_id, MEMORY_SOURCE_USER_EDIT)
    writes.consume_candidates(ctx, ids)


def discard(ctx: WriteContext, candidate_ids: Sequence[int]) -> int:
    """Delete candidates from the pool without using them; returns how many were still there."""
    return writes.consume_candidates(ctx, candidate_ids)
