"""`app.diff.stream.DiffStream`: a diff's rows in batches, the first screen before the rest is computed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.diff.stream import DiffStream, Fold, InlineLine, ViewRow, screen_lines
from app.diff.text_diff import SideBySideRow, diff_stats, side_by_side, word_diff
from tests.bench.bench_diff import SEED, cases
from tests.diff.diff_cases import edited_pairs


def _unfolded(rows: list[ViewRow]) -> list[SideBySideRow]:
    out: list[SideBySideRow] = []
    for row in rows:
        for unfolded in row.rows if isinstance(row, Fold) else [row]:
            assert isinstance(unfolded, SideBySideRow)
            out.append(unfolded)
    return out


def _in_batches(stream: DiffStream, sizes: list[int]) -> list[ViewRow]:
    rows: list[ViewRow] = []
    for size in sizes:
        rows += stream.take(size)
    return rows + stream.rest()


@settings(max_examples=300, deadline=None)
@given(edited_pairs(), st.integers(0, 4), st.lists(st.integers(1, 5), max_size=6))
def test_batches_join_to_the_rows_of_the_whole_diff(
    pair: tuple[str, str], context: int, sizes: list[int]
) -> None:
    old, new = pair
    stream = DiffStream(old, new, side_by_side=True, context=context)
    rows = _in_batches(stream, sizes)
    assert stream.done
    assert _unfolded(rows) == side_by_side(old, new)
    ops = word_diff(old, new)
    assert stream.stats == diff_stats(ops)
    inline = _in_batches(DiffStream(old, new, side_by_side=False), sizes)
    assert "".join(op.text for line in inline if isinstance(line, InlineLine) for op in line.ops) == "".join(
        op.text for op in ops
    )


def test_folds_keep_context_and_never_hide_a_single_line() -> None:
    old = "".join(f"line {number}\n" for number in range(1, 31))
    new = old.replace("line 5\n", "line five\n").replace("line 20\n", "line twenty\n")
    rows = DiffStream(old, new, side_by_side=True, context=3).rest()
    shown = [f"fold {row.count}" if isinstance(row, Fold) else row.left_number for row in rows]  # type: ignore[union-attr]
    # Lines 1-4 come before the first change: folding 1 of them would hide a single line, so all show.
    assert shown == [1, 2, 3, 4, 5, 6, 7, 8, "fold 8", 17, 18, 19, 20, 21, 22, 23, "fold 7"]


def test_the_first_screen_of_a_64_kib_diff_is_a_small_part_of_it() -> None:
    _, old, new = cases(random.Random(SEED))[0]  # 5% of the words changed, scattered
    stream = DiffStream(old, new, side_by_side=False)
    first = stream.take_screen(40, 100)
    assert not stream.done
    assert 40 <= sum(screen_lines(row, 100) for row in first) < 80
    rest = stream.rest()
    assert len(rest) > 5 * len(first)
    assert "".join(op.text for row in first + rest for op in row.ops) == "".join(  # type: ignore[union-attr]
        op.text for op in word_diff(old, new)
    )


def test_a_short_diff_is_whole_in_its_first_screen() -> None:
    stream = DiffStream("a b c", "a x c", side_by_side=True)
    rows = stream.take_screen(40, 100)
    assert stream.done
    assert len(rows) == 1
    assert stream.stats.words_inserted == stream.stats.words_deleted == 1
