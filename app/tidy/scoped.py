"""Tidy over project memories: the finder run within each project and category on its own, so a group
or a pair that may contradict never spans two projects (or two categories of one: an architecture note
and a gotcha are not one memory said twice).

One progress over all scopes: each scope's steps are offset by the memories of the scopes before it. One
pair budget too: each scope may compare its share of `PAIR_BUDGET`, in proportion to its memories, so
two hundred scopes cost what one run over as many memories would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.tidy.blocks import PAIR_BUDGET
from app.tidy.finder import CancelCheck, Progress, find_groups
from app.tidy.model import TidyItem, TidyReport


@dataclass(frozen=True, slots=True)
class Scope:
    """The memories of one project and category: the project's identity and the name it is shown by."""

    project: str
    name: str
    category: str
    items: tuple[TidyItem, ...]


@dataclass(frozen=True, slots=True)
class ScopedReport:
    scope: Scope
    report: TidyReport


def find_in_scopes(
    scopes: Sequence[Scope], progress: Progress | None = None, cancel: CancelCheck | None = None
) -> list[ScopedReport]:
    """The finder's answer for each scope, in the order given; a cancelled run raises `TidyCancelled`."""
    memories = sum(len(scope.items) for scope in scopes)
    total = 3 * memories
    before = 0
    found = []
    for scope in scopes:
        offset = before

        def moved(done: int, _total: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + done, total)

        budget = max(1, PAIR_BUDGET * len(scope.items) // max(1, memories))
        found.append(ScopedReport(scope, find_groups(scope.items, moved, cancel, budget)))
        before += 3 * len(scope.items)
    if progress is not None:
        progress(total, total)
    return found
