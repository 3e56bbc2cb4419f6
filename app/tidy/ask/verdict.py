"""What a verdict answering tidy's groups must be, beyond the review's own checks, and the links it makes.

`parse_verdict` (the review's) has checked the shape, the ids, the texts and that the verdict does not
contradict itself. Here, against the groups the prompt sent (`TidyScope`): it creates nothing and
consumes nothing (no `promote`, no `consume_candidate_ids`, no candidates on an update), names only
members of those groups, updates at most one member of a group and dismisses no group whole. Every
problem is listed at once in one `VerdictError`, as the review's checks do.

The links: in a group of duplicates with one member updated, each dismissed member is `merged_into` the
updated one; in a pair that may contradict with one member dismissed, the other is kept over it
(`resolved_contradiction`, from the kept to the dismissed).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.models.links import Link, Relation
from app.review.errors import VerdictError
from app.review.verdict import Verdict
from app.tidy.ask.prompt import TidyScope


@dataclass(frozen=True, slots=True)
class PlannedLink:
    from_id: int
    to_id: int
    relation: Relation
    dismissed: int  # the member whose dismissal makes the link (no dismissal applied, no link)

    def phrase(self) -> str:
        """The link in the words the cards use, from its `from` end: "#2 merged into #1"."""
        link = Link(0, "user", self.from_id, self.to_id, self.relation.value, 0, "")
        return f"#{self.from_id} {link.phrase_for(self.from_id)}"


def _outside(where: str, memory_id: int) -> str:
    return f"{where}.memory_id: memory #{memory_id} is in none of the groups the reviewer was asked about"


def check_for_scope(verdict: Verdict, scope: TidyScope) -> Verdict:
    """`verdict` if it fits the groups asked about; else a VerdictError listing every problem."""
    members = scope.member_ids()
    problems: list[str] = []
    if verdict.promote:
        problems.append("promote: must be empty; tidying creates no memory")
    if verdict.consume_candidate_ids:
        problems.append("consume_candidate_ids: must be empty; tidying consumes no candidate")
    for index, update in enumerate(verdict.update_existing):
        where = f"update_existing[{index}]"
        if update.memory_id not in members:
            problems.append(_outside(where, update.memory_id))
        if update.candidate_ids:
            problems.append(f"{where}.candidate_ids: must be empty; tidying adds no evidence")
    for index, dismissal in enumerate(verdict.dismiss_existing):
        if dismissal.memory_id not in members:
            problems.append(_outside(f"dismiss_existing[{index}]", dismissal.memory_id))
    updated = {update.memory_id for update in verdict.update_existing}
    dismissed = {dismissal.memory_id for dismissal in verdict.dismiss_existing}
    for number, group in enumerate(scope.groups, start=1):
        named = [member for member in group.members if member in updated]
        if len(named) > 1:
            shown = ", ".join(f"#{member}" for member in named)
            problems.append(f"update_existing: {shown} are of one group (group {number}); update one of them")
        # Tidying keeps one of what repeats or contradicts: a group dismissed whole loses what it said.
        if all(member in dismissed for member in group.members):
            shown = ", ".join(f"#{member}" for member in group.members)
            problems.append(f"dismiss_existing: {shown} are every member of group {number}; keep one of them")
    if problems:
        raise VerdictError(problems)
    return verdict


def planned_links(verdict: Verdict, scope: TidyScope) -> list[PlannedLink]:
    """The links the verdict makes between members, once its dismissals are applied."""
    updated = {update.memory_id for update in verdict.update_existing}
    dismissed = {dismissal.memory_id for dismissal in verdict.dismiss_existing}
    found: list[PlannedLink] = []
    for group in scope.groups:
        if group.contradiction:
            a, b = group.members
            if (a in dismissed) != (b in dismissed):
                gone, kept = (a, b) if a in dismissed else (b, a)
                found.append(PlannedLink(kept, gone, Relation.RESOLVED_CONTRADICTION, gone))
            continue
        kept_ids = [member for member in group.members if member in updated]
        if len(kept_ids) == 1:
            found += [
                PlannedLink(member, kept_ids[0], Relation.MERGED_INTO, member)
                for member in group.members
                if member in dismissed
            ]
    return found
