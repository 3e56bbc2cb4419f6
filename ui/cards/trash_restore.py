"""The trash's own Restore button, beside the listing's title while the Deleted filter lists the trash.

A person looking at deleted memories looks at the cards, not at Memory → Restore or its keys
(Ctrl+Shift+B): the button is that same action, so it is enabled exactly when the action is (a deleted
memory selected, the store writable) and restores the whole selection in one write, one Undo.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from ui.cards.listing import Listing

TRASH = "deleted"  # the status filter that lists the trash


class TitleRow(QWidget):
    """The listing's title, and the Restore button while the trash is listed (`listings` carries each
    listing shown)."""

    def __init__(self, title: QLabel, restore: QAction, listings: SignalInstance, parent: QWidget) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 8, 0)
        layout.addWidget(title, 1)
        self.restore = QToolButton(self)
        self.restore.setDefaultAction(restore)
        self.restore.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.restore.hide()
        layout.addWidget(self.restore, 0, Qt.AlignmentFlag.AlignBottom)
        listings.connect(self.listing_shown)

    def listing_shown(self, listing: Listing) -> None:
        self.restore.setVisible(listing.filter.status == TRASH)
