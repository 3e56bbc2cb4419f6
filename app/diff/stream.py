"""A diff handed to a view in batches of rows: the first screen comes before the word level of the rest.

`DiffStream.take(count)` returns the next `count` rows (fewer at the end of the diff) and computes
only the engine's pieces (`app.diff.engine.diff_segments`) those rows need. Only the line matching
covers both texts up front. On a 64 KiB memory with a word changed in every line, the
first screen of rows costs a fraction of the whole word-level diff.

Side by side, each unchanged run longer than 2 × context + 1 rows becomes a `Fold` holding them. The
run is folded as soon as the next change (or the end) shows where it stops. Inline, the rows are the
lines of the flowing text, and a changed line break ends its line; a line-level diff of long texts
(`line_level`) folds its unchanged runs inline too, or it would be hundreds of thousands of rows.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from app.diff.engine import Op, diff_segments, word_level
from app.diff.style import LINE_CHARS
from app.diff.text_diff import DiffOp, DiffStats, OpKind, RowBuilder, SideBySideRow, diff_stats


@dataclass(frozen=True, slots=True)
class InlineLine:
    """One line of the inline view: its ops, the last ending with the line break (none at the very end)."""

    ops: tuple[DiffOp, ...]

    @property
    def changed(self) -> bool:
        return any(op.kind != "equal" for op in self.ops)


@dataclass(frozen=True, slots=True)
class UnchangedLines:
    """Lines both texts share, numbered from `left_number` and `right_number`: rows made when needed.

    A 64 KiB memory is mostly unchanged lines, nearly all of them folded away: they stay one tuple of
    strings (split at C speed) instead of a row object each.
    """

    left_number: int
    right_number: int
    lines: tuple[str, ...]  # without their "\n"

    def rows(self) -> list[SideBySideRow]:
        rows = []
        for offset, line in enumerate(self.lines):
            ops = (DiffOp("equal", line + "\n"),)
            rows.append(SideBySideRow(self.left_number + offset, self.right_number + offset, ops, ops))
        return rows

    def sliced(self, start: int, end: int) -> UnchangedLines:
        return UnchangedLines(self.left_number + start, self.right_number + start, self.lines[start:end])


@dataclass(frozen=True, slots=True)
class UnchangedInline:
    """Unchanged lines of an inline diff (without their "\n"): `InlineLine` rows made when needed."""

    lines: tuple[str, ...]

    def rows(self) -> list[InlineLine]:
        return [InlineLine((DiffOp("equal", line + "\n"),)) for line in self.lines]

    def sliced(self, start: int, end: int) -> UnchangedInline:
        return UnchangedInline(self.lines[start:end])


_Part = SideBySideRow | UnchangedLines | InlineLine | UnchangedInline
_Run = UnchangedLines | UnchangedInline


@dataclass(frozen=True, slots=True)
class Fold:
    """Unchanged side-by-side rows shown as one "⋯ N unchanged lines ⋯" row until it is opened."""

    parts: tuple[_Part, ...]

    @property
    def count(self) -> int:
        return sum(_size(part) for part in self.parts)

    @property
    def rows(self) -> list[SideBySideRow | InlineLine]:
        return _rows(self.parts)

    @property
    def label(self) -> str:
        count = self.count
        return f"⋯ {count} unchanged {'line' if count == 1 else 'lines'} ⋯"


ViewRow = SideBySideRow | InlineLine | Fold


class DiffStream:
    """The rows of the diff of `old` → `new`, side by side (folded around `context`) or inline."""

    def __init__(self, old: str, new: str, side_by_side: bool, context: int = 3) -> None:
        self._segments = diff_segments(old, new)
        self.line_level = not word_level(old, new)  # changed lines not compared word by word
        self._rows: _FoldedRows | _InlineLines | _FoldedInline = (
            _FoldedRows(context)
            if side_by_side
            else _FoldedInline(context)
            if self.line_level
            else _InlineLines()
        )
        self._changes: list[Op] = []  # counted into `stats` when asked: not before the first screen
        self._fed_all = False
        self.done = False

    @property
    def stats(self) -> DiffStats:
        """Words inserted and deleted by the pieces computed so far: the whole diff's once `done`."""
        return diff_stats(DiffOp(kind, text) for kind, text in self._changes)

    @property
    def changed_lines(self) -> tuple[int, int]:
        """(lines inserted, lines deleted) by the pieces computed so far; a line changed in part counts
        as one. Counted at C speed: the summary of a line-level diff, where words would cost seconds."""
        counts = {"insert": 0, "delete": 0}
        for kind, text in self._changes:
            counts[kind] += text.count("\n") + (not text.endswith("\n"))
        return counts["insert"], counts["delete"]

    def _make_ready(self, count: int) -> bool:
        """Compute pieces until `count` rows are ready; whether they are (False: fewer are left)."""
        while not self._rows.fill(count):
            if self._fed_all:
                return False
            segment = next(self._segments, None)
            if segment is None:
                self._rows.finish()
                self._fed_all = True
                continue
            self._changes.extend(op for op in segment if op[0] != "equal")
            self._rows.feed(segment)
        return True

    def take(self, count: int) -> list[ViewRow]:
        """The next `count` rows, or all that are left."""
        self._make_ready(count)
        ready = self._rows.ready
        rows = [ready.popleft() for _ in range(min(count, len(ready)))]
        self._note_done()
        return rows

    def take_screen(self, lines: int, line_chars: int) -> list[ViewRow]:
        """The next rows that fill about `lines` screen lines of `line_chars` characters (see
        `screen_lines`), computing one piece of the engine at a time: a screen rarely needs many."""
        rows: list[ViewRow] = []
        ready = self._rows.ready
        filled = 0
        while filled < lines and self._make_ready(1):
            row = ready.popleft()
            rows.append(row)
            filled += screen_lines(row, line_chars)
        self._note_done()
        return rows

    def _note_done(self) -> None:
        """`done` once every piece is in and every row taken (never computing a piece to tell)."""
        self.done = self._fed_all and not self._rows.fill(1)

    def rest(self) -> list[ViewRow]:
        """Every row not taken yet."""
        return self.take(1 << 62)


def screen_lines(row: ViewRow, line_chars: int) -> int:
    """About how many screen lines `row` takes when a line holds `line_chars` characters (one column);
    a row shows at most `LINE_CHARS` of them."""
    if isinstance(row, Fold):
        return 1
    if isinstance(row, InlineLine):
        length = sum(len(op.text) for op in row.ops)
    else:
        length = max(sum(len(op.text) for op in row.left_ops), sum(len(op.text) for op in row.right_ops))
    return 1 + min(length, LINE_CHARS) // max(1, line_chars)


class _RunBuilder(RowBuilder):
    """Rows as `RowBuilder` makes them, except that whole unchanged lines stay `UnchangedLines`."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[_Part] = []

    def _emit_unchanged(self, lines: list[str]) -> None:
        self._parts.extend(self.rows)
        self.rows = []
        self._parts.append(UnchangedLines(self.left_number + 1, self.right_number + 1, tuple(lines)))
        self.left_number += len(lines)
        self.right_number += len(lines)

    def take(self) -> list[_Part]:
        parts, self._parts = [*self._parts, *self.rows], []
        self.rows = []
        return parts


class _FoldedRows:
    def __init__(self, context: int) -> None:
        self.ready: deque[ViewRow] = deque()
        self._builder = _RunBuilder()
        self._context = context
        self._unchanged: list[_Part] = []
        self._after_change = False

    def fill(self, count: int) -> bool:
        """Whether `count` rows are ready (rows are made as ops arrive, a change's lines at once)."""
        return len(self.ready) >= count

    def feed(self, ops: Iterable[Op]) -> None:
        self._builder.feed(DiffOp(kind, text) for kind, text in ops)
        self._drain()

    def finish(self) -> None:
        self._builder.finish()
        self._drain()
        self._fold(tail=0)

    def _drain(self) -> None:
        for part in self._builder.take():
            if isinstance(part, SideBySideRow) and part.changed:
                self._fold(tail=self._context)
                self.ready.append(part)
                self._after_change = True
            else:
                self._unchanged.append(part)

    def _fold(self, tail: int) -> None:
        """Fold the unchanged run that just ended, keeping context after a change and before the next."""
        run, self._unchanged = self._unchanged, []
        self.ready.extend(_folded(run, self._context if self._after_change else 0, tail))


def _folded(run: list[_Part], head: int, tail: int) -> list[ViewRow]:
    """The rows of an unchanged run, those between its first `head` and its last `tail` in a `Fold`."""
    count = sum(_size(part) for part in run)
    if count <= head + tail + 1:
        return list(_rows(run))
    fold = Fold(tuple(_between(run, head, count - tail)))
    return [*_rows(_between(run, 0, head)), fold, *_rows(_between(run, count - tail, count))]


def _size(part: _Part) -> int:
    return len(part.lines) if isinstance(part, _Run) else 1


def _rows(parts: Iterable[_Part]) -> list[SideBySideRow | InlineLine]:
    rows: list[SideBySideRow | InlineLine] = []
    for part in parts:
        if isinstance(part, _Run):
            rows.extend(part.rows())
        else:
            rows.append(part)
    return rows


def _between(parts: list[_Part], start: int, end: int) -> list[_Part]:
    """The parts covering rows `start` to `end` of `parts`, cut where a range falls inside one."""
    out: list[_Part] = []
    at = 0
    for part in parts:
        size = _size(part)
        low, high = max(start, at), min(end, at + size)
        if low < high:
            out.append(
                part if (low, high) == (at, at + size) else cast(_Run, part).sliced(low - at, high - at)
            )
        at += size
    return out


class _InlineLines:
    """Lines made only as they are asked for: a 64 KiB op of blank lines is one C-speed split, not
    65,536 rows before the first screen."""

    def __init__(self) -> None:
        self.ready: deque[ViewRow] = deque()
        self._ops: deque[Op] = deque()
        self._line: list[DiffOp] = []  # the start of a line that the next op goes on with
        self._kind: OpKind = "equal"
        self._parts: list[str] = []  # the op being cut into lines; its last part has no "\n"
        self._at = 0
        self._finished = False

    def feed(self, ops: Iterable[Op]) -> None:
        self._ops.extend(ops)

    def finish(self) -> None:
        self._finished = True

    def take_unchanged(self) -> tuple[str, ...]:
        """The whole lines left of the unchanged op being cut, as strings, when a line starts here
        (none otherwise): a run to fold needs no row object per line."""
        if self._line or self._kind != "equal" or self._at >= len(self._parts) - 1:
            return ()
        lines = tuple(self._parts[self._at : -1])
        self._at = len(self._parts) - 1
        return lines

    def fill(self, count: int) -> bool:
        """Make lines until `count` are ready; whether they are."""
        ready = self.ready
        while len(ready) < count:
            parts, at = self._parts, self._at
            if at < len(parts) - 1:  # whole lines of the op being cut: as many as are asked for
                end = min(len(parts) - 1, at + count - len(ready))
                kind = self._kind
                line = self._line
                for part in parts[at:end]:
                    line.append(DiffOp(kind, part + "\n"))
                    ready.append(InlineLine(tuple(line)))
                    line = []
                self._line, self._at = line, end
                continue
            if parts and parts[-1]:
                self._line.append(DiffOp(self._kind, parts[-1]))
            self._parts, self._at = [], 0
            if self._ops:
                kind, text = self._ops.popleft()
                self._kind = kind
                if "\n" in text:
                    self._parts = text.split("\n")
                elif text:  # most ops of a changed line hold no line break
                    self._line.append(DiffOp(kind, text))
                continue
            if self._finished and self._line:
                ready.append(InlineLine(tuple(self._line)))
                self._line = []
                continue
            return False
        return True


class _FoldedInline:
    """Inline lines with each unchanged run longer than 2 × context + 1 lines folded, as side by side.
    Whole unchanged lines are taken from `_InlineLines` as strings: a row object each would cost
    seconds on the 200,000 lines around one change in a 10 MiB text."""

    def __init__(self, context: int) -> None:
        self.ready: deque[ViewRow] = deque()
        self._lines = _InlineLines()
        self._context = context
        self._unchanged: list[_Part] = []
        self._after_change = False
        self._finished = False

    def feed(self, ops: Iterable[Op]) -> None:
        self._lines.feed(ops)

    def finish(self) -> None:
        self._lines.finish()
        self._finished = True

    def fill(self, count: int) -> bool:
        """Whether `count` rows are ready, made from the lines as they come."""
        while len(self.ready) < count:
            run = self._lines.take_unchanged()
            if run:
                self._unchanged.append(UnchangedInline(run))
                continue
            if not self._lines.fill(1):  # no line yet: more ops are needed, or that was the end
                if self._finished and self._unchanged:
                    self._fold(tail=0)
                return len(self.ready) >= count
            line = cast(InlineLine, self._lines.ready.popleft())  # `_InlineLines` makes only lines
            if line.changed:
                self._fold(tail=self._context)
                self.ready.append(line)
                self._after_change = True
            else:
                self._unchanged.append(line)
        return True

    def _fold(self, tail: int) -> None:
        run, self._unchanged = self._unchanged, []
        self.ready.extend(_folded(run, self._context if self._after_change else 0, tail))


__all__ = ["DiffStream", "Fold", "InlineLine", "UnchangedLines", "ViewRow", "screen_lines"]
