"""The diff panel of the history side panel: a revision's "from what to what", inline or side by side.

The diff is computed off the GUI thread in two batches of rows: about a screen of them first (the word
level of the rest is not computed yet), shown at once, then the rest with the "+N −M words" summary.
Rows are painted by `ui.diff.row_delegate` in a list view that lays out and paints only what is on
screen: a 64 KiB diff shows at once, where a text browser laid out the whole page first. A request starts
on the next event-loop turn, with no wait of its own (the history panel is the selection path's one
debounce): the requests of one turn compute one diff. Requests are numbered by a token; a result whose
token is no longer the newest is dropped, as git-cola's diff panel does, and a worker stops computing a
superseded diff. The content is untrusted: it is painted as plain text. The layout a person chooses
(inline or side by side) is kept in the settings file, and every diff panel starts with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRunnable, Qt, QThreadPool, QTimer, Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from app.core.settings import SettingsError, diff_mode_setting, load_settings, remember, with_diff_mode
from app.diff.stream import DiffStream
from app.diff.style import DARK_COLORS, LIGHT_COLORS, DiffColors
from app.diff.text_diff import DiffStats
from ui.diff.row_delegate import DiffRowDelegate
from ui.diff.rows import DiffList, Item, Message
from ui.widgets.theme import is_dark

DEBOUNCE_MS = 0  # the next event-loop turn: no fixed wait stacked on the selection path
CONTEXT_LINES = 3  # side by side: unchanged lines kept around a change, the rest folded
COUNTING = "Counting…"  # the summary while only the first screen is shown
# The summary of equal texts: a change of status or expiry changed something else (its caption says what).
TEXT_UNCHANGED = "Text unchanged"
# Rows after the first screen: a longer diff is cut with a note (each row is a model row and a layout).
MAX_ROWS = 20_000


class DiffMode(Enum):
    INLINE = "Inline"
    SIDE_BY_SIDE = "Side by side"

    @property
    def setting(self) -> str:
        """How the settings file names it (`app.core.settings.DIFF_MODES`)."""
        return "inline" if self is DiffMode.INLINE else "side_by_side"


def saved_mode() -> DiffMode:
    """The layout last chosen in any diff panel (inline when none was, or the settings cannot be read)."""
    try:
        chosen = diff_mode_setting(load_settings())
    except SettingsError:
        return DiffMode.INLINE
    return next(mode for mode in DiffMode if mode.setting == chosen)


@dataclass(frozen=True, slots=True)
class DiffRequest:
    """Two texts to diff, and the screen that shows them: `screen_lines` lines of `line_chars`
    characters (a column's, side by side), which the first batch fills."""

    old: str
    new: str
    mode: DiffMode
    screen_lines: int = 60
    line_chars: int = 80


@dataclass(frozen=True, slots=True)
class DiffBatch:
    """Rows of a diff: the first batch replaces what the view shows, the second one is appended.

    A first batch that is not the whole diff carries the `stream` that computes the rest, and no
    `summary` ("+N −M words"): that comes with the last batch.
    """

    rows: Sequence[Item]
    first: bool
    summary: str | None
    stream: DiffStream | None = None


def first_batch(request: DiffRequest) -> DiffBatch:
    """About a screen of rows, or the whole diff when it is that short. Pure: it runs on a worker."""
    if not request.old and not request.new:
        return DiffBatch([Message("Empty on both sides.")], True, TEXT_UNCHANGED)
    stream = DiffStream(request.old, request.new, request.mode is DiffMode.SIDE_BY_SIDE, CONTEXT_LINES)
    rows = stream.take_screen(request.screen_lines, request.line_chars)
    if stream.done:
        return DiffBatch(rows, True, _summary(request, stream))
    return DiffBatch(rows, True, None, stream)


def rest_batch(request: DiffRequest, stream: DiffStream) -> DiffBatch:
    """The rows after the first batch's (at most `MAX_ROWS`), and the summary. Pure: it runs on a worker."""
    rows: list[Item] = list(stream.take(MAX_ROWS))
    if stream.done:
        return DiffBatch(rows, False, _summary(request, stream))
    rows.append(Message(f"The diff goes on: it is cut here, after {MAX_ROWS:,} more rows, to stay fast."))
    return DiffBatch(rows, False, f"{_summary(request, stream)} in the rows shown")


def _summary(request: DiffRequest, stream: DiffStream) -> str:
    if request.old == request.new:
        return TEXT_UNCHANGED
    if stream.line_level:
        inserted, deleted = stream.changed_lines
        size = (len(request.old) + len(request.new)) / (1024 * 1024)
        return f"+{inserted:,} −{deleted:,} lines · compared line by line: the texts hold {size:,.1f} MiB"
    return stats_summary(stream.stats)


def stats_summary(stats: DiffStats) -> str:
    return f"+{stats.words_inserted} −{stats.words_deleted} words"


class _ResultRelay(QObject):
    """Carries results from worker threads to the views: (view key, token, batch or error text).

    One relay lives as long as the application, so a worker never emits on an object that a closing
    view has just deleted; each view keeps only the results bearing its own key. `latest` holds each
    view's newest token: a worker reads it to stop computing a superseded diff.
    """

    finished = Signal(object, object, object)  # Python ints: never cut to Qt's 32 bits

    def __init__(self, parent: QObject | None) -> None:
        super().__init__(parent)
        self.latest: dict[int, int] = {}


def _relay() -> _ResultRelay:
    app = QCoreApplication.instance()
    found = app.findChild(_ResultRelay, "diffViewRelay") if app is not None else None
    if found is None:
        found = _ResultRelay(app)
        found.setObjectName("diffViewRelay")
    return found


class _DiffJob(QRunnable):
    """Computes one batch on the thread pool: the first (no `stream`), or the rest of `stream`."""

    def __init__(
        self, relay: _ResultRelay, view_key: int, token: int, request: DiffRequest, stream: DiffStream | None
    ) -> None:
        super().__init__()
        self._relay = relay
        self._view_key = view_key
        self._token = token
        self._request = request
        self._stream = stream

    def run(self) -> None:
        if self._relay.latest.get(self._view_key) != self._token:
            return  # superseded while it waited: the view would drop it anyway
        try:
            if self._stream is None:
                outcome: DiffBatch | str = first_batch(self._request)
            else:
                outcome = rest_batch(self._request, self._stream)
        except Exception as error:  # shown in the panel: a bug must not leave it silently stale
            outcome = f"Could not compute the diff: {error}"
        self._relay.finished.emit(self._view_key, self._token, outcome)


class DiffView(QWidget):
    """Shows the diff of two texts.

    `firstScreenShown(token)` says the first screen of a diff is on screen; `diffShown(token)` that
    all of it is, with its summary.
    """

    firstScreenShown = Signal(object)  # token (a Python int: no 32-bit limit)
    diffShown = Signal(object)

    _keys = itertools.count(1)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._key = next(self._keys)
        self._token = 0
        self._texts: tuple[str, str] | None = None
        self._request: DiffRequest | None = None
        self._relay = _relay()
        self._relay.finished.connect(self._on_finished)

        self.caption = QLabel()
        self.summary = QLabel()
        self.mode_box = QComboBox()
        self.rows_view = DiffList(self)
        self.rows = self.rows_view.rows
        self._delegate = DiffRowDelegate(self.rows_view, self._colors())
        self._timer = QTimer(self)
        self._build()

    def _build(self) -> None:
        for label in (self.caption, self.summary):
            label.setTextFormat(Qt.TextFormat.PlainText)  # never let a label guess rich text
        self.summary.setToolTip("Words inserted and deleted by this change")
        self.mode_box.addItems([mode.value for mode in DiffMode])
        self.mode_box.setToolTip("Show the change inline or as two columns (kept for the next time)")
        self.mode_box.setAccessibleName("Diff layout")
        self.set_mode(saved_mode())  # before any diff: nothing to recompute yet
        self.mode_box.currentIndexChanged.connect(self._mode_changed)
        self.mode_box.activated.connect(self._mode_chosen)  # a person's choice, not `set_mode`
        self.rows_view.setItemDelegate(self._delegate)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._start_job)
        header = QHBoxLayout()
        header.addWidget(self.caption)
        header.addStretch(1)
        header.addWidget(self.summary)
        for action, arrow in (
            (self.rows_view.previous_change, Qt.ArrowType.UpArrow),
            (self.rows_view.next_change, Qt.ArrowType.DownArrow),
        ):
            button = QToolButton()
            button.setArrowType(arrow)
            button.setAutoRaise(True)
            button.setToolTip(action.toolTip())
            button.setAccessibleName(action.text())
            button.clicked.connect(action.trigger)
            header.addWidget(button)
        header.addWidget(self.mode_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.rows_view, 1)

    # Public API

    def show_texts(self, old: str | None, new: str | None, token_label: str = "") -> int:
        """Diff `old` (None: nothing before) against `new` (None: deleted), from the next event-loop turn.

        `token_label` captions the diff ("Revision 4 → 5"). Returns the request's token: `diffShown`
        carries it once this diff is on screen, unless a newer request came first.
        """
        self._texts = (old or "", new or "")
        self.caption.setText(token_label)
        self._next_token()
        self._timer.start()
        return self._token

    def show_message(self, text: str) -> None:
        """A line in place of a diff ("Loading…"); whatever is still being computed is now stale."""
        self.clear()
        self.rows.show_message(text)

    def clear(self) -> None:
        self._next_token()  # whatever is still being computed is now stale
        self._texts = None
        self._timer.stop()
        self.caption.clear()
        self.summary.clear()
        self.rows.set_rows([])

    def mode(self) -> DiffMode:
        return list(DiffMode)[self.mode_box.currentIndex()]

    def set_mode(self, mode: DiffMode) -> None:
        self.mode_box.setCurrentIndex(list(DiffMode).index(mode))

    def text(self) -> str:
        """What the rows show, one line per row (side by side: old, tab, new)."""
        return self.rows.plain_text()

    # Requests and results

    def _next_token(self) -> None:
        self._token += 1
        self._relay.latest[self._key] = self._token

    def _mode_changed(self) -> None:
        self._recompute_now()

    def _mode_chosen(self) -> None:
        """Keep the layout a person chose, for every diff panel from now on (the next start too)."""
        problem = remember(lambda settings: with_diff_mode(settings, self.mode().setting))
        tip = "Show the change inline or as two columns (kept for the next time)"
        self.mode_box.setToolTip(tip if problem is None else f"{tip} (this choice is not kept: {problem})")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # light ↔ dark: the diff colors change too
            self._delegate.set_colors(self._colors())
            self.rows_view.viewport().update()
        elif event.type() == QEvent.Type.FontChange:  # every row's height changes with the font
            self._delegate.forget()
            self.rows_view.doItemsLayout()

    def _recompute_now(self) -> None:
        if self._texts is None:
            return
        self._next_token()
        self._timer.stop()
        self._start_job()

    def _colors(self) -> DiffColors:
        return DARK_COLORS if is_dark(self.palette()) else LIGHT_COLORS

    def _start_job(self) -> None:
        if self._texts is None:
            return
        old, new = self._texts
        self._delegate.set_line_digits(len(str(max(old.count("\n"), new.count("\n")) + 1)))
        self._request = DiffRequest(old, new, self.mode(), *self._screen())
        self._start(None)

    def _start(self, stream: DiffStream | None) -> None:
        if self._request is not None:
            job = _DiffJob(self._relay, self._key, self._token, self._request, stream)
            QThreadPool.globalInstance().start(job)

    def _screen(self) -> tuple[int, int]:
        """(lines, characters per line) the rows view shows; a column's characters side by side."""
        metrics = self.rows_view.fontMetrics()
        viewport = self.rows_view.viewport()
        width = viewport.width() // 2 if self.mode() is DiffMode.SIDE_BY_SIDE else viewport.width()
        return viewport.height() // max(1, metrics.height()) + 1, width // max(1, metrics.averageCharWidth())

    @Slot(object, object, object)
    def _on_finished(self, view_key: int, token: int, outcome: object) -> None:
        if view_key != self._key or token != self._token:
            return  # another view's result, or superseded by a newer request
        if not isinstance(outcome, DiffBatch):
            self.rows.show_message(str(outcome))
            self.summary.clear()
            self.diffShown.emit(token)
            return
        if outcome.first:
            self.rows.set_rows(outcome.rows)
            self._delegate.measure_screen()
        else:
            self.rows.append_rows(outcome.rows)
        # Lay the rows out now, so that the next paint shows them: a list view paints only rows it has
        # laid out, and its own layout waits for a timer.
        self.rows_view.executeDelayedItemsLayout()
        self.summary.setText(outcome.summary if outcome.summary is not None else COUNTING)
        if outcome.first:
            # Paint the first screen before the rest is computed: a worker running Python would hold
            # the interpreter for up to 5 ms at a time while this thread waits to paint.
            self.rows_view.viewport().repaint()
            self.firstScreenShown.emit(token)
        if outcome.stream is not None:
            self._start(outcome.stream)
        if outcome.summary is not None:
            self.diffShown.emit(token)


__all__ = [
    "COUNTING",
    "DEBOUNCE_MS",
    "DiffBatch",
    "DiffMode",
    "DiffRequest",
    "DiffView",
    "first_batch",
    "rest_batch",
    "stats_summary",
]
