"""Tooltips from untrusted text: Qt guesses rich text in a tooltip, so data is escaped and shown as is.

A candidate's content, a session id or a run id such as `<img src=…>` must read as those characters,
never as markup; hidden characters are made visible too.
"""

from __future__ import annotations

import html

from app.screening import make_visible


def plain_tip(text: str) -> str:
    """`text` as a tooltip that Qt renders literally (escaped, line breaks kept, hidden characters shown)."""
    if not text:
        return ""
    escaped = html.escape(make_visible(text)).replace("\n", "<br>")
    return f"<p style='white-space:pre-wrap'>{escaped}</p>"
