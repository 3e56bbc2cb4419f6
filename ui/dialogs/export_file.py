"""File → Export…: every memory with its provenance and revisions saved to a file chosen in a save dialog.

The format and the function are the CLI's (`memory-dashboard export`: JSON, which Import… reads back, or
Markdown), and the file is written as `export -o` writes it: whole or not at all, never over the open
database. The work runs off the GUI thread; the status bar says when it starts and where it went, and a
refusal or a failure is the window's error message.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from app.cli.commands.export import export_text
from app.cli.opener import database_files
from app.cli.safe_output import write_bytes
from ui.dialogs.file_chooser import choose_file
from ui.runtime.controller import Controller

JSON_FILTER = "Memory Dashboard export, JSON (*.json)"
MARKDOWN_FILTER = "Markdown (*.md)"
FORMAT_OF_FILTER = {JSON_FILTER: "json", MARKDOWN_FILTER: "markdown"}
SUFFIXES = {".json": "json", ".md": "markdown", ".markdown": "markdown"}


def export_format(path: str, chosen_filter: str) -> str:
    """The format a file name asks for (`.json`, `.md`), else the one of the filter chosen in the dialog."""
    return SUFFIXES.get(Path(path).suffix.lower(), FORMAT_OF_FILTER.get(chosen_filter, "json"))


def choose_and_export(controller: Controller, parent: QWidget) -> None:
    """The save dialog (which asks before replacing a file), then the export to the file chosen."""
    chosen = choose_file(
        parent, "Export memories", f"{JSON_FILTER};;{MARKDOWN_FILTER}", save_as="memories.json"
    )
    if chosen:
        path, name_filter = chosen
        export_file(controller, path, export_format(path, name_filter))


def export_file(
    controller: Controller, path: str, fmt: str, done: Callable[[str], None] | None = None
) -> None:
    """Export the open store to `path` in `fmt`; `done(path)` once it is written."""
    store = controller.store
    databases = database_files(store)

    def work() -> int:
        data = export_text(store, fmt).encode("utf-8")
        # The save dialog asked before replacing a file; a database is refused whatever it answered.
        write_bytes(path, data, databases=databases, force=True)
        return len(data)

    def finished(size: int) -> None:
        where = Path(path)  # the name first: a narrow status bar cuts the end of a message
        controller.message.emit(
            f"Exported every memory to {where.name} ({fmt}, {size:,} bytes) in {where.parent}"
        )
        if done is not None:
            done(path)

    controller.message.emit(f"Exporting every memory to {Path(path).name}…")
    controller.runner.submit(work, finished, controller.report)
