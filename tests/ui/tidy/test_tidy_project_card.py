"""Show card for project memories in View → Tidy…: the window switches to the memory's project page and
selects its card, a filter that hides it cleared (the status bar says so); selecting a row alone leaves
the window where it is."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.host80 import ALPHA, BETA
from tests.support.tidy_memories import project_db
from tests.ui.window_helpers import make_window, settle
from ui.tidy.dialog import MEMBER_ROLE, PROJECT_SHOW_TIP, TidyDialog
from ui.window.main_window import MainWindow


def _member(tidy: TidyDialog, memory_id: int) -> QTreeWidgetItem:
    for top in range(tidy.tree.topLevelItemCount()):
        group = tidy.tree.topLevelItem(top)
        assert group is not None
        for row in range(group.childCount()):
            child = group.child(row)
            if child is not None and child.data(0, MEMBER_ROLE) == memory_id:
                return child
    raise AssertionError(f"#{memory_id} is not listed")


def _shown(qtbot: QtBot, window: MainWindow, identity: str, memory_id: int) -> None:
    page = window.projects.page

    def selected() -> bool:
        project = page.project
        return (
            window.projects.shown
            and project is not None
            and project.identity == identity
            and (page.current_id() == memory_id)
        )

    qtbot.waitUntil(selected, timeout=10_000)


def test_show_card_opens_a_project_memory_on_its_page(qtbot: QtBot, tmp_path: Path) -> None:
    ids = project_db(tmp_path / "context.db")
    store = MemoryStore.open(tmp_path / "context.db")
    try:
        window = make_window(qtbot, store, tmp_path)
        window.acts.tidy.trigger()
        tidy = window.findChild(TidyDialog)
        assert tidy is not None
        qtbot.waitUntil(lambda: tidy.kind.isEnabled(), timeout=10_000)
        with qtbot.waitSignal(tidy.finished_listing, timeout=10_000):
            tidy.kind.setCurrentIndex(tidy.kind.findData(""))  # every project
        runs, runs_again = ids["beta_runs"], ids["beta_runs_again"]
        tidy.tree.setCurrentItem(_member(tidy, runs))
        assert tidy.open_button.isEnabled() and tidy.open_button.toolTip() == PROJECT_SHOW_TIP
        settle(qtbot, window)
        assert not window.projects.shown  # selecting a row alone leaves the window where it is
        tidy.open_button.click()
        _shown(qtbot, window, BETA, runs)
        assert window.projects.picker.currentText().startswith("beta")

        # A filter on the page that hides the next one asked for is cleared, and the status bar says so.
        page = window.projects.page
        page.filters.search.setText("nothing like it")
        qtbot.waitUntil(lambda: page.model.rowCount() == 0, timeout=10_000)
        item = _member(tidy, runs_again)
        tidy.tree.setCurrentItem(item)
        tidy.tree.itemActivated.emit(item, 0)  # Enter or a double-click on the row
        _shown(qtbot, window, BETA, runs_again)
        assert page.filters.search.text() == ""
        assert window.statusBar().currentMessage() == (
            f"All of this project's memories listed, to show #{runs_again}"
        )

        # A member of a pair that may contradict, in another project: that project's page.
        pnpm = ids["alpha_pnpm"]
        tidy.tree.setCurrentItem(_member(tidy, pnpm))
        tidy.open_button.click()
        _shown(qtbot, window, ALPHA, pnpm)
        assert not tidy.keep_button.isEnabled()  # resolving is offered for the memories about you
        tidy.close()
        settle(qtbot, window)
    finally:
        store.close()
