"""What keeps one odd row from breaking the window: Qt overrides that never raise (a row that cannot be
painted is an "unreadable row" card, logged once), and ids past 32 bits carried whole by every signal."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QListView, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.core.models import Memory
from app.store import MemoryStore
from tests.ui.window_helpers import make_window
from ui.cards.delegate import CardDelegate
from ui.cards.model import MemoryListModel
from ui.diff.view import DiffView
from ui.history.panel import HistoryPanel
from ui.runtime.controller import Controller

BIG_IDS = [2**31, 2**31 + 5, 2**62, 2**63 - 1]


def paint_rows(delegate: CardDelegate, view: QListView, model: MemoryListModel, times: int) -> QImage:
    option = QStyleOptionViewItem()
    option.initFrom(view)
    image = QImage(700, 140, QImage.Format.Format_ARGB32)
    image.fill(0)
    for _ in range(times):
        option.rect = QRect(0, 0, 700, delegate.sizeHint(option, model.index(0, 0)).height())
        painter = QPainter(image)
        delegate.paint(painter, option, model.index(0, 0))
        painter.end()
    return image


def test_a_row_that_cannot_be_painted_is_an_unreadable_card_logged_once(
    qtbot: QtBot, store: MemoryStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    # A value no reader of ours hands out (a status that is not text): the card's layout raises.
    broken = replace(store.get(5), status=None)  # type: ignore[arg-type]
    model = MemoryListModel()
    model.set_listing([broken.id], [broken])
    view = QListView()
    qtbot.addWidget(view)
    delegate = CardDelegate(store.now, view)
    image = paint_rows(delegate, view, model, times=3)
    assert image.pixel(350, 60) != 0  # something was painted: the fallback card
    failures = [record for record in caplog.records if "CardDelegate.paint" in record.getMessage()]
    assert len(failures) == 1  # three paints, one log line
    model.update_rows([replace(broken, content=None)])  # type: ignore[arg-type]
    assert model.index(0, 0).data(Qt.ItemDataRole.DisplayRole) is None  # the model answers, never raises


def memory_with_id(store: MemoryStore, memory_id: int) -> Memory:
    return replace(store.get(5), id=memory_id)


@pytest.mark.parametrize("memory_id", BIG_IDS)
def test_ids_past_32_bits_reach_the_panel_whole(qtbot: QtBot, store: MemoryStore, memory_id: int) -> None:
    controller = Controller(store)
    panel = HistoryPanel(store.now)
    qtbot.addWidget(panel)
    controller.historyLoaded.connect(panel.set_history)
    panel.show_memory(memory_with_id(store, memory_id))
    with qtbot.waitSignal(panel.historyWanted, timeout=5_000) as wanted:
        pass
    assert wanted.args == [memory_id]
    controller.historyLoaded.emit(memory_id, [])
    assert panel.history_memory_id == memory_id
    with qtbot.waitSignal(controller.memoryRemoved, timeout=1_000) as removed:
        controller.memoryRemoved.emit(memory_id)
    assert removed.args == [memory_id]


def test_diff_tokens_and_restore_requests_carry_python_ints(qtbot: QtBot, store: MemoryStore) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view._token = 2**40  # a long-running window: its tokens are Python ints, never cut to 32 bits
    token = view.show_texts("a", "b")
    with qtbot.waitSignal(view.diffShown, timeout=5_000) as shown:
        pass
    assert shown.args == [token]
    panel = HistoryPanel(store.now)
    qtbot.addWidget(panel)
    memory = memory_with_id(store, 2**62)
    with qtbot.waitSignal(panel.restoreRequested, timeout=1_000) as restore:
        panel.restoreRequested.emit(memory, 2**40)
    assert restore.args == [memory, 2**40]


def test_the_merge_target_takes_any_64_bit_id(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    window = make_window(qtbot, store, tmp_path)
    box = window.queue.target  # a QSpinBox before: it stopped at 2^31 - 1, and a larger id raised
    for memory_id in BIG_IDS:
        box.setValue(memory_id)
        assert box.value() == memory_id
    box.clear()
    qtbot.keyClicks(box, "#" + "9" * 25)  # typing stops at 19 digits; still past 64 bits: no id
    assert box.value() == 0
