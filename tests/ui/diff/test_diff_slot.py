"""The diff slot makes its widget when a diff is first shown (the window's first cards do not wait for
the diff engine's imports), and then shows diffs as before."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractScrollArea
from pytestqt.qtbot import QtBot

from ui.diff.slot import DiffSlot


def test_the_view_is_made_on_first_use(qtbot: QtBot) -> None:
    slot = DiffSlot()
    qtbot.addWidget(slot)
    assert slot.findChildren(QAbstractScrollArea) == []  # nothing built yet
    assert slot.settled
    slot.show_texts("before", "after")
    assert slot.view.parent() is slot
    assert slot.findChildren(QAbstractScrollArea)
    qtbot.waitUntil(lambda: slot.settled, timeout=10_000)
    assert slot.view is slot.view  # made once
