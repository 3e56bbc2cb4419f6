"""The project page laid out as the user page: the picker in one place and one size on both pages (a
switch moves nothing under the pointer); the history without the columns a project memory never fills;
a read-only store's reason said once; the detail's fields whole in a small window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.host80 import ALPHA, NOW, Seeded
from tests.ui.project.helpers import open_project, select_memory
from tests.ui.window_helpers import make_window, settle
from ui.window.main_window import MainWindow


def in_window(widget: QWidget, window: MainWindow) -> QRect:
    return QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())


def test_the_picker_keeps_its_place_and_size_on_both_pages(qtbot: QtBot, window: MainWindow) -> None:
    for width, height in ((1400, 900), (1024, 700)):
        window.resize(width, height)
        settle(qtbot, window)
        on_user_page = in_window(window.projects.picker, window)
        page = open_project(qtbot, window, ALPHA)
        assert in_window(page.picker, window) == on_user_page
        window.projects.back()
        settle(qtbot, window)
        assert in_window(window.projects.picker, window) == on_user_page


def test_the_history_shows_no_run_nor_candidates_column(
    qtbot: QtBot, window: MainWindow, seeded: Seeded
) -> None:
    """A project memory's revisions carry no run id and no candidates: no empty columns for them."""
    page = open_project(qtbot, window, ALPHA)
    select_memory(qtbot, page, seeded.active)
    table = page.detail.revisions
    shown = [table.headerItem().text(c) for c in range(table.columnCount()) if not table.isColumnHidden(c)]
    assert shown == ["Revision", "When", "Source", "Change"]


def test_a_read_only_store_says_why_once(qtbot: QtBot, host80: Path, seeded: Seeded, tmp_path: Path) -> None:
    store = MemoryStore.open(host80, read_only=True, clock=ManualClock(NOW))
    try:
        window = make_window(qtbot, store, tmp_path)
        page = open_project(qtbot, window, ALPHA)
        select_memory(qtbot, page, seeded.active)
        reason = page.read_only_reason
        assert reason
        saying = [
            label for label in page.findChildren(QLabel) if label.isVisible() and reason in label.text()
        ]
        assert saying == [page.detail.read_only]
        assert reason in page.title.toolTip()
    finally:
        store.close()


def test_the_fields_can_be_read_whole_in_a_small_window(
    qtbot: QtBot, host80: Path, seeded: Seeded, tmp_path: Path
) -> None:
    """At 1024x700, with a read-only reason above them, the detail's fields down to Created … are laid
    out whole and can be brought into view (the pane scrolls when they do not fit)."""
    store = MemoryStore.open(host80, read_only=True, clock=ManualClock(NOW))
    try:
        window = make_window(qtbot, store, tmp_path)
        window.resize(1024, 700)
        page = open_project(qtbot, window, ALPHA)
        select_memory(qtbot, page, seeded.active)
        settle(qtbot, window)
        fields = page.detail.fields
        assert fields.text().splitlines()[-1].startswith("Created")
        assert fields.height() >= fields.heightForWidth(fields.width())
        area = fields.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None:
            area.ensureWidgetVisible(fields, 0, 0)
            settle(qtbot, window)
        assert fields.visibleRegion().boundingRect().height() == fields.height()
    finally:
        store.close()
