"""Matching two sequences (lines, or word units) for the diff engine: difflib-style opcodes, and the
length of a common start and end, at C speed.

`rapidfuzz`'s `Indel.opcodes` computes a longest common subsequence with a bit-parallel algorithm in
C++ (about 50 times faster than `difflib.SequenceMatcher` on the lines of a 64 KiB memory, and never
quadratic in Python). Its opcodes hold no `replace`: a run of deletes and inserts between two equal
blocks is merged here into one `replace`, as `SequenceMatcher.get_opcodes` reports it, so callers can
treat a replaced block as a unit (pair its lines, diff its words).

The exact matcher's time and memory grow with the product of the two lengths (seconds and gigabytes at
100,000 lines a side). Longer sequences are matched as patience diff does: items
found exactly once on each side are matched in order (the longest run of them increasing on both sides),
and the stretches between two such anchors are matched again, exactly once they are small enough. A
stretch without anchors that is still too large is replaced whole: no longer the least change, but
found in about linear time.
"""

from __future__ import annotations

import bisect
import itertools
import operator
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import cast

from rapidfuzz.distance import Indel, Postfix, Prefix

Opcode = tuple[str, int, int, int, int]  # tag, old start, old end, new start, new end

# Above this many cells (old items × new items) sequences are matched at anchors first (about 40 ms).
EXACT_CELLS = 10**8
_MAX_ANCHOR_ROUNDS = 4  # stretches between anchors looked into again at most this deep


def opcodes(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[Opcode]:
    """`equal`, `delete`, `insert` and `replace` blocks covering both sequences in order."""
    merged: list[Opcode] = []
    for block in _blocks(old, new, 0, len(old), 0, len(new), 0):
        tag = block[0]
        if merged and (tag == "equal") == (merged[-1][0] == "equal"):  # two of a kind: one block
            previous = merged[-1]
            merged[-1] = (tag if tag == "equal" else "replace", previous[1], block[2], previous[3], block[4])
        else:
            merged.append(block)
    return merged


def _blocks(
    old: Sequence[Hashable], new: Sequence[Hashable], i1: int, i2: int, j1: int, j2: int, depth: int
) -> list[Opcode]:
    """Blocks covering old[i1:i2] and new[j1:j2], unmerged."""
    if i1 == i2 or j1 == j2:
        return [("delete" if i1 < i2 else "insert", i1, i2, j1, j2)] if (i1, j1) != (i2, j2) else []
    if (i2 - i1) * (j2 - j1) <= EXACT_CELLS:
        # As plain tuples (typed as rapidfuzz's Opcode objects): reading their attributes cost more than C.
        found = cast(list[Opcode], Indel.opcodes(old[i1:i2], new[j1:j2]).as_list())
        return [(tag, a1 + i1, a2 + i1, b1 + j1, b2 + j1) for tag, a1, a2, b1, b2 in found]
    anchors = _anchors(old, new, i1, i2, j1, j2) if depth < _MAX_ANCHOR_ROUNDS else []
    if not anchors:
        return [("replace", i1, i2, j1, j2)]
    blocks: list[Opcode] = []
    for i, j in [*anchors, (i2, j2)]:
        if i > i1 or j > j1:
            blocks.extend(_blocks(old, new, i1, i, j1, j, depth + 1))
        elif blocks and i < i2:  # the anchor right after the last one: its equal block grows
            blocks[-1] = ("equal", blocks[-1][1], i + 1, blocks[-1][3], j + 1)
            i1, j1 = i + 1, j + 1
            continue
        if i < i2:
            blocks.append(("equal", i, i + 1, j, j + 1))
        i1, j1 = i + 1, j + 1
    return blocks


def _anchors(
    old: Sequence[Hashable], new: Sequence[Hashable], i1: int, i2: int, j1: int, j2: int
) -> list[tuple[int, int]]:
    """Pairs (i, j) of items found once in old[i1:i2] and once in new[j1:j2], equal, and in the same
    order on both sides: the longest such run (a patience sort of their positions in `new`)."""
    old_part, new_part = old[i1:i2], new[j1:j2]
    old_counts, new_counts = Counter(old_part), Counter(new_part)
    in_new = dict(zip(new_part, itertools.count(j1)))  # built in C; read only for items found once
    pairs = [
        (i, in_new[item])
        for i, item in enumerate(old_part, i1)
        if old_counts[item] == 1 and new_counts.get(item) == 1
    ]
    new_positions = [j for _, j in pairs]
    if all(map(operator.lt, new_positions, itertools.islice(new_positions, 1, None))):
        return pairs  # in order on both sides already (a text edited in place): all of them, at C speed
    tops: list[int] = []  # the smallest last `j` of an increasing run of each length
    top_pairs: list[int] = []  # the index in `pairs` of that run's last pair
    before: list[int] = []  # for each pair, the index of the pair before it in its run (-1: none)
    for number, (_, j) in enumerate(pairs):
        length = bisect.bisect_left(tops, j)
        before.append(top_pairs[length - 1] if length else -1)
        if length == len(tops):
            tops.append(j)
            top_pairs.append(number)
        else:
            tops[length], top_pairs[length] = j, number
    run: list[tuple[int, int]] = []
    at = top_pairs[-1] if top_pairs else -1
    while at >= 0:
        run.append(pairs[at])
        at = before[at]
    return run[::-1]


def common_prefix_length(old: str, new: str) -> int:
    """How many characters the two texts share at their start (compared in C++)."""
    return int(Prefix.similarity(old, new))


def common_suffix_length(old: str, new: str, limit: int) -> int:
    """How many characters they share at their end, at most `limit` (none when it is 0 or less)."""
    return min(int(Postfix.similarity(old, new)), limit) if limit > 0 else 0


__all__ = ["EXACT_CELLS", "Opcode", "common_prefix_length", "common_suffix_length", "opcodes"]
