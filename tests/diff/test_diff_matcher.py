"""The matcher under the diff (`app.diff.match`): its blocks keep a longest common subsequence, and the
common start and end it finds are a character-by-character walk's."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.diff.match import common_prefix_length, common_suffix_length, opcodes
from tests.diff.diff_cases import texts


def _lcs_length(old: list[str], new: list[str]) -> int:
    row = [0] * (len(new) + 1)
    for item in old:
        previous_diagonal = 0
        for j, other in enumerate(new, 1):
            previous_diagonal, row[j] = (
                row[j],
                (previous_diagonal + 1 if item == other else max(row[j], row[j - 1])),
            )
    return row[-1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=30), st.lists(st.sampled_from("abcd"), max_size=30))
def test_matcher_blocks_cover_both_sides_and_keep_a_longest_common_subsequence(
    old: list[str], new: list[str]
) -> None:
    blocks = opcodes(old, new)
    i = j = 0
    for number, (tag, i1, i2, j1, j2) in enumerate(blocks):
        assert (i1, j1) == (i, j)  # contiguous, in order
        assert tag in ("equal", "delete", "insert", "replace")
        if tag == "equal":
            assert old[i1:i2] == new[j1:j2]
        else:  # changes come merged: never two change blocks in a row
            assert number == 0 or blocks[number - 1][0] == "equal"
            assert (tag == "delete") == (j1 == j2) and (tag == "insert") == (i1 == i2)
        i, j = i2, j2
    assert (i, j) == (len(old), len(new))
    assert sum(i2 - i1 for tag, i1, i2, _, _ in blocks if tag == "equal") == _lcs_length(old, new)


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.integers(-2, 40))
def test_common_start_and_end_lengths_are_those_of_a_character_by_character_walk(
    old: str, new: str, limit: int
) -> None:
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new), limit) and old[len(old) - 1 - end] == new[len(new) - 1 - end]:
        end += 1
    assert common_prefix_length(old, new) == start
    assert common_prefix_length(old + "x" * 70_000, old + "y") == len(old)  # long texts, in C++
    assert common_suffix_length(old, new, limit) == end
