"""The welcome state: shown when the database holds no memories yet.

It says where memories come from (the agent host promotes them from candidates it notices in your
sessions) and how to start: write a memory yourself (`New memory…`, shown once the window has such an
action: `set_new_memory_action`), open the host's database (its usual place directly when it exists there,
or any file with `Open database…`, and recent files), or look around in the demo data.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.core.paths import HOST_RELATIVE, host_database_path
from ui.widgets.icons import app_pixmap
from ui.widgets.plain_tip import plain_tip

EXPLANATION = (
    "Your AI coding agent keeps long-term memories about you: preferences, habits, facts about your "
    "projects. The agent host (for example the magic-context plugin) notices candidates in your sessions "
    "and promotes them into memories stored in its database, context.db; every active memory is shown to "
    "the agent in every session.\n\n"
    "This database has no memories yet. To start: open the host's database (File → Open database…; "
    f"usually …/{HOST_RELATIVE.as_posix()} under your data folder), or look around in the demo data first."
)
NEW_MEMORY_TEXT = " Or write a memory yourself with New memory…"


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.exists() and one.samefile(other)
    except OSError:
        return False


class WelcomePage(QWidget):
    openDatabaseRequested = Signal()
    openRecentRequested = Signal(str)
    openDemoRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        title = QLabel("No memories here yet")
        title.setTextFormat(Qt.TextFormat.PlainText)
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setWeight(font.Weight.DemiBold)
        title.setFont(font)
        icon = QLabel()
        pixmap = app_pixmap()
        if not pixmap.isNull():
            size = title.fontMetrics().height() * 3
            icon.setPixmap(
                pixmap.scaled(
                    size, size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
                )
            )
        self.location = QLabel()
        self.location.setTextFormat(Qt.TextFormat.PlainText)
        self.location.setWordWrap(True)
        self.text = QLabel(EXPLANATION)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setWordWrap(True)
        self.new_button = QPushButton("New memory…")
        self.new_button.hide()  # until the window has a New memory action (`set_new_memory_action`)
        self._new_action: QAction | None = None
        self.new_button.clicked.connect(self._new_memory)
        self.host_button = QPushButton("Open the host's database")
        self.host_button.clicked.connect(self._open_host)
        self.host_button.hide()
        self.open_button = QPushButton("Open database…")
        self.open_button.setToolTip("Choose a context.db or another memory database (File → Open database…)")
        self.open_button.clicked.connect(self.openDatabaseRequested)
        self.demo_button = QPushButton("Open demo data")
        self.demo_button.setToolTip("A demo store with a few hundred realistic memories (nothing of yours)")
        self.demo_button.clicked.connect(self.openDemoRequested)
        buttons = QHBoxLayout()
        for button in (self.new_button, self.host_button, self.open_button, self.demo_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.recent_box = QVBoxLayout()
        column = QVBoxLayout()
        column.addStretch(1)
        for widget in (icon, title, self.location, self.text):
            column.addWidget(widget)
        column.addSpacing(12)
        column.addLayout(buttons)
        column.addSpacing(12)
        column.addLayout(self.recent_box)
        column.addStretch(2)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        holder = QWidget(self)
        holder.setLayout(column)
        holder.setMaximumWidth(640)
        outer.addWidget(holder, 3)
        outer.addStretch(1)

    def set_new_memory_action(self, action: QAction | None) -> None:
        """The hook for writing a first memory: a `New memory…` button that triggers `action` (its text,
        keys and tooltip); None hides it."""
        self._new_action = action
        self.new_button.setVisible(action is not None)
        self.text.setText(EXPLANATION + (NEW_MEMORY_TEXT if action is not None else ""))
        if action is not None:
            self.new_button.setText(action.text().replace("&", ""))
            self.new_button.setToolTip(action.toolTip())

    def _new_memory(self) -> None:
        if self._new_action is not None:
            self._new_action.trigger()

    def _open_host(self) -> None:
        self.openRecentRequested.emit(str(host_database_path()))

    def set_database(self, location: str, recent: list[str]) -> None:
        self.location.setText(f"Database: {location}")
        host = host_database_path()
        elsewhere = host.is_file() and not _same_file(Path(location), host)
        self.host_button.setVisible(elsewhere)
        self.host_button.setToolTip(plain_tip(f"Open {host}"))
        while self.recent_box.count():
            item = self.recent_box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        others = [path for path in recent if path != location][:5]
        if others:
            self.recent_box.addWidget(QLabel("Recent databases:"))
        for path in others:
            button = QPushButton(path)
            button.setFlat(True)
            button.setToolTip(plain_tip(f"Open {path}"))
            button.setStyleSheet("text-align: left;")
            button.clicked.connect(lambda _checked=False, p=path: self.openRecentRequested.emit(p))
            self.recent_box.addWidget(button)
