"""How a diff row reads on screen, without Qt: its display text and the spans to color.

Memory content is untrusted. Characters a reader cannot see (zero-width, bidi controls, tags, control
characters) are shown as `⟦U+XXXX⟧` markers with a span of their own, and a changed line break shows
as ↵. A view paints the text as plain text (never rich text) and colors the spans from `DiffColors`,
so light and dark palettes both work.

A line is shown up to `LINE_CHARS` characters, its unchanged stretches shortened and a note saying how
much more it holds: a host row can be megabytes on one line, and laying that out whole froze the window
(copying still gives all of it).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Literal

from app.core.screening import classify, make_visible
from app.diff.text_diff import DiffOp

SpanKind = Literal["insert", "delete", "hidden", "note"]

_HEX_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")
# Anything not plain printable ASCII may be hidden; the few that are get checked one by one.
_MAYBE_HIDDEN = re.compile(r"[^\x20-\x7e\t\n]")
CHANGED_LINE_BREAK = "↵"
LINE_CHARS = 8192
CONTEXT_CHARS = 200  # of an unchanged stretch of a long line, kept at each end
# Between a deleted word and the word inserted in its place, when neither brings a space: inline, the
# two would read as one ("followPrefers"). Unstyled, and only shown: a copy takes the texts themselves.
SEPARATOR = " "


@dataclass(frozen=True, slots=True)
class DiffColors:
    """The colors of a diff, as `#rrggbb`; the text and page colors stay those of the widget."""

    inserted_text: str
    inserted_background: str
    inserted_line: str
    deleted_text: str
    deleted_background: str
    deleted_line: str
    hidden_text: str
    hidden_background: str
    line_number: str

    def __post_init__(self) -> None:
        for field in fields(self):
            if not _HEX_COLOR.fullmatch(getattr(self, field.name)):
                raise ValueError(f"{field.name} is not a hex color: {getattr(self, field.name)!r}")


LIGHT_COLORS = DiffColors(
    inserted_text="#0a5c1f",
    inserted_background="#abf2bc",
    inserted_line="#e6ffec",
    deleted_text="#8e1519",
    deleted_background="#ffc0c0",
    deleted_line="#ffebe9",
    hidden_text="#ffffff",
    hidden_background="#b35900",
    line_number="#8c959f",
)
DARK_COLORS = DiffColors(
    inserted_text="#aff5b4",
    inserted_background="#1f6f3b",
    inserted_line="#15301f",
    deleted_text="#ffdcd7",
    deleted_background="#8e2a2a",
    deleted_line="#3a1a1d",
    hidden_text="#1c1c1c",
    hidden_background="#ffa657",
    line_number="#6e7681",
)


@dataclass(frozen=True, slots=True)
class StyledText:
    """A line as shown: `text`, and (start, end, kind) spans over it.

    Insert and delete spans never overlap each other; a hidden span lies inside one of them or in
    unchanged text.
    """

    text: str
    spans: tuple[tuple[int, int, SpanKind], ...]


def styled_line(ops: Iterable[DiffOp], limit: int = LINE_CHARS) -> StyledText:
    """One line's ops as shown. An unchanged line break ends the line and is not shown, and a CR before
    it neither (a Windows line break); a changed one shows as ↵. A deleted word and the word inserted
    right after it are kept apart by `SEPARATOR` when neither ends or starts with a space.

    A line longer than `limit` is shortened: its unchanged stretches keep `CONTEXT_CHARS` at each end
    around a note of how many characters they hide (so a change deep in a long line is on screen), and
    after about `limit` characters a note says how many more the line holds.
    """
    parts: list[str] = []
    spans: list[tuple[int, int, SpanKind]] = []
    at = 0
    ops = tuple(ops)
    long_line = sum(len(op.text) for op in ops) > limit
    for number, op in enumerate(ops):
        text = _line_part(op)
        if _run_together(ops[number - 1] if number else None, op, parts):
            parts.append(SEPARATOR)
            at += len(SEPARATOR)
        if long_line and op.kind == "equal" and len(text) > 3 * CONTEXT_CHARS:
            at = _append(op.kind, text[:CONTEXT_CHARS], at, parts, spans)
            at = _add_note(f" ⋯ {len(text) - 2 * CONTEXT_CHARS:,} unchanged characters ⋯ ", at, parts, spans)
            text = text[-CONTEXT_CHARS:]
        room = max(0, limit - at)
        if len(text) > room:  # cut here: the rest of this op and the ops after it are only counted
            at = _append(op.kind, text[:room], at, parts, spans)
            rest = len(text) - room + sum(len(_line_part(later)) for later in ops[number + 1 :])
            _add_note(f" … {rest:,} more characters on this line, not shown", at, parts, spans)
            break
        at = _append(op.kind, text, at, parts, spans)
    spans.sort(key=lambda span: (span[0], span[2] == "hidden"))
    return StyledText("".join(parts), tuple(spans))


def _run_together(previous: DiffOp | None, op: DiffOp, parts: list[str]) -> bool:
    """Whether an inserted op would touch the deleted one before it with no space between them."""
    if previous is None or previous.kind != "delete" or op.kind != "insert" or not parts or not op.text:
        return False
    return not parts[-1][-1:].isspace() and not op.text[0].isspace() and parts[-1][-1:] != CHANGED_LINE_BREAK


def _add_note(note: str, at: int, parts: list[str], spans: list[tuple[int, int, SpanKind]]) -> int:
    parts.append(note)
    spans.append((at, at + len(note), "note"))
    return at + len(note)


def _line_part(op: DiffOp) -> str:
    """An op's text as its line shows it, before hidden characters are marked."""
    if op.kind == "equal":
        return op.text.removesuffix("\n").removesuffix("\r") if op.text.endswith("\n") else op.text
    return op.text.replace("\n", CHANGED_LINE_BREAK)


def _append(kind: str, text: str, at: int, parts: list[str], spans: list[tuple[int, int, SpanKind]]) -> int:
    """Add an op's part to the line at `at` (with its span and those of its markers); the new end."""
    shown = _with_markers(text, at, spans)
    if kind != "equal" and shown:
        spans.append((at, at + len(shown), "insert" if kind == "insert" else "delete"))
    parts.append(shown)
    return at + len(shown)


def _with_markers(text: str, at: int, spans: list[tuple[int, int, SpanKind]]) -> str:
    """`text` with each hidden character replaced by its marker; a "hidden" span for each marker."""
    if not _MAYBE_HIDDEN.search(text):
        return text
    pieces: list[str] = []
    shown_at = at
    last = 0
    for match in _MAYBE_HIDDEN.finditer(text):
        marker = _marker(match.group())
        if marker is None:
            continue
        plain = text[last : match.start()]
        pieces.append(plain)
        shown_at += len(plain)
        pieces.append(marker)
        spans.append((shown_at, shown_at + len(marker), "hidden"))
        shown_at += len(marker)
        last = match.end()
    pieces.append(text[last:])
    return "".join(pieces)


def _marker(char: str) -> str | None:
    if classify(char) is not None:
        return make_visible(char)
    if unicodedata.category(char) == "Cc":  # control characters print as nothing (or break lines) too
        return f"⟦U+{ord(char):04X}⟧"
    return None


__all__ = [
    "CHANGED_LINE_BREAK",
    "DARK_COLORS",
    "LIGHT_COLORS",
    "LINE_CHARS",
    "SEPARATOR",
    "DiffColors",
    "SpanKind",
    "StyledText",
    "styled_line",
]
