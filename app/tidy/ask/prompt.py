"""The reviewer's prompt for tidy: the groups of likely duplicates and the pairs that may contradict.

Each group lists its members (id, text, the words of the candidates they rest on, why they were grouped);
a pair that may contradict is labelled so. The answer asked for is a verdict of the host's shape that
only rewrites (`update_existing`) and dismisses (`dismiss_existing`) the members listed. Lines are the
review's (`app.review.prompt`: content quoted as a JSON string, hidden characters escaped).

The prompt is bounded: groups are added while they fit in `MAX_PROMPT_CHARS` (the first always is); the
ones left out are counted in the prompt and in `TidyScope.left_out`, to ask about once these are settled.
Only the groups sent are the scope the answer is checked against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.core.models.evidence import Evidence
from app.review.prompt import quote, session_label
from app.tidy.model import TidyItem, TidyReport

MAX_PROMPT_CHARS = 200_000  # about 50,000 tokens: what a local model takes in one go
EVIDENCE_PER_MEMORY = 5  # the newest candidates a member rests on
EVIDENCE_CHARS = 300  # of one candidate's words

INSTRUCTIONS = """\
You tidy the long-term memories an AI coding agent keeps about its user. Every memory is shown to the
agent in every session, so duplicates cost tokens and contradictions make it guess. Below are groups of
memories that look like duplicates, and pairs that MAY CONTRADICT. Decide, for each:

- likely duplicates that do say the same thing: keep ONE member and rewrite its content so that it says
  everything the group says, once (update_existing); dismiss the other members (dismiss_existing, with
  a reason such as "merged into #5").
- a pair that may contradict: if one of them is obsolete or wrong, dismiss it and say why (rewrite the
  other only if its text needs it); if they do not really contradict, leave both alone.
- members that are not really duplicates: leave them alone (name none of them).

Rules: name only the memory ids listed below; update at most one member of a group; never update and
dismiss the same memory; content is plain text without hidden characters, at most 64 KiB. This answer
creates no memory and consumes no candidate: "promote" and "consume_candidate_ids" stay empty, and every
"candidate_ids" of an update is empty.

Answer with the verdict JSON only, in one ```json block, exactly this shape:
{
  "promote": [],
  "update_existing": [{"memory_id": 5, "content": "...", "candidate_ids": []}],
  "dismiss_existing": [{"memory_id": 7, "reason": "merged into #5"}],
  "consume_candidate_ids": []
}
Use empty lists for what you do not need."""


@dataclass(frozen=True, slots=True)
class AskedGroup:
    """One group the prompt sent: its members, and whether it is a pair that may contradict."""

    members: tuple[int, ...]
    contradiction: bool
    why: str  # a contradiction's clash in words; empty for duplicates (each member says its own why)


@dataclass(frozen=True, slots=True)
class TidyScope:
    """The groups a prompt sent (what the answer may name), and how many it left out for room."""

    groups: tuple[AskedGroup, ...]
    left_out: int = 0

    def member_ids(self) -> set[int]:
        return {member for group in self.groups for member in group.members}


def _cut(text: str) -> str:
    return text if len(text) <= EVIDENCE_CHARS else text[: EVIDENCE_CHARS - 1] + "…"


def _evidence_lines(evidence: Sequence[Evidence]) -> list[str]:
    shown = list(evidence)[-EVIDENCE_PER_MEMORY:]
    lines = [
        f"    evidence: Candidate #{item.candidate_id} [session {session_label(item.session_id)}]: "
        + quote(_cut(item.content))
        for item in shown
    ]
    return lines or ["    evidence: (the words of its candidates were not kept)"]


def _member_lines(
    item: TidyItem, reasons: Sequence[str], evidence: Mapping[int, Sequence[Evidence]]
) -> list[str]:
    lines = [f"  Memory #{item.id}: {quote(item.text)}"]
    lines += [f"    why grouped: {reason}" for reason in reasons]
    return lines + _evidence_lines(evidence.get(item.id, ()))


def _blocks(
    report: TidyReport, items: Mapping[int, TidyItem], evidence: Mapping[int, Sequence[Evidence]]
) -> list[tuple[AskedGroup, list[str]]]:
    """Every group and pair as (what it is, its lines), duplicates first."""
    found: list[tuple[AskedGroup, list[str]]] = []
    for group in report.groups:
        lines = [f"likely duplicates ({len(group.members)} memories):"]
        for member in group.members:
            lines += _member_lines(items[member], group.reasons(member), evidence)
        found.append((AskedGroup(group.members, False, ""), lines))
    for pair in report.contradictions:
        lines = [f"MAY CONTRADICT: {quote(pair.reason)}"]
        for member in (pair.a, pair.b):
            lines += _member_lines(items[member], (), evidence)
        found.append((AskedGroup((pair.a, pair.b), True, pair.reason), lines))
    return found


def build_tidy_prompt(
    report: TidyReport,
    items: Mapping[int, TidyItem],
    evidence: Mapping[int, Sequence[Evidence]],
    *,
    max_chars: int = MAX_PROMPT_CHARS,
) -> tuple[str, TidyScope]:
    """The prompt for `report` (its members' texts in `items`, their candidates' words in `evidence`, by
    memory id), and the scope it sent."""
    lines = [INSTRUCTIONS, ""]
    size = sum(len(line) + 1 for line in lines)
    asked: list[AskedGroup] = []
    blocks = _blocks(report, items, evidence)
    for number, (group, block) in enumerate(blocks, start=1):
        block = [f"Group {number}, {block[0]}", *block[1:], ""]
        cost = sum(len(line) + 1 for line in block)
        if asked and size + cost > max_chars:
            break
        lines += block
        size += cost
        asked.append(group)
    left_out = len(blocks) - len(asked)
    if left_out:
        lines.append(f"({left_out} more group(s) are left out of this prompt for room; they come next time.)")
    return "\n".join(lines) + "\n", TidyScope(tuple(asked), left_out)
