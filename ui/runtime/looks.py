"""Since the person last looked: the cards' `changed` markers, the digest (on open, on demand), the watermark.

Every listing re-reads which memories changed since the watermark (a range of the revision log's primary
key), and the list model marks their cards until the person marks them seen. The digest opens by itself
when the desktop app starts (`check_on_open`: the first open of a database only records a look, so there
is nothing "since"), and on demand. All store calls go through the controller's runner, off the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Signal

from ui.cards.model import MemoryListModel
from ui.runtime.controller import NOW, Controller

if TYPE_CHECKING:
    from app.core.models.digest import Digest, Watermark
    from app.store import MemoryStore

T = TypeVar("T")


class SinceLastLook(QObject):
    digestReady = Signal(object)  # Digest: show it
    seen = Signal(object)  # Watermark: the look moved

    def __init__(self, controller: Controller, model: MemoryListModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.model = model
        self.automatic = (
            False  # the digest opens by itself on open (the desktop app, not a test or screenshot)
        )
        controller.memoriesLoaded.connect(lambda _listing: self.refresh_marks())
        controller.memoryChanged.connect(lambda _memory: self.refresh_marks())  # a write that lists nothing
        controller.storeChanged.connect(lambda _store: self._opened())

    def _opened(self) -> None:
        if self.automatic:
            self.check_on_open()

    def check_on_open(self) -> None:
        """Show the digest if anything changed since the last look; a first open records the look."""
        self.automatic = True

        def work() -> Digest | None:
            store = self.controller.store  # opened here, on the runner's thread, after a launch
            store.observe()  # what the host changed while the window was closed is in the digest
            if store.watermark() is None:
                store.mark_seen()  # kept in memory on a read-only store
                return None
            digest = store.digest()
            return digest if digest else None

        self._submit(work, self._show_if_any)

    def _show_if_any(self, digest: Digest | None) -> None:
        if digest is not None:
            self.digestReady.emit(digest)
            self.refresh_marks()

    def show_now(self) -> None:
        """The digest on demand (View menu), whatever it holds."""

        def work() -> Digest:
            store = self.controller.store
            store.observe()
            return store.digest()

        self._submit(work, self.digestReady.emit, priority=NOW)

    def refresh_marks(self) -> None:
        if not self.controller.store_open:
            return  # the launch's first frame: its complete listing, once the store is open, marks them

        def read() -> tuple[MemoryStore, frozenset[int] | None]:  # the store: opened here, after a launch
            store = self.controller.store
            return store, store.changed_since_look()

        def mark(answer: tuple[MemoryStore, frozenset[int] | None]) -> None:
            # None: never looked (the markers a review run set stay); not another database's, opened meanwhile
            store, ids = answer
            if ids is not None and self.controller.store is store:
                self.model.set_highlighted(ids)

        self._submit(read, mark)

    def mark_seen(self, upto: Watermark) -> None:
        """Everything up to `upto` (the digest shown) is seen: its markers go."""
        store = self.controller.store

        def done(mark: Watermark) -> None:
            self.seen.emit(mark)
            self.refresh_marks()

        self._submit(lambda: store.mark_seen(upto), done)

    def _submit(self, work: Callable[[], T], done: Callable[[T], None], priority: int = 0) -> None:
        self.controller.runner.submit(work, done, self.controller.report, priority=priority)
