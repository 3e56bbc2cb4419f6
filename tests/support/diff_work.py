"""How much work the diff engine did, counted instead of timed (speed is measured by `make bench`, never
asserted in a test): the cells (old items × new items) asked of the exact matcher, the real C++
`Indel.opcodes` wrapped, the Python steps spent looking for a token boundary, and the characters
searched for a blank around an anchor."""

from __future__ import annotations

import re
import sys
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import pytest
from rapidfuzz.distance import Indel

from app.diff import engine as diff_engine
from app.diff import match as diff_match


@dataclass
class DiffWork:
    cells: int = 0  # the sum of len(old) × len(new) over the matcher's calls
    largest_call: int = 0
    boundary_steps: int = 0  # calls of the engine's `_is_boundary`, one Python step each
    blank_search_chars: int = 0  # characters the engine's blank pattern was asked to search


class _CountedIndel:
    """`rapidfuzz.distance.Indel` as `app.diff.match` uses it, counting the cells it is asked for."""

    def __init__(self, work: DiffWork) -> None:
        self._work = work

    def opcodes(self, old: Sequence[Hashable], new: Sequence[Hashable]) -> object:
        cells = len(old) * len(new)
        self._work.cells += cells
        self._work.largest_call = max(self._work.largest_call, cells)
        return Indel.opcodes(old, new)


class _CountedPattern:
    """A compiled pattern whose `search` counts the characters it is asked to look through."""

    def __init__(self, pattern: re.Pattern[str], work: DiffWork) -> None:
        self._pattern = pattern
        self._work = work

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        self._work.blank_search_chars += max(0, min(endpos, len(text)) - pos)
        return self._pattern.search(text, pos, endpos)


def count_diff_work(monkeypatch: pytest.MonkeyPatch) -> DiffWork:
    """Count the work of every diff computed until `monkeypatch` is undone (in any thread)."""
    work = DiffWork()
    monkeypatch.setattr(diff_match, "Indel", _CountedIndel(work))
    is_boundary = diff_engine._is_boundary

    def counted_is_boundary(text: str, index: int) -> bool:
        work.boundary_steps += 1
        return is_boundary(text, index)

    monkeypatch.setattr(diff_engine, "_is_boundary", counted_is_boundary)
    monkeypatch.setattr(diff_engine, "_BLANK", _CountedPattern(diff_engine._BLANK, work))
    return work
