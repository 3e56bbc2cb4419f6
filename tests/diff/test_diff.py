"""Tests of the word-level diff (`app.diff.text_diff`) and how its rows read on screen
(`app.diff.style`): no Qt."""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings

from app.core.screening import classify
from app.diff.stream import DiffStream, Fold, InlineLine, ViewRow
from app.diff.style import LIGHT_COLORS, StyledText, styled_line
from app.diff.text_diff import DiffOp, DiffStats, SideBySideRow, diff_stats, side_by_side, word_diff
from tests.diff.diff_cases import assert_well_formed, edited_pairs, texts


@given(texts, texts)
def test_ops_rebuild_both_texts_from_unrelated_texts(old: str, new: str) -> None:
    assert_well_formed(old, new, word_diff(old, new))


@given(edited_pairs())
@settings(max_examples=300)
def test_ops_rebuild_both_texts_from_edited_texts(pair: tuple[str, str]) -> None:
    old, new = pair
    assert_well_formed(old, new, word_diff(old, new))


@given(texts)
def test_identical_texts_are_one_equal_op(text: str) -> None:
    assert word_diff(text, text) == ([DiffOp("equal", text)] if text else [])


@given(texts)
def test_from_and_to_empty(text: str) -> None:
    assert word_diff("", text) == ([DiffOp("insert", text)] if text else [])
    assert word_diff(text, "") == ([DiffOp("delete", text)] if text else [])


def test_one_word_replaced_in_place() -> None:
    ops = word_diff("I prefer pnpm for installs.\n", "I prefer npm for installs.\n")
    assert ops == [
        DiffOp("equal", "I prefer "),
        DiffOp("delete", "pnpm"),
        DiffOp("insert", "npm"),
        DiffOp("equal", " for installs.\n"),
    ]


def test_words_are_not_cut_in_two() -> None:
    # "prefers" and "preferred" share "prefer", but the diff swaps whole words.
    ops = word_diff("she prefers code", "she preferred code")
    assert ops == [
        DiffOp("equal", "she "),
        DiffOp("delete", "prefers"),
        DiffOp("insert", "preferred"),
        DiffOp("equal", " code"),
    ]


def test_punctuation_is_its_own_token() -> None:
    ops = word_diff("code first, explanation after", "code first; explanation after")
    assert DiffOp("delete", ",") in ops
    assert DiffOp("insert", ";") in ops


def test_a_rewritten_sentence_is_not_confetti() -> None:
    old = "Keep it short. The user likes the shell and the editor to match. Thanks."
    new = "Keep it short. Always answer with the code first, then a short explanation. Thanks."
    ops = word_diff(old, new)
    assert_well_formed(old, new, ops)
    assert [op.kind for op in ops] == ["equal", "delete", "insert", "equal"]


def test_diff_stats_counts_words_not_blanks_or_punctuation() -> None:
    ops = word_diff("a b c, d.", "a x c; d! e f")
    assert diff_stats(ops) == DiffStats(words_inserted=3, words_deleted=1)
    assert diff_stats(word_diff("", "one two three")) == DiffStats(3, 0)
    assert diff_stats([]) == DiffStats(0, 0)


# Side by side


@given(edited_pairs())
@settings(max_examples=200)
def test_rows_rebuild_both_texts(pair: tuple[str, str]) -> None:
    old, new = pair
    rows = side_by_side(old, new)
    assert "".join(op.text for row in rows for op in row.left_ops) == old
    assert "".join(op.text for row in rows for op in row.right_ops) == new
    assert [row.left_number for row in rows if row.left_number is not None] == list(
        range(1, len(re.findall(r"[^\n]*\n|[^\n]+", old)) + 1)
    )
    for row in rows:
        _assert_one_line(row)


def _assert_one_line(row: SideBySideRow) -> None:
    for number, ops, kinds in (
        (row.left_number, row.left_ops, {"equal", "delete"}),
        (row.right_number, row.right_ops, {"equal", "insert"}),
    ):
        text = "".join(op.text for op in ops)
        assert (number is None) == (not ops)
        assert "\n" not in text[:-1]
        assert {op.kind for op in ops} <= kinds


def test_side_by_side_pairs_changed_lines_and_leaves_inserted_ones_alone() -> None:
    rows = side_by_side("keep\nI prefer pnpm.\ngone\nend\n", "keep\nI prefer npm.\nend\nnew line\n")
    assert [(row.left, row.right) for row in rows] == [
        ("keep", "keep"),
        ("I prefer pnpm.", "I prefer npm."),
        ("gone", None),
        ("end", "end"),
        (None, "new line"),
    ]
    assert [row.changed for row in rows] == [False, True, True, False, True]
    assert rows[1].left_ops == (
        DiffOp("equal", "I prefer "),
        DiffOp("delete", "pnpm"),
        DiffOp("equal", ".\n"),
    )
    assert rows[1].right_ops == (
        DiffOp("equal", "I prefer "),
        DiffOp("insert", "npm"),
        DiffOp("equal", ".\n"),
    )


def test_side_by_side_deleted_line_does_not_pair_with_the_next_equal_line() -> None:
    rows = side_by_side("x\ny\n", "y\n")
    assert [(row.left_number, row.right_number) for row in rows] == [(1, None), (2, 1)]


def test_side_by_side_shows_a_change_to_the_final_line_break() -> None:
    (row,) = side_by_side("last line", "last line\n")
    assert row.left == row.right == "last line"
    assert row.changed
    assert row.right_ops[-1] == DiffOp("insert", "\n")


def test_side_by_side_of_empty_texts() -> None:
    assert side_by_side("", "") == []
    assert [(row.left, row.right) for row in side_by_side("", "a\nb")] == [(None, "a"), (None, "b")]


# 64 KiB texts in the shapes that make naive diffs slow. No timing here (see tests/bench/bench_diff.py):
# these check that the engine stays exact and precise where it takes its shortcuts.

_VOCABULARY = (
    "memory user prefers pnpm code first explanation after agent session review candidate promote "
    "trust expiry rewrite host database dashboard diff revision history panel"
)
_WORDS = _VOCABULARY.split()


def _memory(rng: random.Random, size: int = 64 * 1024) -> str:
    lines: list[str] = []
    while sum(len(line) + 1 for line in lines) < size:
        words = rng.choices(_WORDS, k=rng.randint(0, 60))
        lines.append(" ".join(words) + rng.choice(["", ".", ";", ", ok."]))
    return "\n".join(lines)[:size]


def _substitute(rng: random.Random, text: str, share: float) -> tuple[str, int]:
    tokens = re.split(r"(\W+)", text)
    words = [index for index, token in enumerate(tokens) if token[:1].isalnum()]
    chosen = rng.sample(words, int(len(words) * share))
    for index in chosen:
        tokens[index] = f"new{index}"
    return "".join(tokens), len(chosen)


def test_sparse_substitutions_in_64_kib_are_each_found_exactly() -> None:
    rng = random.Random(5)
    old = _memory(rng)
    new, substituted = _substitute(rng, old, 0.01)
    ops = word_diff(old, new)
    assert_well_formed(old, new, ops)
    assert diff_stats(ops) == DiffStats(substituted, substituted)


def test_one_long_line_of_64_kib_with_scattered_edits() -> None:
    rng = random.Random(6)
    old = _memory(rng).replace("\n", " ")
    new, substituted = _substitute(rng, old, 0.05)
    ops = word_diff(old, new)
    assert_well_formed(old, new, ops)
    stats = diff_stats(ops)
    # Dense stretches may be shown as a whole delete + insert, but most edits stay word-sized.
    assert substituted <= stats.words_inserted <= 2 * substituted


def test_completely_different_64_kib_texts() -> None:
    old, new = _memory(random.Random(7)), _memory(random.Random(8))
    ops = word_diff(old, new)
    assert_well_formed(old, new, ops)
    rows = side_by_side(old, new)
    assert "".join(op.text for row in rows for op in row.left_ops) == old


def test_every_line_edited_in_64_kib() -> None:
    old = _memory(random.Random(9))
    new = "\n".join(line + " more" for line in old.split("\n"))
    ops = word_diff(old, new)
    assert_well_formed(old, new, ops)
    assert diff_stats(ops) == DiffStats(old.count("\n") + 1, 0)


def test_64_kib_without_any_blank_or_newline() -> None:
    rng = random.Random(10)
    old = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(64 * 1024))
    new = old[:1000] + "!" + old[1001:]
    ops = word_diff(old, new)
    assert_well_formed(old, new, ops)
    # A token this long is no word: it is cut where the texts part, so the change shows as the "!".
    assert ops == [
        DiffOp("equal", old[:1000]),
        DiffOp("delete", old[1000]),
        DiffOp("insert", "!"),
        DiffOp("equal", old[1001:]),
    ]


def test_repeated_and_blank_lines() -> None:
    old, new = "same line\n" * 6000, "same line\n" * 3000 + "other\n"
    assert_well_formed(old, new, word_diff(old, new))
    old, new = "\n" * 20000, _memory(random.Random(11))
    assert_well_formed(old, new, word_diff(old, new))


# How rows read on screen (`app.diff.style`)


def _inline(rows: list[ViewRow]) -> list[InlineLine]:
    """The rows of an inline diff with no fold in them, as the lines they are."""
    assert all(isinstance(row, InlineLine) for row in rows)
    return [row for row in rows if isinstance(row, InlineLine)]


def _row_texts(old: str, new: str) -> list[StyledText]:
    styled = [styled_line(row.ops) for row in _inline(DiffStream(old, new, side_by_side=False).rest())]
    for row in side_by_side(old, new):
        styled += [styled_line(row.left_ops), styled_line(row.right_ops)]
    return styled


@given(texts, texts)
def test_shown_text_holds_no_hidden_character_and_no_line_break(old: str, new: str) -> None:
    for styled in _row_texts(old, new):
        assert all(classify(char) is None for char in styled.text)
        assert "\n" not in styled.text
        assert "\r" not in styled.text
        changes = sorted((start, end) for start, end, kind in styled.spans if kind != "hidden")
        for (_, end), (start, _) in itertools.pairwise(changes):
            assert end <= start, "insert and delete spans never overlap"
        assert all(0 <= start < end <= len(styled.text) for start, end, _ in styled.spans)


def test_markup_is_plain_text_and_hidden_characters_are_highlighted_markers() -> None:
    styled = styled_line(word_diff("pay <b>alice</b>", "pay \u202eecila\u200b"))
    assert styled.text == "pay <b>alice</b> ⟦U+202E⟧ecila⟦U+200B⟧"  # the deleted and inserted kept apart
    hidden = [styled.text[start:end] for start, end, kind in styled.spans if kind == "hidden"]
    assert hidden == ["⟦U+202E⟧", "⟦U+200B⟧"]
    inserted = [styled.text[start:end] for start, end, kind in styled.spans if kind == "insert"]
    assert inserted == ["⟦U+202E⟧ecila⟦U+200B⟧"]  # a marker stays inside its change


def test_inline_a_deleted_word_and_the_word_inserted_for_it_never_run_together() -> None:
    lines = _inline(DiffStream("Always follow\nthe guide", "Always Prefers\nthe guide", False).rest())
    shown = styled_line(lines[0].ops)
    assert shown.text == "Always follow Prefers"
    assert [(kind, shown.text[start:end]) for start, end, kind in shown.spans] == [
        ("delete", "follow"),
        ("insert", "Prefers"),
    ]  # the separator is neither: it is no part of either text
    apart = [DiffOp("delete", "npm "), DiffOp("insert", "pnpm")]
    assert styled_line(apart).text == "npm pnpm"  # a space already there is not doubled
    assert styled_line([DiffOp("delete", "npm\n"), DiffOp("insert", "pnpm")]).text == "npm↵pnpm"


def test_control_characters_are_made_visible_but_a_crlf_line_break_is_just_a_break() -> None:
    assert styled_line([DiffOp("equal", "a\x1bc\rd\r\n")]).text == "a⟦U+001B⟧c⟦U+000D⟧d"


def test_a_changed_line_break_shows_as_an_arrow_in_its_change() -> None:
    lines = _inline(DiffStream("I prefer pnpm\n", "I prefer npm\nnow\n", side_by_side=False).rest())
    shown = [styled_line(line.ops) for line in lines]
    assert [line.text for line in shown] == ["I prefer pnpm npm", "now↵"]
    assert [(kind, shown[0].text[start:end]) for start, end, kind in shown[0].spans] == [
        ("delete", "pnpm"),
        ("insert", "npm"),
    ]
    assert shown[1].spans == ((0, 4, "insert"),)


def test_side_by_side_folds_long_unchanged_runs_and_keeps_line_numbers() -> None:
    old = "".join(f"line {number}\n" for number in range(1, 21))
    new = old.replace("line 10\n", "line ten\n")
    rows = DiffStream(old, new, side_by_side=True, context=2).rest()
    folds = [row for row in rows if isinstance(row, Fold)]
    assert [fold.label for fold in folds] == ["⋯ 7 unchanged lines ⋯", "⋯ 8 unchanged lines ⋯"]
    assert len(rows) == 2 + 5  # lines 8-9 and 11-12 as context around line 10
    assert [row.left_number for row in folds[1].rows if isinstance(row, SideBySideRow)] == list(range(13, 21))
    same = DiffStream("a\nb\nc\n", "a\nb\nc\n", side_by_side=True, context=0).rest()
    assert [row.label for row in same if isinstance(row, Fold)] == ["⋯ 3 unchanged lines ⋯"]


def test_colors_must_be_hex() -> None:
    with pytest.raises(ValueError, match="inserted_text"):
        replace(LIGHT_COLORS, inserted_text="red; background: url(http://x)")
    assert replace(LIGHT_COLORS, inserted_text="#abc").inserted_text == "#abc"
