"""The window's first frame: shown once, complete, the window as it will stay.

A launch builds the main window hidden and starts its reads (`Controller.start`); `FirstFrame` shows it
when what its first frame holds has arrived: the first screen of cards (or the welcome page of an empty
database), the counts, the pending candidates, the undo log, and the selected card's history with the
diff of its newest revision and its candidates' words. Nothing on screen is then a stand-in that
changes: no greyed action that enables, no count that widens a button, no panel that fills. A
database too slow for all of that (`LIMIT_MS`) still gets its window then, filling in as its reads
arrive.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QAbstractItemView, QAbstractScrollArea

from ui.window.main_window import MainWindow

LIMIT_MS = 3_000  # the longest a launch keeps its window back for a complete first frame
CHECK_MS = 5  # how often the first frame's parts are looked at while they arrive
READ_AFTER_MS = 300  # the complete listing of a shown window that is not painted waits at most this long


class FirstFrame(QObject):
    """Calls `show` once the window's first frame is complete (`complete`), or after `LIMIT_MS`; once that
    frame is painted, the complete listing, then `painted` (what else waits for the first frame)."""

    def __init__(
        self,
        window: MainWindow,
        show: Callable[[], None],
        limit_ms: int = LIMIT_MS,
        painted: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(window)
        self.window = window
        self._show: Callable[[], None] | None = show
        self._painted_then = painted
        self._read: Callable[[], None] | None = window.controller.read_complete
        self._counts = False
        window.controller.countsChanged.connect(self._counted)
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_MS)
        self._timer.timeout.connect(self._check)
        self._timer.start()
        QTimer.singleShot(limit_ms, self._now)

    def _counted(self, _counts: object) -> None:
        self._counts = True

    @property
    def complete(self) -> bool:
        w = self.window
        c = w.controller
        if not (self._counts and c.undo_history.loaded):
            return False
        if w.pages.currentWidget() is w.welcome:
            return True  # an empty database: the welcome page is the whole first frame
        if w.model.rowCount() == 0 and w.cards.currentWidget() is not w.no_match:
            return False  # the first screen of cards has not arrived
        memory = w.selected_memory()
        if memory is None:
            return w.model.rowCount() == 0
        shown = w.panel.history_memory_id == memory.id and w.panel.diff.settled
        return shown and not w.panel.provenance.words_pending  # its candidates' words too

    def _check(self) -> None:
        if self.complete:
            self._now()

    def _now(self) -> None:
        self._timer.stop()
        show, self._show = self._show, None
        if show is None:
            return
        show()
        self._settle()
        # The listing that waited for the first frame (and, after a launch, the store's own open, on the
        # runner's thread) starts once that frame is painted, so it takes nothing from that paint; a
        # window that is not painted (minimized, not mapped) reads it anyway after `READ_AFTER_MS`.
        for page in (self.window.list.viewport(), self.window.no_match, self.window.welcome):
            page.installEventFilter(self)
        QTimer.singleShot(READ_AFTER_MS, self._painted)

    def _settle(self) -> None:
        """What the show itself set going, done before the first paint (else it shows just after it): the
        layouts' requests (widgets polished as they first became visible take their size then: a row
        would grow under the eyes), the rows of the item views laid out (on a zero timer otherwise: a
        table's columns fit their contents) and the scroll bars each scrolled view shows or hides once its
        range is known (in a queued call otherwise: a bar would blink away)."""
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        panel = self.window.panel
        areas = [self.window.list, panel.content, panel.provenance, panel.revisions]
        areas += panel.diff.findChildren(QAbstractScrollArea)
        for area in areas:
            if isinstance(area, QAbstractItemView) and area.isVisible():
                area.doItemsLayout()
        for area in areas:
            QCoreApplication.sendPostedEvents(area, QEvent.Type.MetaCall)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._read is not None:
            QTimer.singleShot(0, self._painted)  # after this paint, and the others of the same frame
        return False

    def _painted(self) -> None:
        read, self._read = self._read, None
        if read is not None:
            for page in (self.window.list.viewport(), self.window.no_match, self.window.welcome):
                page.removeEventFilter(self)
            gc.enable()  # off while a launch loaded what this frame needed (`ui.cli_hooks.open_window`)
            read()
            self._painted_then()
