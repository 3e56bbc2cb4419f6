"""The pairs that may contradict as a person reads them: one pair per two groups, and pairs that clash
alike folded under one.

Memories repeat a choice in several wordings, so a person who once chose Neovim and once Zed may have
five memories for each: twenty-five pairs that all say "Neovim or Zed?". They are listed once, the
first pair found standing for the others (`Contradiction.also`), so the list stays one a person can
read: one entry per thing refused and used, or per two choices in one category.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from app.tidy.model import Contradiction


@dataclass(frozen=True, slots=True)
class Listed:
    """A pair found to clash, with the finder's positions of its two memories and the clash's topic."""

    pair: Contradiction
    rep_a: int
    rep_b: int
    topic: Hashable


def as_listed(found: list[Listed], root_of: Callable[[int], int]) -> list[Contradiction]:
    """`found` as listed: a pair between two groups already listed is left out (when #3 and #9 are
    duplicates, "#3 may contradict #5" says all that "#9 may contradict #5" would), and each topic's
    first pair carries the others in `also`, in the order found."""
    seen: set[frozenset[int]] = set()
    first_of: dict[Hashable, int] = {}
    kept: list[Contradiction] = []
    alike: list[list[tuple[int, int]]] = []
    for listed in found:
        groups = frozenset((root_of(listed.rep_a), root_of(listed.rep_b)))
        if groups in seen:
            continue
        seen.add(groups)
        number = first_of.get(listed.topic) if listed.topic is not None else None
        if number is None:
            if listed.topic is not None:
                first_of[listed.topic] = len(kept)
            kept.append(listed.pair)
            alike.append([])
        else:
            alike[number].append((listed.pair.a, listed.pair.b))
    return [replace(pair, also=tuple(more)) if more else pair for pair, more in zip(kept, alike, strict=True)]
