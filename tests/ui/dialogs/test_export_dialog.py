"""File → Export… (Ctrl+Shift+E): a save dialog, then the CLI's own export (JSON, which Import… reads
back, or Markdown by the name's suffix or the filter chosen) written off the GUI thread; the status bar
says where it went, and a target that is the open database is refused with a message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget
from pytestqt.qtbot import QtBot

from app.cli.commands.export import export_data, export_markdown
from app.store import MemoryStore
from tests.ui.window_helpers import make_window, settle
from ui.dialogs import export_file
from ui.dialogs.export_file import JSON_FILTER, MARKDOWN_FILTER, export_format
from ui.window.main_window import MainWindow


def file_menu(window: MainWindow) -> list[QAction]:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    assert isinstance(menu, QMenu)
    return menu.actions()


def answer_save_dialog(monkeypatch: pytest.MonkeyPatch, path: Path, chosen: str) -> list[str]:
    """The save dialog's answer (its modal run is not driven here); what it was asked."""
    asked: list[str] = []

    def answer(parent: QWidget, caption: str, filters: str, *, save_as: str | None = None) -> tuple[str, str]:
        asked.append(filters)
        return str(path), chosen

    monkeypatch.setattr(export_file, "choose_file", answer)
    return asked


def test_export_is_in_the_file_menu_with_a_shortcut_no_other_action_has(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    export = window.acts.export_file
    assert export in file_menu(window) and export.text() == "Export…"
    assert export.shortcut() == QKeySequence("Ctrl+Shift+E")
    others = [a for a in window.findChildren(QAction) if a is not export]
    assert all(QKeySequence("Ctrl+Shift+E") not in a.shortcuts() for a in others)
    settle(qtbot, window)


def test_ctrl_shift_e_saves_the_json_the_cli_writes(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(qtbot, store, tmp_path)
    target = tmp_path / "mine.json"
    asked = answer_save_dialog(monkeypatch, target, JSON_FILTER)
    window.activateWindow()
    window.list.setFocus()
    qtbot.keyClick(
        window.list, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    qtbot.waitUntil(target.exists, timeout=10_000)
    assert asked == [f"{JSON_FILTER};;{MARKDOWN_FILTER}"]
    settle(qtbot, window)
    assert json.loads(target.read_text(encoding="utf-8")) == export_data(store)
    assert window.statusBar().currentMessage().startswith("Exported every memory to mine.json (json")


def test_a_markdown_name_gets_the_markdown_export(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(qtbot, store, tmp_path)
    target = tmp_path / "mine.md"
    answer_save_dialog(monkeypatch, target, JSON_FILTER)  # the name's suffix wins over the filter
    window.acts.export_file.trigger()
    qtbot.waitUntil(target.exists, timeout=10_000)
    settle(qtbot, window)
    assert target.read_text(encoding="utf-8") == export_markdown(store)
    assert export_format(str(tmp_path / "mine"), MARKDOWN_FILTER) == "markdown"


def test_exporting_over_the_open_database_is_refused_with_a_message(
    qtbot: QtBot, store: MemoryStore, host_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(qtbot, store, tmp_path)
    before = host_db.read_bytes()
    answer_save_dialog(monkeypatch, host_db, JSON_FILTER)
    with qtbot.waitSignal(window.controller.error, timeout=10_000) as shown:
        window.acts.export_file.trigger()
    assert "it is the open database" in shown.args[0]
    settle(qtbot, window)
    assert host_db.read_bytes() == before
