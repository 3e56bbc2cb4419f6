"""The Tidy dialog: found on a worker with progress, listed, a member opens its card; Cancel stops it;
View → Tidy… in the window selects the card of the member chosen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.host80 import ALPHA
from tests.support.tidy_memories import project_db, tidy_db
from tests.ui.runtime_helpers import dispose
from tests.ui.window_helpers import make_window, settle
from ui.runtime.controller import Controller
from ui.tidy.dialog import (
    MEMBER_ROLE,
    MERGE_TIP,
    PROJECT_ASK_TIP,
    PROJECT_MERGE_TIP,
    PROJECT_SHOW_TIP,
    SHOW_TIP,
    TidyDialog,
)
from ui.window.main_window import MainWindow


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(tidy_db(tmp_path / "context.db"))
    yield opened
    opened.close()


@pytest.fixture
def controller(store: MemoryStore) -> Iterator[Controller]:
    made = Controller(store)
    yield made
    dispose(made)


def finished(qtbot: QtBot, controller: Controller, *, cancel_first: bool = False) -> TidyDialog:
    dialog = TidyDialog(controller)
    qtbot.addWidget(dialog)
    moves: list[int] = []
    dialog.bar.valueChanged.connect(moves.append)
    if cancel_first:
        dialog.cancel()
    with qtbot.waitSignal(dialog.finished_listing, timeout=10_000):
        dialog.start()
    dialog.moves = moves  # type: ignore[attr-defined]
    return dialog


def child(dialog: TidyDialog, top: int, row: int) -> QTreeWidgetItem:
    parent = dialog.tree.topLevelItem(top)
    assert parent is not None
    item = parent.child(row)
    assert item is not None
    return item


def selected_id(window: MainWindow) -> int | None:
    memory = window.selected_memory()
    return None if memory is None else memory.id


def rows(dialog: TidyDialog) -> list[list[str]]:
    found = []
    for number in range(dialog.tree.topLevelItemCount()):
        top = dialog.tree.topLevelItem(number)
        assert top is not None
        found.append([top.text(0)] + [child(dialog, number, i).text(0) for i in range(top.childCount())])
    return found


def test_groups_and_contradictions_are_listed(qtbot: QtBot, controller: Controller) -> None:
    dialog = finished(qtbot, controller)
    assert rows(dialog) == [
        ["Group 1: 2 memories", "#1  Prefers pnpm over npm", "#2  prefers PNPM over npm."],
        [
            "Group 2: 2 memories",
            "#5  Runs the test suite before every commit",
            "#6  Runs the test suite before each commit",
        ],
        ["May contradict (1)", "#3  Uses Postgres", "#4  Moved the project to MySQL"],
    ]
    assert dialog.moves[-1] == 100  # type: ignore[attr-defined]
    said = dialog.status.text()
    assert said.startswith("2 groups of likely duplicates and 1 pair that may contradict, among ")
    assert said.endswith(" active memories; nothing changes until a merge you preview is applied.")
    assert not dialog.bar.isVisible() and not dialog.cancel_button.isEnabled()
    assert child(dialog, 2, 0).text(1) == "database: postgres in #3, mysql in #4"
    assert child(dialog, 1, 1).text(1).startswith("with #5: close wording (")
    with qtbot.waitSignal(dialog.openMemory) as opened:
        dialog.tree.setCurrentItem(child(dialog, 2, 1))
    assert opened.args == [4]
    assert child(dialog, 2, 1).data(0, MEMBER_ROLE) == 4


def test_cancel_lists_nothing(qtbot: QtBot, controller: Controller) -> None:
    dialog = finished(qtbot, controller, cancel_first=True)
    assert dialog.tree.topLevelItemCount() == 0
    assert dialog.status.text() == "Cancelled: nothing was listed."


def test_view_tidy_selects_the_chosen_card(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    window = make_window(qtbot, store, tmp_path)
    window.acts.tidy.trigger()
    dialog = window.findChild(TidyDialog)
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=10_000)
    settle(qtbot, window)
    assert selected_id(window) == 1  # the first member, selected when the list is shown
    dialog.tree.setCurrentItem(child(dialog, 2, 1))
    qtbot.waitUntil(lambda: selected_id(window) == 4)
    dialog.close()


def test_project_memories_are_listed_by_project_and_category(qtbot: QtBot, tmp_path: Path) -> None:
    ids = project_db(tmp_path / "projects.db")
    store = MemoryStore.open(tmp_path / "projects.db")
    controller = Controller(store)
    try:
        dialog = finished(qtbot, controller)  # the user memories first: this file has none
        assert dialog.tree.topLevelItemCount() == 0
        labels = [dialog.kind.itemText(number) for number in range(dialog.kind.count())]
        assert labels == [
            "User memories",
            "Project memories: every project",
            "Project memories: beta",
            f"Project memories: {ALPHA}",
        ]
        assert dialog.kind.isEnabled()
        with qtbot.waitSignal(dialog.finished_listing, timeout=10_000):
            dialog.kind.setCurrentIndex(1)
        listed = rows(dialog)
        assert listed[0][0] == "Group 1: 2 memories (beta, ARCHITECTURE)"
        assert listed[1][0] == f"Group 2: 2 memories ({ALPHA}, ARCHITECTURE)"
        assert listed[2][0] == "May contradict (1)"
        assert listed[2][1].startswith(f"#{ids['alpha_pnpm']}  Build with pnpm")
        assert child(dialog, 0, 0).data(0, MEMBER_ROLE) == ids["beta_runs"]
        assert dialog.open_button.isEnabled()  # its card is on its project's page
        group_row = dialog.tree.topLevelItem(0)
        assert group_row is not None
        dialog.tree.setCurrentItem(group_row)  # a group's row: Merge… previews these project memories
        assert dialog.merge_button.isEnabled() and not dialog.ask_button.isEnabled()
        # Show card says where the card is shown; Ask the reviewer, that it is for user memories.
        assert dialog.open_button.toolTip() == PROJECT_SHOW_TIP
        assert dialog.merge_button.toolTip() == PROJECT_MERGE_TIP
        assert dialog.ask_button.toolTip() == PROJECT_ASK_TIP
        with qtbot.waitSignal(dialog.finished_listing, timeout=10_000):
            dialog.kind.setCurrentIndex(2)
        assert [row[0] for row in rows(dialog)] == ["Group 1: 2 memories (beta, ARCHITECTURE)"]
        with qtbot.waitSignal(dialog.finished_listing, timeout=10_000):
            dialog.kind.setCurrentIndex(0)  # back to the user memories: their own tooltips again
        assert (dialog.open_button.toolTip(), dialog.merge_button.toolTip()) == (SHOW_TIP, MERGE_TIP)
    finally:
        dispose(controller)
        store.close()
