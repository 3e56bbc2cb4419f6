"""The tidy finder: groups of likely duplicates and pairs that may contradict, over any list of memories.

Exact duplicates share a normal form (`app.tidy.words.normal_form`) and are grouped by it first; one
member of each stands for it in everything after. Those are blocked on their rare words
(`app.tidy.blocks`), and each pair within a block is judged (`app.tidy.judge`). Groups are the connected
components of the accepted edges (union-find); a pair that may contradict is listed apart and never
joins a group.

Pure: no database, no Qt. A caller on a worker passes `progress(done, total)` and a cancel check (a
callable or a `threading.Event`); a cancelled run raises `TidyCancelled`.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Sequence

from app.tidy.blocks import CATEGORY_MARK, PAIR_BUDGET, blocks, keys_of
from app.tidy.clashes import Listed, as_listed
from app.tidy.judge import Clash, Close, Side, judge, worth_judging
from app.tidy.model import Contradiction, Edge, Group, TidyItem, TidyReport
from app.tidy.words import GENERIC_WORDS, content_words, head_words, joined, normal_chunks

Progress = Callable[[int, int], None]
CancelCheck = Callable[[], bool] | threading.Event
REPORT_EVERY = 2_000  # items between two progress calls (and cancel checks)
SHOWN_SHARED = 5  # shared words an edge keeps as its reason
# Blocks are made of the words in each memory's first this many chunks (about 400 characters): near
# duplicates share their opening far more often than not, and a 2,000-character memory costs no more
# than a long sentence. The judge then reads both memories whole.
BLOCK_CHUNKS = 50


class TidyCancelled(Exception):
    """The run was cancelled before it finished; it found nothing worth keeping."""


class _Steps:
    """Counts work done, reports progress every `REPORT_EVERY` steps, and stops a cancelled run."""

    def __init__(self, total: int, progress: Progress | None, cancel: CancelCheck | None) -> None:
        self.total = total
        self.done = 0
        self._progress = progress
        self._cancelled: Callable[[], bool] | None = (
            cancel.is_set if isinstance(cancel, threading.Event) else cancel
        )

    def step(self) -> None:
        self.done += 1
        if self.done % REPORT_EVERY == 0:
            self.report()

    def report(self) -> None:
        if self._cancelled is not None and self._cancelled():
            raise TidyCancelled
        if self._progress is not None:
            self._progress(min(self.done, self.total), self.total)


class _Components:
    """Union-find over positions, with path halving and union by size."""

    def __init__(self, count: int) -> None:
        self.parent = list(range(count))
        self.size = [1] * count

    def find(self, item: int) -> int:
        parent = self.parent
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def join(self, a: int, b: int) -> None:
        a, b = self.find(a), self.find(b)
        if a == b:
            return
        if self.size[a] < self.size[b]:
            a, b = b, a
        self.parent[b] = a
        self.size[a] += self.size[b]


def find_groups(
    items: Sequence[TidyItem],
    progress: Progress | None = None,
    cancel: CancelCheck | None = None,
    pair_budget: int = PAIR_BUDGET,
) -> TidyReport:
    """Groups of likely duplicates among `items` and the pairs that may contradict, comparing at most
    `pair_budget` pairs (`app.tidy.blocks`)."""
    # The finder makes millions of small objects and no reference cycles; with 100,000 memories alive in
    # the caller, each of the collector's full passes would walk all of them again (in the bench, a
    # quarter of the run). Paused for the run, resumed as it was.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _find(items, progress, cancel, pair_budget)
    finally:
        if collecting:
            gc.enable()


def _find(
    items: Sequence[TidyItem], progress: Progress | None, cancel: CancelCheck | None, pair_budget: int
) -> TidyReport:
    steps = _Steps(3 * len(items), progress, cancel)
    classes: dict[str, list[int]] = {}
    heads: list[list[str]] = []  # the first chunks of each exact class's first member
    for position, item in enumerate(items):
        chunks = normal_chunks(item.text)
        normal = joined(chunks)
        found = classes.get(normal)
        if found is None:
            classes[normal] = [position]
            heads.append(chunks[:BLOCK_CHUNKS])
        else:
            found.append(position)
        steps.step()
    normals = list(classes)
    members = list(classes.values())
    keys = []
    for head in heads:
        keys.append(keys_of(head_words(head)))
        steps.step()
    steps.done = 2 * len(items)
    chosen, index = blocks(keys, pair_budget)
    categories = [frozenset(key for key in mine if key.startswith(CATEGORY_MARK)) for mine in chosen]
    steps.report()
    sides: dict[int, Side] = {}

    def side(rep: int) -> Side:
        found = sides.get(rep)
        if found is None:
            whole = content_words(normals[rep])
            found = sides[rep] = Side(items[members[rep][0]].id, normals[rep], frozenset(whole))
        return found

    components = _Components(len(normals))
    close: list[tuple[int, int, Edge]] = []
    best_within: dict[int, tuple[int, Edge, tuple[float, int]]] = {}
    clashes: list[Listed] = []
    compared = 0
    share = len(items) / max(1, len(normals))
    for rep, mine in enumerate(chosen):
        partners: set[int] = set()
        for key in mine:
            partners.update(index[key])
        later = [other for other in partners if other > rep]
        compared += len(later)
        for other in sorted(worth_judging(keys[rep], categories[rep], later, keys, categories)):
            same_category = not categories[rep].isdisjoint(categories[other])
            a, b = side(rep), side(other)
            verdict = judge(a, b, same_category)
            if isinstance(verdict, Close):
                edge = Edge(a.id, b.id, "close", verdict.score, _shared_words(keys[rep], keys[other], mine))
                if verdict.within is None:
                    components.join(rep, other)
                    close.append((rep, other, edge))
                else:
                    short, long = (rep, other) if verdict.within == a.id else (other, rep)
                    _keep_best(best_within, short, long, edge, len(normals[long]))
            elif isinstance(verdict, Clash):
                pair = Contradiction(a.id, b.id, verdict.reason, verdict.shared)
                clashes.append(Listed(pair, rep, other, verdict.topic))
        steps.done = 2 * len(items) + int((rep + 1) * share)
        if rep % 256 == 0:
            steps.report()
    for short, (long, edge, _rank) in best_within.items():
        components.join(short, long)
        close.append((short, long, edge))
    steps.done = steps.total
    steps.report()
    groups = _groups(items, members, components, close)
    return TidyReport(tuple(groups), tuple(as_listed(clashes, components.find)), len(items), compared)


def _keep_best(
    best: dict[int, tuple[int, Edge, tuple[float, int]]], short: int, long: int, edge: Edge, length: int
) -> None:
    """Remember `long` as the match of the short memory `short` if it is its best yet: the highest score,
    then the shortest text (the one that adds the least)."""
    rank = (edge.score, -length)
    if short not in best or rank > best[short][2]:
        best[short] = (long, edge, rank)


def _shared_words(a: set[str], b: set[str], mine: list[str]) -> tuple[str, ...]:
    """The words two memories share, their block keys first (the rarest), stance verbs left out."""
    both = a & b
    first = [key for key in mine if key in both and not key.startswith("@")]
    rest = sorted(word for word in both if word not in first and not word.startswith("@"))
    return tuple(word for word in first + rest if word not in GENERIC_WORDS)[:SHOWN_SHARED]


def _groups(
    items: Sequence[TidyItem],
    members: list[list[int]],
    components: _Components,
    close: list[tuple[int, int, Edge]],
) -> list[Group]:
    """The groups: every component with more than one memory, exact copies included, oldest first."""
    by_root: dict[int, list[int]] = {}
    for rep in range(len(members)):
        root = components.find(rep)
        if root != rep or len(members[rep]) > 1 or components.size[root] > 1:
            by_root.setdefault(root, []).append(rep)
    edges_by_root: dict[int, list[Edge]] = {}
    for rep, _other, edge in close:
        edges_by_root.setdefault(components.find(rep), []).append(edge)
    groups = []
    for root, reps in by_root.items():
        positions = [position for rep in reps for position in members[rep]]
        if len(positions) < 2:
            continue
        edges = list(edges_by_root.get(root, []))
        for rep in reps:
            first = items[members[rep][0]].id
            edges += [Edge(first, items[p].id, "exact", 100.0) for p in members[rep][1:]]
        ordered = sorted(positions, key=lambda p: (items[p].promoted_at, items[p].id))
        score = min(edge.score for edge in edges)
        groups.append(Group(tuple(items[p].id for p in ordered), tuple(edges), score))
    groups.sort(key=lambda group: (-len(group.members), -group.score, group.members[0]))
    return groups
