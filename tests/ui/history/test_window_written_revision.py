"""After a write the history panel shows what was written: Save, Restore and a promotion select the new
revision (its diff on screen); a promotion and a merge can be undone."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from app.core.models import RevisionKind
from app.store import MemoryStore
from tests.support.hostdb import host_sql, profile_version, query
from tests.ui.window_helpers import (
    card_content,
    make_window,
    open_queue,
    select,
    settle,
    with_older_revision_selected,
)
from ui.window.main_window import MainWindow


def newest_revision_is_shown(window: MainWindow, memory_id: int, kind: str) -> bool:
    panel = window.panel
    shown = panel.revisions.current_revision()
    listed = panel.revisions.revisions()
    return (
        panel.history_memory_id == memory_id
        and bool(listed)
        and shown is not None
        and shown.id == listed[0].id
        and shown.kind == kind
        and panel.revision_summary.text().startswith(f"Revision r{shown.id}:")
    )


def queue_window(qtbot: QtBot, store: MemoryStore, tmp_path: Path, ids: list[int]) -> MainWindow:
    window = make_window(qtbot, store, tmp_path)
    open_queue(qtbot, window, ids)
    return window


def test_save_selects_the_revision_just_written_even_when_an_older_one_was_selected(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = with_older_revision_selected(qtbot, store, tmp_path)
    revisions = window.panel.revisions
    window.acts.edit.trigger()
    dialog = window.commands.edit_dialog
    assert dialog is not None
    dialog.editor.setPlainText("Prefers pnpm, always")
    with qtbot.waitSignal(dialog.finished, timeout=10_000):
        dialog.save_button.click()
    assert dialog.result() == QDialog.DialogCode.Accepted
    qtbot.waitUntil(lambda: newest_revision_is_shown(window, 5, RevisionKind.CONTENT), timeout=10_000)
    newest = revisions.current_revision()
    assert newest is not None and newest.new_content == "Prefers pnpm, always"
    assert newest.previous_content == "Prefers pnpm v3"  # the diff on screen is this save's
    qtbot.waitUntil(lambda: window.panel.diff.settled, timeout=10_000)
    settle(qtbot, window)


def test_restore_selects_the_restoring_revision(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    window = with_older_revision_selected(qtbot, store, tmp_path)
    revisions = window.panel.revisions
    window.panel.restore_button.click()
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm v2", timeout=10_000)
    qtbot.waitUntil(lambda: newest_revision_is_shown(window, 5, RevisionKind.CONTENT), timeout=10_000)
    shown = revisions.current_revision()
    assert shown is not None and shown.detail.get("restored_from") is not None
    settle(qtbot, window)


def promoted_in_queue(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, candidate: int
) -> tuple[MainWindow, int]:
    """Promote one candidate through the review queue; the window and the new memory's id."""
    window = queue_window(qtbot, store, tmp_path, [candidate])
    window.queue.promote_button.click()
    qtbot.waitUntil(lambda: window.acts.undo.text().startswith("Undo promotion of #"), timeout=10_000)
    return window, int(window.acts.undo.text().removeprefix("Undo promotion of #"))


def test_promotion_selects_its_revision_and_undo_deletes_the_promoted_memory(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window, new_id = promoted_in_queue(qtbot, store, tmp_path, 151)
    assert query(host_db, f"SELECT source_candidate_ids FROM user_memories WHERE id = {new_id}") == [
        ("[151]",)
    ]
    qtbot.waitUntil(lambda: newest_revision_is_shown(window, new_id, RevisionKind.CREATE), timeout=10_000)
    assert window.acts.undo.isEnabled()
    assert window.acts.undo.text() == f"Undo promotion of #{new_id}"
    version = profile_version(host_db)
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: window.model.row_of(new_id) is None, timeout=10_000)
    assert query(host_db, f"SELECT count(*) FROM user_memories WHERE id = {new_id}") == [(0,)]
    assert profile_version(host_db) == version + 1  # the host stops injecting it
    # The deletion is a revision like any other: the memory can be restored from its history.
    assert [r.kind for r in store.history(new_id)][-1] == RevisionKind.DELETE
    settle(qtbot, window)


def test_merge_undo_puts_the_text_back(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = queue_window(qtbot, store, tmp_path, [145])
    window.queue.target.setValue(5)
    window.queue.merge_button.click()
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm\nAsks for code first, explanation after")
    select(qtbot, window, 5)
    qtbot.waitUntil(lambda: newest_revision_is_shown(window, 5, RevisionKind.CONTENT), timeout=10_000)
    assert window.acts.undo.text() == "Undo merge into #5"
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm", timeout=10_000)
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 5") == [("Prefers pnpm",)]
    settle(qtbot, window)


def test_undo_of_a_promotion_leaves_a_memory_rewritten_since(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window, new_id = promoted_in_queue(qtbot, store, tmp_path, 152)
    host_sql(host_db, "UPDATE user_memories SET content = 'Rewritten by the host' WHERE id = ?", (new_id,))
    with qtbot.waitSignal(window.controller.error, timeout=10_000) as error:
        window.acts.undo.trigger()
    assert error.args is not None and "changed since it was promoted" in str(error.args[0])
    assert query(host_db, f"SELECT content FROM user_memories WHERE id = {new_id}") == [
        ("Rewritten by the host",)
    ]
    settle(qtbot, window)
