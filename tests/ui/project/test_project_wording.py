"""The project page counts in words of the right number: `1 memory`, `1 of 3 memories`."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.support.host80 import BETA
from tests.ui.project.helpers import open_project
from ui.project.picker import PROJECT_ROLE
from ui.window.main_window import MainWindow


def test_one_memory_is_said_in_the_singular(qtbot: QtBot, window: MainWindow) -> None:
    page = open_project(qtbot, window, BETA)
    assert page.title.text() == "1 memory"
    tips = [
        page.picker.itemData(row, Qt.ItemDataRole.ToolTipRole)
        for row in range(page.picker.count())
        if getattr(page.picker.itemData(row, PROJECT_ROLE), "identity", None) == BETA
    ]
    assert len(tips) == 1 and "1 memory, 1 session" in tips[0]
