"""The window's file dialogs tell a file's type by its name: looking at the open database's folder must not
drop the store's locks (a file read and closed anywhere in the process drops them: `held_files`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QFileInfo, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QFileSystemModel
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.host_close import host_close_leaves_the_log
from ui.dialogs import file_chooser
from ui.dialogs.file_chooser import NameOnlyTypes, choose_file, file_dialog
from ui.dialogs.open_database import OPEN_FILTER, OPEN_TITLE

UI = Path(__file__).resolve().parents[3] / "ui"


def test_the_types_shown_leave_the_stores_locks(qtbot: QtBot, store: MemoryStore, host_db: Path) -> None:
    store.get(1)  # connected: the store's shared lock tells the host it is not alone
    shm = Path(f"{host_db}-shm")
    assert shm.exists()
    types = NameOnlyTypes()
    for path in (host_db, shm):
        info = QFileInfo(str(path))
        assert not types.icon(info).isNull()
        assert types.type(info) == ("DB file" if path == host_db else "DB-SHM file")
    assert host_close_leaves_the_log(host_db)


def test_the_open_dialog_on_the_databases_folder_leaves_the_stores_locks(
    qtbot: QtBot, store: MemoryStore, host_db: Path
) -> None:
    store.get(1)
    dialog = file_dialog(None, OPEN_TITLE, OPEN_FILTER)
    qtbot.addWidget(dialog)
    dialog.setViewMode(QFileDialog.ViewMode.Detail)  # the Type column: every file's type asked for
    dialog.selectNameFilter("All files (*)")
    model = dialog.findChild(QFileSystemModel)
    assert model is not None
    with qtbot.waitSignal(model.directoryLoaded, timeout=10_000):
        dialog.setDirectory(str(host_db.parent))
        dialog.open()
    folder = model.index(str(host_db.parent))
    names = {model.index(row, 0, folder).data() for row in range(model.rowCount(folder))}
    assert {host_db.name, f"{host_db.name}-wal", f"{host_db.name}-shm"} <= names
    dialog.selectFile(str(host_db))

    def typed() -> bool:  # the gatherer has asked for every file's icon and type
        rows = range(model.rowCount(folder))
        return all(model.index(row, 2, folder).data(Qt.ItemDataRole.DisplayRole) for row in rows)

    qtbot.waitUntil(typed, timeout=10_000)
    dialog.reject()
    assert host_close_leaves_the_log(host_db)


def test_every_file_dialog_of_the_window_is_made_by_the_chooser() -> None:
    dialog = file_dialog(None, "Export", "JSON (*.json)", save_as="memories.json")
    assert dialog.testOption(QFileDialog.Option.DontUseNativeDialog)
    assert isinstance(dialog.iconProvider(), NameOnlyTypes)
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    makers = [
        path.relative_to(UI).as_posix()
        for path in UI.rglob("*.py")
        if "QFileDialog" in path.read_text(encoding="utf-8")
    ]
    assert makers == ["dialogs/file_chooser.py"]


NATIVE = """
import sys
from PySide6.QtCore import QCoreApplication, Qt
NO_NATIVE = Qt.ApplicationAttribute.AA_DontUseNativeDialogs
if sys.argv[1] == "application":
    from ui.runtime.qt_app import application
    application(offscreen=True)
else:
    from PySide6.QtWidgets import QApplication
    from ui.dialogs.file_chooser import file_dialog
    app = QApplication(["made elsewhere"])
    before = QCoreApplication.testAttribute(NO_NATIVE)
    file_dialog(None, "Open", "All files (*)")
    print(before, end=" ")
print(QCoreApplication.testAttribute(NO_NATIVE))
"""


@pytest.mark.parametrize(("made_by", "said"), [("application", "True"), ("elsewhere", "False True")])
def test_no_desktop_dialog_is_ever_made(made_by: str, said: str) -> None:
    """A GTK desktop's theme builds its own chooser (which reads every file of its folder, on a thread of
    its own) as soon as a QFileDialog is made, unless the application says no native dialogs."""
    env = {**os.environ, "PYTHONPATH": str(UI.parent), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", NATIVE, made_by], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == said


def test_a_dialog_starts_at_home_then_where_the_last_file_was_chosen(
    qtbot: QtBot, host_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Never in the folder the program was started in (`/` from a desktop's launcher, unwritable)."""
    monkeypatch.setattr(file_chooser, "_LAST_FOLDER", [])  # as at the process's start
    assert Path(file_dialog(None, "Import", "All files (*)").directory().absolutePath()) == Path.home()
    beside = file_dialog(None, OPEN_TITLE, OPEN_FILTER, folder=str(host_db.parent))
    assert Path(beside.directory().absolutePath()) == host_db.parent

    def pick() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QFileDialog)
        dialog.selectFile(str(host_db))
        dialog.accept()

    QTimer.singleShot(0, pick)
    assert choose_file(None, "Import", "All files (*)") == (str(host_db), "All files (*)")
    later = file_dialog(None, "Export", "JSON (*.json)", save_as="memories.json")
    assert Path(later.directory().absolutePath()) == host_db.parent
