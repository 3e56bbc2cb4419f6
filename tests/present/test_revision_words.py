"""A revision in words, read from real stores: the History's row and the caption above its diff say the
same thing (a run undo's deletion is not called a restore on one side and "in the dashboard" on the
other), every view names a revision `r<id>`, and an expiry change gives its old and new expiry."""

from __future__ import annotations

from app.core.clock import format_instant
from app.core.models import Revision
from app.present.revision import (
    change_words,
    revision_name,
    revision_summary,
    source_words,
    unchanged_text_caption,
)
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore

DAY = 86_400_000


def newest(store: MemoryStore, memory_id: int) -> Revision:
    return store.history(memory_id)[-1]


def test_a_run_undos_deletion_is_called_the_same_in_the_row_and_the_caption(store: MemoryStore) -> None:
    document = {
        "promote": [{"content": "Runs pytest -q", "candidate_ids": [151]}],
        "consume_candidate_ids": [151],
    }
    result = apply_verdict(store, parse_verdict(document), run_id="review-7")
    (promoted,) = result.promoted_memory_ids
    store.undo_run("review-7")
    deleted = newest(store, promoted)
    assert (source_words(deleted), change_words(deleted)) == ("run undo", "deleted")
    assert revision_summary(deleted) == f"Revision r{deleted.id}: Deleted by undoing run review-7"


def test_a_restore_names_the_revision_it_restored_as_every_view_does(store: MemoryStore) -> None:
    store.edit(5, "Prefers pnpm v2")
    first = newest(store, 5)
    store.edit(5, "Prefers pnpm v3")
    store.restore(5, first.id)
    restore = newest(store, 5)
    assert revision_name(first.id) == f"r{first.id}"
    assert change_words(restore) == f"restored from r{first.id}"
    assert revision_summary(restore) == f"Revision r{restore.id}: Restored from r{first.id} in the dashboard"
    assert unchanged_text_caption(restore) is None  # its text changed: the diff shows it


def test_an_expiry_change_gives_its_old_and_new_expiry(store: MemoryStore) -> None:
    at = store.now() + 7 * DAY
    store.set_expiry(4, at)
    store.set_expiry(4, None)
    set_, cleared = store.history(4)[-2:]
    assert change_words(set_) == f"expiry: never → {format_instant(at)}"
    assert change_words(cleared) == f"expiry: {format_instant(at)} → never"
    assert (
        revision_summary(set_)
        == f"Revision r{set_.id}: Expiry: never → {format_instant(at)} in the dashboard"
    )
    assert unchanged_text_caption(set_) == f"Expiry: never → {format_instant(at)}; the text is unchanged"


def test_a_status_change_says_what_changed_beside_its_unchanged_text(store: MemoryStore) -> None:
    store.dismiss(4, "moved")
    dismissed = newest(store, 4)
    assert change_words(dismissed) == "active → dismissed"
    assert unchanged_text_caption(dismissed) == "Status: active → dismissed; the text is unchanged"
