"""Blocking: which pairs of memories are worth comparing, far fewer than all pairs.

An inverted index over each memory's rare words: its `PREFIX` rarest content words that at least one
other memory shares, plus the categories it names ("@database" for Postgres or MySQL, so a switch of
tool meets what it replaces). A word in more than `block_cap(n)` memories is too common to say what a
memory is about and makes no block; a word in one memory alone cannot pair it. Two memories are compared
only when they share a block: near duplicates share their rarest words.

The work is bounded: when the blocks together would hold more than their pair budget (`PAIR_BUDGET`
for a whole run; a share of it in proportion to its memories for one project and category of many),
the largest blocks (the least telling words) are dropped until they fit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from app.tidy.lexicon import MEMBER_OF

PREFIX = 4  # rarest words per memory that make its blocks
MIN_BLOCK = 64  # a block may always hold this many memories...
BLOCK_SHARE = 0.002  # ...or this share of all memories, whichever is more
PAIR_BUDGET = 150_000  # the most pairs all blocks of a run together may hold
CATEGORY_MARK = "@"

_MEMBERS = frozenset(MEMBER_OF)


def block_cap(count: int) -> int:
    """The most memories a word may appear in and still make a block."""
    return max(MIN_BLOCK, int(BLOCK_SHARE * count))


def keys_of(words: set[str]) -> set[str]:
    """A memory's block keys: its content words and the categories they name."""
    named = words & _MEMBERS
    return words | {CATEGORY_MARK + MEMBER_OF[word] for word in named} if named else words


def blocks(
    keys: Sequence[set[str]], budget: int = PAIR_BUDGET
) -> tuple[list[list[str]], dict[str, list[int]]]:
    """Each memory's block keys (its rarest shared words, then its categories), and the index from a
    key to the memories in its block, within `budget` pairs."""
    frequency: Counter[str] = Counter()
    for found in keys:
        frequency.update(found)
    cap = block_cap(len(keys))
    usable = {key for key, count in frequency.items() if 2 <= count <= cap}
    categories = {key for key in usable if key.startswith(CATEGORY_MARK)}
    usable -= categories
    chosen: list[list[str]] = []
    index: dict[str, list[int]] = {}
    for position, found in enumerate(keys):
        rare = sorted(sorted(found & usable), key=frequency.__getitem__)  # rarest first, ties by name
        mine = rare[:PREFIX] + sorted(found & categories)
        chosen.append(mine)
        for key in mine:
            index.setdefault(key, []).append(position)
    dropped = _over_budget(index, budget)
    if dropped:
        chosen = [[key for key in mine if key not in dropped] for mine in chosen]
    return chosen, index


def _over_budget(index: dict[str, list[int]], budget: int) -> set[str]:
    """Drop the largest blocks from `index` until all together hold at most `budget` pairs."""
    sizes = sorted(((len(members), key) for key, members in index.items() if len(members) > 1), reverse=True)
    total = sum(size * (size - 1) // 2 for size, _key in sizes)
    dropped: set[str] = set()
    for size, key in sizes:
        if total <= budget:
            break
        total -= size * (size - 1) // 2
        dropped.add(key)
        del index[key]
    return dropped
