"""The diff engine behind `app.diff`: (kind, text) ops between two texts, fast on 64 KiB in every shape.

It is hierarchical so that no shape of input (one long line, many small edits, nothing in common)
makes it quadratic:

1. lines are matched first (`difflib.SequenceMatcher`, the cheap part);
2. a changed block of lines is aligned line by line when its lines still look alike (a word changed in
   place), otherwise it is diffed as one text;
3. a changed text is trimmed of its common prefix and suffix at C speed, then its middle is split into
   clauses and matched again, and only the changed clauses are diffed word by word;
4. a middle too large for the word level is shown as a whole delete + insert rather than risk a
   quadratic blow-up.

Every op boundary is a token boundary in both texts, and joining the equal + delete texts gives the old
text back exactly, equal + insert the new one. No Qt here, no dataclasses: plain tuples keep it fast.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Literal

OpKind = Literal["equal", "insert", "delete"]

# Tokens: one newline, a run of other whitespace, a word, or a single other character. Every character
# matches exactly one alternative, so the tokens of a text always join back to the text.
TOKEN = re.compile(r"\n|[^\S\n]+|\w+|[^\w\s]")
_LINE = re.compile(r"[^\n]*\n|[^\n]+")
# A clause ends after punctuation followed by blanks, after a newline, or after a long word followed by
# blanks: the last rule is content-defined, so even one long unpunctuated line resynchronises after an edit.
_CLAUSE = re.compile(r"[^\n]*?(?:[.!?;:,](?:[^\S\n]+|\Z)|\w{8,}[^\S\n]+|\n|\Z)")

# Below this many characters (per side) a changed middle goes straight to the word level.
_SMALL_MIDDLE = 200
# Above this many characters (per side) a changed middle is never diffed word by word.
_WORD_LEVEL_MAX_CHARS = 3000
# A pair of lines "looks alike" when their common prefix + suffix cover this share of the longer one.
_ALIKE_SHARE = 0.5

_Op = tuple[OpKind, str]
_LINE_LEVEL, _CLAUSE_LEVEL = 0, 1


def raw_diff(old: str, new: str) -> list[tuple[OpKind, str]]:
    """The ops turning `old` into `new`: no empty op, and each run of changes between two equal ops
    merged into one delete followed by one insert."""
    if old == new:
        return [("equal", old)] if old else []
    raw: list[_Op] = []
    _diff_units(_LINE.findall(old), _LINE.findall(new), _LINE_LEVEL, raw)
    return _normalized(raw)


def _diff_units(old: list[str], new: list[str], level: int, out: list[_Op]) -> None:
    """Match whole units (lines or clauses), then refine each replaced block one level down."""
    # autojunk stays on: with it, a unit repeated everywhere (blank lines, "```") cannot make the
    # matcher quadratic, and matches still extend across such units where both sides agree.
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new).get_opcodes():
        if tag == "equal":
            out.append(("equal", "".join(old[i1:i2])))
        elif tag == "delete":
            out.append(("delete", "".join(old[i1:i2])))
        elif tag == "insert":
            out.append(("insert", "".join(new[j1:j2])))
        else:
            _diff_replaced(old[i1:i2], new[j1:j2], level, out)


def _diff_replaced(old: list[str], new: list[str], level: int, out: list[_Op]) -> None:
    """Pair the units of a replaced block when they look alike (edits in place), else diff it whole."""
    if len(old) == len(new) and all(_alike(a, b) for a, b in zip(old, new, strict=True)):
        for a, b in zip(old, new, strict=True):
            _diff_text(a, b, level, out)
    else:
        _diff_text("".join(old), "".join(new), level, out)


def _diff_text(old: str, new: str, level: int, out: list[_Op]) -> None:
    """Diff two texts: trim what they share at both ends, then refine the middle."""
    prefix, suffix = _common_ends(old, new)
    if prefix:
        out.append(("equal", old[:prefix]))
    old_middle, new_middle = old[prefix : len(old) - suffix], new[prefix : len(new) - suffix]
    if not old_middle or not new_middle:
        out.append(("delete", old_middle))
        out.append(("insert", new_middle))
    elif level == _LINE_LEVEL and max(len(old_middle), len(new_middle)) > _SMALL_MIDDLE:
        _diff_units(_CLAUSE.findall(old_middle), _CLAUSE.findall(new_middle), _CLAUSE_LEVEL, out)
    else:
        _diff_words(old_middle, new_middle, out)
    if suffix:
        out.append(("equal", old[len(old) - suffix :]))


def _diff_words(old: str, new: str, out: list[_Op]) -> None:
    """Token-level diff of two middles, or a whole delete + insert when they are too large for it."""
    if max(len(old), len(new)) > _WORD_LEVEL_MAX_CHARS:
        out.append(("delete", old))
        out.append(("insert", new))
        return
    old_tokens, new_tokens = TOKEN.findall(old), TOKEN.findall(new)
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_tokens, new_tokens).get_opcodes():
        if tag == "equal":
            out.append(("equal", "".join(old_tokens[i1:i2])))
            continue
        if i2 > i1:
            out.append(("delete", "".join(old_tokens[i1:i2])))
        if j2 > j1:
            out.append(("insert", "".join(new_tokens[j1:j2])))


def _alike(old: str, new: str) -> bool:
    prefix, suffix = _common_ends(old, new)
    return prefix + suffix >= _ALIKE_SHARE * max(len(old), len(new))


def _common_ends(old: str, new: str) -> tuple[int, int]:
    """Lengths of the common prefix and suffix, cut back to token boundaries and not overlapping."""
    prefix = _snap_prefix(old, new, _common_prefix_length(old, new))
    limit = min(len(old), len(new)) - prefix
    suffix = _snap_suffix(old, new, _common_suffix_length(old, new, limit))
    return prefix, suffix


def _common_prefix_length(old: str, new: str) -> int:
    # A binary search over slice comparisons runs at C speed, unlike a character loop.
    low, high = 0, min(len(old), len(new))
    while low < high:
        middle = (low + high + 1) // 2
        if old[:middle] == new[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix_length(old: str, new: str, limit: int) -> int:
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle :] == new[len(new) - middle :]:
            low = middle
        else:
            high = middle - 1
    return low


def _snap_prefix(old: str, new: str, length: int) -> int:
    # Before `length` both texts agree, so their token boundaries agree too: walk back to one.
    while length > 0 and not (_is_boundary(old, length) and _is_boundary(new, length)):
        length -= 1
    return length


def _snap_suffix(old: str, new: str, length: int) -> int:
    while length > 0 and not (_is_boundary(old, len(old) - length) and _is_boundary(new, len(new) - length)):
        length -= 1
    return length


def _is_boundary(text: str, index: int) -> bool:
    """Whether a token of `TOKEN` starts or ends at `index` in `text`."""
    if index <= 0 or index >= len(text):
        return True
    before, after = _char_class(text[index - 1]), _char_class(text[index])
    return before != after or before >= _SINGLE


_WORD_CHAR, _BLANK, _SINGLE, _NEWLINE = 0, 1, 2, 3


def _char_class(char: str) -> int:
    # Mirrors TOKEN: `\w` is `isalnum() or "_"`, `\s` is `isspace()`; single characters never join.
    if char == "\n":
        return _NEWLINE
    if char.isalnum() or char == "_":
        return _WORD_CHAR
    if char.isspace():
        return _BLANK
    return _SINGLE


def _normalized(raw: list[_Op]) -> list[_Op]:
    """Drop empty ops and merge each run of changes between two equal ops into one delete + one insert."""
    ops: list[_Op] = []
    deleted: list[str] = []
    inserted: list[str] = []
    equal: list[str] = []

    def flush_changes() -> None:
        if deleted:
            ops.append(("delete", "".join(deleted)))
        if inserted:
            ops.append(("insert", "".join(inserted)))
        deleted.clear()
        inserted.clear()

    for kind, text in raw:
        if not text:
            continue
        if kind == "equal":
            flush_changes()
            equal.append(text)
            continue
        if equal:
            ops.append(("equal", "".join(equal)))
            equal.clear()
        (deleted if kind == "delete" else inserted).append(text)
    flush_changes()
    if equal:
        ops.append(("equal", "".join(equal)))
    return ops


__all__ = ["TOKEN", "OpKind", "raw_diff"]
