"""The diff engine behind `app.diff.text_diff`: (kind, text) ops between two texts, fast on 64 KiB
in every shape.

The work is done in layers so that no input (one long line, many small edits, nothing in common)
costs more than a near-linear amount of Python:

1. lines are matched by a longest common subsequence computed in C++ (`app.diff.match`), blank lines
   between two changes folded into them;
2. a replaced block of lines is split into line pairs when its lines still look alike (words changed
   in place), otherwise it is diffed as one text;
3. a changed text loses its common prefix and suffix (found by string comparison, at C speed), and a
   middle longer than `_WORD_LEVEL_MAX_CHARS` is cut in two at an anchor: a short run of words found
   exactly once in both middles;
4. the middles are matched word by word (the same C++ matcher over word units); one still too large
   is shown as a whole delete + insert, and so is one that shares almost no words (a rewrite).

Texts over `WORD_LEVEL_MAX_TOTAL` characters together stop after step 1: a changed block of lines only
loses the ends both sides share (`word_level` tells; the view says so).

Every op boundary is a token boundary in both texts (or lies inside a token longer than `LONG_TOKEN`,
where the texts part), and joining the equal + delete texts gives the old text back exactly, equal +
insert the new one. No Qt and no dataclasses here: plain tuples keep it fast.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from app.diff.match import Opcode, common_prefix_length, common_suffix_length, opcodes
from app.diff.tidy import Op, OpKind, normalized, tidy

# Tokens: one newline, a run of other whitespace, a word, or a single other character. Every character
# matches exactly one alternative, so the tokens of a text always join back to the text.
TOKEN = re.compile(r"\n|[^\S\n]+|\w+|[^\w\s]")
_BLANK = re.compile(r"\s+")
# What the word-level matcher compares: a token other than a newline, with the blanks that follow it.
_UNIT = re.compile(r"\n|[^\S\n]+|(?:\w+|[^\w\s])[^\S\n]*")

# About how many raw ops `diff_segments` computes at a time, or how many characters when fewer ops
# hold more (about a screen's worth: an unchanged start of a text fills the first screen on its own).
SEGMENT_OPS = 16
SEGMENT_CHARS = 4096
# A run of word characters (or blanks) longer than this is no word a reader compares: ops may cut it
# where the texts part. Walking back to its start cost a Python step a character (seconds on a 10 MiB
# line), and replacing such a run whole hid where in it the texts differ.
LONG_TOKEN = 256
# Texts over this many characters together are compared line by line (with a note in the view): a 10 MiB
# text with a change in every 40th line spent seconds matching words. A changed block of lines only
# loses the ends it shares, which stays linear and still shows where a long line changed.
WORD_LEVEL_MAX_TOTAL = 2 * 1024 * 1024
# Middles above this many characters (per side) are never given to the word-level matcher.
_WORD_LEVEL_MAX_CHARS = 1500
# A pair of lines "looks alike" when their common prefix + suffix cover this share of the longer one,
# and a replaced block of as many old lines as new is taken pair by pair when this share of pairs do.
_ALIKE_SHARE = 0.5
_ALIKE_PAIRS = 0.75
# Anchors: about this many characters of whole words, tried at this many places around the middle.
_ANCHOR_CHARS = 24
_ANCHOR_TRIES = 8
# Word-level matching is skipped when the two sides share less than this share of their distinct words:
# a rewritten passage reads better as one delete + insert than as confetti around "the" and "a".
_MIN_SHARED_WORDS = 0.2
_MIN_WORDS_TO_CALL_A_REWRITE = 4


def raw_diff(old: str, new: str) -> list[Op]:
    """The ops turning `old` into `new`: no empty op, and each run of changes between two equal ops
    merged into one delete followed by one insert."""
    ops: list[Op] = []
    for segment in diff_segments(old, new):
        ops.extend(segment)
    return normalized(ops)


def diff_segments(
    old: str, new: str, size: int = SEGMENT_OPS, chars: int = SEGMENT_CHARS
) -> Iterator[list[Op]]:
    """`raw_diff`'s ops in tidied pieces of about `size` raw ops or `chars` characters, whichever
    comes first, each computed when it is asked for.

    Joined and normalized, the pieces are exactly `raw_diff`. A view can show the first lines of a
    64 KiB diff before the word level of the rest is computed: only the line matching covers the
    whole texts up front, and not even that when the texts share their first screen of lines.

    A piece ends only where a non-empty equal op ending with a line break is followed by another
    equal op. Tidying looks at most at the first character of an equal op after a change and appends
    to the end of one before a change, so tidying the pieces apart gives what tidying them whole
    would (`tests/test_diff_segments.py` checks this against `tidy` of the whole).
    """
    piece: list[Op] = []
    held = 0  # characters in `piece`
    at_line_start = False  # the last non-empty op of `piece` is an equal op ending with "\n"
    for op in _raw_ops(old, new):
        kind, text = op
        if not text:
            continue
        if kind == "equal" and at_line_start and (len(piece) >= size or held >= chars):
            yield tidy(piece)
            piece, held = [], 0
        piece.append(op)
        held += len(text)
        at_line_start = kind == "equal" and text[-1] == "\n"
    if piece:
        yield tidy(piece)


def word_level(old: str, new: str) -> bool:
    """Whether changed lines are matched word by word: not when the texts hold over
    `WORD_LEVEL_MAX_TOTAL` characters together (their changed lines only lose their common ends)."""
    return len(old) + len(new) <= WORD_LEVEL_MAX_TOTAL


def _raw_ops(old: str, new: str) -> Iterator[Op]:
    """The untidied ops, produced lazily: equal line blocks with their first and last lines apart,
    so that a piece can end there."""
    if old == new:
        yield ("equal", old)
        return
    # Whole lines the texts share at both ends never reach the line matcher: a typical revision
    # rewrites a sentence or two, and then the matcher only sees the lines around them.
    head, tail = _common_line_ends(old, new)
    yield from _end_lines_apart(old[:head])
    old_lines, new_lines = _Lines(old[head : len(old) - tail]), _Lines(new[head : len(new) - tail])
    yield from _diff_lines(old_lines, new_lines, word_level(old, new))
    yield from _end_lines_apart(old[len(old) - tail :])


def _end_lines_apart(text: str) -> Iterator[Op]:
    """Unchanged lines as up to three equal ops, the first line and the last apart: a piece can end
    after the first line, or before the last, which `diff_segments` tells without the op after it (an
    unchanged start is shown before the line matching runs)."""
    first = text.find("\n") + 1
    last = text.rfind("\n", 0, len(text) - 1) + 1  # where the last line starts
    if not 0 < first < len(text):
        yield ("equal", text)
        return
    yield ("equal", text[:first])
    if first < last:
        yield ("equal", text[first:last])
    yield ("equal", text[max(first, last) :])


def _common_line_ends(old: str, new: str) -> tuple[int, int]:
    """Lengths of the whole lines the texts share at their start and at their end."""
    head = old.rfind("\n", 0, common_prefix_length(old, new)) + 1
    tail = common_suffix_length(old, new, min(len(old), len(new)) - head)
    old_start, new_start = len(old) - tail, len(new) - tail
    if tail and not (old[old_start - 1 : old_start] == new[new_start - 1 : new_start] == "\n"):
        # Move the start forward past the next line break, which lies in the shared part.
        next_break = old.find("\n", old_start)
        tail = 0 if next_break < 0 else len(old) - next_break - 1
    return head, tail


class _Lines:
    """A text's lines, split at C speed: `parts` without their "\n", and `keys` to match them by.

    The last line has no "\n" when the text does not end with one; its key is wrapped in a tuple so
    that it never matches a line that does end with one.
    """

    def __init__(self, text: str) -> None:
        self.parts = text.split("\n")
        self.terminated = len(self.parts) - 1
        self.keys: list[str | tuple[str]] = list(self.parts[:-1])
        if self.parts[-1]:
            self.keys.append((self.parts[-1],))

    def text(self, start: int, end: int) -> str:
        if start >= end:
            return ""
        joined = "\n".join(self.parts[start:end])
        return joined + "\n" if end <= self.terminated else joined

    def lines(self, start: int, end: int) -> list[str]:
        lines = [part + "\n" for part in self.parts[start : min(end, self.terminated)]]
        if end > self.terminated:
            lines.append(self.parts[self.terminated])
        return lines


def _diff_lines(old: _Lines, new: _Lines, words: bool) -> Iterator[Op]:
    for tag, i1, i2, j1, j2 in _line_blocks(old, new):
        if tag == "equal":
            yield from _end_lines_apart(old.text(i1, i2))
        elif tag == "delete":
            yield ("delete", old.text(i1, i2))
        elif tag == "insert":
            yield ("insert", new.text(j1, j2))
        elif words:
            yield from _diff_replaced(old.lines(i1, i2), new.lines(j1, j2))
        else:
            yield from _trimmed_change(old.text(i1, i2), new.text(j1, j2), [])


def _line_blocks(old: _Lines, new: _Lines) -> list[Opcode]:
    """Line opcodes, with blank lines between two changes folded into them: two rewritten passages
    that share only their empty lines read as one change, not as confetti around each blank line."""
    blocks = opcodes(old.keys, new.keys)
    last = len(blocks) - 1
    out: list[Opcode] = []
    for number, block in enumerate(blocks):
        tag, i1, i2, _, j2 = block
        if (
            out
            and out[-1][0] != "equal"
            and (tag != "equal" or (number < last and not any(part.strip() for part in old.parts[i1:i2])))
        ):
            _, k1, _, l1, _ = out[-1]
            out[-1] = ("replace", k1, i2, l1, j2)
        else:
            out.append(block)
    return out


def _diff_replaced(old: list[str], new: list[str]) -> Iterator[Op]:
    """Pair the lines of a replaced block when they look alike (edits in place), else diff it whole."""
    if len(old) == len(new):
        pairs = [(a, b, _common_ends(a, b)) for a, b in zip(old, new, strict=True)]
        if sum(_alike(a, b, ends) for a, b, ends in pairs) >= _ALIKE_PAIRS * len(pairs):
            for a, b, ends in pairs:
                out: list[Op] = []
                _diff_text(a, b, out, ends)
                yield from out
            return
    out = []
    _diff_text("".join(old), "".join(new), out)
    yield from out


def _diff_text(old: str, new: str, out: list[Op], ends: tuple[int, int] | None = None) -> None:
    """Diff two texts by trimming their common ends and cutting their middles at anchors.

    Pending work is a stack of (old, new, known ends) so that many cuts never deepen the call stack;
    a piece known to be equal waits its turn as (text, None, None).
    """
    tasks: list[tuple[str, str | None, tuple[int, int] | None]] = [(old, new, ends)]
    while tasks:
        old_text, new_text, known_ends = tasks.pop()
        if new_text is None:
            out.append(("equal", old_text))
            continue
        prefix, suffix = known_ends or _common_ends(old_text, new_text)
        if prefix:
            out.append(("equal", old_text[:prefix]))
        if suffix:  # pushed first, so it comes out after everything the middle produces
            tasks.append((old_text[len(old_text) - suffix :], None, None))
        old_middle = old_text[prefix : len(old_text) - suffix]
        new_middle = new_text[prefix : len(new_text) - suffix]
        cut = None
        if max(len(old_middle), len(new_middle)) > _WORD_LEVEL_MAX_CHARS and old_middle and new_middle:
            cut = _find_anchor(old_middle, new_middle)
        if cut is None:
            _diff_middle(old_middle, new_middle, out)
            continue
        old_start, new_start, length = cut
        tasks.append((old_middle[old_start + length :], new_middle[new_start + length :], None))
        tasks.append((old_middle[old_start : old_start + length], None, None))
        tasks.append((old_middle[:old_start], new_middle[:new_start], None))


def _find_anchor(old: str, new: str) -> tuple[int, int, int] | None:
    """A run of whole words that occurs exactly once in each text: (start in old, start in new, length)."""
    center = len(old) // 2
    for attempt in range(_ANCHOR_TRIES):
        offset = (attempt + 1) // 2 * 2 * _ANCHOR_CHARS * (1 if attempt % 2 else -1)
        span = _words_around(old, center + offset)
        if span is None:
            continue
        anchor = old[span[0] : span[1]]
        found = new.find(anchor)
        if (
            found >= 0
            and new.find(anchor, found + 1) < 0
            and old.find(anchor) == span[0]
            and old.find(anchor, span[0] + 1) < 0
            and _is_boundary(new, found)
            and _is_boundary(new, found + len(anchor))
        ):
            return span[0], found, len(anchor)
    return None


def _words_around(text: str, position: int) -> tuple[int, int] | None:
    """About `_ANCHOR_CHARS` of text from the word after `position`, ending at the end of a word.

    Blanks are looked for only a `LONG_TOKEN` away: a text without any took a scan to its end per try.
    """
    if not 0 <= position < len(text):
        return None
    first_gap = _BLANK.search(text, position, position + LONG_TOKEN)
    if first_gap is None:
        return None
    start = first_gap.end()
    end_gap = _BLANK.search(text, start + _ANCHOR_CHARS, start + _ANCHOR_CHARS + LONG_TOKEN)
    if end_gap is None or not _is_boundary(text, start):
        return None
    return start, end_gap.start()


def _diff_middle(old: str, new: str, out: list[Op]) -> None:
    """Word-level diff of a middle whose first and last tokens differ, or a whole delete + insert."""
    if not old or not new or max(len(old), len(new)) > _WORD_LEVEL_MAX_CHARS:
        out.append(("delete", old))
        out.append(("insert", new))
        return
    # The matcher sees a word with the blanks after it as one unit: a lone " " would be the commonest
    # unit by far, and costly (as a unit, or as junk, which breaks every run of matching words).
    old_units, new_units = _UNIT.findall(old), _UNIT.findall(new)
    if _looks_rewritten(set(old_units), set(new_units)):
        out.append(("delete", old))
        out.append(("insert", new))
        return
    for tag, i1, i2, j1, j2 in opcodes(old_units, new_units):
        if tag == "equal":
            out.append(("equal", "".join(old_units[i1:i2])))
        else:  # units differ, but may still share tokens at their ends: "pnpm " and "pnpm\n"
            _trimmed_change("".join(old_units[i1:i2]), "".join(new_units[j1:j2]), out)


def _trimmed_change(old: str, new: str, out: list[Op]) -> list[Op]:
    """A change without its common ends: equal, delete, insert, equal (some empty), added to `out`."""
    prefix, suffix = _common_ends(old, new)
    out.append(("equal", old[:prefix]))
    out.append(("delete", old[prefix : len(old) - suffix]))
    out.append(("insert", new[prefix : len(new) - suffix]))
    out.append(("equal", old[len(old) - suffix :]))
    return out


def _looks_rewritten(old_units: set[str], new_units: set[str]) -> bool:
    """Nothing in common, or so little that matching would only pick out stray words like "the"."""
    if old_units.isdisjoint(new_units):
        return True
    old_words, new_words = _words(old_units), _words(new_units)
    fewest = min(len(old_words), len(new_words))
    return fewest >= _MIN_WORDS_TO_CALL_A_REWRITE and len(old_words & new_words) < _MIN_SHARED_WORDS * fewest


def _words(units: set[str]) -> set[str]:
    return {unit for unit in units if unit[0].isalnum() or unit[0] == "_"}


def _alike(old: str, new: str, ends: tuple[int, int]) -> bool:
    prefix, suffix = ends
    return prefix + suffix >= _ALIKE_SHARE * max(len(old), len(new))


def _common_ends(old: str, new: str) -> tuple[int, int]:
    """Lengths of the common prefix and suffix, cut back to token boundaries and not overlapping.

    Before `prefix` both texts agree, so walking back reaches a boundary of both, unless it would have
    to cross a token longer than `LONG_TOKEN`: such a run is cut where the texts part.
    """
    prefix = common_prefix_length(old, new)
    for at in range(prefix, max(0, prefix - LONG_TOKEN) - 1, -1):
        if _is_boundary(old, at) and _is_boundary(new, at):
            prefix = at
            break
    suffix = common_suffix_length(old, new, min(len(old), len(new)) - prefix)
    for length in range(suffix, max(0, suffix - LONG_TOKEN) - 1, -1):
        if _is_boundary(old, len(old) - length) and _is_boundary(new, len(new) - length):
            suffix = length
            break
    return prefix, suffix


# Two characters that belong to one token: both word characters, or both blanks other than a newline.
_SAME_TOKEN = re.compile(r"\w\w|[^\S\n][^\S\n]")


def _is_boundary(text: str, index: int) -> bool:
    """Whether a token of `TOKEN` starts or ends at `index` in `text`."""
    return index <= 0 or index >= len(text) or _SAME_TOKEN.match(text, index - 1, index + 1) is None


__all__ = [
    "LONG_TOKEN",
    "SEGMENT_CHARS",
    "SEGMENT_OPS",
    "TOKEN",
    "WORD_LEVEL_MAX_TOTAL",
    "Op",
    "OpKind",
    "diff_segments",
    "raw_diff",
    "word_level",
]
