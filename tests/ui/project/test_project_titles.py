"""The project page's one-line titles in a narrow window: the selected memory's title (a long project
identity) ends in "…" where it does not fit, rather than being cut mid-letter at the column's edge."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tests.support.host80 import ALPHA, Seeded
from tests.ui.project.helpers import open_project, select_memory
from tests.ui.window_helpers import settle
from ui.widgets.labels import ElidedLabel
from ui.window.main_window import MainWindow


def fits_with_ellipsis(label: ElidedLabel) -> bool:
    shown = label.shown_text()
    room = label.contentsRect().width()
    return shown.endswith("…") and 0 < label.fontMetrics().horizontalAdvance(shown) <= room


def test_long_titles_end_in_an_ellipsis(qtbot: QtBot, window: MainWindow, seeded: Seeded) -> None:
    window.resize(1024, 700)
    page = open_project(qtbot, window, ALPHA)
    select_memory(qtbot, page, seeded.verified)
    settle(qtbot, window)
    title = page.detail.title
    assert isinstance(title, ElidedLabel) and fits_with_ellipsis(title)
    assert title.text() == f"#{seeded.verified} · {ALPHA}"


def test_a_title_that_fits_is_shown_whole(qtbot: QtBot, window: MainWindow, seeded: Seeded) -> None:
    window.resize(1800, 900)
    page = open_project(qtbot, window, ALPHA)
    select_memory(qtbot, page, seeded.verified)
    settle(qtbot, window)
    title = page.detail.title
    assert isinstance(title, ElidedLabel) and title.shown_text() == title.text()
