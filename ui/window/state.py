"""Window geometry, toolbar/dock state and the splitter, kept in QSettings between runs.

A saved window that does not fit the free area of the screen it comes back on (a laptop undocked from a
big monitor) takes the first launch's size for that screen (`default_size`) instead of Qt's own rule in
`restoreGeometry` (two thirds of the screen under X11, where the toolbar overflows and the panels are
cut); one that fits comes back at exactly its saved size. The sizes are kept beside Qt's geometry
(`SIZE`, `FRAME`: the window's and, with the window manager's border, its frame's), so nothing reads
Qt's private format; settings saved before they were kept restore as Qt restores them.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter

GEOMETRY, STATE, SPLITTER = "window/geometry", "window/state", "window/splitter"
SIZE, FRAME = "window/size", "window/frame"
DEFAULT_SIZE = QSize(1400, 900)
FRAME_ALLOWANCE = QSize(16, 48)  # a window manager's border and title bar, unknown until the window shows


def default_size(available: QSize) -> QSize:
    """The first launch's size: 1400x900, or less on a smaller screen (`available`, its free area), so the
    whole window shows from its first frame and no window manager shrinks it just after."""
    room = available - FRAME_ALLOWANCE
    return DEFAULT_SIZE.boundedTo(room) if room.isValid() else DEFAULT_SIZE


def _bytes(settings: QSettings, key: str) -> QByteArray | None:
    value = settings.value(key)
    return value if isinstance(value, QByteArray) and not value.isEmpty() else None


def _size(settings: QSettings, key: str) -> QSize | None:
    value = settings.value(key)
    return value if isinstance(value, QSize) and value.isValid() else None


def _restore_geometry(window: QMainWindow, geometry: QByteArray, settings: QSettings) -> None:
    """Qt's saved geometry (its screen, place and state), then the size: as saved when the window fits
    its screen's free area, else that screen's first launch size. A maximized or full screen window, or
    one saved without its sizes, is left as Qt restores it."""
    restored = window.restoreGeometry(geometry)
    screen = QGuiApplication.screenAt(window.geometry().center()) or window.screen()
    available = screen.availableGeometry().size()
    if not restored:  # a screen too differently scaled: Qt restores nothing
        window.resize(default_size(available))
        return
    size, frame = _size(settings, SIZE), _size(settings, FRAME)
    if size is None or window.isMaximized() or window.isFullScreen():
        return
    outer = size.expandedTo(frame) if frame is not None else size
    fits = outer.width() <= available.width() and outer.height() <= available.height()
    window.resize(size if fits else default_size(available))


def restore_window(window: QMainWindow, splitter: QSplitter, settings: QSettings) -> bool:
    """Put the window back as it was (at `default_size` when it no longer fits its screen); False when
    nothing was saved yet (the caller picks a size)."""
    geometry = _bytes(settings, GEOMETRY)
    if geometry is not None:
        _restore_geometry(window, geometry, settings)
    state = _bytes(settings, STATE)
    if state is not None:
        window.restoreState(state)
    sizes = _bytes(settings, SPLITTER)
    if sizes is not None:
        splitter.restoreState(sizes)
    return geometry is not None


def save_window(window: QMainWindow, splitter: QSplitter, settings: QSettings) -> None:
    settings.setValue(GEOMETRY, window.saveGeometry())
    normal = window.normalGeometry().size()  # a maximized window's size before it was maximized
    settings.setValue(SIZE, normal if normal.isValid() and not normal.isEmpty() else window.size())
    settings.setValue(FRAME, window.frameGeometry().size())
    settings.setValue(STATE, window.saveState())
    settings.setValue(SPLITTER, splitter.saveState())
    settings.sync()
