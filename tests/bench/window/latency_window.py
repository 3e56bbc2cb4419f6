"""The real window the latency rows drive, and what they watch on it.

`BenchWindow` opens a private copy of a generated file as `ui.window.app.run_window` does (the real
`MainWindow` and `Controller` with its worker thread, the live refresh watching the file, every timer
as shipped), offscreen, active, settings in a temporary file. `settle()` waits, untimed, until nothing
is left to do (no work on the runner, no debounce or coalescing timer running, the idle indexing done,
the selected card's history and diff shown), so every round starts from a quiet window.

`Marks` notes when signals first fire after an input (where the time of a round goes); the paint
probes (`tests.bench.window.paint_probe`) note when a result is on screen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer, SignalInstance
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QListView

from app.core.models import Revision
from app.store import MemoryStore
from tests.bench.window.paint_probe import PaintProbe
from ui.cards.model import ID_ROLE, MemoryListModel
from ui.diff.rows import ROW_ROLE, Message
from ui.history.revision_table import REVISION_ROLE
from ui.runtime.controller import Controller
from ui.runtime.qt_app import application, wait_until
from ui.window.main_window import MainWindow


class BenchWindow:
    def __init__(self, path: Path) -> None:
        self.app = application(offscreen=True)
        self.controller = Controller(MemoryStore.open(path))
        settings = QSettings(str(path.with_suffix(".ini")), QSettings.Format.IniFormat)
        self.window = MainWindow(self.controller, settings=settings)  # watch=True: the live refresh
        self.window.resize(1400, 900)
        self.window.show()
        self.controller.refresh(quick_first=True)  # as run_window does
        self.controller.load_candidates()
        self.activate()
        self.list = self.window.list
        self.model: MemoryListModel = self.window.model
        self.panel = self.window.panel
        self.settle()

    def settle(self, timeout_ms: int = 180_000) -> None:
        """Untimed: poll until the window has nothing left to do."""
        if not wait_until(self.app, self._quiet, timeout_ms):
            raise TimeoutError("the window did not settle")

    def _quiet(self) -> bool:
        controller = self.controller
        if controller.runner.busy or controller.idle_indexing.pending:
            return False
        timers = [*self.window.findChildren(QTimer), *controller.findChildren(QTimer)]
        if any(timer.isActive() and timer.isSingleShot() for timer in timers):
            return False  # a debounce, the live refresh's coalescing, a row fetch or listing about to start
        memory = self.window.selected_memory()
        return self.panel.diff.settled and (memory is None or self.panel.history_memory_id == memory.id)

    def focus_list(self) -> None:
        self.activate()
        self.list.setFocus()
        self.app.processEvents()

    def activate(self) -> None:
        """Offscreen, no window manager gives the window back its activation when a dialog closes;
        shortcuts (J, Enter) reach only an active window."""
        if self.app.activeWindow() is not self.window:
            self.window.activateWindow()
            if not QTest.qWaitForWindowActive(self.window, 10_000):
                raise RuntimeError("the window did not become active: shortcuts would not reach it")

    def selected_id(self) -> int:
        memory_id = self.list.current_id()
        if memory_id is None:
            raise RuntimeError("no card is selected")
        return memory_id

    def close(self) -> None:
        self.window.close()
        self.controller.runner.wait_for_done(30_000)
        self.app.processEvents()
        self.window.deleteLater()
        self.app.processEvents()
        self.controller.store.close()

    # -- what is on screen -------------------------------------------------------------------------

    def ids_on_screen(self) -> list[int]:
        """The ids of the cards the list's viewport shows, top to bottom."""
        return ids_on_screen(self.list, self.model)

    def cards_loaded(self) -> bool:
        """Every card on screen shows its memory (no `#id` placeholder waiting for its row)."""
        ids = self.ids_on_screen()
        return bool(ids) and all(self.model.memory(memory_id) is not None for memory_id in ids)

    def card_content(self, memory_id: int) -> str | None:
        memory = self.model.memory(memory_id)
        return memory.content if memory is not None else None

    def newest_revision(self) -> Revision | None:
        """The history table's top row (revisions are listed newest first)."""
        item = self.panel.revisions.topLevelItem(0)
        value = item.data(0, REVISION_ROLE) if item is not None else None
        return value if isinstance(value, Revision) else None

    def card_probe(self, shows: Callable[[], bool]) -> PaintProbe:
        return PaintProbe(self.list.viewport(), shows)

    def history_probe(self, shows: Callable[[], bool]) -> PaintProbe:
        return PaintProbe(self.panel.revisions.viewport(), shows)

    def diff_probe(self, memory_id: int) -> DiffFirstScreen:
        return DiffFirstScreen(self, memory_id)


def ids_on_screen(view: QListView, model: MemoryListModel) -> list[int]:
    rect = view.viewport().rect()
    top, bottom = view.indexAt(rect.topLeft()), view.indexAt(rect.bottomLeft())
    if model.rowCount() == 0:
        return []
    first = top.row() if top.isValid() else 0
    last = bottom.row() if bottom.isValid() else model.rowCount() - 1
    return [int(model.index(row, 0).data(ID_ROLE)) for row in range(first, last + 1)]


class DiffFirstScreen:
    """The diff view's first screen for `memory_id`: the diff the panel asks for once that memory's
    history has arrived (the newest revision's), painted with its rows, not a message."""

    def __init__(self, bench: BenchWindow, memory_id: int) -> None:
        self._memory_id = memory_id
        self._slot = bench.panel.diff
        self._rows = self._slot.view.rows  # type: ignore[attr-defined]  # the DiffView, not the stand-in
        self._wanted: int | None = None  # the token of the request made for this memory's history
        self._displayed: int | None = None  # the token whose rows the view holds
        self._history = bench.controller.historyLoaded
        # Connected after the panel's own slot, so the panel has asked for the diff when this runs.
        self._history.connect(self._history_loaded)
        self._rows.modelReset.connect(self._rows_replaced)
        view = self._slot.view.rows_view  # type: ignore[attr-defined]
        self.probe = PaintProbe(view.viewport(), self._shows)

    def _history_loaded(self, memory_id: object, _revisions: object) -> None:
        if memory_id == self._memory_id and self._wanted is None:
            self._wanted = self._slot.requested

    def _rows_replaced(self) -> None:
        self._displayed = self._slot.requested  # rows are replaced only by the newest request's result

    def _shows(self) -> bool:
        if self._wanted is None or self._displayed != self._wanted or self._rows.rowCount() == 0:
            return False
        return not isinstance(self._rows.index(0, 0).data(ROW_ROLE), Message)

    def remove(self) -> None:
        self._history.disconnect(self._history_loaded)
        self._rows.modelReset.disconnect(self._rows_replaced)
        self.probe.remove()


class _Mark:
    def __init__(self, name: str, times: dict[str, list[float]]) -> None:
        self.name = name
        self._times = times

    def hit(self, *_args: object) -> None:
        self._times.setdefault(self.name, []).append(time.perf_counter())


class Marks:
    """When each signal fired (perf_counter), to show where a round's time went: each signal's first
    firing from the round's start on (a search typed a letter at a time fires for every letter; its
    round starts at the last key)."""

    def __init__(self, signals: dict[str, SignalInstance]) -> None:
        self.at: dict[str, list[float]] = {}
        self._connected = [(signal, _Mark(name, self.at)) for name, signal in signals.items()]
        for signal, mark in self._connected:
            signal.connect(mark.hit)

    def since(self, start: float) -> dict[str, float]:
        firsts = {name: [at for at in times if at >= start] for name, times in self.at.items()}
        return {name: after[0] - start for name, after in firsts.items() if after}

    def remove(self) -> None:
        for signal, mark in self._connected:
            signal.disconnect(mark.hit)
