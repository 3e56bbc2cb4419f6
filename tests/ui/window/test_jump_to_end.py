"""A jump to the end asked while the cards are the first screen's (End, Ctrl+End, Page Down held past its
last card) goes to the end of the whole listing once that has arrived; any other move or selection made
meanwhile cancels it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.first_screen import first_screen_of
from tests.support.hostdb import DAY, T0, build_host_db, memory_row
from tests.ui.window_helpers import shown_window
from ui.cards.listing import FIRST_PAGE
from ui.window.main_window import MainWindow

MEMORIES = 3_000
CTRL = Qt.KeyboardModifier.ControlModifier
NONE = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def many(tmp_path: Path) -> Iterator[MemoryStore]:
    path = build_host_db(tmp_path / "context.db", seed=False)
    conn = sqlite3.connect(path)
    for number in range(1, MEMORIES + 1):
        memory_row(conn, number, f"Memory number {number}", promoted_at=T0 - DAY + number * 1000)
    conn.commit()
    conn.close()
    store = MemoryStore.open(path, clock=ManualClock(REVIEW_TIME))
    yield store
    store.close()


def first_screen_window(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> MainWindow:
    """The window showing the launch's first screen; the complete listing waits for `read_complete`
    (as it waits for the first frame's paint), so keys are pressed before it is in."""
    window = shown_window(qtbot, store, tmp_path)
    controller = window.controller
    with qtbot.waitSignal(controller.memoriesLoaded, timeout=10_000) as first:
        controller.start(first_screen_of(store))
    assert not first.args[0].complete and window.model.rowCount() == FIRST_PAGE
    window.list.setFocus()
    return window


def completed(qtbot: QtBot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.controller.memoriesLoaded, timeout=30_000):
        window.controller.read_complete()
    assert window.model.rowCount() == MEMORIES
    qtbot.waitUntil(lambda: not window.controller.runner.busy, timeout=30_000)


def last_id(window: MainWindow) -> int:
    return window.model.ids[-1]


@pytest.mark.parametrize("modifiers", [NONE, CTRL], ids=["End", "Ctrl+End"])
def test_end_pressed_on_the_first_screen_lands_on_the_last_card_of_the_whole_listing(
    qtbot: QtBot, many: MemoryStore, tmp_path: Path, modifiers: Qt.KeyboardModifier
) -> None:
    window = first_screen_window(qtbot, many, tmp_path)
    qtbot.keyClick(window.list, Qt.Key.Key_End, modifiers)
    assert window.list.currentIndex().row() == FIRST_PAGE - 1  # the end of what is listed, meanwhile
    completed(qtbot, window)
    assert window.list.current_id() == last_id(window) == 1  # the oldest memory
    assert window.list.current_on_screen()
    # Ctrl moves the current card only, the selection stays (as Qt's Ctrl+End does on any list).
    assert window.list.selected_ids() == ([1] if modifiers == NONE else [MEMORIES])
    qtbot.waitUntil(lambda: window.panel.history_memory_id == 1, timeout=10_000)


def test_page_down_held_past_the_first_screen_goes_on_once_the_listing_is_in(
    qtbot: QtBot, many: MemoryStore, tmp_path: Path
) -> None:
    window = first_screen_window(qtbot, many, tmp_path)
    qtbot.keyClick(window.list, Qt.Key.Key_PageDown)
    page = window.list.currentIndex().row()  # the cards a page moves by
    pages = 1
    while window.list.currentIndex().row() < FIRST_PAGE - 1:
        qtbot.keyClick(window.list, Qt.Key.Key_PageDown)
        pages += 1
    assert page * pages >= FIRST_PAGE  # the last of these asked for more than the first screen holds
    for _ in range(3):  # and three pages more
        qtbot.keyClick(window.list, Qt.Key.Key_PageDown)
    assert window.list.currentIndex().row() == FIRST_PAGE - 1
    completed(qtbot, window)
    assert window.list.currentIndex().row() == page * (pages + 3)  # where the pages take it at once
    assert window.list.selected_count() == 1 and window.list.current_on_screen()


def test_j_and_down_past_the_first_screen_go_on_too(qtbot: QtBot, many: MemoryStore, tmp_path: Path) -> None:
    window = first_screen_window(qtbot, many, tmp_path)
    qtbot.keyClick(window.list, Qt.Key.Key_End)
    qtbot.keyClick(window.list, Qt.Key.Key_Up)  # End forgotten
    qtbot.keyClick(window.list, Qt.Key.Key_Down)
    qtbot.keyClick(window.list, Qt.Key.Key_Down)  # one past the first screen
    window.acts.next.trigger()
    window.acts.next.trigger()  # J: two more
    completed(qtbot, window)
    assert window.list.currentIndex().row() == FIRST_PAGE + 2


def key_up(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(window.list, Qt.Key.Key_Up)


def click_current(qtbot: QtBot, window: MainWindow) -> None:
    clicked = window.list.currentIndex()
    qtbot.mouseClick(
        window.list.viewport(), Qt.MouseButton.LeftButton, pos=window.list.visualRect(clicked).center()
    )


def wheel_up(qtbot: QtBot, window: MainWindow) -> None:
    viewport = window.list.viewport()
    at = QPointF(viewport.rect().center())
    up = QWheelEvent(
        at, viewport.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt.MouseButton.NoButton, NONE,
        Qt.ScrollPhase.NoScrollPhase, False,
    )  # fmt: skip
    QApplication.sendEvent(viewport, up)  # the wheel, a notch up


@pytest.mark.parametrize(
    ("meanwhile", "row"),
    [(key_up, FIRST_PAGE - 2), (click_current, FIRST_PAGE - 1), (wheel_up, FIRST_PAGE - 1)],
    ids=["another move", "a click", "scrolling"],
)
def test_anything_else_meanwhile_cancels_the_jump(
    qtbot: QtBot, many: MemoryStore, tmp_path: Path, meanwhile: Callable[[QtBot, MainWindow], None], row: int
) -> None:
    window = first_screen_window(qtbot, many, tmp_path)
    qtbot.keyClick(window.list, Qt.Key.Key_End)
    meanwhile(qtbot, window)
    completed(qtbot, window)
    assert window.list.currentIndex().row() == row


def test_another_filter_meanwhile_cancels_the_jump(qtbot: QtBot, many: MemoryStore, tmp_path: Path) -> None:
    window = first_screen_window(qtbot, many, tmp_path)
    qtbot.keyClick(window.list, Qt.Key.Key_End)
    window.filters.set_status("all")
    qtbot.waitUntil(lambda: window.model.rowCount() == MEMORIES, timeout=30_000)
    qtbot.waitUntil(lambda: not window.controller.runner.busy, timeout=30_000)
    assert window.list.current_id() != last_id(window)


def test_end_on_a_complete_listing_is_qts_own(qtbot: QtBot, many: MemoryStore, tmp_path: Path) -> None:
    window = first_screen_window(qtbot, many, tmp_path)
    completed(qtbot, window)
    qtbot.keyClick(window.list, Qt.Key.Key_End)
    assert window.list.current_id() == last_id(window)
    qtbot.keyClick(window.list, Qt.Key.Key_Home)
    window.controller.refresh()  # another complete listing: nothing was remembered
    qtbot.waitUntil(lambda: not window.controller.runner.busy, timeout=30_000)
    assert window.list.currentIndex().row() == 0
