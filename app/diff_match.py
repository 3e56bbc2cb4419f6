"""Matching two sequences (lines, or word units) for the diff engine: difflib-style opcodes, and the
length of a common start and end, at C speed.

`rapidfuzz`'s `Indel.opcodes` computes a longest common subsequence with a bit-parallel algorithm in
C++ (about 50 times faster than `difflib.SequenceMatcher` on the lines of a 64 KiB memory, and never
quadratic in Python). Its opcodes hold no `replace`: a run of deletes and inserts between two equal
blocks is merged here into one `replace`, as `SequenceMatcher.get_opcodes` reports it, so callers can
treat a replaced block as a unit (pair its lines, diff its words).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from rapidfuzz.distance import Indel, Postfix, Prefix

Opcode = tuple[str, int, int, int, int]  # tag, old start, old end, new start, new end


def opcodes(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[Opcode]:
    """`equal`, `delete`, `insert` and `replace` blocks covering both sequences in order."""
    merged: list[Opcode] = []
    # As plain tuples (typed as rapidfuzz's Opcode objects): reading their attributes cost more than C.
    blocks = cast(list[Opcode], Indel.opcodes(old, new).as_list())
    for block in blocks:
        if block[0] != "equal" and merged and merged[-1][0] != "equal":
            previous = merged[-1]
            merged[-1] = ("replace", previous[1], block[2], previous[3], block[4])
        else:
            merged.append(block)
    return merged


def common_prefix_length(old: str, new: str) -> int:
    """How many characters the two texts share at their start (compared in C++)."""
    return int(Prefix.similarity(old, new))


def common_suffix_length(old: str, new: str, limit: int) -> int:
    """How many characters they share at their end, at most `limit` (none when it is 0 or less)."""
    return min(int(Postfix.similarity(old, new)), limit) if limit > 0 else 0


__all__ = ["Opcode", "common_prefix_length", "common_suffix_length", "opcodes"]
