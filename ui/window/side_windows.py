"""The windows the main window opens beside itself: the review queue (built the first time it is
opened, not before the first frame) and the digest of what changed since you last looked."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from app.core.models import Memory
from ui.review.controller import ReviewController

if TYPE_CHECKING:
    from app.core.models.digest import Digest
    from ui.dialogs.digest import DigestDialog
    from ui.review.queue import ReviewQueue


class QueueWindow:
    """The review queue's window over `parent`, built when first asked for."""

    def __init__(self, review: ReviewController, run_review: QAction, parent: QWidget) -> None:
        self.review, self.run_review, self.parent = review, run_review, parent
        self._built: ReviewQueue | None = None

    @property
    def window(self) -> ReviewQueue:
        if self._built is None:
            from ui.review.queue import ReviewQueue

            now = self.review.controller.now  # the store of the moment's clock, opened or not
            self._built = ReviewQueue(self.review, self.run_review, now, self.parent)
        return self._built

    def show(self, selected: Memory | None) -> None:
        """The pending candidates read again, the queue shown, merging into `selected` by default."""
        self.review.controller.load_candidates()
        if selected is not None:
            self.window.target.setValue(selected.id)
        self.window.show()
        self.window.raise_()


def open_digest(
    digest: Digest,
    now: Callable[[], int],
    parent: QWidget,
    open_card: Callable[[int], None],
    mark_seen: Callable[..., None],
) -> DigestDialog:
    """The digest over `parent`; each of its changes opens its card (`open_card`)."""
    from ui.dialogs.digest import DigestDialog  # its modules load with the first digest

    dialog = DigestDialog(digest, now, parent)
    dialog.openMemory.connect(open_card)
    dialog.markSeen.connect(mark_seen)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
