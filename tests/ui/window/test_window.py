"""The real window on a host-shaped database: select, edit, conflict, restore, delete + undo, filters."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QTableWidget
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import host_sql, query
from tests.ui.window_helpers import card_content, make_window, select, settle, with_older_revision_selected


def _cell(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    assert item is not None, f"no cell at {row}, {column}"
    return item.text()


def test_selecting_a_card_shows_its_content_provenance_and_history(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    assert list(window.model.ids) == [5, 4, 3, 1]  # active, newest promoted first
    select(qtbot, window, 5)
    panel = window.panel
    assert panel.title.text() == "Memory #5"
    assert panel.content.toPlainText() == "Prefers pnpm"
    assert [_cell(panel.provenance, r, 0) for r in range(panel.provenance.rowCount())] == [
        "#46",
        "#47",
        "#48",
    ]
    select(qtbot, window, 3)
    assert _cell(panel.provenance, 0, 1) == "provenance unknown"
    assert "5 active" not in window.status.counts.text()
    assert window.status.counts.text().startswith("4 active · 1 dismissed")


def test_edit_saves_a_revision_and_undo_brings_the_old_text_back(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    window.acts.edit.trigger()
    dialog = window.commands.edit_dialog
    assert dialog is not None
    dialog.editor.setPlainText("")
    assert not dialog.save_button.isEnabled() and "cannot be empty" in dialog.notice.text()
    dialog.editor.setPlainText("Prefers pnpm, always")
    with qtbot.waitSignal(dialog.finished, timeout=10_000):
        dialog.save_button.click()
    assert dialog.result() == QDialog.DialogCode.Accepted
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm, always")
    qtbot.waitUntil(lambda: window.panel.revisions.topLevelItemCount() >= 1)
    assert window.acts.undo.isEnabled() and "edit of #5" in window.acts.undo.text()
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm")
    settle(qtbot, window)


def test_edit_conflict_after_an_outside_rewrite_lets_the_person_choose(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    window.acts.edit.trigger()
    dialog = window.commands.edit_dialog
    assert dialog is not None
    dialog.editor.setPlainText("Mine: prefers pnpm")
    host_sql(
        host_db,
        "UPDATE user_memories SET content = ?, updated_at = ? WHERE id = 5",
        ("Theirs: prefers pnpm workspaces", REVIEW_TIME - 1000),
    )
    dialog.save_button.click()
    qtbot.waitUntil(lambda: dialog.pages.currentIndex() == 1, timeout=10_000)
    assert dialog.theirs is not None and dialog.theirs.content == "Theirs: prefers pnpm workspaces"
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 5") == [
        ("Theirs: prefers pnpm workspaces",)
    ]  # nothing was silently overwritten
    dialog.copy_button.click()
    with qtbot.waitSignal(dialog.finished, timeout=10_000):
        dialog.overwrite_button.click()
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 5") == [("Mine: prefers pnpm",)]
    qtbot.waitUntil(lambda: card_content(window, 5) == "Mine: prefers pnpm")
    settle(qtbot, window)


def test_keep_theirs_leaves_the_outside_rewrite(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 4)
    window.acts.edit.trigger()
    dialog = window.commands.edit_dialog
    assert dialog is not None
    dialog.editor.setPlainText("Mine")
    host_sql(
        host_db, "UPDATE user_memories SET content = 'Theirs', updated_at = ? WHERE id = 4", (REVIEW_TIME,)
    )
    dialog.save_button.click()
    qtbot.waitUntil(lambda: dialog.pages.currentIndex() == 1, timeout=10_000)
    with qtbot.waitSignal(dialog.finished):
        dialog.keep_theirs_button.click()
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 4") == [("Theirs",)]
    settle(qtbot, window)


def test_restore_this_version_writes_a_new_revision(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    # The oldest edit is listed without its texts: they are read when it is selected.
    window = with_older_revision_selected(qtbot, store, tmp_path)
    revisions = window.panel.revisions
    shown = revisions.current_revision()
    assert shown is not None and shown.texts_loaded and shown.new_content == "Prefers pnpm v2"
    window.panel.restore_button.click()
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm v2", timeout=10_000)
    qtbot.waitUntil(lambda: revisions.topLevelItemCount() >= 3, timeout=10_000)
    newest = revisions.topLevelItem(0)
    assert newest is not None and newest.text(2) == "restore" and newest.text(3).startswith("restored from r")
    settle(qtbot, window)


def test_delete_asks_then_undo_brings_the_memory_back(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    asked: list[str] = []

    def confirm(title: str, text: str) -> bool:
        asked.append(title)
        return True

    window.commands.confirm = confirm
    select(qtbot, window, 4)
    window.list.setFocus()
    qtbot.keyClick(window.list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: window.model.row_of(4) is None, timeout=10_000)
    assert asked == ["Delete memory #4"]
    assert query(host_db, "SELECT count(*) FROM user_memories WHERE id = 4") == [(0,)]
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.model.row_of(4) is not None, timeout=10_000)
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 4") == [("Lives in Berlin (CET)",)]
    settle(qtbot, window)


def test_dismiss_then_reactivate_and_the_status_filter(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 1)
    window.acts.dismiss.trigger()
    qtbot.waitUntil(lambda: window.model.row_of(1) is None, timeout=10_000)  # Active lists no dismissed
    window.filters.set_status("dismissed")
    qtbot.waitUntil(lambda: sorted(window.model.ids) == [1, 2], timeout=10_000)
    select(qtbot, window, 1)
    assert window.acts.reactivate.isEnabled() and not window.acts.dismiss.isEnabled()
    window.acts.reactivate.trigger()
    qtbot.waitUntil(lambda: list(window.model.ids) == [2], timeout=10_000)
    settle(qtbot, window)


def test_search_is_debounced_and_next_previous_move_the_selection(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    window.list.setFocus()
    qtbot.keyClick(window.list, Qt.Key.Key_J)
    assert window.selected_memory() is not None and window.selected_memory().id == 4  # type: ignore[union-attr]
    qtbot.keyClick(window.list, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert window.selected_memory().id == 5  # type: ignore[union-attr]
    qtbot.keyClick(window.list, Qt.Key.Key_Return)
    assert window.commands.edit_dialog is not None and window.commands.edit_dialog.before.id == 5
    window.commands.edit_dialog.reject()
    window.acts.find.trigger()
    assert window.filters.search.hasFocus()
    qtbot.keyClicks(window.filters.search, "berlin")
    qtbot.waitUntil(lambda: list(window.model.ids) == [4], timeout=10_000)
    window.filters.search.clear()
    qtbot.waitUntil(lambda: len(window.model.ids) == 4, timeout=10_000)
    settle(qtbot, window)


def test_return_enter_and_f2_on_the_list_open_one_editor_for_the_selected_card(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    from ui.dialogs.edit import EditDialog

    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 4)
    window.list.setFocus()
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2):
        qtbot.keyClick(window.list, key)
        dialog = window.commands.edit_dialog
        assert dialog is not None and dialog.isVisible() and dialog.before.id == 4
        open_editors = [d for d in window.findChildren(EditDialog) if d.isVisible()]
        assert open_editors == [dialog]  # the shortcut and the view never both open one
        dialog.reject()
        assert not dialog.isVisible()
        window.list.setFocus()
