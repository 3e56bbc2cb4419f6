"""What the tidy finder takes and returns: memories in, groups of likely duplicates and pairs that may
contradict out, each with why. Plain frozen data with its JSON shape (the CLI's `tidy --json`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.present.plural import noun

EdgeKind = Literal["exact", "close"]
SHOWN_ALIKE = 6  # pairs alike named after a pair that may contradict; the JSON has them all


@dataclass(frozen=True, slots=True)
class TidyItem:
    """One memory as the finder sees it: its id, its text, and the evidence a listing shows beside it."""

    id: int
    text: str
    sources: tuple[str, ...] = ()
    promoted_at: int = 0


@dataclass(frozen=True, slots=True)
class Edge:
    """Why two members of a group belong together: the same normal form (`exact`, score 100), or close
    wording (`close`: the score from 0 to 100 and the rare words they share, which put them side by side)."""

    a: int
    b: int
    kind: EdgeKind
    score: float
    shared: tuple[str, ...] = ()

    def why(self) -> str:
        if self.kind == "exact":
            return "the same text (case, spaces and punctuation aside)"
        words = f"; shared words: {', '.join(self.shared)}" if self.shared else ""
        return f"close wording ({self.score:.0f}/100){words}"

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "kind": self.kind,
            "score": round(self.score, 1),
            "shared": list(self.shared),
        }


@dataclass(frozen=True, slots=True)
class Group:
    """Likely duplicates: members in promotion order (the oldest first), the edges that joined them, and
    the score of the weakest edge (100: every member has the same text)."""

    members: tuple[int, ...]
    edges: tuple[Edge, ...]
    score: float

    def reasons(self, member: int) -> list[str]:
        """Why `member` is in the group: one line per edge that touches it."""
        found = []
        for edge in self.edges:
            if member in (edge.a, edge.b):
                other = edge.b if edge.a == member else edge.a
                found.append(f"with #{other}: {edge.why()}")
        return found


@dataclass(frozen=True, slots=True)
class Contradiction:
    """Two memories that may contradict: what clashes, in words ("npm: refused in #3, used in #7"), and
    the subject words they share, and the other pairs that clash alike. Listed, never acted on."""

    a: int
    b: int
    reason: str
    shared: tuple[str, ...] = ()
    also: tuple[tuple[int, int], ...] = ()  # other pairs that clash alike (`app.tidy.clashes`)

    def alike(self) -> str:
        """The other pairs that clash alike, in words ("and 3 more pairs alike: #5/#9, …"), or ""."""
        if not self.also:
            return ""
        shown = ", ".join(f"#{a}/#{b}" for a, b in self.also[:SHOWN_ALIKE])
        more = ", …" if len(self.also) > SHOWN_ALIKE else ""
        return f"and {len(self.also)} more {noun(len(self.also), 'pair')} alike: {shown}{more}"

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "reason": self.reason,
            "shared": list(self.shared),
            "also": [[a, b] for a, b in self.also],
        }


@dataclass(frozen=True, slots=True)
class TidyReport:
    """The finder's answer over `memories` memories, having scored `compared` pairs."""

    groups: tuple[Group, ...]
    contradictions: tuple[Contradiction, ...]
    memories: int
    compared: int
