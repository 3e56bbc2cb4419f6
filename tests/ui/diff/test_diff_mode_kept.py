"""The diff layout a person chooses (inline or side by side) is kept in the settings: a window opened
afterwards shows its diffs the same way. A layout set by the program (`set_mode`) is not a choice and is
not kept; a settings file that cannot be read is left as it is."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.core.settings import diff_mode_setting, load_settings, settings_path
from tests.ui.window_helpers import edited_store, make_window, select, settle
from ui.diff.view import DiffMode, DiffView
from ui.window.main_window import MainWindow


def shown_diff(qtbot: QtBot, window: MainWindow) -> DiffView:
    """Memory 4's latest change, on screen in the history panel."""
    select(qtbot, window, 4)
    qtbot.waitUntil(lambda: window.panel.diff.requested > 0 and window.panel.diff.settled, timeout=10_000)
    view = window.panel.diff.view
    assert isinstance(view, DiffView)
    return view


def test_the_layout_chosen_is_the_one_a_window_opened_later_shows(
    qtbot: QtBot, host_db: Path, clock: ManualClock, tmp_path: Path
) -> None:
    store = edited_store(host_db, clock)
    window = make_window(qtbot, store, tmp_path)
    view = shown_diff(qtbot, window)
    assert view.mode() is DiffMode.INLINE
    view.mode_box.setFocus()
    qtbot.keyClick(view.mode_box, Qt.Key.Key_Down)  # as a person picks the other layout from the keyboard
    assert view.mode() is DiffMode.SIDE_BY_SIDE
    assert diff_mode_setting(load_settings()) == "side_by_side"
    settle(qtbot, window)
    window.close()

    again = make_window(qtbot, store, tmp_path / "again")
    assert shown_diff(qtbot, again).mode() is DiffMode.SIDE_BY_SIDE
    assert "\t" in shown_diff(qtbot, again).text()  # side by side: old, tab, new on each row


def test_a_layout_the_program_sets_is_not_kept(qtbot: QtBot) -> None:
    view = DiffView()
    qtbot.addWidget(view)
    view.set_mode(DiffMode.SIDE_BY_SIDE)
    assert not settings_path().exists()
    other = DiffView()
    qtbot.addWidget(other)
    assert other.mode() is DiffMode.INLINE


def test_a_settings_file_that_cannot_be_read_is_left_as_it_is(qtbot: QtBot) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    view = DiffView()
    qtbot.addWidget(view)
    assert view.mode() is DiffMode.INLINE
    view.mode_box.setFocus()
    qtbot.keyClick(view.mode_box, Qt.Key.Key_Down)
    assert view.mode() is DiffMode.SIDE_BY_SIDE
    assert path.read_text(encoding="utf-8") == "{not json"
    assert "not kept" in view.mode_box.toolTip()
