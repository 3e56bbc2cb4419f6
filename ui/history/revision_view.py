"""What the history shows of one revision: its summary and diff, an empty history's words, whether
Restore applies; shared by the side panel and the past's panel."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLabel

from app.core.clock import format_instant
from app.core.models import Memory, Revision, RevisionKind
from app.present.card import updated_at
from app.present.revision import revision_summary, unchanged_text_caption
from ui.diff.slot import DiffSlot
from ui.history.revision_table import RevisionTable


def no_revisions_text(memory: Memory) -> str:
    """What an empty history means: as promoted, or rewritten before the dashboard ever read it (the
    host's `updated_at` says when; the text before that was never seen, so there is nothing to diff)."""
    if not memory.rewritten:
        return "No revisions recorded yet: this memory is as it was promoted."
    first = memory.first_seen_at
    seen = f" on {format_instant(first)}" if first is not None else ""
    return (
        f"Updated on {format_instant(updated_at(memory))}, before the dashboard first saw it{seen}: "
        "its earlier text was never seen, so no diff can be shown."
    )


def show_change(
    revision: Revision, summary: QLabel, diff: DiffSlot, content: str, want: Callable[[int], object]
) -> None:
    """A revision's summary and its diff; its texts asked for with `want` first when not read yet. A
    status or expiry change shows `content` (the memory's text) unchanged, captioned with what it changed."""
    summary.setText(revision_summary(revision))
    if not revision.texts_loaded:
        diff.show_message("Loading this revision…")
        want(revision.id)
        return
    old, new = revision.previous_content, revision.new_content
    if old is None and new is None:  # a status or expiry change: the content stayed as it was
        old = new = content
    diff.show_texts(old, new, unchanged_text_caption(revision) or "")


def take_revision(table: RevisionTable, revision: Revision) -> Revision | None:
    """A revision read with its texts, put in its row of `table`; returned when it is the selected one
    (its diff to be shown), else None."""
    if not table.replace_revision(revision):
        return None
    current = table.current_revision()
    return current if current is not None and current.id == revision.id else None


def restorable(revision: Revision | None, memory: Memory | None) -> bool:
    if revision is None or memory is None:
        return False
    content = revision.new_content if revision.new_content is not None else revision.previous_content
    return revision.kind != RevisionKind.DELETE and content is not None and content != memory.content
