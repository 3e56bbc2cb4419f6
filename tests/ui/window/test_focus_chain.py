"""Keyboard-only and screen-reader use: Tab and Shift+Tab reach every panel in the order they are seen and
leave each table in one press; every widget that takes focus has an accessible name (read back through
QAccessible); a card's accessible name and description carry its status, times, provenance and trust."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.ui.window_helpers import make_window, open_queue, select, settle, with_older_revision_selected
from ui.window.main_window import MainWindow


def accessible_name(widget: QWidget) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    assert interface is not None and interface.isValid(), f"{type(widget).__name__} is not accessible"
    return interface.text(QAccessible.Text.Name)


def walk(qtbot: QtBot, start: QWidget, presses: int, *, backwards: bool = False) -> list[QWidget]:
    """The widgets that hold the focus after each Tab (or Shift+Tab) press, starting at `start`."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(start.hasFocus)
    visited: list[QWidget] = []
    for _ in range(presses):
        focused = QApplication.focusWidget()
        assert focused is not None
        if backwards:
            QTest.keyClick(focused, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        else:
            QTest.keyClick(focused, Qt.Key.Key_Tab)
        now = QApplication.focusWidget()
        assert now is not None
        visited.append(now)
    return visited


def cycle(visited: list[QWidget], start: QWidget) -> list[QWidget]:
    """One round of the chain, from `start` on."""
    assert start in visited, "Tab never came back to where it started"
    return [start, *visited[: visited.index(start)]]


def panels(window: MainWindow) -> list[QWidget]:
    panel = window.panel
    return [
        window.filters.search,
        window.filters.status,
        window.filters.sort,
        window.filters.source,  # the filter row under the toolbar, before the cards it filters
        window.filters.trust,
        window.filters.since,
        window.projects.picker,  # whose memories: about you or a project's
        window.list,
        panel.content,
        panel.provenance,
        panel.revisions,
        panel.diff.view,
        panel.restore_button,
    ]


def inside(widget: QWidget, panel: QWidget) -> bool:
    return widget is panel or panel.isAncestorOf(widget)


def test_tab_and_shift_tab_reach_every_panel_and_leave_each_table_in_one_press(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    # Restore enabled (a disabled button takes no focus), three provenance rows to get stuck in.
    window = with_older_revision_selected(qtbot, store, tmp_path)
    assert window.panel.provenance.rowCount() == 3
    start = window.filters.search
    for backwards in (False, True):
        chain = cycle(walk(qtbot, start, 40, backwards=backwards), start)
        assert len(chain) <= 17, [type(w).__name__ for w in chain]  # no table swallows the presses
        for panel in panels(window):
            stops = [widget for widget in chain if inside(widget, panel)]
            assert stops, f"{type(panel).__name__} is never reached (backwards={backwards})"
        for table in (window.panel.provenance, window.panel.revisions, window.list):
            assert chain.count(table) == 1, f"{type(table).__name__} holds Tab (backwards={backwards})"
        if not backwards:
            order = [next(i for i, w in enumerate(chain) if inside(w, panel)) for panel in panels(window)]
            assert order[:-1] == sorted(order[:-1])  # left to right, top to bottom (then Restore)
    settle(qtbot, window)


def test_every_focusable_widget_has_an_accessible_name(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = with_older_revision_selected(qtbot, store, tmp_path)
    chain = cycle(walk(qtbot, window.filters.search, 40), window.filters.search)
    for widget in chain:
        own = widget.accessibleName() or (widget.text() if isinstance(widget, QAbstractButton) else "")
        assert own.strip(), f"{type(widget).__name__} in {type(widget.parent()).__name__} has no name"
        assert accessible_name(widget).strip()
    assert accessible_name(window.panel.provenance) == "Provenance"
    assert accessible_name(window.panel.revisions) == "History"
    assert accessible_name(window.list) == "Memory cards"
    assert accessible_name(window.filters.search) == "Search memories"
    settle(qtbot, window)


def test_a_cards_accessible_name_and_description_say_more_than_its_text(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    store.set_expiry(4, store.now() + 7 * 86_400_000)
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 4)
    list_interface = QAccessible.queryAccessibleInterface(window.list)
    assert list_interface is not None
    row = window.model.row_of(4)
    assert row is not None
    names = {}
    for child_index in range(list_interface.childCount()):
        child = list_interface.child(child_index)
        if child is not None:
            names[child.text(QAccessible.Text.Name)] = child.text(QAccessible.Text.Description)
    name = "Memory 4, active, expires in 7d: Lives in Berlin (CET)"
    assert name in names, list(names)
    description = names[name]
    for part in (
        "promoted ",
        "from candidates: 9",
        "semi-trusted",
        "sources: session:ses_seed",
        "expires 20",
    ):
        assert part in description, description
    legacy = window.model.index_of(3).data(Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "provenance unknown for 2 of 2 candidates" in legacy
    settle(qtbot, window)


def test_the_review_queue_and_the_editor_are_walked_by_tab_with_names_throughout(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    open_queue(qtbot, window, [141])
    queue = window.queue
    queue.activateWindow()
    chain = cycle(walk(qtbot, queue.table, 20), queue.table)
    assert chain.count(queue.table) == 1 and queue.text in chain and queue.target in chain
    for widget in chain:
        assert accessible_name(widget).strip(), type(widget).__name__
    assert accessible_name(queue.table) == "Pending candidates"
    queue.hide()
    select(qtbot, window, 5)
    window.acts.edit.trigger()
    dialog = window.commands.edit_dialog
    assert dialog is not None
    dialog.editor.setPlainText("Prefers pnpm, always")  # Save is enabled (and takes focus) once changed
    chain = cycle(walk(qtbot, dialog.editor, 10), dialog.editor)
    assert dialog.save_button in chain  # Tab leaves the editor for the buttons
    assert accessible_name(dialog.editor) == "Content of memory 5"
    dialog.reject()
    settle(qtbot, window)
