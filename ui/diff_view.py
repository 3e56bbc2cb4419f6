"""The diff panel of the history side panel: a revision's "from what to what", inline or side by side.

The diff is computed off the GUI thread. Requests are debounced (a burst of selections computes one
diff) and numbered by a token; a result whose token is no longer the newest is dropped, as git-cola's
diff panel does. The HTML comes only from `app.diff_html`, which escapes everything from the texts.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRunnable, Qt, QThreadPool, QTimer, Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QTextBrowser, QVBoxLayout, QWidget

from app.diff import DiffStats, diff_stats, rows_from_ops, word_diff
from app.diff_html import (
    DARK_COLORS,
    LIGHT_COLORS,
    DiffColors,
    render_inline,
    render_message,
    render_side_by_side,
)
from ui.theme import is_dark

DEBOUNCE_MS = 120
# Side by side: lines of context kept around changes, and the most rows a table may have.
CONTEXT_LINES = 3
MAX_TABLE_ROWS = 3000


class DiffMode(Enum):
    INLINE = "Inline"
    SIDE_BY_SIDE = "Side by side"


@dataclass(frozen=True, slots=True)
class DiffRequest:
    old: str
    new: str
    mode: DiffMode
    colors: DiffColors


@dataclass(frozen=True, slots=True)
class DiffOutcome:
    html: str
    summary: str


def compute_diff(request: DiffRequest) -> DiffOutcome:
    """The page and the "+N −M words" summary for a request. Pure: it runs on a worker thread."""
    if not request.old and not request.new:
        return DiffOutcome(render_message("Empty on both sides."), "No change")
    ops = word_diff(request.old, request.new)
    summary = "No change" if request.old == request.new else stats_summary(diff_stats(ops))
    if request.mode is DiffMode.INLINE:
        page = render_inline(ops, request.colors)
    else:
        page = render_side_by_side(rows_from_ops(ops), request.colors, CONTEXT_LINES, MAX_TABLE_ROWS)
    return DiffOutcome(page, summary)


def stats_summary(stats: DiffStats) -> str:
    return f"+{stats.words_inserted} −{stats.words_deleted} words"


class _ResultRelay(QObject):
    """Carries results from worker threads to the views: (view key, token, outcome or error text).

    One relay lives as long as the application, so a worker never emits on an object that a closing
    view has just deleted; each view keeps only the results bearing its own key.
    """

    finished = Signal(int, int, object)


def _relay() -> _ResultRelay:
    app = QCoreApplication.instance()
    found = app.findChild(_ResultRelay, "diffViewRelay") if app is not None else None
    if found is None:
        found = _ResultRelay(app)
        found.setObjectName("diffViewRelay")
    return found


class _DiffJob(QRunnable):
    def __init__(self, relay: _ResultRelay, view_key: int, token: int, request: DiffRequest) -> None:
        super().__init__()
        self._relay = relay
        self._view_key = view_key
        self._token = token
        self._request = request

    def run(self) -> None:
        try:
            outcome: DiffOutcome | str = compute_diff(self._request)
        except Exception as error:  # shown in the panel: a bug must not leave it silently stale
            outcome = f"Could not compute the diff: {error}"
        self._relay.finished.emit(self._view_key, self._token, outcome)


class DiffView(QWidget):
    """Shows the diff of two texts; `diffShown(token)` says a result is on screen."""

    diffShown = Signal(int)

    _keys = itertools.count(1)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._key = next(self._keys)
        self._token = 0
        self._texts: tuple[str, str] | None = None
        self._relay = _relay()
        self._relay.finished.connect(self._on_finished)

        self.caption = QLabel()
        self.summary = QLabel()
        self.mode_box = QComboBox()
        self.browser = QTextBrowser()
        self._timer = QTimer(self)
        self._build()

    def _build(self) -> None:
        for label in (self.caption, self.summary):
            label.setTextFormat(Qt.TextFormat.PlainText)  # never let a label guess rich text
        self.mode_box.addItems([mode.value for mode in DiffMode])
        self.mode_box.setToolTip("Show the change inline or as two columns")
        self.mode_box.currentIndexChanged.connect(self._mode_changed)
        self.browser.setOpenLinks(False)
        self.browser.setOpenExternalLinks(False)
        self.browser.setUndoRedoEnabled(False)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._start_job)
        header = QHBoxLayout()
        header.addWidget(self.caption)
        header.addStretch(1)
        header.addWidget(self.summary)
        header.addWidget(self.mode_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.browser, 1)

    # Public API

    def show_texts(self, old: str | None, new: str | None, token_label: str = "") -> int:
        """Diff `old` (None: nothing before) against `new` (None: deleted), after a short debounce.

        `token_label` captions the diff ("Revision 4 → 5"). Returns the request's token: `diffShown`
        carries it once this diff is on screen, unless a newer request came first.
        """
        self._texts = (old or "", new or "")
        self.caption.setText(token_label)
        self._token += 1
        self._timer.start()
        return self._token

    def show_message(self, text: str) -> None:
        """A line in place of a diff ("Loading…"); whatever is still being computed is now stale."""
        self.clear()
        self.browser.setHtml(render_message(text))

    def clear(self) -> None:
        self._token += 1  # whatever is still being computed is now stale
        self._texts = None
        self._timer.stop()
        self.caption.clear()
        self.summary.clear()
        self.browser.clear()

    def mode(self) -> DiffMode:
        return list(DiffMode)[self.mode_box.currentIndex()]

    def set_mode(self, mode: DiffMode) -> None:
        self.mode_box.setCurrentIndex(list(DiffMode).index(mode))

    # Requests and results

    def _mode_changed(self) -> None:
        self._recompute_now()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # light ↔ dark: the diff colors change too
            self._recompute_now()

    def _recompute_now(self) -> None:
        if self._texts is None:
            return
        self._token += 1
        self._timer.stop()
        self._start_job()

    def _colors(self) -> DiffColors:
        return DARK_COLORS if is_dark(self.palette()) else LIGHT_COLORS

    def _start_job(self) -> None:
        if self._texts is None:
            return
        request = DiffRequest(*self._texts, self.mode(), self._colors())
        QThreadPool.globalInstance().start(_DiffJob(self._relay, self._key, self._token, request))

    @Slot(int, int, object)
    def _on_finished(self, view_key: int, token: int, outcome: object) -> None:
        if view_key != self._key or token != self._token:
            return  # another view's result, or superseded by a newer request
        if isinstance(outcome, DiffOutcome):
            self.browser.setHtml(outcome.html)
            self.summary.setText(outcome.summary)
        else:
            self.browser.setHtml(render_message(str(outcome)))
            self.summary.clear()
        self.diffShown.emit(token)


__all__ = [
    "DEBOUNCE_MS",
    "DiffMode",
    "DiffOutcome",
    "DiffRequest",
    "DiffView",
    "compute_diff",
    "stats_summary",
]
