"""Choosing a memory database to open: File → Open database…, the welcome page, a refused launch."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QWidget

OPEN_TITLE = "Open a memory database"
OPEN_FILTER = "SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)"


def choose_database(parent: QWidget | None) -> str | None:
    """The database file the person picks; None when they cancel."""
    path, _ = QFileDialog.getOpenFileName(parent, OPEN_TITLE, "", OPEN_FILTER)
    return path or None
