"""The diff of texts of any length or spacing with bounded work: a run too long to be a word is cut where
the texts part, texts over `WORD_LEVEL_MAX_TOTAL` together are compared line by line (unchanged runs
folded inline too), sequences too long for the exact matcher are matched at anchors, and a line too long
to lay out shows its changes with the unchanged stretches around them shortened.

The work is counted (`diff_work`), not timed: speed is measured by `make bench`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.diff import engine as diff_engine
from app.diff import match as diff_match
from app.diff import style as diff_style
from app.diff.engine import LONG_TOKEN
from app.diff.match import opcodes
from app.diff.stream import DiffStream, Fold, InlineLine, ViewRow
from app.diff.style import styled_line
from app.diff.text_diff import DiffOp, word_diff
from tests.diff.diff_cases import assert_well_formed, edited_pairs
from tests.support.diff_work import count_diff_work

MIB = 1024 * 1024
# Finding the common ends walks back to a token boundary at most `LONG_TOKEN` characters, in both texts,
# from the end of the common prefix and from the start of the common suffix: a run longer than that is
# cut where the texts part. A walk to the run's start was a Python step a character (seconds on 10 MiB).
BOUNDARY_STEPS = 2 * 2 * (LONG_TOKEN + 1)
FEW_CELLS = 1_000  # a run without a space is one token: nothing, or next to nothing, to match
# Anchors are looked for at a few places, each a search for a blank at most `LONG_TOKEN` characters away
# (twice: the anchor's start and end); a text without any blank took a search to its end per try.
BLANK_SEARCH_CHARS = diff_engine._ANCHOR_TRIES * 2 * LONG_TOKEN


def test_one_char_changed_in_10_mib_without_a_space_is_found_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    old = "y" * (10 * MIB)
    new = old[: 5 * MIB] + "Z" + old[5 * MIB + 1 :]
    work = count_diff_work(monkeypatch)
    ops = word_diff(old, new)
    assert work.boundary_steps <= BOUNDARY_STEPS
    assert work.cells <= FEW_CELLS
    assert work.blank_search_chars <= BLANK_SEARCH_CHARS
    assert ops == [
        DiffOp("equal", old[: 5 * MIB]),
        DiffOp("delete", "y"),
        DiffOp("insert", "Z"),
        DiffOp("equal", old[5 * MIB + 1 :]),
    ]


@pytest.mark.parametrize("size", [MIB, 10 * MIB], ids=["1 MiB, word level", "10 MiB, line level"])
def test_a_run_rewritten_without_a_space_is_one_change_at_once(
    monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    old, new = "y" * size, "z" * size
    work = count_diff_work(monkeypatch)
    ops = word_diff(old, new)
    assert work.boundary_steps <= BOUNDARY_STEPS
    assert work.cells <= FEW_CELLS
    assert work.blank_search_chars <= BLANK_SEARCH_CHARS
    assert ops == [DiffOp("delete", old), DiffOp("insert", new)]


def test_texts_over_the_threshold_are_compared_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    half = diff_engine.WORD_LEVEL_MAX_TOTAL // 2
    assert diff_engine.word_level("a" * half, "b" * half)
    assert not diff_engine.word_level("a" * half, "b" * (half + 1))
    lines = [f"line {number} says something" for number in range(120_000)]
    old = "\n".join(lines)
    new = "\n".join(
        line.replace("says", "SAYS") if number % 1000 == 0 else line for number, line in enumerate(lines)
    )
    work = count_diff_work(monkeypatch)
    stream = DiffStream(old, new, side_by_side=False)
    rows = stream.rest()
    assert stream.line_level
    # Lines are matched around unique lines (anchors), never as the 120,000 × 120,000 cells of an exact match.
    assert work.cells <= diff_match.EXACT_CELLS
    assert stream.changed_lines == (120, 120)
    assert len(rows) < 2000  # the unchanged runs are folded: 120 changes, not 120,000 rows
    assert sum(row.count for row in rows if isinstance(row, Fold)) > 110_000


def _inline_text(rows: list[ViewRow]) -> str:
    lines: list[InlineLine] = []
    for row in rows:
        for unfolded in row.rows if isinstance(row, Fold) else [row]:
            assert isinstance(unfolded, InlineLine)
            lines.append(unfolded)
    return "".join(op.text for line in lines for op in line.ops)


@settings(max_examples=200, deadline=None)
@given(edited_pairs(), st.integers(0, 3))
def test_line_level_inline_rows_with_their_folds_join_to_the_diff(
    pair: tuple[str, str], context: int
) -> None:
    old, new = pair
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(diff_engine, "WORD_LEVEL_MAX_TOTAL", -1)  # every diff line by line
        ops = word_diff(old, new)
        assert_well_formed(old, new, ops)
        stream = DiffStream(old, new, side_by_side=False, context=context)
        rows = stream.rest()
    assert stream.done and stream.line_level
    assert _inline_text(rows) == "".join(op.text for op in ops)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from("abcdefgh"), max_size=40),
    st.lists(st.sampled_from("abcdefgh"), max_size=40),
    st.integers(1, 30),
)
def test_matching_at_anchors_covers_both_sides_in_order(old: list[str], new: list[str], cells: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(diff_match, "EXACT_CELLS", cells)  # long sequences, scaled down
        blocks = opcodes(old, new)
    i = j = 0
    for number, (tag, i1, i2, j1, j2) in enumerate(blocks):
        assert (i1, j1) == (i, j)
        if tag == "equal":
            assert old[i1:i2] == new[j1:j2]
        if number:
            assert (tag == "equal") != (blocks[number - 1][0] == "equal"), "blocks of a kind are merged"
        i, j = i2, j2
    assert (i, j) == (len(old), len(new))


def test_anchors_find_what_moved_around_unique_lines() -> None:
    old = [f"unique {number}" for number in range(50)]
    new = [*old[:20], "inserted", *old[20:]]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(diff_match, "EXACT_CELLS", 10)
        assert opcodes(old, new) == [
            ("equal", 0, 20, 0, 20),
            ("insert", 20, 20, 20, 21),
            ("equal", 20, 50, 21, 51),
        ]


def test_a_long_line_shows_its_change_between_shortened_unchanged_stretches() -> None:
    old = "y" * (2 * MIB)
    new = old[:MIB] + "Z" + old[MIB + 1 :]
    styled = styled_line(word_diff(old, new))
    assert len(styled.text) < 2 * diff_style.LINE_CHARS
    assert f"⋯ {MIB - 2 * diff_style.CONTEXT_CHARS:,} unchanged characters ⋯" in styled.text
    changed = [styled.text[start:end] for start, end, kind in styled.spans if kind in ("insert", "delete")]
    assert changed == ["y", "Z"]
    inserted = styled_line([DiffOp("insert", old)])
    hidden = 2 * MIB - diff_style.LINE_CHARS
    assert inserted.text.endswith(f" … {hidden:,} more characters on this line, not shown")
    assert inserted.spans[-1][2] == "note"
