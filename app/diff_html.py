"""HTML for a QTextBrowser showing a diff, inline or side by side. Pure: no Qt here.

Memory content is untrusted, so every piece of it is escaped, and characters a reader cannot see
(zero-width, bidi controls, tags, control characters) are shown as highlighted `⟦U+XXXX⟧` markers.
Only the subset of HTML and CSS that Qt's rich text understands is used (spans with inline styles,
tables with `bgcolor`), and colors come from the caller so that light and dark palettes both work.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from app.diff import DiffOp, SideBySideRow
from app.screening import classify, make_visible

_HEX_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")
# Anything not plain printable ASCII may be hidden; the few that are get checked one by one.
_MAYBE_HIDDEN = re.compile(r"[^\x20-\x7e\t\n]")
_CHANGED_LINE_BREAK = "↵"


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
        # They end up inside style attributes: only plain hex colors may get there.
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


def render_inline(ops: Iterable[DiffOp], colors: DiffColors) -> str:
    """One flowing text: insertions underlined on green, deletions struck through on red."""
    parts = [_op_html(op, colors, keep_line_breaks=True) for op in ops]
    return _document(f'<div style="white-space: pre-wrap;">{"".join(parts)}</div>')


def render_side_by_side(
    rows: Sequence[SideBySideRow], colors: DiffColors, context: int | None = None, max_rows: int | None = None
) -> str:
    """A two-column table with line numbers.

    With `context`, each unchanged run longer than 2 × context + 1 lines is folded to a "⋯ N unchanged
    lines ⋯" row. With `max_rows`, the table stops there and says how many rows it left out: a huge
    table would freeze the text browser that lays it out.
    """
    parts = ['<table width="100%" cellspacing="0" cellpadding="2">']
    for count, row in enumerate(_with_folds(rows, context), start=1):
        if max_rows is not None and count > max_rows:
            parts.append(_note_row("⋯ the rest is not shown here: see the inline view ⋯", colors))
            break
        parts.append(_row_html(row, colors) if isinstance(row, SideBySideRow) else _fold_html(row, colors))
    parts.append("</table>")
    return _document("".join(parts))


def render_message(message: str) -> str:
    """A plain note in place of a diff ("No earlier revision")."""
    return _document(f"<p><i>{escape_visible(message, None)}</i></p>")


def escape_visible(text: str, colors: DiffColors | None) -> str:
    """`text` escaped for HTML, each hidden character replaced by a (highlighted) visible marker."""
    escaped = html.escape(text)
    if not _MAYBE_HIDDEN.search(escaped):
        return escaped
    return _MAYBE_HIDDEN.sub(lambda match: _visible_char(match.group(), colors), escaped)


def _visible_char(char: str, colors: DiffColors | None) -> str:
    if classify(char) is not None:
        marker = make_visible(char)
    elif unicodedata.category(char) == "Cc":  # control characters print as nothing (or break lines) too
        marker = f"⟦U+{ord(char):04X}⟧"
    else:
        return char
    if colors is None:
        return marker
    style = f"color:{colors.hidden_text}; background-color:{colors.hidden_background};"
    return f'<span style="{style}">{marker}</span>'


def _op_html(op: DiffOp, colors: DiffColors, keep_line_breaks: bool) -> str:
    """One op; a changed line break shows as ↵ (followed, inline, by the break itself)."""
    if op.kind == "equal":
        # An unchanged Windows line break is just a line break; any other CR gets a marker.
        text = op.text.replace("\r\n", "\n")
        return escape_visible(text if keep_line_breaks else text.removesuffix("\n"), colors)
    marked = op.text.replace("\n", _CHANGED_LINE_BREAK + ("\n" if keep_line_breaks else ""))
    if op.kind == "insert":
        text, background, decoration = colors.inserted_text, colors.inserted_background, "underline"
    else:
        text, background, decoration = colors.deleted_text, colors.deleted_background, "line-through"
    style = f"color:{text}; background-color:{background}; text-decoration: {decoration};"
    return f'<span style="{style}">{escape_visible(marked, colors)}</span>'


def _row_html(row: SideBySideRow, colors: DiffColors) -> str:
    left_line = colors.deleted_line if row.changed and row.left_number is not None else None
    right_line = colors.inserted_line if row.changed and row.right_number is not None else None
    return (
        "<tr>"
        + _number_cell(row.left_number, colors)
        + _text_cell(row.left_ops, colors, left_line)
        + _number_cell(row.right_number, colors)
        + _text_cell(row.right_ops, colors, right_line)
        + "</tr>"
    )


def _number_cell(number: int | None, colors: DiffColors) -> str:
    shown = "" if number is None else str(number)
    return (
        f'<td width="1%" align="right" style="color:{colors.line_number}; white-space: nowrap;">{shown}</td>'
    )


def _text_cell(ops: tuple[DiffOp, ...], colors: DiffColors, background: str | None) -> str:
    content = "".join(_op_html(op, colors, keep_line_breaks=False) for op in ops)
    bgcolor = f' bgcolor="{background}"' if background else ""
    return f'<td width="49%"{bgcolor} style="white-space: pre-wrap;">{content}</td>'


def _with_folds(rows: Sequence[SideBySideRow], context: int | None) -> Iterable[SideBySideRow | int]:
    """The rows, with each unchanged run longer than 2 × context + 1 folded to its count of hidden rows."""
    if context is None:
        yield from rows
        return
    index = 0
    while index < len(rows):
        end = index
        while end < len(rows) and not rows[end].changed:
            end += 1
        head = context if index > 0 else 0  # keep context after a change, before the next one
        tail = context if end < len(rows) else 0
        if end - index > head + tail + 1:
            yield from rows[index : index + head]
            yield end - index - head - tail
            yield from rows[end - tail : end]
        else:
            yield from rows[index:end]
        if end < len(rows):
            yield rows[end]
        index = end + 1


def _fold_html(hidden_rows: int, colors: DiffColors) -> str:
    return _note_row(f"⋯ {hidden_rows} unchanged {'line' if hidden_rows == 1 else 'lines'} ⋯", colors)


def _note_row(note: str, colors: DiffColors) -> str:
    return f'<tr><td colspan="4" align="center" style="color:{colors.line_number};">{note}</td></tr>'


def _document(body: str) -> str:
    return f"<html><body>{body}</body></html>"


__all__ = [
    "DARK_COLORS",
    "LIGHT_COLORS",
    "DiffColors",
    "escape_visible",
    "render_inline",
    "render_message",
    "render_side_by_side",
]
