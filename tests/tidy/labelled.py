"""The labelled pairs (tests/tidy/data/labelled_pairs.json) and how the finder scores on them.

Every text of every pair goes into one run of the finder, as a person's memories would; a pair labelled
`duplicate` is found when its two texts end in one group, a `contradiction` when the pair is listed as
may contradict. Precision counts the other labels' pairs wrongly found.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from app.tidy.finder import find_groups
from app.tidy.model import TidyItem, TidyReport

DATA = Path(__file__).parent / "data" / "labelled_pairs.json"
DUPLICATE, CONTRADICTION, UNRELATED = "duplicate", "contradiction", "unrelated"


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    label: str
    origin: str


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    missed: list[Pair]
    wrong: list[Pair]


def labelled_pairs() -> list[Pair]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return [Pair(p["a"], p["b"], p["label"], p["origin"]) for p in data["pairs"]]


def run_on(pairs: list[Pair]) -> tuple[dict[str, int], TidyReport]:
    """The finder over every text of `pairs` (each text once), and the id each text got."""
    ids: dict[str, int] = {}
    for pair in pairs:
        for text in (pair.a, pair.b):
            ids.setdefault(text, len(ids) + 1)
    items = [TidyItem(memory_id, text, promoted_at=memory_id) for text, memory_id in ids.items()]
    return ids, find_groups(items)


def scores(pairs: list[Pair], label: str) -> Scores:
    """Precision and recall of `label` (duplicate: same group; contradiction: listed) over `pairs`."""
    ids, report = run_on(pairs)
    group_of = {member: -number for number, group in enumerate(report.groups, 1) for member in group.members}

    def where(memory: int) -> int:
        return group_of.get(memory, memory)  # a group (negative) or the memory itself

    # A pair is listed once per two groups: "#3 may contradict #5" stands for #3's duplicates too; and
    # pairs that clash alike are listed under the first (`Contradiction.also`).
    listed = {
        frozenset((where(a), where(b))) for c in report.contradictions for a, b in ((c.a, c.b), *c.also)
    }

    def found(pair: Pair) -> bool:
        a, b = ids[pair.a], ids[pair.b]
        if label == DUPLICATE:
            return a in group_of and group_of.get(a) == group_of.get(b)
        return frozenset((where(a), where(b))) in listed

    hits = [pair for pair in pairs if found(pair)]
    right = [pair for pair in hits if pair.label == label]
    wanted = [pair for pair in pairs if pair.label == label]
    return Scores(
        precision=len(right) / len(hits) if hits else 1.0,
        recall=len(right) / len(wanted) if wanted else 1.0,
        missed=[pair for pair in wanted if pair not in hits],
        wrong=[pair for pair in hits if pair.label != label],
    )
