"""File → Import…: choose an export file, merge it off the GUI thread, say what came in and what not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from app.cli.arguments import read_text_input
from app.commands.presence import Import
from app.commands.runner import execute
from app.transfer.export_format import MAX_EXPORT_BYTES, parse_export
from ui.dialogs.file_chooser import choose_file
from ui.runtime.controller import Controller, refused_saying

if TYPE_CHECKING:
    from app.core.models.imports import ImportResult

SHOWN_LINES = 30  # a message box lists this many memories, then says how many more


def choose_and_import(controller: Controller, parent: QWidget) -> None:
    chosen = choose_file(parent, "Import memories", "Memory Dashboard exports (*.json);;All files (*)")
    if chosen:
        import_file(controller, chosen[0], parent)


def import_file(
    controller: Controller, path: str, parent: QWidget, done: Callable[[ImportResult], None] | None = None
) -> None:
    """Import `path` into the open store; the listing reloads and a message box says what happened."""
    refusal = controller.write_refusal
    if refusal is not None:
        controller.error.emit(refused_saying(refusal, "Nothing was imported."))
        return
    store, name = controller.store, Path(path).name

    def work() -> ImportResult:
        export = parse_export(read_text_input(path, MAX_EXPORT_BYTES), name)
        return execute(store, Import(export, name), "window")  # a command of the log: Undo takes it back

    def finished(result: ImportResult) -> None:
        lines = result.summary_lines()
        controller.message.emit(f"Import of {name}: {lines[0]}")
        controller.refresh()
        controller.undo_history.reload()
        more = [f"… and {len(lines) - 1 - SHOWN_LINES} more"] if len(lines) - 1 > SHOWN_LINES else []
        box = QMessageBox(
            QMessageBox.Icon.Information,
            "Import",
            "\n".join([*lines[: SHOWN_LINES + 1], *more]),
            parent=parent,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.open()
        if done is not None:
            done(result)

    controller.runner.submit(work, finished, controller.report)
