"""The window's Undo and Redo: a `QUndoStack` over the command log the CLI shares, kept in the database
(it survives closing the window); a refused undo says why and leaves the stack as it was."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from app.cli import main
from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.hostdb import host_sql, query
from tests.ui.window_helpers import make_window, settle
from ui.window.main_window import MainWindow
from ui.window.undo_menu import UndoMenu


def undo_menu(window: MainWindow) -> UndoMenu:
    found = window.findChild(UndoMenu)
    assert isinstance(found, UndoMenu)
    return found


def stack_at(qtbot: QtBot, window: MainWindow, count: int, index: int) -> None:
    stack = window.controller.undo_history.stack
    qtbot.waitUntil(lambda: (stack.count(), stack.index()) == (count, index), timeout=10_000)


def rows(host_db: Path) -> list[tuple[object, ...]]:
    return query(host_db, "SELECT id, content, status FROM user_memories ORDER BY id")


def test_three_changes_undone_two_redone_then_undone_again_after_reopening(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path, clock: ManualClock
) -> None:
    window = make_window(qtbot, store, tmp_path)
    controller = window.controller
    start = rows(host_db)
    controller.dismiss(store.get(1))
    settle(qtbot, window)
    controller.edit(store.get(5), "Prefers yarn")
    settle(qtbot, window)
    controller.delete(store.get(4))
    settle(qtbot, window)
    stack_at(qtbot, window, 3, 3)
    changed = rows(host_db)
    assert window.acts.undo.text() == "Undo delete of #4"
    for index in (2, 1, 0):
        window.acts.undo.trigger()
        stack_at(qtbot, window, 3, index)
        settle(qtbot, window)
    assert rows(host_db)[:4] == start[:4] and rows(host_db)[4][1] == "Prefers pnpm"
    assert not window.acts.undo.isEnabled()
    menu = undo_menu(window)
    assert {QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")} <= set(menu.redo.shortcuts())
    for index in (1, 2):
        menu.redo.trigger()
        stack_at(qtbot, window, 3, index)
        settle(qtbot, window)
    assert menu.redo.text() == "Redo delete of #4" and window.acts.undo.text() == "Undo edit of #5"
    assert rows(host_db)[4][1] == "Prefers yarn" and rows(host_db)[0][2] == "dismissed"
    window.close()

    reopened = MemoryStore.open(host_db, clock=clock)
    again = make_window(qtbot, reopened, tmp_path)
    stack_at(qtbot, again, 3, 2)  # the log, as the first window left it
    again.acts.undo.trigger()
    stack_at(qtbot, again, 3, 1)
    settle(qtbot, again)
    assert rows(host_db)[4][1] == "Prefers pnpm"
    assert query(host_db, "SELECT state FROM mdash_command_log ORDER BY id") == [
        ("done",),
        ("undone",),
        ("undone",),
    ]
    assert changed != rows(host_db)


def test_the_cli_and_the_window_undo_each_others_changes(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    assert main(["--db", str(host_db), "edit", "5", "--content", "Prefers yarn"]) == 0
    window.controller.refresh_if_changed_elsewhere()  # what the file watcher calls
    stack_at(qtbot, window, 1, 1)
    assert window.acts.undo.text() == "Undo edit of #5"
    window.acts.undo.trigger()
    stack_at(qtbot, window, 1, 0)
    settle(qtbot, window)
    assert rows(host_db)[4][1] == "Prefers pnpm"
    window.controller.dismiss(store.get(1))
    stack_at(qtbot, window, 1, 1)  # a new change drops what could have been redone
    settle(qtbot, window)
    assert main(["--db", str(host_db), "undo"]) == 0
    assert rows(host_db)[0][2] == "active"
    window.controller.refresh_if_changed_elsewhere()
    stack_at(qtbot, window, 1, 0)


def test_a_refused_undo_says_why_and_leaves_the_stack_as_it_was(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    window.controller.edit(store.get(5), "Prefers yarn")
    stack_at(qtbot, window, 1, 1)
    settle(qtbot, window)
    host_sql(host_db, "UPDATE user_memories SET content = 'Rewritten by the host' WHERE id = 5")
    errors: list[str] = []
    window.controller.error.connect(errors.append)
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    settle(qtbot, window)
    assert "changed since it was edited, so Undo left it as it is" in errors[0]
    stack_at(qtbot, window, 1, 1)
    assert window.acts.undo.text() == "Undo edit of #5"
    assert rows(host_db)[4][1] == "Rewritten by the host"


def test_the_history_view_lists_the_log(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    window = make_window(qtbot, store, tmp_path)
    window.controller.dismiss(store.get(1))
    stack_at(qtbot, window, 1, 1)
    menu = undo_menu(window)
    menu.show_history.trigger()
    assert menu.view_window is not None and menu.view_window.isVisible()
    assert window.controller.undo_history.stack.text(0) == "dismiss of #1"
    settle(qtbot, window)
