"""Fitting a parsed verdict to the database as it is: unknown ids are skipped and said, never guessed.

A memory that does not exist (deleted since the prompt) drops its update or dismissal; an update
dropped keeps its candidates in the pool, since their evidence would otherwise go nowhere. A candidate
no longer pending (unknown, consumed or pruned) drops out of the promotion, update or consumption naming
it; a promotion left without candidates is skipped. Each skip is one line of `Verdict.notes`, listed in
the run's output and record. Every step is linear in the verdict's size.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import replace

from app.review.verdict import Promotion, Update, Verdict

NOT_PENDING = "is not in the pool (unknown, consumed or pruned)"


class _Fit:
    def __init__(self, memory_ids: Set[int], pending: Set[int]) -> None:
        self.memory_ids = memory_ids
        self.pending = pending
        self.notes: list[str] = []
        self.kept_in_pool: set[int] = set()

    def candidates(self, where: str, ids: tuple[int, ...]) -> tuple[int, ...]:
        kept = []
        for index, cid in enumerate(ids):
            if cid in self.pending:
                kept.append(cid)
            else:
                self.notes.append(f"{where}[{index}]: candidate #{cid} {NOT_PENDING}; skipped")
        return tuple(kept)

    def memory(self, where: str, memory_id: int, what: str) -> bool:
        if memory_id in self.memory_ids:
            return True
        self.notes.append(f"{where}.memory_id: memory #{memory_id} does not exist; {what} skipped")
        return False

    def promotions(self, verdict: Verdict) -> tuple[Promotion, ...]:
        kept = []
        for index, promotion in enumerate(verdict.promote):
            ids = self.candidates(f"promote[{index}].candidate_ids", promotion.candidate_ids)
            if ids:
                kept.append(replace(promotion, candidate_ids=ids))
            else:
                self.notes.append(
                    f"promote[{index}]: none of its candidates is in the pool; promotion skipped"
                )
        return tuple(kept)

    def updates(self, verdict: Verdict) -> tuple[Update, ...]:
        kept = []
        for index, update in enumerate(verdict.update_existing):
            where = f"update_existing[{index}]"
            if not self.memory(where, update.memory_id, "update"):
                held = [cid for cid in update.candidate_ids if cid in self.pending]
                self.kept_in_pool.update(held)
                if held:
                    shown = ", ".join(f"#{cid}" for cid in held)
                    self.notes.append(f"{where}: its candidates {shown} stay in the pool")
                continue
            ids = self.candidates(f"{where}.candidate_ids", update.candidate_ids)
            kept.append(replace(update, candidate_ids=ids))
        return tuple(kept)

    def consumed(self, verdict: Verdict) -> tuple[int, ...]:
        named = {cid for p in verdict.promote for cid in p.candidate_ids}
        named.update(cid for u in verdict.update_existing for cid in u.candidate_ids)
        kept = []
        for index, cid in enumerate(verdict.consume_candidate_ids):
            if cid in self.kept_in_pool:
                continue
            if cid in self.pending:
                kept.append(cid)
            elif cid not in named:  # an action's unknown candidate is already said where the action names it
                self.notes.append(f"consume_candidate_ids[{index}]: candidate #{cid} {NOT_PENDING}; skipped")
        return tuple(kept)


def fit_to_database(verdict: Verdict, memory_ids: Set[int], pending_candidate_ids: Set[int]) -> Verdict:
    """The verdict as it can apply to these memories and this pool, with every skip in its `notes`."""
    fit = _Fit(memory_ids, pending_candidate_ids)
    promote = fit.promotions(verdict)
    update_existing = fit.updates(verdict)
    dismiss_existing = tuple(
        d
        for index, d in enumerate(verdict.dismiss_existing)
        if fit.memory(f"dismiss_existing[{index}]", d.memory_id, "dismissal")
    )
    consume = fit.consumed(verdict)
    return Verdict(promote, update_existing, dismiss_existing, consume, (*verdict.notes, *fit.notes))
