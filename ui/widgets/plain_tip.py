"""Tooltips from untrusted text: Qt guesses rich text in a tooltip, so data is escaped and shown as is.

A candidate's content, a session id or a run id such as `<img src=…>` must read as those characters,
never as markup; hidden characters are made visible too. A tooltip shows at most `TIP_CHARS` characters
and `TIP_LINES` lines: a host row's value can be megabytes, and a tooltip is laid out whole.
"""

from __future__ import annotations

import html

from app.core.screening import make_visible

TIP_CHARS = 2000
TIP_LINES = 40


def plain_tip(text: str) -> str:
    """`text` as a tooltip that Qt renders literally (escaped, line breaks kept, hidden characters shown)."""
    if not text:
        return ""
    escaped = html.escape(make_visible(_cut(text))).replace("\n", "<br>")
    return f"<p style='white-space:pre-wrap'>{escaped}</p>"


def _cut(text: str) -> str:
    lines = text[:TIP_CHARS].split("\n")
    cut = "\n".join(lines[:TIP_LINES])
    return cut if len(cut) == len(text) else cut + " …"
