"""The app icon, read from `resources/icons` through the `resources` package (works frozen too)."""

from __future__ import annotations

from PySide6.QtGui import QIcon, QPixmap

import resources


def app_pixmap() -> QPixmap:
    pixmap = QPixmap()
    try:
        data = resources.read_bytes(resources.APP_ICON_PNG)
    except OSError:
        return pixmap
    pixmap.loadFromData(data)
    return pixmap


def app_icon() -> QIcon:
    pixmap = app_pixmap()
    return QIcon(pixmap) if not pixmap.isNull() else QIcon()
