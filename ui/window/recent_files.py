"""Recently opened databases in QSettings: most recent first, at most ten, existing files only."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

KEY = "recentDatabases"
LIMIT = 10


def recent_databases(settings: QSettings) -> list[str]:
    value = settings.value(KEY, [])
    items: list[object] = (
        [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
    )
    return [str(item) for item in items if str(item) and Path(str(item)).exists()]


def remember_database(settings: QSettings, path: str) -> None:
    items = [path, *(item for item in recent_databases(settings) if item != path)]
    settings.setValue(KEY, items[:LIMIT])
