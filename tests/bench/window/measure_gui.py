"""The measurements on screen (offscreen Qt): open + first screen of cards, and scrolling through every card.

Open: `MemoryStore.open`, the real `MainWindow` with its `Controller` (the listing loads in its worker
thread), until the card list's first paint after the listing arrived; the floor is raw `sqlite3` doing
`count(*)` and the first 200 rows of the same listing (active, newest promotion first).
Scroll: a `QListView` with our model and `CardDelegate` at the window's settings, page by page through
every memory, each viewport rendered with `grab()` (rows fetched from the store as the model asks, as the
controller does, but synchronously); the floor is the same `QListView` with Qt's default delegate over a
`QStringListModel` of the same display strings. Compared per viewport (median).
"""

from __future__ import annotations

import difflib
import gc
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QEvent, QEventLoop, QObject, QSettings, QStringListModel, QTimer
from PySide6.QtWidgets import QApplication, QListView, QPlainTextEdit

from app.core.screening import make_visible
from app.store import MemoryStore
from tests.bench.generate import BenchDb
from tests.bench.timing import EndedAt, Result, fresh_copy, median_ratio, result, side_by_side, timed
from ui.cards.delegate import CardDelegate
from ui.cards.listing import Listing, ViewFilter, load_listing
from ui.cards.model import MemoryListModel
from ui.runtime.controller import Controller
from ui.runtime.qt_app import application, wait_until
from ui.window.main_window import MainWindow

VIEWPORT = (560, 900)
FIRST_ROWS = 200


class _PaintSeen(QObject):
    """Watches the card list: a paint after the listing arrived is the first screen; also notes when the
    complete listing (every id) arrived."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.loaded = False
        self.painted = False
        self.complete = False
        window.controller.memoriesLoaded.connect(self._loaded)
        window.list.viewport().installEventFilter(self)

    def _loaded(self, listing: Listing) -> None:
        self.loaded = True
        self.painted = False
        self.complete = self.complete or listing.complete

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.loaded and event.type() == QEvent.Type.Paint:
            self.painted = True
        return False


def _first_screen(app: QApplication, path: Path, settings_dir: str) -> tuple[float, float]:
    """Seconds from `MemoryStore.open` to the first paint of loaded cards, and to the complete listing
    on screen; the window is torn down after, untimed."""
    gc.collect()
    start = time.perf_counter()
    store = MemoryStore.open(path)
    controller = Controller(store)
    settings = QSettings(str(Path(settings_dir) / "window.ini"), QSettings.Format.IniFormat)
    window = MainWindow(controller, settings=settings, watch=False)
    window.resize(1200, 900)
    seen = _PaintSeen(window)
    window.show()
    controller.refresh(quick_first=True)  # as ui.window.app.run_window does
    controller.load_candidates()
    if not wait_until(app, lambda: seen.painted and window.model.rowCount() > 0, 60_000):
        raise RuntimeError("the window did not paint its first cards")
    first = time.perf_counter() - start
    if not wait_until(app, lambda: seen.complete and seen.painted, 60_000):
        raise RuntimeError("the complete listing was not painted")
    complete = time.perf_counter() - start
    window.close()
    controller.runner.wait_for_done(10_000)
    app.processEvents()
    window.deleteLater()
    app.processEvents()  # the store is left to the garbage collector: a review task may still hold it
    return first, complete


def open_first_screen(db: BenchDb, work: Path, rounds: int) -> Result:
    app = application(offscreen=True)
    path = fresh_copy(db.path, work)
    MemoryStore.open(path).close()  # any migration runs once, outside the timing

    def floor() -> Callable[[], object]:
        def run() -> None:
            raw = sqlite3.connect(path)
            raw.execute("SELECT count(*) FROM user_memories").fetchone()
            raw.execute(
                "SELECT * FROM user_memories WHERE status = 'active'"
                " ORDER BY promoted_at DESC, id DESC LIMIT ?",
                (FIRST_ROWS,),
            ).fetchall()
            raw.close()

        return run

    ours: list[float] = []
    floors: list[float] = []
    completes: list[float] = []
    with tempfile.TemporaryDirectory() as settings_dir:
        for _ in range(rounds):  # alternated by hand: our teardown must stay out of the timing
            floors.append(timed(floor()))
            first, complete = _first_screen(app, path, settings_dir)
            ours.append(first)
            completes.append(complete)
    note = (
        "ours = MemoryStore.open + MainWindow until the first paint of loaded cards (the first page);"
        f" the complete listing was on screen at {statistics.median(completes) * 1e3:.0f} ms"
    )
    return result("open + first screen of cards", (ours, floors), 3.0, note)


def _view(model: QListView | object, delegate: CardDelegate | None) -> QListView:
    view = QListView()
    view.setModel(model)  # type: ignore[arg-type]
    if delegate is not None:
        view.setItemDelegate(delegate)
    view.setUniformItemSizes(True)
    view.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
    view.resize(*VIEWPORT)
    view.show()
    return view


def _scroll_all(app: QApplication, view: QListView) -> list[float]:
    """Seconds per viewport: scroll one page, let wanted rows arrive, render the viewport."""
    bar = view.verticalScrollBar()
    page = view.viewport().height()
    times: list[float] = []
    position = 0
    app.processEvents()
    while True:
        start = time.perf_counter()
        bar.setValue(position)
        app.processEvents()
        view.viewport().grab()
        app.processEvents()  # rows the paint asked for arrive (synchronously, see `scroll`)
        times.append(time.perf_counter() - start)
        if position >= bar.maximum():
            return times
        position = min(position + page, bar.maximum())


def scroll(db: BenchDb, work: Path, rounds: int, cards: int | None = None) -> Result:
    """Every card (or the first `cards`), page by page; `rounds` passes."""
    app = application(offscreen=True)
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    listing = load_listing(store, ViewFilter(status="all"), [], FIRST_ROWS)
    listing = replace(listing, ids=listing.ids[:cards]) if cards else listing
    strings = [make_visible(memory.content) for memory in store.get_many(listing.ids)]
    ours_times: list[float] = []
    floor_times: list[float] = []
    for _ in range(rounds):
        plain = QStringListModel(strings)
        floor_times += _scroll_all(app, _view(plain, None))
        model = MemoryListModel()
        model.rowsWanted.connect(lambda ids, m=model: m.update_rows(store.get_many(ids)))
        model.set_listing(listing.ids, listing.rows)
        ours_times += _scroll_all(app, _view(model, CardDelegate(store.now)))
    store.close()
    ours, floor = statistics.median(ours_times), statistics.median(floor_times)
    p95 = sorted(ours_times)[int(len(ours_times) * 0.95)]
    note = (
        f"{len(listing.ids):,} cards: {len(ours_times) // rounds:,} viewports of {VIEWPORT[0]}x{VIEWPORT[1]}"
        f" (default delegate: {len(floor_times) // rounds:,}); total {sum(ours_times) / rounds:.1f} s vs"
        f" {sum(floor_times) / rounds:.1f} s; p95 {p95 * 1e3:.1f} ms"
    )
    return Result("scroll every card (per viewport)", ours, floor, 2.0, note=note)


def diff_panel(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    """History of the 50-revision memory, then its newest diff on screen in the window's `DiffView`.

    Timed until `firstScreenShown`: the first screen of rows is laid out and painted (the view repaints
    before it says so). The rest of the diff follows in a second batch, timed on a row of its own, and
    each round starts once the previous one's rows are all laid out. The view's 120 ms debounce is a
    deliberate pause for bursts of selections, not work: it is set to 0.

    The floor is Qt's own `QPlainTextEdit` of the same size showing the new text (set and painted): what
    a screen of this text costs to lay out and paint, which no diff shown on screen can do without.
    `difflib`, the floor of the computation (`measure_store.diff`), is in the note: painting ~6,000
    characters takes several times longer than diffing 64 KiB. Reported, not held to a target: the
    1.5× `difflib` target is the computation's row.
    """
    from ui.diff.view import DiffView

    application(offscreen=True)
    path = fresh_copy(db.path, work)
    store = MemoryStore.open(path)
    store.observe()
    view = DiffView()
    view._timer.setInterval(0)
    view.resize(700, 900)
    view.show()
    first_shown: dict[int, float] = {}  # token: when the signal came
    shown: dict[int, float] = {}
    view.firstScreenShown.connect(lambda token: first_shown.__setitem__(token, time.perf_counter()))
    view.diffShown.connect(lambda token: shown.__setitem__(token, time.perf_counter()))
    history = store.history(db.diff_memory_id)
    newest = next(r for r in reversed(history) if r.kind == "content")
    old, new = newest.previous_content or "", newest.new_content or ""

    def wait_for(signal: object, seen: dict[int, float], token: int) -> None:
        loop = QEventLoop()  # no polling: `wait_until` sleeps 5 ms a turn, a sixth of this measurement
        signal.connect(loop.quit)  # type: ignore[attr-defined]
        QTimer.singleShot(30_000, loop.quit)
        if token not in seen:
            loop.exec()
        signal.disconnect(loop.quit)  # type: ignore[attr-defined]
        if token not in seen:
            raise RuntimeError("the diff was not shown")

    def select(whole: bool) -> Callable[[], Callable[[], object]]:
        def settle() -> Callable[[], object]:  # not timed: the previous round's rest and idle layout
            if view._token:
                wait_for(view.diffShown, shown, view._token)
            wait_until(QApplication.instance(), lambda: not view._delegate.measuring, 30_000)  # type: ignore[arg-type]
            # The paint the last layout asked for: without it, the next round painted the old rows
            # first (~6 ms) and counted that.
            QApplication.processEvents()
            QApplication.processEvents()
            return run

        def run() -> EndedAt:
            # as the window's controller reads them: the outline, the newest revision whole
            latest = store.history(db.diff_memory_id, texts=False, newest_whole=True)[-1]
            token = view.show_texts(latest.previous_content, latest.new_content)
            seen = shown if whole else first_shown
            wait_for(view.diffShown if whole else view.firstScreenShown, seen, token)
            # Timed to the signal: the rest of the diff starts on a worker right after the first screen,
            # and its Python delayed this thread's return from the wait by up to 5 ms.
            return EndedAt(seen[token])

        return settle

    def floor() -> Callable[[], object]:
        return lambda: difflib.SequenceMatcher(None, old.splitlines(), new.splitlines()).get_opcodes()

    plain = QPlainTextEdit()
    plain.setReadOnly(True)
    plain.resize(700, 900)
    plain.show()

    def show_plain() -> None:  # showing the new text, no diff: what painting a screen of text costs
        plain.setPlainText(new)
        plain.viewport().grab()

    first = side_by_side(rounds, select(whole=False), lambda: show_plain)
    whole = side_by_side(rounds, select(whole=True), lambda: show_plain)
    against_difflib = side_by_side(rounds, select(whole=False), floor)
    store.close()
    note = (
        "ours = store.history (no texts, the newest whole) + DiffView until its first screen of rows is"
        " laid out and painted (first batch off the GUI thread, no debounce); floor = a QPlainTextEdit of"
        " the same size showing the new text (set + painted). Against difflib on the two texts"
        f" ({statistics.median(against_difflib[1]) * 1e3:.2f} ms): {median_ratio(against_difflib):.1f}×"
    )
    return [
        result("select + diff on screen (DiffView)", first, None, note),
        result("  same, every row in the view", whole, None, "until diffShown: the second batch appended"),
    ]
