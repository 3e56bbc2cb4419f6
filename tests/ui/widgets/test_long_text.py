"""A memory of any length or spacing is shown in bounded time: the card, the history panel (its start,
with "Show all"), the editor, and the diff of two such texts (line by line past a size, with a note).

Budgets are generous for a loaded machine: each step takes tens of milliseconds here, and took seconds
to minutes before (a 256 KiB line without a space: 12 s for the panel, 5 s for the diff).
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage, QPainter, QTextOption
from PySide6.QtWidgets import QListView, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.core.models import Memory
from app.store import MemoryStore
from ui.cards.delegate import CardDelegate
from ui.cards.model import MemoryListModel
from ui.dialogs.edit import EditDialog
from ui.diff.rows import Message
from ui.diff.view import DiffView
from ui.history.panel import HistoryPanel
from ui.runtime.controller import Controller

KIB = 1024
BUDGET_S = 1.5
ONE_LINE = {"256 KiB": "y" * 256 * KIB, "10 MiB": "y" * 10240 * KIB}


def long_memory(store: MemoryStore, content: str) -> Memory:
    return replace(store.get(5), content=content)


@pytest.mark.parametrize("size", list(ONE_LINE))
def test_the_panel_shows_a_line_without_spaces_at_once(qtbot: QtBot, store: MemoryStore, size: str) -> None:
    panel = HistoryPanel(store.now)
    qtbot.addWidget(panel)
    panel.resize(500, 700)
    panel.show()
    panel.show_memory(long_memory(store, ONE_LINE[size]))
    started = time.perf_counter()
    panel._timer.stop()
    panel._apply_pending()  # what the debounce timer runs
    panel.repaint()
    assert time.perf_counter() - started < BUDGET_S
    shown = panel.content.toPlainText().replace("\n", "")  # its start, in display blocks
    assert 0 < len(shown) <= 40_000 and shown == ONE_LINE[size][: len(shown)]


def test_show_all_loads_the_rest_and_copying_gives_the_text_back(qtbot: QtBot, store: MemoryStore) -> None:
    from ui.widgets.long_text import BLOCK_CHARS

    panel = HistoryPanel(store.now)
    qtbot.addWidget(panel)
    text = "word " * 5000 + "z" * 50_000 + "\nlast line"
    panel.show_memory(long_memory(store, text))
    panel._apply_pending()
    box = panel.content_box
    assert not box.whole and box.show_all_button.text().startswith("Show all (")
    box.show_all()
    assert box.whole and box.show_all_button.isHidden()
    view = panel.content
    assert max(map(len, view.toPlainText().split("\n"))) <= BLOCK_CHARS  # lines cut into display blocks
    view.selectAll()
    assert view.createMimeDataFromSelection().text() == text  # ...and copied without the cuts


def test_a_partial_selection_across_a_display_cut_copies_the_original(qtbot: QtBot) -> None:
    from ui.widgets.long_text import BLOCK_CHARS, DisplayedTextEdit, DisplayText

    view = DisplayedTextEdit()
    qtbot.addWidget(view)
    text = "start\n" + "x" * (3 * BLOCK_CHARS) + "\nend"
    view.show_text(DisplayText.of(text))
    cursor = view.textCursor()
    cursor.setPosition(3)
    cursor.setPosition(len(view.toPlainText()) - 2, cursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    assert view.createMimeDataFromSelection().text() == text[3:-2]


def test_long_runs_wrap_anywhere_and_words_at_their_boundaries() -> None:
    from ui.widgets.long_text import wrap_mode

    assert wrap_mode("x" * 600) == QTextOption.WrapMode.WrapAnywhere
    assert wrap_mode("a few words " * 10_000) == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
    assert wrap_mode(("x" * 499 + " ") * 2000) == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere


def test_a_card_paints_a_long_line_at_once(qtbot: QtBot, store: MemoryStore) -> None:
    memory = long_memory(store, "日本語のメモ" * (2 * KIB * KIB))  # 12 M characters, none of them ASCII
    model = MemoryListModel()
    model.set_listing([memory.id], [memory])
    view = QListView()
    qtbot.addWidget(view)
    delegate = CardDelegate(store.now, view)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = QRect(0, 0, 700, delegate.sizeHint(option, model.index(0, 0)).height())
    image = QImage(700, option.rect.height(), QImage.Format.Format_ARGB32)
    started = time.perf_counter()
    painter = QPainter(image)
    delegate.paint(painter, option, model.index(0, 0))
    painter.end()
    assert time.perf_counter() - started < BUDGET_S


def test_the_editor_shows_a_memory_too_long_to_save_read_only(qtbot: QtBot, store: MemoryStore) -> None:
    started = time.perf_counter()
    dialog = EditDialog(Controller(store), long_memory(store, ONE_LINE["10 MiB"]))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.repaint()
    assert time.perf_counter() - started < BUDGET_S
    assert dialog.editor.isHidden() and dialog.preview.isVisible()
    assert not dialog.save_button.isEnabled()
    assert "10.0 MiB" in dialog.notice.text() and "cannot be edited here" in dialog.notice.text()


def diff_time(qtbot: QtBot, view: DiffView, old: str, new: str) -> float:
    """Seconds from the diff's start (after the debounce) until it is all on screen."""
    token = view.show_texts(old, new)
    view._timer.stop()
    started = time.perf_counter()
    with qtbot.waitSignal(view.diffShown, timeout=60_000, check_params_cb=lambda shown: shown == token):
        view._start_job()
    view.rows_view.viewport().repaint()
    return time.perf_counter() - started


@pytest.mark.parametrize("size", list(ONE_LINE))
def test_the_diff_of_a_long_line_shows_where_it_changed(qtbot: QtBot, size: str) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    old = ONE_LINE[size]
    new = old[: len(old) // 2] + "Z" + old[len(old) // 2 + 1 :]
    assert diff_time(qtbot, view, old, new) < BUDGET_S
    shown = view.text()
    assert "Z" in shown and "unchanged characters" in shown and len(shown) < 10_000


def test_two_10_mib_texts_are_compared_line_by_line_with_a_note(qtbot: QtBot) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    old = "\n".join(f"line {number} of a long text that a host wrote" for number in range(240_000))
    new = old.replace("of a long text that a host wrote\nline 1", "of a long text, rewritten\nline 1")
    assert len(old) > 10 * KIB * KIB
    assert diff_time(qtbot, view, old, new) < 4 * BUDGET_S  # 240,000 lines a side, 1 in 2 changed
    assert "compared line by line" in view.summary.text()
    assert "rewritten" in view.text()


def test_a_diff_too_long_to_show_whole_is_cut_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.diff import view as diff_view

    monkeypatch.setattr(diff_view, "MAX_ROWS", 50)
    old = "".join(f"line {number}\n" for number in range(400))
    new = old.replace("1\n", "one\n")  # 40 lines changed, spread out: far more than 50 rows
    request = diff_view.DiffRequest(old, new, diff_view.DiffMode.INLINE, screen_lines=5)
    first = diff_view.first_batch(request)
    assert first.stream is not None
    rest = diff_view.rest_batch(request, first.stream)
    assert len(rest.rows) == 51
    last = rest.rows[-1]
    assert isinstance(last, Message) and "cut here, after 50 more rows" in last.text
    assert rest.summary is not None and rest.summary.endswith("in the rows shown")
