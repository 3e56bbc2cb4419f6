"""Word-level diff of two memory contents: "from what to what" for a revision in the history panel.

`word_diff` gives the inline ops, `side_by_side` the rows of a two-column view, `diff_stats` the
"+12 −3 words" label. The matching itself lives in `app.diff.engine`; this module turns its ops into
frozen values and lines them up in rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.diff.engine import TOKEN, OpKind, raw_diff

_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class DiffOp:
    kind: OpKind
    text: str


@dataclass(frozen=True, slots=True)
class DiffStats:
    words_inserted: int
    words_deleted: int


@dataclass(frozen=True, slots=True)
class SideBySideRow:
    """One row of the two-column view.

    `left`/`right` are the old/new line without its line break, or None when the row has no line on
    that side. `left_ops` holds the pieces of the old line (equal/delete), `right_ops` those of the new
    line (equal/insert), line break included, so a change to the break itself is not lost.
    """

    left_number: int | None
    right_number: int | None
    left_ops: tuple[DiffOp, ...]
    right_ops: tuple[DiffOp, ...]

    @property
    def left(self) -> str | None:
        return _line_text(self.left_ops) if self.left_number is not None else None

    @property
    def right(self) -> str | None:
        return _line_text(self.right_ops) if self.right_number is not None else None

    @property
    def changed(self) -> bool:
        return any(op.kind != "equal" for op in self.left_ops + self.right_ops) or (
            (self.left_number is None) != (self.right_number is None)
        )


def word_diff(old: str, new: str) -> list[DiffOp]:
    """The ops turning `old` into `new`: equal + delete texts join to `old`, equal + insert to `new`."""
    return [DiffOp(kind, text) for kind, text in raw_diff(old, new)]


def side_by_side(old: str, new: str) -> list[SideBySideRow]:
    """Rows pairing old and new lines, with word-level ops on each side of a changed pair."""
    return rows_from_ops(word_diff(old, new))


def rows_from_ops(ops: list[DiffOp]) -> list[SideBySideRow]:
    """The rows of `side_by_side`, from ops already computed (by `word_diff`)."""
    return RowBuilder().build(ops)


def diff_stats(ops: Iterable[DiffOp]) -> DiffStats:
    """How many words the ops insert and delete."""
    inserted = deleted = 0
    for op in ops:
        if op.kind == "insert":
            inserted += len(_WORD.findall(op.text))
        elif op.kind == "delete":
            deleted += len(_WORD.findall(op.text))
    return DiffStats(inserted, deleted)


def _line_text(ops: tuple[DiffOp, ...]) -> str:
    text = "".join(op.text for op in ops)
    return text[:-1] if text.endswith("\n") else text


_Line = list[DiffOp]


class RowBuilder:
    """Cuts the ops into lines and pairs them.

    A newline inside an equal op ends a line on both sides at once: that is where the two columns are
    back in step. Between two such points, wholly deleted and wholly inserted lines stand alone and the
    remaining lines are paired in order.
    """

    def __init__(self) -> None:
        self.rows: list[SideBySideRow] = []
        self.left: _Line = []
        self.right: _Line = []
        self.pending_left: list[_Line] = []
        self.pending_right: list[_Line] = []
        self.left_number = 0
        self.right_number = 0

    def build(self, ops: Iterable[DiffOp]) -> list[SideBySideRow]:
        self.feed(ops)
        self.finish()
        return self.rows

    def feed(self, ops: Iterable[DiffOp]) -> None:
        """Add ops; `rows` grows by the rows they complete (a changed line may wait for later ops)."""
        for op in ops:
            if op.kind == "equal":
                self._add_equal(op.text)
            else:
                self._add_change(op.kind, op.text)

    def finish(self) -> None:
        """No more ops: the lines still open become rows."""
        if self.left:
            self.pending_left.append(self.left)
        if self.right:
            self.pending_right.append(self.right)
        self._flush()

    def _add_change(self, kind: OpKind, text: str) -> None:
        line, pending = (
            (self.left, self.pending_left) if kind == "delete" else (self.right, self.pending_right)
        )
        *whole, rest = text.split("\n")  # str.split: far cheaper than a regex on 64 KiB
        for part in whole:
            line.append(DiffOp(kind, part + "\n"))
            pending.append(line)
            line = []
        if rest:
            line.append(DiffOp(kind, rest))
        if kind == "delete":
            self.left = line
        else:
            self.right = line

    def _add_equal(self, text: str) -> None:
        if "\n" not in text:  # part of a line: later ops may still change the line
            op = DiffOp("equal", text)
            self.left.append(op)
            self.right.append(op)
            return
        first, *whole, rest = text.split("\n")
        op = DiffOp("equal", first + "\n")
        self.pending_left.append([*self.left, op])
        self.pending_right.append([*self.right, op])
        self._flush()
        if whole:
            self._emit_unchanged(whole)
        op = DiffOp("equal", rest)
        self.left, self.right = ([op], [op]) if rest else ([], [])

    def _emit_unchanged(self, lines: list[str]) -> None:
        """Whole lines both texts share (without their "\n"), in a row each."""
        for part in lines:
            op = DiffOp("equal", part + "\n")
            self._emit([op], [op])

    def _flush(self) -> None:
        lefts, rights = self.pending_left, self.pending_right
        self.pending_left, self.pending_right = [], []
        if not lefts or not rights:  # lines on one side only (a deleted or inserted block): no pairing
            for line in lefts:
                self._emit(line, None)
            for line in rights:
                self._emit(None, line)
            return
        alone_left = _standing_alone(lefts, len(lefts) - len(rights), "delete")
        alone_right = _standing_alone(rights, len(rights) - len(lefts), "insert")
        i = j = 0
        while i < len(lefts) or j < len(rights):
            if i in alone_left:
                self._emit(lefts[i], None)
                i += 1
            elif j in alone_right:
                self._emit(None, rights[j])
                j += 1
            else:  # the lines not standing alone are as many on both sides
                self._emit(lefts[i], rights[j])
                i += 1
                j += 1

    def _emit(self, left: _Line | None, right: _Line | None) -> None:
        left_number = right_number = None
        if left is not None:
            self.left_number += 1
            left_number = self.left_number
        if right is not None:
            self.right_number += 1
            right_number = self.right_number
        self.rows.append(SideBySideRow(left_number, right_number, tuple(left or ()), tuple(right or ())))


def _standing_alone(lines: list[_Line], surplus: int, kind: OpKind) -> set[int]:
    """Which `surplus` lines get no partner: wholly deleted (or inserted) ones first, then the last ones."""
    if surplus <= 0:
        return set()
    whole = [index for index, line in enumerate(lines) if all(op.kind == kind for op in line)]
    chosen = set(whole[:surplus])
    for index in reversed(range(len(lines))):
        if len(chosen) == surplus:
            break
        chosen.add(index)
    return chosen


__all__ = [
    "TOKEN",
    "DiffOp",
    "DiffStats",
    "OpKind",
    "RowBuilder",
    "SideBySideRow",
    "diff_stats",
    "rows_from_ops",
    "side_by_side",
    "word_diff",
]
