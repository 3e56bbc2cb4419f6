"""Tests of the diff panel (`ui.diff.view.DiffView`): off-thread batches, debounce, stale results, modes,
what the rows show and how they are painted, folds, copying."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import random
import threading

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, Qt, QThreadPool, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QImage
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from app.diff.stream import DiffStream, Fold
from app.diff.style import DARK_COLORS, LIGHT_COLORS
from tests.bench.bench_diff import SEED, cases
from ui.diff import view as diff_view
from ui.diff.rows import FOLD_TIP, ROW_ROLE
from ui.diff.view import COUNTING, DiffMode, DiffRequest, DiffView
from ui.widgets.theme import dark_palette, light_palette

WAIT_MS = 5000


@pytest.fixture
def view(qtbot: QtBot) -> DiffView:
    shown = DiffView()
    shown.setPalette(light_palette())
    shown.resize(700, 500)
    shown.show()
    qtbot.addWidget(shown)
    return shown


def _show(qtbot: QtBot, view: DiffView, old: str | None, new: str | None, label: str = "") -> int:
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS) as blocker:
        token = view.show_texts(old, new, label)
    assert blocker.args == [token]
    return token


def _run_what_is_pending(view: DiffView) -> None:
    """Run now whatever the view still has pending, instead of waiting a while for it: its debounce
    fires at once, every diff job finishes and every result they posted is delivered. Afterwards no
    result of an earlier request can still arrive, so a test decides its absence, not a timer."""
    for timer in view.findChildren(QTimer, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if timer.isActive():
            timer.stop()
            timer.timeout.emit()
    for _ in range(3):  # a first batch starts the job for the rest, which may end a stream of its own
        assert QThreadPool.globalInstance().waitForDone(WAIT_MS)
        QCoreApplication.sendPostedEvents()


def _relayed_tokens(view: DiffView) -> list[int]:
    """The tokens of the results that reach the view, before it keeps or drops them."""
    tokens: list[int] = []

    def record(key: int, token: int, _outcome: object) -> None:
        if key == view._key:
            tokens.append(token)

    view._relay.finished.connect(record)
    return tokens


def _has_color(image: QImage, color: str) -> bool:
    wanted = QColor(color).rgb()
    return any(
        image.pixel(x, y) == wanted for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
    )


def test_showing_texts_displays_the_diff(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, "I prefer pnpm for installs.", "I prefer npm for installs.", "Revision 1 → 2")
    assert view.text() == "I prefer pnpm npm for installs."  # the two words kept apart
    assert view.summary.text() == "+1 −1 words"
    assert view.caption.text() == "Revision 1 → 2"


def test_two_rapid_requests_only_display_the_second(qtbot: QtBot, view: DiffView) -> None:
    shown: list[int] = []
    view.diffShown.connect(shown.append)
    view.show_texts("a", "first")
    second = _show(qtbot, view, "a", "second")
    with qtbot.assertNotEmitted(view.diffShown), qtbot.assertNotEmitted(view.firstScreenShown):
        _run_what_is_pending(view)  # any stray result of the first request arrives now
    assert shown == [second]
    assert "second" in view.text()
    assert "first" not in view.text()


def test_a_result_overtaken_while_computing_is_dropped(
    qtbot: QtBot, view: DiffView, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = threading.Event(), threading.Event()
    compute = diff_view.first_batch

    def slow_for_the_first(request: DiffRequest) -> diff_view.DiffBatch:
        if request.new == "first":
            started.set()
            release.wait(WAIT_MS / 1000)
        return compute(request)

    monkeypatch.setattr(diff_view, "first_batch", slow_for_the_first)
    shown: list[int] = []
    view.diffShown.connect(shown.append)
    relayed = _relayed_tokens(view)
    first = view.show_texts("", "first")
    qtbot.waitUntil(started.is_set, timeout=WAIT_MS)  # the first diff is being computed
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS):
        second = view.show_texts("", "second")
        release.set()  # the first diff is finished after the second was asked for
    with qtbot.assertNotEmitted(view.diffShown), qtbot.assertNotEmitted(view.firstScreenShown):
        _run_what_is_pending(view)
    assert first in relayed  # the first's result did arrive...
    assert shown == [second]  # ...and was dropped
    assert view.text() == "second"


def test_switching_mode_re_renders(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, "keep\nI prefer pnpm.\n", "keep\nI prefer npm.\n")
    assert view.text() == "keep\nI prefer pnpm npm."
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS):
        view.set_mode(DiffMode.SIDE_BY_SIDE)
    assert view.mode() is DiffMode.SIDE_BY_SIDE
    assert view.text() == "keep\tkeep\nI prefer pnpm.\tI prefer npm."
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS):
        view.mode_box.setCurrentIndex(0)  # as the user would, through the combo box
    assert view.mode() is DiffMode.INLINE
    assert view.text() == "keep\nI prefer pnpm npm."


def test_changes_are_painted_in_the_colors_of_the_palette(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, "a b", "a c")
    light = view.rows_view.viewport().grab().toImage()
    assert _has_color(light, LIGHT_COLORS.inserted_background)
    assert _has_color(light, LIGHT_COLORS.deleted_background)
    view.setPalette(dark_palette())  # no new diff: the same rows, painted again
    dark = view.rows_view.viewport().grab().toImage()
    assert _has_color(dark, DARK_COLORS.inserted_background)
    assert not _has_color(dark, LIGHT_COLORS.inserted_background)


def test_untrusted_content_is_shown_as_text(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, None, '<b>bold</b> <a href="https://x">link</a>\u202e')
    assert view.text() == '<b>bold</b> <a href="https://x">link</a>⟦U+202E⟧'
    assert view.summary.text() == "+9 −0 words"  # b, bold, b, a, href, https, x, link, a


def test_a_deleted_memory_and_no_change(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, "gone now", None)
    assert view.summary.text() == "+0 −2 words"
    _show(qtbot, view, "same", "same")
    assert view.summary.text() == "Text unchanged"
    assert view.text() == "same"
    _show(qtbot, view, None, None)  # still answered, so a caller waiting for its token is not left hanging
    assert view.text() == "Empty on both sides."


def test_clear_drops_a_pending_request(qtbot: QtBot, view: DiffView) -> None:
    with qtbot.assertNotEmitted(view.diffShown), qtbot.assertNotEmitted(view.firstScreenShown):
        view.show_texts("a", "b", "label")
        view.clear()
        _run_what_is_pending(view)  # as if the debounce had fired: nothing is left to compute
    assert view.text() == ""
    assert view.caption.text() == view.summary.text() == ""


def test_results_go_to_their_own_view(qtbot: QtBot, view: DiffView) -> None:
    other = DiffView()
    qtbot.addWidget(other)
    other.clear()  # its newest token is now 1, as that of the view's first request: only keys tell them apart
    with qtbot.assertNotEmitted(other.diffShown), qtbot.assertNotEmitted(other.firstScreenShown):
        _show(qtbot, view, "a", "b")
        _run_what_is_pending(view)
    assert other.text() == ""


def test_a_long_diff_shows_its_first_screen_then_the_rest(qtbot: QtBot, view: DiffView) -> None:
    _, old, new = cases(random.Random(SEED))[0]  # 64 KiB, 5% of the words changed, scattered
    summaries: list[str] = []
    counts: list[int] = []

    def first_screen(token: int) -> None:
        summaries.append(view.summary.text())
        counts.append(view.rows.rowCount())
        image = view.rows_view.viewport().grab().toImage()
        counts.append(int(_has_color(image, LIGHT_COLORS.inserted_background)))

    view.firstScreenShown.connect(first_screen)
    _show(qtbot, view, old, new)
    assert summaries == [COUNTING]
    first_rows, painted = counts
    assert painted == 1, "the first screen is painted as soon as it is shown"
    assert 0 < first_rows < view.rows.rowCount() / 5
    assert view.rows.rowCount() == len(DiffStream(old, new, side_by_side=False).rest())
    assert view.summary.text().startswith("+")
    qtbot.waitUntil(lambda: not view._delegate.measuring, timeout=WAIT_MS)  # rows laid out when idle


def test_rows_are_a_valid_model(qtbot: QtBot, view: DiffView, qtmodeltester: object) -> None:
    old = "".join(f"line {number}\n" for number in range(1, 40))
    _show(qtbot, view, old, old.replace("line 20", "line twenty"))
    qtmodeltester.check(view.rows)  # type: ignore[attr-defined]


def test_clicking_a_fold_shows_the_lines_it_hides(qtbot: QtBot, view: DiffView) -> None:
    old = "".join(f"line {number}\n" for number in range(1, 40))
    view.set_mode(DiffMode.SIDE_BY_SIDE)
    _show(qtbot, view, old, old.replace("line 20\n", "line twenty\n"))
    folds = [
        row for row in range(view.rows.rowCount()) if isinstance(view.rows.index(row).data(ROW_ROLE), Fold)
    ]
    assert len(folds) == 2
    first = view.rows.index(folds[0])
    assert first.data(Qt.ItemDataRole.ToolTipRole) == FOLD_TIP
    assert first.data() == "⋯ 16 unchanged lines ⋯"
    before = view.rows.rowCount()
    center = view.rows_view.visualRect(first).center()
    qtbot.mouseClick(view.rows_view.viewport(), Qt.MouseButton.LeftButton, pos=center)
    assert view.rows.rowCount() == before + 15
    assert view.text().split("\n")[:3] == ["line 1\tline 1", "line 2\tline 2", "line 3\tline 3"]


def test_copy_gives_the_selected_rows_as_a_unified_diff(qtbot: QtBot, view: DiffView) -> None:
    view.set_mode(DiffMode.SIDE_BY_SIDE)
    _show(qtbot, view, "keep\nI prefer pnpm.\n", "keep\nI prefer npm.\nnew line\n")
    view.rows_view.setFocus()
    qtbot.keyClick(view.rows_view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view.rows_view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "  keep\n- I prefer pnpm.\n+ I prefer npm.\n+ new line"
    view.rows_view.clearSelection()
    view.rows_view.selectionModel().select(
        view.rows.index(0), view.rows_view.selectionModel().SelectionFlag.Select
    )
    view.rows_view.copy_selection()
    assert QGuiApplication.clipboard().text() == "  keep"
    assert view.rows_view.indexAt(QPoint(5, 5)).row() == 0


def test_rows_keep_their_width_when_a_diff_outgrows_the_panel(qtbot: QtBot, view: DiffView) -> None:
    # The first screen is laid out at the viewport's width before its first paint: a scroll bar that
    # appeared afterwards would narrow the rows and have every one of them wrapped again.
    _show(qtbot, view, "short", "short and sweet")
    width = view.rows_view.viewport().width()
    long_text = "".join(f"line {number}: {'word ' * 30}\n" for number in range(200))
    _show(qtbot, view, long_text, long_text.replace("line 3:", "line three:"))
    assert view.rows_view.verticalScrollBar().maximum() > 0  # it does outgrow the panel
    assert view.rows_view.viewport().width() == width


def _current_text(view: DiffView) -> str:
    return view.rows_view.currentIndex().data() or ""


@pytest.mark.parametrize("mode", list(DiffMode))
def test_f7_and_shift_f7_step_through_the_changed_passages(
    qtbot: QtBot, view: DiffView, mode: DiffMode
) -> None:
    lines = [f"line {number}\n" for number in range(1, 121)]
    new = lines.copy()
    new[9] = "line ten\n"  # a passage of two changed lines...
    new[10] = "line eleven\n"
    new[99] = "line one hundred\n"  # ...and one far below the first screen
    view.set_mode(mode)
    _show(qtbot, view, "".join(lines), "".join(new))
    view.activateWindow()
    rows = view.rows_view
    assert rows.currentIndex().row() == -1
    qtbot.keyClick(rows, Qt.Key.Key_F7)
    assert "ten" in _current_text(view)
    qtbot.keyClick(rows, Qt.Key.Key_F7)  # the rest of the passage is skipped
    assert "one hundred" in _current_text(view)
    assert rows.visualRect(rows.currentIndex()).intersects(rows.viewport().rect())  # scrolled to it
    assert not rows.go_to_change(forward=True)  # no passage after the last: it stays
    assert "one hundred" in _current_text(view)
    qtbot.keyClick(rows, Qt.Key.Key_F7, Qt.KeyboardModifier.ShiftModifier)
    assert "ten" in _current_text(view)
    assert not rows.go_to_change(forward=False)


def test_the_header_arrows_step_through_changes_too(qtbot: QtBot, view: DiffView) -> None:
    old = "".join(f"line {number}\n" for number in range(1, 60))
    _show(qtbot, view, old, old.replace("line 30\n", "line thirty\n"))
    buttons = {button.accessibleName(): button for button in view.findChildren(QToolButton)}
    assert buttons["Next change"].toolTip() == "Show the next changed passage (F7)"
    qtbot.mouseClick(buttons["Next change"], Qt.MouseButton.LeftButton)
    assert "thirty" in _current_text(view)
    view.rows_view.setCurrentIndex(view.rows.index(view.rows.rowCount() - 1))
    qtbot.mouseClick(buttons["Previous change"], Qt.MouseButton.LeftButton)
    assert "thirty" in _current_text(view)
