"""The project page's blame (Ctrl+B) and As of… (what the host injected then, in its order, unknown
before first seen said), the status bar's counts for the project shown (in the user counts' place,
nothing moved), and a write that moves a card out of the filters (it leaves; its undo brings it back)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import QDateTime, QTimeZone
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from tests.support.host80 import ALPHA, DAY, NOW, T0, Seeded
from tests.ui.project.helpers import open_project, select_memory
from tests.ui.window_helpers import settle
from ui.window.main_window import MainWindow
from ui.window.status_line import counts_text


def _rewrite(host80: Path, memory_id: int, content: str, at: int) -> None:
    conn = sqlite3.connect(host80)
    conn.execute("UPDATE memories SET content = ?, updated_at = ? WHERE id = ?", (content, at, memory_id))
    conn.commit()
    conn.close()


def test_blame_names_the_revision_that_wrote_each_sentence(
    qtbot: QtBot, window: MainWindow, host80: Path, seeded: Seeded
) -> None:
    page = open_project(qtbot, window, ALPHA)  # first seen now
    _rewrite(host80, seeded.active, "Build with pnpm, never npm. Run the tests with pytest.", T0 + 20 * DAY)
    window.acts.refresh.trigger()
    qtbot.waitUntil(lambda: any("pytest" in row.content for row in page.rows), timeout=10_000)
    select_memory(qtbot, page, seeded.active)
    qtbot.waitUntil(lambda: page.detail.revisions.topLevelItemCount() == 1, timeout=10_000)
    user_tab = window.panel.history_tabs.currentWidget()
    window.acts.blame.trigger()  # Ctrl+B: the project's blame, not the hidden user panel's
    assert page.detail.history_tabs.currentWidget() is page.detail.blame
    assert window.panel.history_tabs.currentWidget() is user_tab
    blame = page.detail.blame
    qtbot.waitUntil(lambda: blame.memory_id == seeded.active, timeout=10_000)
    rows = [blame.topLevelItem(row) for row in range(blame.topLevelItemCount())]
    texts = {item.text(3): item for item in rows if item is not None}
    written = next(item for text, item in texts.items() if "pytest" in text)
    revision = page.detail.revisions.current_revision()
    assert revision is not None and written.data(0, blame_role()) == revision.id
    page.detail.revisions.clearSelection()
    blame.itemActivated.emit(written, 0)  # Enter on the sentence: its revision, in the revisions tab
    assert page.detail.history_tabs.currentWidget() is page.detail.revisions
    chosen = page.detail.revisions.current_revision()
    assert chosen is not None and chosen.id == revision.id
    settle(qtbot, window)


def blame_role() -> int:
    from ui.history.blame_view import ORIGIN_ROLE

    return int(ORIGIN_ROLE)


def _look_back(qtbot: QtBot, window: MainWindow, at: int) -> None:
    window.acts.as_of.trigger()
    dialog = window.projects.as_of_dialog
    assert dialog is not None
    dialog.when.setDateTime(QDateTime.fromMSecsSinceEpoch(at, QTimeZone.utc()))
    dialog.accept()
    page = window.projects.page
    qtbot.waitUntil(lambda: page.past.at == at and bool(page.past.states), timeout=10_000)


def test_as_of_lists_what_the_host_injected_then_in_its_order(
    qtbot: QtBot, window: MainWindow, host80: Path, seeded: Seeded
) -> None:
    clock = window.controller.store.clock
    assert isinstance(clock, ManualClock)
    page = open_project(qtbot, window, ALPHA)  # first seen at NOW: before it, nothing is known
    assert page.project is not None
    clock.set(NOW + DAY)
    _rewrite(host80, seeded.active, "Build with pnpm 9, never npm", NOW + DAY)
    window.acts.refresh.trigger()
    qtbot.waitUntil(lambda: any("pnpm 9" in row.content for row in page.rows), timeout=10_000)
    # At NOW: the host's injected list then, in its order, with the text before the rewrite.
    _look_back(qtbot, window, NOW)
    assert not page.splitter.isVisible() and page.past.isVisible()
    assert not window.acts.import_file.isEnabled() and not window.acts.runs.isEnabled()  # read-only
    expected = [state.memory_id for state in window.controller.store.project_as_of(page.project.key, NOW)]
    assert page.past.shown_ids() == expected
    injected_now = [memory.id for memory in window.controller.store.project.injected(page.project.key, NOW)]
    assert page.past.shown_ids() == injected_now  # nothing unknown at the first look
    assert seeded.archived not in page.past.shown_ids()
    assert "Build with pnpm, never npm" in page.past.row_texts(seeded.active)
    assert "injected for" in page.past.banner.label.text()
    # Before the first look: unknown, said, never guessed nor counted as injected.
    _look_back(qtbot, window, NOW - DAY)
    cells = page.past.row_texts(seeded.active)
    assert cells[-1].startswith("unknown before") and cells[0] == cells[2] == ""  # no place, no field
    assert "0 memories injected" in page.past.banner.label.text()
    # Esc: back to the memories now.
    page.past.left.emit()
    assert page.splitter.isVisible() and not page.past.isVisible()
    assert window.acts.import_file.isEnabled() and window.acts.runs.isEnabled()
    settle(qtbot, window)


def test_the_status_bar_counts_the_project_shown_in_the_same_place(
    qtbot: QtBot, window: MainWindow, seeded: Seeded
) -> None:
    status = window.status
    qtbot.waitUntil(lambda: bool(status.user_counts), timeout=10_000)
    user_text = status.counts.text()
    assert user_text == status.user_counts
    path_x = status.path.x()
    page = open_project(qtbot, window, ALPHA)
    now = window.controller.store.now()
    injected = sum(1 for row in page.rows if row.injectable_at(now))
    archived = sum(1 for row in page.rows if row.status == "archived")
    assert status.counts.text() == f"18 shown · {injected} injected now · {archived} archived"
    settle(qtbot, window)
    assert status.path.x() == path_x  # the project's counts in the same reserved space
    page.filters.status.setCurrentIndex(page.filters.status.findData("permanent"))
    assert status.counts.text().startswith("1 shown · ")
    window.projects.picker.activated.emit(0)  # About you: the user memories' counts again
    assert status.counts.text() == user_text and counts_text is not None
    settle(qtbot, window)
    assert status.path.x() == path_x


def test_a_write_moves_a_card_out_of_the_filter_and_its_undo_back(
    qtbot: QtBot, window: MainWindow, seeded: Seeded
) -> None:
    page = open_project(qtbot, window, ALPHA)
    page.filters.status.setCurrentIndex(page.filters.status.findData("active"))
    listed = list(page.model.ids)
    assert seeded.active in listed
    select_memory(qtbot, page, seeded.active)
    at = listed.index(seeded.active)
    following = listed[at + 1] if at + 1 < len(listed) else listed[at - 1]
    before = window.status.counts.text()
    page.acts.archive.trigger()
    assert page.dialog is not None
    page.dialog.setTextValue("a duplicate")
    page.dialog.accept()
    qtbot.waitUntil(lambda: page.model.row_of(seeded.active) is None, timeout=10_000)
    assert page.current_id() == following  # the next card in its place, as the user cards do
    assert page.filters.status.currentData() == "active"
    assert window.status.counts.text() != before  # one fewer shown, one more archived
    window.acts.undo.trigger()
    qtbot.waitUntil(lambda: page.model.row_of(seeded.active) is not None, timeout=10_000)
    assert list(page.model.ids) == listed
    assert window.status.counts.text() == before
    settle(qtbot, window)


def test_the_screenshot_of_a_project_as_of_shows_its_past(
    qtbot: QtBot, window: MainWindow, seeded: Seeded
) -> None:
    """`screenshot --project P --as-of WHEN` renders the project's past, not the user memories'."""
    from PySide6.QtWidgets import QApplication

    from ui.window.app import _project_past

    page = open_project(qtbot, window, ALPHA)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    _project_past(app, window, NOW)
    assert page.looking_back and seeded.active in page.past.shown_ids()
    assert not window.looking_back  # the user memories' past is not what is shown
    settle(qtbot, window)
