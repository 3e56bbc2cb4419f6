"""Links between memories (`Link`): what a merge, a supersession or a resolved contradiction made of two
memories, read both ways. Stored by `app.store.links` in `mdash_links`; for project memories the host's
own `superseded_by_memory_id` and `merged_from` say the same (`app.store.project.links`).

A link reads from `from_id` to `to_id`; `phrase_for` says it as seen from either end, the words the cards,
the history panel and `show` use ("merged into #12" on #7, "merged from #7" on #12).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Relation(StrEnum):
    MERGED_INTO = "merged_into"  # from the absorbed memory to the one kept
    SUPERSEDES = "supersedes"  # from the new memory to the old one
    RESOLVED_CONTRADICTION = "resolved_contradiction"  # from the memory kept to the one it contradicted


# (said on the `from` end, said on the `to` end); the other end's id follows.
_PHRASES = {
    Relation.MERGED_INTO: ("merged into", "merged from"),
    Relation.SUPERSEDES: ("supersedes", "superseded by"),
    Relation.RESOLVED_CONTRADICTION: ("kept over the contradicting", "contradicted, set aside for"),
}


@dataclass(frozen=True, slots=True)
class Link:
    id: int
    memory_kind: str  # a `MemoryKind.name`: "user" or "project"
    from_id: int
    to_id: int
    relation: str  # a `Relation` value; another value (a newer version's) is shown as it is
    made_at: int
    made_by: str  # `command:<log id>` or `run:<run id>`

    def other_end(self, memory_id: int) -> int:
        return self.to_id if memory_id == self.from_id else self.from_id

    def phrase_for(self, memory_id: int) -> str:
        """The link as seen from `memory_id`'s end: "merged into #12"."""
        outgoing = memory_id == self.from_id
        try:
            words = _PHRASES[Relation(self.relation)][0 if outgoing else 1]
        except ValueError:
            words = f"{self.relation} ({'to' if outgoing else 'from'})"
        return f"{words} #{self.other_end(memory_id)}"


def grouped_phrases(memory_id: int, links: list[Link]) -> list[str]:
    """The links of one memory as short phrases, one per relation and direction: "merged from #7, #9"."""
    grouped: dict[str, list[int]] = {}
    for link in links:
        words = link.phrase_for(memory_id).rsplit(" #", 1)[0]
        grouped.setdefault(words, []).append(link.other_end(memory_id))
    return [
        f"{words} " + ", ".join(f"#{other}" for other in dict.fromkeys(ids)) for words, ids in grouped.items()
    ]
