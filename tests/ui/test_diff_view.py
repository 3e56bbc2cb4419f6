"""Tests of the diff panel (`ui.diff_view.DiffView`): off-thread diff, debounce, stale results, modes."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import threading

import pytest
from pytestqt.qtbot import QtBot

from app.diff_html import DARK_COLORS, LIGHT_COLORS
from ui import diff_view
from ui.diff_view import DEBOUNCE_MS, DiffMode, DiffRequest, DiffView
from ui.theme import dark_palette, light_palette

WAIT_MS = 5000


@pytest.fixture
def view(qtbot: QtBot) -> DiffView:
    shown = DiffView()
    shown.setPalette(light_palette())
    qtbot.addWidget(shown)
    return shown


def _show(qtbot: QtBot, view: DiffView, old: str | None, new: str | None, label: str = "") -> int:
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS) as blocker:
        token = view.show_texts(old, new, label)
    assert blocker.args == [token]
    return token


def test_showing_texts_displays_the_diff(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, "I prefer pnpm for installs.", "I prefer npm for installs.", "Revision 1 → 2")
    assert view.browser.toPlainText() == "I prefer pnpmnpm for installs."
    assert view.summary.text() == "+1 −1 words"
    assert view.caption.text() == "Revision 1 → 2"
    assert view.browser.openLinks() is False


def test_two_rapid_requests_only_display_the_second(qtbot: QtBot, view: DiffView) -> None:
    shown: list[int] = []
    view.diffShown.connect(shown.append)
    view.show_texts("a", "first")
    second = _show(qtbot, view, "a", "second")
    qtbot.wait(3 * DEBOUNCE_MS)  # time for any stray result of the first request to arrive
    assert shown == [second]
    assert "second" in view.browser.toPlainText()
    assert "first" not in view.browser.toPlainText()


def test_a_result_overtaken_while_computing_is_dropped(
    qtbot: QtBot, view: DiffView, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = threading.Event(), threading.Event()
    compute = diff_view.compute_diff

    def slow_for_the_first(request: DiffRequest) -> diff_view.DiffOutcome:
        if request.new == "first":
            started.set()
            release.wait(WAIT_MS / 1000)
        return compute(request)

    monkeypatch.setattr(diff_view, "compute_diff", slow_for_the_first)
    shown: list[int] = []
    view.diffShown.connect(shown.append)
    view.show_texts("", "first")
    qtbot.waitUntil(started.is_set, timeout=WAIT_MS)  # the first diff is being computed
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS):
        second = view.show_texts("", "second")
        qtbot.wait(DEBOUNCE_MS + 50)
        release.set()
    qtbot.wait(3 * DEBOUNCE_MS)
    assert shown == [second]
    assert view.browser.toPlainText() == "second"


def test_switching_mode_re_renders(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, "keep\nI prefer pnpm.\n", "keep\nI prefer npm.\n")
    assert "<table" not in view.browser.toHtml()
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS):
        view.set_mode(DiffMode.SIDE_BY_SIDE)
    assert view.mode() is DiffMode.SIDE_BY_SIDE
    assert "<table" in view.browser.toHtml()
    assert "I prefer pnpm." in view.browser.toPlainText()
    assert "I prefer npm." in view.browser.toPlainText()
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS):
        view.mode_box.setCurrentIndex(0)  # as the user would, through the combo box
    assert view.mode() is DiffMode.INLINE
    assert "<table" not in view.browser.toHtml()


def test_colors_follow_the_palette(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, "a b", "a c")
    assert LIGHT_COLORS.inserted_background in view.browser.toHtml()
    with qtbot.waitSignal(view.diffShown, timeout=WAIT_MS):
        view.setPalette(dark_palette())
    assert DARK_COLORS.inserted_background in view.browser.toHtml()


def test_untrusted_content_is_shown_as_text(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, None, '<b>bold</b> <a href="https://x">link</a>\u202e')
    assert view.browser.toPlainText() == '<b>bold</b> <a href="https://x">link</a>⟦U+202E⟧'
    assert view.summary.text() == "+9 −0 words"  # b, bold, b, a, href, https, x, link, a
    assert "<b>bold" not in view.browser.toHtml()


def test_a_deleted_memory_and_no_change(qtbot: QtBot, view: DiffView) -> None:
    _show(qtbot, view, "gone now", None)
    assert view.summary.text() == "+0 −2 words"
    _show(qtbot, view, "same", "same")
    assert view.summary.text() == "No change"
    assert view.browser.toPlainText() == "same"
    _show(qtbot, view, None, None)  # still answered, so a caller waiting for its token is not left hanging
    assert view.browser.toPlainText() == "Empty on both sides."


def test_clear_drops_a_pending_request(qtbot: QtBot, view: DiffView) -> None:
    shown: list[int] = []
    view.diffShown.connect(shown.append)
    view.show_texts("a", "b", "label")
    view.clear()
    qtbot.wait(3 * DEBOUNCE_MS)
    assert shown == []
    assert view.browser.toPlainText() == ""
    assert view.caption.text() == view.summary.text() == ""


def test_results_go_to_their_own_view(qtbot: QtBot, view: DiffView) -> None:
    other = DiffView()
    qtbot.addWidget(other)
    other_shown: list[int] = []
    other.diffShown.connect(other_shown.append)
    _show(qtbot, view, "a", "b")
    qtbot.wait(DEBOUNCE_MS)
    assert other_shown == []
    assert other.browser.toPlainText() == ""
