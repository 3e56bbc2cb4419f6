"""A memory's text on one row of the Tidy dialog and the merge preview."""

from __future__ import annotations

from app.core.screening import make_visible

LINE_CHARS = 100


def line(text: str) -> str:
    """One line of a memory's text, hidden characters shown, cut at `LINE_CHARS`."""
    flat = " ".join(make_visible(text[: LINE_CHARS * 2]).split())
    return flat if len(flat) <= LINE_CHARS else flat[: LINE_CHARS - 1] + "…"
