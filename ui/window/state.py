"""Window geometry, toolbar/dock state and the splitter, kept in QSettings between runs."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, QSize
from PySide6.QtWidgets import QMainWindow, QSplitter

GEOMETRY, STATE, SPLITTER = "window/geometry", "window/state", "window/splitter"
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


def restore_window(window: QMainWindow, splitter: QSplitter, settings: QSettings) -> bool:
    """Put the window back as it was; False when nothing was saved yet (the caller picks a size)."""
    geometry = _bytes(settings, GEOMETRY)
    if geometry is not None:
        window.restoreGeometry(geometry)
    state = _bytes(settings, STATE)
    if state is not None:
        window.restoreState(state)
    sizes = _bytes(settings, SPLITTER)
    if sizes is not None:
        splitter.restoreState(sizes)
    return geometry is not None


def save_window(window: QMainWindow, splitter: QSplitter, settings: QSettings) -> None:
    settings.setValue(GEOMETRY, window.saveGeometry())
    settings.setValue(STATE, window.saveState())
    settings.setValue(SPLITTER, splitter.saveState())
    settings.sync()
