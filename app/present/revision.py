"""A revision in words, one vocabulary for every view: its name (`r407`, as Blame, the Runs window and
the CLI say it), who made it, what it changed (the History's row and the caption above its diff), and
what a change that leaves the text as it was did instead (a status, an expiry).

Pure functions of a `Revision`, so the History, the As of… panel and Blame cannot drift apart.
"""

from __future__ import annotations

from app.core.clock import format_instant
from app.core.models import IMPORTED_FROM, IMPORTED_SOURCE, UNDO_KEY, Revision, RevisionKind, RevisionSource
from app.present.card import shown_word

RESTORED_FROM = "restored_from"  # a restore's detail: the revision whose state it brought back
# Who made a revision, in the History's Source column.
_SOURCE_WORDS: dict[str, str] = {
    RevisionSource.OBSERVED: "observed",
    RevisionSource.REVIEW: "review",
    RevisionSource.DASHBOARD: "dashboard",
    RevisionSource.RESTORE: "restore",
    RevisionSource.EXPIRY: "expiry sweep",
    RevisionSource.IMPORT: "import",
}
# Who made it, in the caption's sentence.
_WHO: dict[str, str] = {
    RevisionSource.OBSERVED: "outside the dashboard (observed)",
    RevisionSource.REVIEW: "by the review",
    RevisionSource.DASHBOARD: "in the dashboard",
    RevisionSource.RESTORE: "in the dashboard",
    RevisionSource.EXPIRY: "by the expiry sweep",
    RevisionSource.IMPORT: "by an import",
}
_KIND_WORDS: dict[str, str] = {
    RevisionKind.CREATE: "created",
    RevisionKind.CONTENT: "content rewritten",
    RevisionKind.DELETE: "deleted",
}


def revision_name(revision_id: int) -> str:
    """`r407`: how every view names a revision."""
    return f"r{revision_id}"


def undone_run(revision: Revision) -> str | None:
    """The run a revision undid (a run undo's restore or delete), or None."""
    run = revision.detail.get(UNDO_KEY)
    return run if isinstance(run, str) else None


def _restored_from(revision: Revision) -> int | None:
    value = revision.detail.get(RESTORED_FROM)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _imported_source(revision: Revision) -> str | None:
    """Who made an old revision an import copied in, where it was made (None for any other revision)."""
    if revision.source != RevisionSource.IMPORT or IMPORTED_FROM in revision.detail:
        return None
    source = revision.detail.get(IMPORTED_SOURCE)
    return source if isinstance(source, str) else RevisionSource.IMPORT


def _the_import(revision: Revision) -> bool:
    """The revision an import adds to each memory it brings (the copied ones keep their own kinds)."""
    return revision.source == RevisionSource.IMPORT and IMPORTED_FROM in revision.detail


def source_words(revision: Revision) -> str:
    """Who made it, for the History's Source column: `review`, `restore`, `run undo`, `review (imported)`
    for a revision an import copied in, …"""
    if undone_run(revision) is not None:
        return "run undo"
    copied = _imported_source(revision)
    if copied is not None and copied != RevisionSource.IMPORT:
        return f"{_SOURCE_WORDS.get(copied, shown_word(copied))} (imported)"
    return _SOURCE_WORDS.get(revision.source, shown_word(revision.source))


def _instant_or_never(value: object) -> str:
    return format_instant(value) if isinstance(value, int) and not isinstance(value, bool) else "never"


def expiry_change(revision: Revision) -> str:
    """`never → 2026-10-28 03:13:32 UTC`: an expiry revision's old and new expiry."""
    before, after = revision.detail.get("previous_expires_at"), revision.detail.get("expires_at")
    return f"{_instant_or_never(before)} → {_instant_or_never(after)}"


def change_words(revision: Revision) -> str:
    """What it changed, for the History's Change column: `active → dismissed`, `restored from r426`,
    `expiry: never → …`, `deleted`, …"""
    if revision.kind == RevisionKind.STATUS:
        return f"{shown_word(revision.previous_status or '?')} → {shown_word(revision.new_status or '?')}"
    if revision.kind == RevisionKind.EXPIRY:
        return f"expiry: {expiry_change(revision)}"
    if _the_import(revision):
        return "imported"  # its own history, copied in before it, holds its creation
    restored = _restored_from(revision)
    if restored is not None and undone_run(revision) is not None and revision.kind != RevisionKind.DELETE:
        return f"put back as before {revision_name(restored)}"
    if restored is not None and revision.kind != RevisionKind.DELETE:
        return f"restored from {revision_name(restored)}"
    return _KIND_WORDS.get(revision.kind, shown_word(revision.kind))


def revision_summary(revision: Revision) -> str:
    """The caption above a revision's diff, saying what its row says: `Revision r7: Content rewritten by
    the review (run r-1), adding candidates 141, 143`; `Revision r9: Deleted by undoing run r-2`."""
    what = change_words(revision)
    who = _who(revision)
    run = f" (run {revision.run_id})" if revision.run_id else ""
    ids = ", ".join(map(str, revision.candidate_ids))
    added = f", adding candidates {ids}" if ids else ""
    return f"Revision {revision_name(revision.id)}: {what[:1].upper()}{what[1:]} {who}{run}{added}"


def _who(revision: Revision) -> str:
    undone = undone_run(revision)
    if undone is not None:
        return f"by undoing run {undone}"
    if _the_import(revision):
        return f"from {shown_word(str(revision.detail[IMPORTED_FROM]), 200)}"
    copied = _imported_source(revision)
    if copied is not None and copied != RevisionSource.IMPORT:
        return f"{_WHO.get(copied, f'by {shown_word(copied)}')}, before it was imported"
    return _WHO.get(revision.source, f"by {shown_word(revision.source)}")


def unchanged_text_caption(revision: Revision) -> str | None:
    """Above the diff of a change that left the text as it was, what it changed instead (`Status: active →
    dismissed; the text is unchanged`); None for a change of the text."""
    if revision.kind == RevisionKind.STATUS:
        return f"Status: {change_words(revision)}; the text is unchanged"
    if revision.kind == RevisionKind.EXPIRY:
        return f"Expiry: {expiry_change(revision)}; the text is unchanged"
    return None
