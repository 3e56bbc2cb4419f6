"""Choosing a memory database to open: File → Open database…, the welcome page, a refused launch."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ui.dialogs.file_chooser import choose_file

OPEN_TITLE = "Open a memory database"
OPEN_FILTER = "SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)"


def choose_database(parent: QWidget | None) -> str | None:
    """The database file the person picks; None when they cancel."""
    chosen = choose_file(parent, OPEN_TITLE, OPEN_FILTER)
    return chosen[0] if chosen else None
