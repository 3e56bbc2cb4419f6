"""A memory of any length or spacing is shown with bounded work: the card, the history panel (its start,
with "Show all"), the editor, and the diff of two such texts (line by line past a size, with a note).

What is bounded is what the widgets are given to lay out (`SHOWN_CHARS` of a text in blocks of at most
`BLOCK_CHARS`, wrapped anywhere; a card's `CARD_CHARS`), the rows of a diff and the diff engine's work
(`diff_work`). None of it is timed: speed is measured by `make bench`.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QFont, QImage, QPainter, QTextLayout, QTextOption
from PySide6.QtWidgets import QListView, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.core import screening
from app.core.models import Memory
from app.diff.engine import LONG_TOKEN
from app.diff.match import EXACT_CELLS
from app.store import MemoryStore
from tests.support.diff_work import count_diff_work
from ui.cards import layout as card_layout
from ui.cards.delegate import CardDelegate
from ui.cards.layout import CARD_CHARS
from ui.cards.model import MemoryListModel
from ui.dialogs.edit import EditDialog
from ui.diff.rows import Message
from ui.diff.view import MAX_ROWS, DiffView
from ui.history.panel import HistoryPanel
from ui.runtime.controller import Controller
from ui.widgets.long_text import BLOCK_CHARS, SHOWN_CHARS, DisplayedTextEdit

KIB = 1024
ONE_LINE = {"256 KiB": "y" * 256 * KIB, "10 MiB": "y" * 10240 * KIB}


def long_memory(store: MemoryStore, content: str) -> Memory:
    return replace(store.get(5), content=content)


def assert_start_shown_in_blocks(view: DisplayedTextEdit, text: str) -> None:
    """The view was given only the start of `text` (`SHOWN_CHARS`), in blocks of at most `BLOCK_CHARS`,
    wrapped anywhere: what Qt lays out is bounded whatever the length of `text`."""
    blocks = view.toPlainText().split("\n")
    assert max(map(len, blocks)) <= BLOCK_CHARS
    assert "".join(blocks) == text[:SHOWN_CHARS]
    assert view.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere


@pytest.mark.parametrize("size", list(ONE_LINE))
def test_the_panel_shows_a_line_without_spaces_at_once(qtbot: QtBot, store: MemoryStore, size: str) -> None:
    panel = HistoryPanel(store.now)
    qtbot.addWidget(panel)
    panel.resize(500, 700)
    panel.show()
    panel.show_memory(long_memory(store, ONE_LINE[size]))
    panel._timer.stop()
    panel._apply_pending()  # what the debounce timer runs
    panel.repaint()
    assert_start_shown_in_blocks(panel.content, ONE_LINE[size])
    assert not panel.content_box.whole


def test_show_all_loads_the_rest_and_copying_gives_the_text_back(qtbot: QtBot, store: MemoryStore) -> None:
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
    from ui.widgets.long_text import DisplayText

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


def test_a_card_paints_a_long_line_at_once(
    qtbot: QtBot, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = long_memory(store, "日本語のメモ" * (2 * KIB * KIB))  # 12 M characters, none of them ASCII
    screened: list[int] = []  # lengths of the texts whose hidden characters were marked
    laid_out: list[int] = []  # lengths of the texts handed to a QTextLayout

    def counted_make_visible(text: str) -> str:
        screened.append(len(text))
        return screening.make_visible(text)

    def counted_text_layout(text: str, font: QFont) -> QTextLayout:
        laid_out.append(len(text))
        return QTextLayout(text, font)

    monkeypatch.setattr(card_layout, "make_visible", counted_make_visible)
    monkeypatch.setattr(card_layout, "QTextLayout", counted_text_layout)
    model = MemoryListModel()
    model.set_listing([memory.id], [memory])
    view = QListView()
    qtbot.addWidget(view)
    delegate = CardDelegate(store.now, view)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = QRect(0, 0, 700, delegate.sizeHint(option, model.index(0, 0)).height())
    image = QImage(700, option.rect.height(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    delegate.paint(painter, option, model.index(0, 0))
    painter.end()
    assert screened and max(screened) <= CARD_CHARS
    assert laid_out and max(laid_out) <= CARD_CHARS


def test_the_editor_shows_a_memory_too_long_to_save_read_only(qtbot: QtBot, store: MemoryStore) -> None:
    dialog = EditDialog(Controller(store), long_memory(store, ONE_LINE["10 MiB"]))
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.repaint()
    assert dialog.editor.isHidden() and dialog.preview.isVisible()
    assert dialog.editor.document().isEmpty()  # the text never went into the (hidden) editor
    assert_start_shown_in_blocks(dialog.preview.view, ONE_LINE["10 MiB"])
    assert not dialog.save_button.isEnabled()
    assert "10.0 MiB" in dialog.notice.text() and "cannot be edited here" in dialog.notice.text()


def show_diff(qtbot: QtBot, view: DiffView, old: str, new: str) -> list[int]:
    """Show the diff of `old` and `new` until all of it is on screen; returns the rows of its first screen."""
    first_rows: list[int] = []
    view.firstScreenShown.connect(lambda _token: first_rows.append(view.rows.rowCount()))
    with qtbot.waitSignal(view.diffShown, timeout=60_000) as shown:
        token = view.show_texts(old, new)
    assert shown.args == [token]
    view.rows_view.viewport().repaint()
    return first_rows


@pytest.mark.parametrize("size", list(ONE_LINE))
def test_the_diff_of_a_long_line_shows_where_it_changed(
    qtbot: QtBot, size: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    old = ONE_LINE[size]
    new = old[: len(old) // 2] + "Z" + old[len(old) // 2 + 1 :]
    work = count_diff_work(monkeypatch)
    show_diff(qtbot, view, old, new)
    # The run is cut where the texts part (a walk of at most `LONG_TOKEN` from each common end, in both
    # texts) and next to nothing is matched; the row shows the change between shortened stretches.
    assert work.boundary_steps <= 2 * 2 * (LONG_TOKEN + 1)
    assert work.cells <= 1_000
    shown = view.text()
    assert "Z" in shown and "unchanged characters" in shown and len(shown) < 10_000


def test_two_10_mib_texts_are_compared_line_by_line_with_a_note(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    old = "\n".join(f"line {number} of a long text that a host wrote" for number in range(240_000))
    new = old.replace("of a long text that a host wrote\nline 1", "of a long text, rewritten\nline 1")
    assert len(old) > 10 * KIB * KIB
    work = count_diff_work(monkeypatch)
    first_rows = show_diff(qtbot, view, old, new)  # 240,000 lines a side, 1 in 2 changed
    assert "compared line by line" in view.summary.text()
    assert "rewritten" in view.text()
    # The lines are matched around unique lines, never as the 240,000 × 240,000 cells of an exact match...
    assert work.cells <= 2 * EXACT_CELLS
    # ...and the view holds its first screen and `MAX_ROWS` rows more, then says it cut the diff there.
    assert view.rows.rowCount() == first_rows[0] + MAX_ROWS + 1
    assert "it is cut here" in view.text().rsplit("\n", 1)[-1]


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
