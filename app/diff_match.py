"""Matching two sequences (lines, or word units) for the diff engine: difflib-style opcodes, at C speed.

`rapidfuzz`'s `Indel.opcodes` computes a longest common subsequence with a bit-parallel algorithm in
C++ (about 50 times faster than `difflib.SequenceMatcher` on the lines of a 64 KiB memory, and never
quadratic in Python). Its opcodes hold no `replace`: a run of deletes and inserts between two equal
blocks is merged here into one `replace`, as `SequenceMatcher.get_opcodes` reports it, so callers can
treat a replaced block as a unit (pair its lines, diff its words).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rapidfuzz.distance import Indel

Opcode = tuple[str, int, int, int, int]  # tag, old start, old end, new start, new end


def opcodes(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[Opcode]:
    """`equal`, `delete`, `insert` and `replace` blocks covering both sequences in order."""
    merged: list[Opcode] = []
    for block in Indel.opcodes(old, new):
        tag, i1, i2, j1, j2 = block.tag, block.src_start, block.src_end, block.dest_start, block.dest_end
        if tag != "equal" and merged and merged[-1][0] != "equal":
            _, k1, _, l1, _ = merged[-1]
            merged[-1] = ("replace", k1, i2, l1, j2)
        else:
            merged.append((tag, i1, i2, j1, j2))
    return merged


__all__ = ["Opcode", "opcodes"]
