"""The window as a launch shows it (`launched_window`: built hidden, shown once by `FirstFrame`) and what a
person sees of it (`frame`), to compare the first frame with the window as it stays."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractScrollArea, QWidget
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.first_screen import first_screen_of
from ui.runtime.controller import Controller
from ui.window.first_frame import FirstFrame
from ui.window.main_window import MainWindow
from ui.window.toolbar import toolbar_groups

Frame = tuple[list[bool], list[QRect], list[tuple[bool, bool]]]


def frame(window: MainWindow) -> Frame:
    """Every action's enabled state; where the toolbar, its buttons, the filters, the panels and the
    status bar are; which scroll bars each scrolled view shows."""
    actions = [value for value in vars(window.acts).values() if isinstance(value, QAction)]
    widgets: list[QWidget] = [window.toolbar, window.filters, window.filters.more, window.statusBar()]
    widgets += [window.panel, window.left, window.list, window.panel.diff.view]
    widgets += [window.left.title_row, window.projects.picker, window.list_header]
    widgets += [window.toolbar.widgetForAction(a) for group in toolbar_groups(window.acts) for a in group]
    areas = [area for area in window.findChildren(QAbstractScrollArea) if area.isVisible()]
    bars = [(a.horizontalScrollBar().isVisible(), a.verticalScrollBar().isVisible()) for a in areas]
    return [a.isEnabled() for a in actions], [w.geometry() for w in widgets], bars


def launched_window(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, width: int = 1024, height: int = 700
) -> tuple[MainWindow, list[Frame]]:
    """The window as a launch makes it (`ui.window.app.run_window`): built hidden, shown by `FirstFrame`;
    the frame it was shown with, as the first paint finds it (taken before the event loop goes on)."""
    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    controller = Controller(store)
    window = MainWindow(controller, settings=settings, watch=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.controller.runner.wait_for_done(10_000))
    window.resize(width, height)
    shown: list[Frame] = []

    class Recorded(FirstFrame):
        def _now(self) -> None:  # the frame as shown: before the event loop runs again (its first paint)
            super()._now()
            if not shown:
                shown.append(frame(window))

    Recorded(window, window.show, limit_ms=60_000)
    controller.start(first_screen_of(store))
    qtbot.waitUntil(lambda: bool(shown), timeout=30_000)
    return window, shown
