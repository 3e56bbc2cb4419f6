"""The window's file dialogs (Open database…, Import…, Export…): Qt's own, telling file types by name alone.

A file dialog shows each file's type, and finds it by reading the file's first bytes (Qt's MIME database;
the desktops' native dialogs, which run inside this process, do the same) and closing it again. Done to
the open database or its `-shm` file, that close drops every lock this process holds on the file (POSIX
locks belong to a process and a file: `app/store/connect/held_files.py`), and the host's next close then
deletes the log our connections still write to: a write is lost. So every file dialog of the window is
made here: Qt's widget dialog, never a native one, whose icons and type names come from the name only.
The application says so too (`AA_DontUseNativeDialogs`, `ui.runtime.qt_app`): a GTK desktop's theme
builds its own chooser as soon as a QFileDialog is made, before any option of it is set, and that
chooser reads every file of the folder it starts in, on a thread of its own.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QDir, QFileInfo
from PySide6.QtGui import QAbstractFileIconProvider, QIcon
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QFileIconProvider, QStyle, QWidget

from ui.runtime.qt_app import NATIVE_IS_SAFE, no_native_dialogs


class NameOnlyTypes(QFileIconProvider):
    """A folder's or a file's icon and a type named after the file's suffix: never opens the file."""

    def icon(self, what: QFileInfo | QAbstractFileIconProvider.IconType) -> QIcon:
        if isinstance(what, QFileInfo):
            folder = what.isDir()
            kind = QStyle.StandardPixmap.SP_DirIcon if folder else QStyle.StandardPixmap.SP_FileIcon
            return QApplication.style().standardIcon(kind)
        return super().icon(what)

    def type(self, info: QFileInfo) -> str:
        if info.isDir():
            return "Folder"
        suffix = info.suffix()
        return f"{suffix.upper()} file" if suffix else "File"


_TYPES: list[NameOnlyTypes] = []  # one for every dialog, alive as long as the dialogs that use it
_LAST_FOLDER: list[str] = []  # the folder of the last file chosen in this process


def file_dialog(
    parent: QWidget | None, title: str, filters: str, *, save_as: str | None = None, folder: str | None = None
) -> QFileDialog:
    """A dialog to pick an existing file, or with `save_as` (the name it suggests) to name one to write
    (it asks before replacing a file); it starts in `folder`, else where the last file was chosen, else
    the person's home (never the folder the program was started in, `/` from a desktop's launcher)."""
    if not _TYPES:
        _TYPES.append(NameOnlyTypes())
    no_native_dialogs()  # (again, for an application made elsewhere)
    start = folder or (_LAST_FOLDER[-1] if _LAST_FOLDER else QDir.homePath())
    dialog = QFileDialog(parent, title, start, filters)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, not NATIVE_IS_SAFE)
    dialog.setIconProvider(_TYPES[0])
    if save_as is None:
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    else:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.selectFile(save_as)
    return dialog


def choose_file(
    parent: QWidget | None, title: str, filters: str, *, save_as: str | None = None, folder: str | None = None
) -> tuple[str, str] | None:
    """The file the person picks and the filter chosen with it; None when they cancel."""
    dialog = file_dialog(parent, title, filters, save_as=save_as, folder=folder)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return None
        chosen = dialog.selectedFiles()[0]
        _LAST_FOLDER[:] = [os.path.dirname(chosen)]
        return chosen, dialog.selectedNameFilter()
    finally:
        dialog.setParent(None)  # gone with its Python object, not left among the parent's children
