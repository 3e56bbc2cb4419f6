"""The app icon, read from `resources/icons` through importlib.resources (works frozen too)."""

from __future__ import annotations

from importlib import resources

from PySide6.QtGui import QIcon, QPixmap


def app_pixmap() -> QPixmap:
    pixmap = QPixmap()
    try:
        data = resources.files("resources").joinpath("icons/memory-dashboard-256.png").read_bytes()
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return pixmap
    pixmap.loadFromData(data)
    return pixmap


def app_icon() -> QIcon:
    pixmap = app_pixmap()
    return QIcon(pixmap) if not pixmap.isNull() else QIcon()
