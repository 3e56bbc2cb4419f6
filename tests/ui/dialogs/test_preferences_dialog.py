"""Preferences: where the settings are kept is said truly, before the first save and after it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from ui.dialogs.preferences import PreferencesDialog


def said(dialog: PreferencesDialog, path: Path) -> list[str]:
    return [label.text() for label in dialog.findChildren(QLabel) if str(path) in label.text()]


def test_the_dialog_says_nothing_is_saved_before_the_first_save(qtbot: QtBot, tmp_path: Path) -> None:
    path = tmp_path / "config" / "settings.json"
    dialog = PreferencesDialog(path=path)
    qtbot.addWidget(dialog)
    assert said(dialog, path) == [f"Not saved yet: Save writes {path}"]
    dialog.command.setText("claude -p")
    dialog.save_button.click()
    assert path.exists()
    again = PreferencesDialog(path=path)
    qtbot.addWidget(again)
    assert said(again, path) == [f"Saved in {path}"] and again.command.text() == "claude -p"
