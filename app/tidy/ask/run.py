"""Ask the reviewer about tidy's groups, show what its answer would change, then apply it as a run.

`ask` reads the members' evidence, builds the prompt (`app.tidy.ask.prompt`), runs the configured
reviewer (the review's runner: its timeout, its Cancel), parses the answer with the review's parser and
checks it against the groups asked about (`app.tidy.ask.verdict`). Nothing is written: the answer comes
back as a `TidyProposal` whose `changes` are its preview (each update's old and new text, each
dismissal's text). `apply_proposal` applies it with the review's apply (`app.review.apply`: under the
host's review lease, one transaction, recorded as a run whose origin is tidy, undone as a run), and in
the same transaction records the links it made, with `made_by` "run:<run id>"; undoing the run drops them.
A member rewritten since the preview (by the host) rolls the whole run back: what was approved was a diff
from the text the preview showed.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, select

from app.core.errors import StoreError
from app.core.models.evidence import Evidence
from app.core.models.runs import ORIGIN_TIDY
from app.review.apply import ApplyResult, apply_verdict
from app.review.runner import ReviewCancel, run_reviewer, verdict_from_output
from app.review.verdict import Verdict
from app.store import MemoryStore
from app.store.kinds import USER_MEMORIES
from app.store.links import RUN_MADE_BY, add_link
from app.store.schema.tables import revisions
from app.store.write.revision_log import WriteContext
from app.tidy.ask.prompt import TidyScope, build_tidy_prompt
from app.tidy.ask.verdict import PlannedLink, check_for_scope, planned_links
from app.tidy.model import TidyItem, TidyReport


@dataclass(frozen=True, slots=True)
class ProposedChange:
    """One change of the answer, for its preview: an update (`new`: its text) or a dismissal (`new` None)."""

    memory_id: int
    old: str
    new: str | None
    reason: str | None = None

    @property
    def dismissal(self) -> bool:
        return self.new is None


@dataclass(frozen=True, slots=True)
class TidyProposal:
    """The reviewer's checked answer, not applied yet."""

    verdict: Verdict
    scope: TidyScope
    changes: tuple[ProposedChange, ...]
    links: tuple[PlannedLink, ...]

    @property
    def notes(self) -> tuple[str, ...]:
        """What the review's parser let pass and said (an unknown key in an entry, ...)."""
        return self.verdict.notes


def new_tidy_run_id() -> str:
    return f"tidy-{uuid.uuid4().hex}"


def _evidence(store: MemoryStore, ids: Sequence[int]) -> dict[int, list[Evidence]]:
    """The archived words of the candidates each memory rests on, oldest first, by memory id."""
    memories = store.get_many(ids, deleted=False)
    words = store.evidence([cid for memory in memories for cid in memory.source_candidate_ids])
    return {
        memory.id: [words[cid] for cid in memory.source_candidate_ids if cid in words] for memory in memories
    }


def prepare(store: MemoryStore, report: TidyReport, items: Mapping[int, TidyItem]) -> tuple[str, TidyScope]:
    """The prompt for `report` and the groups it sends (none: nothing to ask). Observed first, as the
    review's prompt is: each candidate's words are archived before they are read."""
    store.observe()
    members = [m for group in report.groups for m in group.members]
    members += [m for pair in report.contradictions for m in (pair.a, pair.b)]
    return build_tidy_prompt(report, items, _evidence(store, list(dict.fromkeys(members))))


def proposal(store: MemoryStore, verdict: Verdict, scope: TidyScope) -> TidyProposal:
    """`verdict`, checked against `scope`, with its preview from the memories as they are now."""
    checked = check_for_scope(verdict, scope)
    now = {memory.id: memory.content for memory in store.get_many(checked.memory_ids(), deleted=False)}
    changes = [
        ProposedChange(u.memory_id, now.get(u.memory_id, ""), u.content) for u in checked.update_existing
    ]
    changes += [
        ProposedChange(d.memory_id, now.get(d.memory_id, ""), None, d.reason)
        for d in checked.dismiss_existing
    ]
    return TidyProposal(checked, scope, tuple(changes), tuple(planned_links(checked, scope)))


def ask(
    store: MemoryStore,
    prompt: str,
    scope: TidyScope,
    command: str | Sequence[str],
    *,
    timeout_s: float,
    allow_hidden: bool = False,
    cancel: ReviewCancel | None = None,
) -> TidyProposal:
    """Run the reviewer on `prompt`; its answer checked and previewed, nothing written. A failure, a
    timeout or an answer that is not a verdict is a ReviewerError, a verdict that does not fit a
    VerdictError, a cancel ReviewCancelled."""
    output = run_reviewer(command, prompt, timeout_s=timeout_s, cancel=cancel)
    try:
        return proposal(store, verdict_from_output(output, allow_hidden=allow_hidden), scope)
    except StoreError:
        if cancel is not None:
            cancel.check()  # cancelled meanwhile: that is the answer, not the bad verdict
        raise


def _changed_by(conn: Connection, run_id: str) -> set[int]:
    query = select(revisions.c.memory_id).where(revisions.c.run_id == run_id)
    return {int(memory_id) for memory_id in conn.execute(query).scalars()}


class PreviewOutdatedError(StoreError):
    """A memory the answer changes is not what its preview showed: the host rewrote it meanwhile."""


def _refuse_outdated(conn: Connection, run_id: str, changes: Sequence[ProposedChange]) -> None:
    """Roll the run back if a memory it changed held other text than its preview showed: the person
    approved those diffs, not a merge of an old text over the host's newer one."""
    query = select(revisions.c.memory_id, revisions.c.previous_content).where(revisions.c.run_id == run_id)
    found = {int(memory_id): previous for memory_id, previous in conn.execute(query)}
    outdated = [f"#{c.memory_id}" for c in changes if c.memory_id in found and found[c.memory_id] != c.old]
    if outdated:
        shown = ", ".join(outdated)
        raise PreviewOutdatedError(
            f"memory {shown} changed since the preview; nothing was changed: ask the reviewer again"
        )


def apply_proposal(
    store: MemoryStore, proposal: TidyProposal, *, run_id: str | None = None, holder: str | None = None
) -> ApplyResult:
    """Apply the answer under the review lease as a tidy run, with its links, in one transaction."""
    run = run_id or new_tidy_run_id()

    def record_links(conn: Connection) -> None:
        _refuse_outdated(conn, run, proposal.changes)
        # Only a dismissal the run made links (one skipped, a memory gone or already dismissed, does not).
        changed = _changed_by(conn, run)
        ctx = WriteContext(conn, store.now())
        for link in proposal.links:
            if link.dismissed in changed:
                add_link(ctx, USER_MEMORIES.name, link.from_id, link.to_id, link.relation, RUN_MADE_BY + run)

    return apply_verdict(
        store, proposal.verdict, run_id=run, holder=holder, before_commit=record_links, origin=ORIGIN_TIDY
    )
