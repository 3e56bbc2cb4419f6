"""`app.diff.engine.diff_segments`: the diff computed piece by piece is the diff computed whole."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.diff import engine as diff_engine
from app.diff import match
from app.diff.engine import SEGMENT_CHARS, _raw_ops, diff_segments, raw_diff
from app.diff.tidy import normalized, tidy
from tests.bench.bench_diff import SEED, cases
from tests.diff.diff_cases import edited_pairs, texts


def _whole(old: str, new: str) -> list[tuple[str, str]]:
    """The ops of tidying every raw op at once: what `raw_diff` gave before it worked piece by piece."""
    return list(tidy(list(_raw_ops(old, new))))


def _pieced(old: str, new: str, size: int) -> list[tuple[str, str]]:
    ops = []
    for segment in diff_segments(old, new, size):
        ops.extend(segment)
    return list(normalized(ops))


@settings(max_examples=400, deadline=None)
@given(edited_pairs(), st.integers(1, 8))
def test_pieces_join_to_the_whole_diff_of_edited_texts(pair: tuple[str, str], size: int) -> None:
    old, new = pair
    assert _pieced(old, new, size) == _whole(old, new) == list(raw_diff(old, new))


@settings(max_examples=200, deadline=None)
@given(texts, texts, st.integers(1, 4))
def test_pieces_join_to_the_whole_diff_of_unrelated_texts(old: str, new: str, size: int) -> None:
    assert _pieced(old, new, size) == _whole(old, new)


def test_pieces_join_to_the_whole_diff_of_64_kib_memories() -> None:
    for name, old, new in cases(random.Random(SEED)):
        for size in (1, 48):
            assert _pieced(old, new, size) == _whole(old, new), name


def test_a_long_diff_comes_in_many_pieces_and_the_first_is_small() -> None:
    _, old, new = cases(random.Random(SEED))[0]  # 5% of the words changed, scattered over 64 KiB
    pieces = list(diff_segments(old, new))
    assert len(pieces) > 20
    assert sum(len(text) for _, text in pieces[0]) < len(old) / 10


def test_an_unchanged_start_comes_first_without_matching_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    # A 64 KiB text whose first screen is unchanged: the first piece is that start, and the line
    # matcher has not run yet (it runs for the second piece).
    lines = [f"line {number}: {'word ' * 40}\n" for number in range(300)]
    old = "".join(lines)
    new = "".join([*lines[:150], "a new line\n", *lines[150:]])
    calls: list[int] = []

    def counted(old_keys: Sequence[Hashable], new_keys: Sequence[Hashable]) -> list[match.Opcode]:
        calls.append(len(old_keys))
        return match.opcodes(old_keys, new_keys)

    monkeypatch.setattr(diff_engine, "opcodes", counted)
    pieces = diff_segments(old, new)
    first = next(pieces)
    assert calls == []
    assert first == [("equal", "".join(lines[:149]))]  # all but the last shared line, its own op
    assert len(first[0][1]) >= SEGMENT_CHARS
    rest = [op for piece in pieces for op in piece]
    assert calls and normalized([*first, *rest]) == _whole(old, new)
    assert ("insert", "a new line\n") in rest
