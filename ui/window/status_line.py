"""The status bar (messages elided before the counts, the full text in its tooltip), its permanent parts
(counts, database path, read-only badge) and the error banner.

Errors a person can cause are shown in a banner above the cards until dismissed (and in the status
bar), never as a traceback and never only as a transient message.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStatusBar, QToolButton, QWidget

from app.core.models import Counts
from ui.widgets.plain_tip import plain_tip
from ui.widgets.theme import Tone, badge_colors

COUNTS_TIP = (
    "Memories by status, and candidates waiting for review.\n"
    "active: injected into every session · dismissed: kept, not injected\n"
    "other status: a status the host does not know (neither active nor dismissed), shown as it is and "
    "never injected; the Status filter's All lists them\n"
    "expired: past its expiry, never recalled"
)

PROJECT_COUNTS_TIP = (
    "The project's memories shown under its filters, those the host injects into its sessions now\n"
    "(active or permanent, not expired), and those archived"
)


def counts_text(counts: Counts) -> str:
    parts = [f"{counts.active} active", f"{counts.dismissed} dismissed"]
    if counts.other:
        parts.append(f"{counts.other} other status")
    if counts.expired:
        parts.append(f"{counts.expired} expired")
    parts.append(f"{counts.candidates} candidate{'s' if counts.candidates != 1 else ''}")
    return " · ".join(parts)


def home_relative(location: str) -> str:
    """`~/…` for a path under the home folder (shorter, and no user name in screenshots)."""
    try:
        relative = Path(location).resolve().relative_to(Path.home().resolve())
    except (ValueError, OSError, RuntimeError):
        return location
    return str(Path("~") / relative)


def _plain(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


class MessageBar(QStatusBar):
    """A status bar whose messages never run into its permanent widgets: a message longer than the room
    left of them is elided, its whole text in the bar's tooltip until the message goes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full_message = ""
        self.messageChanged.connect(self._message_changed)

    def showMessage(self, text: str, timeout: int | None = 0) -> None:
        self.full_message = text
        shown = self._fitted(text)
        self.setToolTip(plain_tip(text) if shown != text else "")
        super().showMessage(shown, timeout or 0)

    def message_room(self) -> int:
        """The width a message may take: up to the first permanent widget shown, less a margin."""
        right = self.width() - 12
        for widget in self.findChildren(QWidget):
            if widget.parent() is self and widget.isVisible() and widget.x() > 0:
                right = min(right, widget.x())
        return max(0, right - 16)

    def _fitted(self, text: str) -> str:
        one_line = " ".join(text.split())
        if not self.isVisible():
            return one_line  # not laid out yet: no room to measure
        return self.fontMetrics().elidedText(one_line, Qt.TextElideMode.ElideRight, self.message_room())

    def _message_changed(self, text: str) -> None:
        if not text:
            self.full_message = ""
            self.setToolTip("")


class StatusLine:
    """Owns the permanent widgets of a QStatusBar."""

    def __init__(self, bar: QStatusBar) -> None:
        self.bar = bar
        self.counts = _plain()
        self.counts.setToolTip(COUNTS_TIP)
        self.path = _plain()
        self.read_only = _plain(" read-only ")
        colors = badge_colors(bar.palette(), Tone.AMBER)
        self.read_only.setStyleSheet(
            f"background: {colors.background.name()}; color: {colors.foreground.name()};"
            f" border: 1px solid {colors.border.name()}; border-radius: 4px; padding: 0 4px;"
        )
        self.read_only.hide()
        self.user_counts = ""  # the user memories' counts, shown again when no project is
        self.project_counts: str | None = None  # a project's counts while it is shown
        bar.addPermanentWidget(self.counts)
        bar.addPermanentWidget(self.path)
        bar.addPermanentWidget(self.read_only)

    def set_counts(self, counts: Counts) -> None:
        self.user_counts = counts_text(counts)
        if self.project_counts is None:
            self.counts.setText(self.user_counts)
        self._reserve()

    def show_project_counts(self, text: str | None) -> None:
        """A project's counts in the counts' place while it is shown (None: the user memories' again)."""
        self.project_counts = text
        self.counts.setText(self.user_counts if text is None else text)
        self.counts.setToolTip(COUNTS_TIP if text is None else PROJECT_COUNTS_TIP)
        self._reserve()

    def _reserve(self) -> None:
        """Room for the wider of both counts: switching between them moves nothing beside them."""
        metrics = self.counts.fontMetrics()
        texts = (self.user_counts, self.project_counts or "")
        wanted = max(metrics.horizontalAdvance(text) for text in texts) + metrics.averageCharWidth()
        self.counts.setMinimumWidth(max(self.counts.minimumWidth(), wanted))

    def set_database(self, location: str, read_only_reason: str | None) -> None:
        shown = home_relative(location)
        shown = shown if len(shown) <= 60 else "…" + shown[-58:]
        self.path.setText(shown)
        self.path.setToolTip(plain_tip(f"Database: {location}"))
        self.read_only.setVisible(read_only_reason is not None)
        self.read_only.setToolTip(
            plain_tip(f"Nothing can be changed: {read_only_reason}" if read_only_reason else "")
        )


class ErrorBanner(QWidget):
    """An error above the cards until dismissed, with a button for what can be done about it if any."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = _plain()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action = QToolButton(self)
        self.action.clicked.connect(self._act)
        self.action.hide()
        self._do: Callable[[], None] | None = None
        close = QToolButton(self)
        close.setText("✕")
        close.setToolTip("Dismiss this message")
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.action)
        layout.addWidget(close)
        self.setAutoFillBackground(True)
        self.hide()

    def show_error(self, text: str, action: tuple[str, Callable[[], None]] | None = None) -> None:
        """Show `text`, and a button (label, what it does) when an action can help."""
        self._do = action[1] if action else None
        self.action.setText(action[0] if action else "")
        self.action.setVisible(action is not None)
        colors = badge_colors(self.palette(), Tone.RED)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, colors.background)
        palette.setColor(QPalette.ColorRole.WindowText, colors.foreground)
        self.setPalette(palette)
        self.label.setText(text)
        self.show()

    def _act(self) -> None:
        if self._do is not None:
            self.hide()
            self._do()
