"""Noticing that another process wrote the database. A file: a file watcher on the file and its `-wal`,
plus a cheap poll of their size, mtime and file id (watchers miss events on some filesystems, and SQLite
may replace the `-wal` file, which drops it from the watcher: such paths are added again). A deleted or
replaced database is a change too: the controller then finds out which (`Controller.check_file`).

Bursts of changes are coalesced into one `changed` signal: the events of one commit (the file and its
`-wal`) arrive within milliseconds, so a short coalescing keeps the wait a person sees short.

A database on a server has no file to watch (`ServerWatcher`): while the application is active, a
`changed` every few seconds (and at once when it becomes active again) asks the controller to check,
which costs one snapshot read off the GUI thread and relists only when someone else committed
(`MemoryStore.changed_elsewhere`, PostgreSQL's change watch).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from app.core.paths import is_url

COALESCE_MS = 50
POLL_MS = 2_000


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells a change: mtime and size, and the file id (a copy renamed over it may keep both)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, info.st_ino)


class DatabaseWatcher(QObject):
    changed = Signal()

    def __init__(self, database: Path, parent: QObject | None = None, *, poll_ms: int = POLL_MS) -> None:
        super().__init__(parent)
        self.paths = [database, Path(f"{database}-wal")]
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._file_changed)
        self._coalesce = QTimer(self)
        self._coalesce.setSingleShot(True)
        self._coalesce.setInterval(COALESCE_MS)
        self._coalesce.timeout.connect(self.changed)
        self._poll = QTimer(self)
        self._poll.setInterval(poll_ms)
        self._poll.timeout.connect(self._check)
        self._stamps = self._current_stamps()
        self._watch()
        self._poll.start()

    def _current_stamps(self) -> list[tuple[int, int, int] | None]:
        return [_stamp(path) for path in self.paths]

    def _watch(self) -> None:
        watched = set(self._watcher.files())
        missing = [str(path) for path in self.paths if str(path) not in watched and path.exists()]
        if missing:
            self._watcher.addPaths(missing)

    def _file_changed(self, _path: str) -> None:
        self._watch()  # a replaced file leaves the watcher; add it back
        self._check()

    def _check(self) -> None:
        self._watch()
        stamps = self._current_stamps()
        if stamps != self._stamps:
            self._stamps = stamps
            self._coalesce.start()

    def stop(self) -> None:
        self._poll.stop()
        self._coalesce.stop()
        if self._watcher.files():
            self._watcher.removePaths(self._watcher.files())


class ServerWatcher(QObject):
    """A server's database: `changed` every `poll_ms` while the application is active and `busy()` is
    False (a check waits behind nothing), and once when the application becomes active again."""

    changed = Signal()

    def __init__(
        self, parent: QObject | None = None, *, poll_ms: int = POLL_MS, busy: Callable[[], bool] = bool
    ) -> None:
        super().__init__(parent)
        self._busy = busy
        self._poll = QTimer(self)
        self._poll.setInterval(poll_ms)
        self._poll.timeout.connect(self._tick)
        application = QGuiApplication.instance()
        if isinstance(application, QGuiApplication):
            application.applicationStateChanged.connect(self._state_changed)
        self._poll.start()

    @staticmethod
    def _active() -> bool:
        return QGuiApplication.applicationState() == Qt.ApplicationState.ApplicationActive

    def _tick(self) -> None:
        if self._active() and not self._busy():
            self.changed.emit()

    def _state_changed(self, state: Qt.ApplicationState) -> None:
        if state == Qt.ApplicationState.ApplicationActive and self._poll.isActive():
            self.changed.emit()

    def stop(self) -> None:
        self._poll.stop()


def watch_database(
    location: str, parent: QObject, changed: Callable[[], None], busy: Callable[[], bool]
) -> DatabaseWatcher | ServerWatcher | None:
    """The watcher fit for a database: its file's, a server's poll (while the window is active, not
    while `busy`), or None (an embedded store in memory)."""
    watcher: DatabaseWatcher | ServerWatcher | None = None
    if Path(location).is_file():
        watcher = DatabaseWatcher(Path(location), parent)
    elif is_url(location):  # a server: polled
        watcher = ServerWatcher(parent, busy=busy)
    if watcher is not None:
        watcher.changed.connect(changed)
    return watcher
