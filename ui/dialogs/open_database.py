"""Choosing a memory database to open: File → Open database…, the welcome page, a refused launch."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget

from ui.dialogs.file_chooser import choose_file

OPEN_TITLE = "Open a memory database"
OPEN_FILTER = "SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)"


def choose_database(parent: QWidget | None, beside: str | None = None) -> str | None:
    """The database file the person picks, starting in the folder of `beside` (the open one's location)
    when it is a file; None when they cancel."""
    folder = str(Path(beside).parent) if beside and Path(beside).is_file() else None
    chosen = choose_file(parent, OPEN_TITLE, OPEN_FILTER, folder=folder)
    return chosen[0] if chosen else None
