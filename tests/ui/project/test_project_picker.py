"""The projects' choices: read once when first wanted, filled under About you, and a read of the
database opened before dropped when another one was opened meanwhile."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from app.store import MemoryStore, Project
from ui.project.picker import ABOUT_YOU, ProjectChoices, ProjectPicker

Done = Callable[[Sequence[Project]], None]


def test_a_read_of_the_database_before_is_dropped(qtbot: QtBot, project_store: MemoryStore) -> None:
    asked: list[Done] = []
    owner = QObject()
    choices = ProjectChoices(asked.append, owner)
    picker = ProjectPicker(choices)
    qtbot.addWidget(picker)
    choices.want()
    choices.want()
    assert len(asked) == 1 and choices.state == "reading"  # asked once
    choices.reset()  # another database opened while the first read ran
    asked[0](project_store.project.projects())
    assert picker.count() == 1 and picker.itemText(0) == ABOUT_YOU and choices.state == "unread"
    choices.want()
    asked[1](project_store.project.projects())
    assert choices.state == "read" and picker.count() == 1 + len(project_store.project.projects())
