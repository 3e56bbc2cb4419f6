"""The window acting on many memories: multi-select (Shift+arrows, Ctrl+A over the filtered list), one write
and one Undo for the selection, a delete of more than 10 asked first, the Deleted filter and its Restore,
New memory (Ctrl+N), and a source's context menu (trust marks, its memories, retiring them)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.hostdb import profile_version, query
from tests.ui.window_helpers import make_window, select, settle

Key, Mod = Qt.Key, Qt.KeyboardModifier


def statuses(path: Path) -> dict[object, object]:
    return {row[0]: row[1] for row in query(path, "SELECT id, status FROM user_memories")}


def test_shift_arrows_select_many_and_dismiss_is_one_write_one_undo(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    assert list(window.model.ids) == [5, 4, 3, 1]  # Active, newest promoted first
    select(qtbot, window, 5)
    window.list.setFocus()
    qtbot.keyClick(window.list, Key.Key_Down, Mod.ShiftModifier)
    qtbot.keyClick(window.list, Key.Key_Down, Mod.ShiftModifier)
    assert window.selected_ids() == [5, 4, 3]
    qtbot.waitUntil(lambda: window.panel.history_memory_id == 3, timeout=10_000)  # the current card
    assert window.acts.dismiss.isEnabled() and not window.acts.edit.isEnabled()
    before = profile_version(host_db)
    qtbot.keyClick(window.list, Key.Key_D, Mod.ControlModifier)
    qtbot.waitUntil(lambda: list(window.model.ids) == [1], timeout=10_000)
    assert statuses(host_db) == {1: "active", 2: "dismissed", 3: "dismissed", 4: "dismissed", 5: "dismissed"}
    assert profile_version(host_db) == before + 1
    assert window.acts.undo.text() == "Undo dismiss of 3 memories"
    qtbot.keyClick(window, Key.Key_Z, Mod.ControlModifier)
    qtbot.waitUntil(lambda: sorted(window.model.ids) == [1, 3, 4, 5], timeout=10_000)
    assert statuses(host_db)[3] == "active" and profile_version(host_db) == before + 2
    settle(qtbot, window)


def test_ctrl_a_selects_the_filtered_list_and_a_large_delete_asks(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    added = [store.add(f"Note number {n}").id for n in range(11)]
    window = make_window(qtbot, store, tmp_path)
    window.filters.search.setText("Note number")
    qtbot.waitUntil(lambda: sorted(window.model.ids) == added, timeout=10_000)
    select(qtbot, window, added[0])
    window.list.setFocus()
    qtbot.keyClick(window.list, Key.Key_A, Mod.ControlModifier)
    assert sorted(window.selected_ids()) == added
    asked: list[str] = []
    answer = [False]

    def confirm(title: str, text: str) -> bool:
        asked.append(title)
        return answer[0]

    window.commands.confirm = confirm
    window.acts.delete.trigger()
    assert asked == ["Delete 11 memories"]
    settle(qtbot, window)
    assert query(host_db, "SELECT count(*) FROM user_memories") == [(16,)]  # refused: nothing changed
    answer[0] = True
    window.acts.delete.trigger()
    qtbot.waitUntil(lambda: list(window.model.ids) == [], timeout=10_000)
    assert query(host_db, "SELECT count(*) FROM user_memories") == [(5,)]
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: sorted(window.model.ids) == added, timeout=10_000)
    settle(qtbot, window)


def test_the_deleted_filter_lists_the_trash_and_restores(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    store.delete([1, 4])
    window = make_window(qtbot, store, tmp_path)
    window.filters.set_status("deleted")
    qtbot.waitUntil(lambda: sorted(window.model.ids) == [1, 4], timeout=10_000)
    memory = select(qtbot, window, 4)
    assert memory.status == "deleted" and memory.content == "Lives in Berlin (CET)"
    assert window.acts.restore_deleted.isEnabled() and not window.acts.dismiss.isEnabled()
    window.list.setFocus()
    qtbot.keyClick(window.list, Key.Key_A, Mod.ControlModifier)
    window.acts.restore_deleted.trigger()
    qtbot.waitUntil(lambda: list(window.model.ids) == [], timeout=10_000)
    assert statuses(host_db)[1] == "active" and statuses(host_db)[4] == "active"
    assert window.acts.undo.text() == "Undo restore of 2 memories"
    settle(qtbot, window)


def test_new_memory_dialog_writes_and_undo_removes_it(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    window.acts.new_memory.trigger()
    dialog = window.commands.new_dialog
    assert dialog is not None and dialog.isVisible() and not dialog.save_button.isEnabled()
    qtbot.keyClicks(dialog.editor, "Prefers dark mode")
    assert dialog.save_button.isEnabled()
    before = profile_version(host_db)
    dialog.save_button.click()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=10_000)
    rows = query(host_db, "SELECT id, status FROM user_memories WHERE content = 'Prefers dark mode'")
    assert len(rows) == 1 and rows[0][1] == "active" and profile_version(host_db) == before + 1
    new_id = rows[0][0]
    qtbot.waitUntil(lambda: window.list.current_id() == new_id, timeout=10_000)
    selected = window.selected_memory()
    assert selected is not None and selected.trust == "trusted"
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: window.model.row_of(int(str(new_id))) is None, timeout=10_000)
    assert query(host_db, "SELECT count(*) FROM user_memories WHERE id = ?", (new_id,)) == [(0,)]
    settle(qtbot, window)


def test_a_sessions_menu_marks_trust_lists_and_retires(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    table = window.panel.provenance
    assert table.session_at(0) == "session:ses_a1"
    menu = table.source_menu("session:ses_a1")
    untrust = next(a for a in menu.actions() if a.text() == "Mark session:ses_a1 untrusted")
    untrust.trigger()
    qtbot.waitUntil(
        lambda: (m := window.model.memory(5)) is not None and m.trust == "untrusted", timeout=10_000
    )
    assert store.trust_marks() == {"session:ses_a1": "untrusted"}
    window.panel.provenance.sourceAction.emit("show", "session:ses_seed")
    qtbot.waitUntil(lambda: sorted(window.model.ids) == [1, 4], timeout=10_000)  # Active, from ses_seed
    asked: list[str] = []

    def confirm(title: str, text: str) -> bool:
        asked.append(text)
        return True

    window.commands.confirm = confirm
    window.panel.provenance.sourceAction.emit("retire", "session:ses_seed")
    qtbot.waitUntil(lambda: list(window.model.ids) == [], timeout=10_000)
    assert asked and "3 memories: 3 where it is the only source, 0 where it is one of several" in asked[0]
    assert statuses(host_db) == {1: "dismissed", 2: "dismissed", 3: "active", 4: "dismissed", 5: "active"}
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: sorted(window.model.ids) == [1, 4], timeout=10_000)
    settle(qtbot, window)


def test_the_filter_row_filters_by_source_trust_and_when_promoted(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    store.set_trust("session:ses_b7", "untrusted")
    window = make_window(qtbot, store, tmp_path)
    bar = window.filters
    qtbot.keyClicks(bar.source, "ses_seed")
    qtbot.waitUntil(lambda: sorted(window.model.ids) == [1, 4], timeout=10_000)
    assert "from session:ses_seed" in window.list_header.text()
    bar.source.clear()
    bar.trust.setCurrentIndex(bar.trust.findData("untrusted"))
    qtbot.waitUntil(lambda: list(window.model.ids) == [5], timeout=10_000)
    bar.trust.setCurrentIndex(0)
    bar.since.setCurrentIndex(bar.since.findData(30))  # #5 was promoted 23 days before the clock
    qtbot.waitUntil(lambda: list(window.model.ids) == [5], timeout=10_000)
    bar.since.setCurrentIndex(bar.since.findData(7))
    qtbot.waitUntil(lambda: list(window.model.ids) == [], timeout=10_000)
    settle(qtbot, window)
