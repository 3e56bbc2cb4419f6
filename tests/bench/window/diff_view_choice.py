"""Which diff view to keep, decided by measurement: the shipped rows view or a `QPlainTextEdit`.

Run: `QT_QPA_PLATFORM=offscreen python -m tests.bench.window.diff_view_choice [--rounds N] [--large-kib K]`.

Five views show the same inline diff, computed by the app's own engine (`app.diff.stream.DiffStream`,
each line styled by `app.diff.style.styled_line`, as the rows view's model does):

- `rows`: the shipped `ui.diff.view.DiffView` (its debounce set to 0, as `measure_gui.diff_panel` does).
  It computes a first screen of rows on a worker thread, paints it, then appends the rest (second
  worker batch); its delegate keeps text layouts and heights per row object and lays out rows ahead of
  painting while the event loop is idle.
- `rows, no caches`: the same view with a delegate that lays a row out at every size hint and every
  paint (no per-row records, no estimates, no idle measuring): what the rows view costs without that
  machinery.
- `plain`: a `QPlainTextEdit` with a `QSyntaxHighlighter`, the design git-cola uses. The whole inline diff
  is computed on the GUI thread, joined into one text (a block per inline line), set with
  `setPlainText`, and the highlighter gives each block the spans of its line (inserted, deleted,
  hidden-character and note formats, the rows view's own). The rows view's inline mode paints no line
  numbers and no line tint, so neither does this. Not built: clicking a fold open (a line-level diff's
  folds show as their label line), copying as a unified diff, next/previous change.
- `plain, worker`: the same, the lines computed on the thread pool (as the rows view's are), only the
  text set and colored on the GUI thread.
- `plain, 2 batches`: as the rows view does it, a first screen of lines (`DiffStream.take_screen`, the
  same screen size) computed on the pool and set, then the rest computed on the pool and appended at
  the end of the document (the highlighter colors only the new blocks).

For each input, each round times, alternating the views (the order rotates each round): from the
request until the first screen of the diff is painted (the rows view's `firstScreenShown`, a paint
probe on the plain view's viewport), until the whole diff is in the view (`diffShown`), then Ctrl+End
until that paint. In separate shows, a timer firing every millisecond on the GUI thread records its
longest gap while the diff is shown, until every row is laid out: the longest freeze a person typing
or scrolling meanwhile would feel. The figures and the decision are in RESULTS.md, not here.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import (
    QEventLoop,
    QObject,
    Qt,
    QTimer,
)
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QListView, QPlainTextEdit, QWidget

from tests.bench.bench_diff import SEED, cases, change_words, realistic_memory
from tests.bench.window.diff_view_candidates import PlainDiff, PlainMode, inline_lines, rows_view
from tests.bench.window.paint_probe import PaintProbe, wait_for_paints
from ui.diff.view import DiffView
from ui.runtime.qt_app import application, wait_until

SMALL_BYTES = 400
TAIL_S = 0.02  # the freeze timer keeps ticking this long after the diff is shown: its last paint


# Measuring


class _Ticker(QObject):
    """A 1 ms timer on the GUI thread: the longest gap between its ticks is the longest freeze."""

    def __init__(self) -> None:
        super().__init__()
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(1)
        self._timer.timeout.connect(self._tick)
        self._loop = QEventLoop()
        self._done: Callable[[], bool] = lambda: False
        self._last = 0.0
        self.longest = 0.0

    def start(self) -> None:
        self.longest, self._last = 0.0, time.perf_counter()
        self._timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self._last)
        self._last = now
        if self._done():
            self._loop.quit()

    def until(self, done: Callable[[], bool], timeout_s: float = 60.0) -> float:
        """Tick until `done()`, then `TAIL_S` more; the longest gap since `start`."""
        deadline = time.perf_counter() + timeout_s
        finished: list[float] = []

        def check() -> bool:
            if time.perf_counter() > deadline:
                raise TimeoutError("the diff was not shown")
            if not finished and done():
                finished.append(time.perf_counter())
            return bool(finished) and time.perf_counter() - finished[0] >= TAIL_S

        self._done = check
        self._loop.exec()
        self._timer.stop()
        return self.longest


@dataclass
class Figures:
    """Seconds per round, by measurement name."""

    rounds: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.rounds.setdefault(name, []).append(seconds)

    def median_ms(self, name: str) -> float | None:
        times = self.rounds.get(name)
        return statistics.median(times) * 1e3 if times else None


class _Signals(QObject):
    """When a `DiffView`'s signals came, by token."""

    def __init__(self, view: DiffView) -> None:
        super().__init__(view)
        self.first: dict[int, float] = {}
        self.whole: dict[int, float] = {}
        view.firstScreenShown.connect(lambda token: self.first.__setitem__(token, time.perf_counter()))
        view.diffShown.connect(lambda token: self.whole.__setitem__(token, time.perf_counter()))


def _run_until(done: Callable[[], bool], timeout_s: float = 60.0) -> None:
    """The event loop until `done()`, checked at every event the loop wakes for (no sleep)."""
    app = QApplication.instance()
    deadline = time.perf_counter() + timeout_s
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError("the diff was not shown")
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)  # type: ignore[union-attr]


def _settle(view: QWidget) -> None:
    """Untimed: the previous show is over (rows all laid out), its last paint done."""
    app = QApplication.instance()
    if isinstance(view, DiffView):
        wait_until(app, lambda: not view._delegate.measuring, 30_000)  # type: ignore[arg-type]
    for _ in range(3):
        QApplication.processEvents()
    gc.collect()


class Candidate:
    """One view under measurement, with the same four steps for each kind."""

    def __init__(self, name: str, widget: DiffView | PlainDiff) -> None:
        self.name = name
        self.widget = widget
        self.signals = _Signals(widget) if isinstance(widget, DiffView) else None

    def show(self, old: str, new: str) -> tuple[float, float]:
        """Seconds from the request to the first screen painted, and to the whole diff in the view."""
        _settle(self.widget)
        start = time.perf_counter()
        if isinstance(self.widget, DiffView):
            assert self.signals is not None
            token = self.widget.show_texts(old, new)
            signals = self.signals
            _run_until(lambda: token in signals.whole)
            return signals.first[token] - start, signals.whole[token] - start
        plain = self.widget
        token = plain.show_texts(old, new)
        probe = PaintProbe(plain.viewport(), lambda: plain.shown == token)
        painted = wait_for_paints([probe], "the plain diff") - start
        probe.remove()
        _run_until(lambda: plain.whole == token)
        return painted, max(painted, plain.whole_at - start)

    def freeze(self, old: str, new: str, ticker: _Ticker) -> float:
        """The GUI thread's longest gap while the diff is shown (until every row is laid out)."""
        _settle(self.widget)
        ticker.start()
        if isinstance(self.widget, DiffView):
            assert self.signals is not None
            view, signals = self.widget, self.signals
            token = view.show_texts(old, new)
            return ticker.until(lambda: token in signals.whole and not view._delegate.measuring)
        plain = self.widget
        token = plain.show_texts(old, new)
        probe = PaintProbe(plain.viewport(), lambda: plain.shown == token)
        longest = ticker.until(lambda: probe.at is not None and plain.whole == token)
        probe.remove()
        return longest

    def scroll_to_end(self) -> float:
        """Seconds from Ctrl+End until the paint that shows the end of the diff."""
        _settle(self.widget)
        target = self.widget.rows_view if isinstance(self.widget, DiffView) else self.widget
        if isinstance(target, QListView):  # with no current row, a key only makes the first row current
            target.setCurrentIndex(target.model().index(0, 0))
            _settle(self.widget)
        bar = target.verticalScrollBar()
        pressed: list[bool] = []
        probe = PaintProbe(target.viewport(), lambda: bool(pressed))
        start = time.perf_counter()
        pressed.append(True)
        QTest.keyClick(target, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
        painted = wait_for_paints([probe], "the end of the diff") - start
        probe.remove()
        if isinstance(target, QPlainTextEdit):  # its scroll bar counts lines, the last partly shown
            at_end = target.textCursor().atEnd() and target.viewport().rect().contains(target.cursorRect())
        else:
            at_end = bar.value() == bar.maximum()
        if not at_end:
            raise RuntimeError(f"{self.name}: Ctrl+End did not scroll to the end")
        return painted


@dataclass(frozen=True)
class Case:
    name: str
    old: str
    new: str
    big: bool  # the freeze and the scroll are measured on the 64 KiB inputs only


def inputs(large_kib: int | None = None) -> list[Case]:
    by_name = {name: (old, new) for name, old, new in cases(random.Random(SEED))}
    rng = random.Random(SEED)
    small = realistic_memory(rng, SMALL_BYTES)
    chosen = [
        Case("64 KiB, 5% of words changed (scattered)", *by_name["realistic: 5% of words, scattered"], True),
        Case("64 KiB, every line edited", *by_name["worst: many small edits (every line)"], True),
        Case(f"{SMALL_BYTES} B, a few words changed", small, change_words(rng, small, 0.05, False), False),
    ]
    if large_kib:  # a host row can be larger than the app's own limit
        large = realistic_memory(rng, large_kib * 1024)
        changed = change_words(rng, large, 0.05, clustered=False)
        chosen.append(Case(f"{large_kib} KiB, 5% of words changed (scattered)", large, changed, True))
    return chosen


def measure(rounds: int, chosen: list[Case]) -> dict[str, Figures]:
    application(offscreen=True)
    candidates = [
        *(Candidate(mode.value, PlainDiff(mode)) for mode in PlainMode),
        Candidate("rows", rows_view(cached=True)),
        Candidate("rows, no caches", rows_view(cached=False)),
    ]
    panel = candidates[len(PlainMode)].widget
    assert isinstance(panel, DiffView)
    for candidate in candidates[: len(PlainMode)]:
        candidate.widget.resize(panel.rows_view.size())  # the same viewport as the rows view's
        candidate.widget.show()
    ticker = _Ticker()
    figures: dict[str, Figures] = {}
    for case in chosen:
        found = figures.setdefault(case.name, Figures())
        for number in range(rounds):
            turn = number % len(candidates)
            for candidate in candidates[turn:] + candidates[:turn]:
                first, whole = candidate.show(case.old, case.new)
                found.add(f"{candidate.name}: first screen", first)
                found.add(f"{candidate.name}: whole diff", whole)
                if isinstance(candidate.widget, PlainDiff):
                    found.add(f"{candidate.name}: computing the lines", candidate.widget.split[0])
                    found.add(f"{candidate.name}: setPlainText + highlighting", candidate.widget.split[1])
                if case.big:
                    found.add(f"{candidate.name}: Ctrl+End", candidate.scroll_to_end())
            if case.big:
                for candidate in candidates[turn:] + candidates[:turn]:
                    found.add(
                        f"{candidate.name}: longest freeze", candidate.freeze(case.old, case.new, ticker)
                    )
    return figures


ROWS = [
    ("first screen painted", "first screen"),
    ("whole diff in the view", "whole diff"),
    ("longest GUI-thread block", "longest freeze"),
    ("Ctrl+End painted", "Ctrl+End"),
]


def table(figures: dict[str, Figures], cases_by_name: dict[str, Case]) -> str:
    names = [*(mode.value for mode in PlainMode), "rows", "rows, no caches"]
    out: list[str] = []
    for case_name, found in figures.items():
        case = cases_by_name[case_name]
        lines = len(inline_lines(case.old, case.new))
        out.append(f"\n{case_name} ({lines:,} inline lines), median ms")
        out.append(f"| {'':26} | " + " | ".join(f"{name:>16}" for name in names) + " |")
        for label, key in ROWS:
            values = [found.median_ms(f"{name}: {key}") for name in names]
            if all(value is None for value in values):
                continue
            cells = [f"{value:16.1f}" if value is not None else f"{'':16}" for value in values]
            out.append(f"| {label:26} | " + " | ".join(cells) + " |")
        for name in names[: len(PlainMode)]:
            compute = found.median_ms(f"{name}: computing the lines") or 0.0
            setting = found.median_ms(f"{name}: setPlainText + highlighting") or 0.0
            out.append(
                f"{name}: computing the lines {compute:.1f}, setPlainText + highlighting {setting:.1f}"
            )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--large-kib", type=int, help="also a text of this many KiB, 5%% of words changed")
    arguments = parser.parse_args()
    chosen = inputs(arguments.large_kib)
    before = os.getloadavg()
    figures = measure(arguments.rounds, chosen)
    after = os.getloadavg()
    print(f"rounds: {arguments.rounds}; load average (1, 5, 15 min) before {before}, after {after}")
    print(table(figures, {case.name: case for case in chosen}))


if __name__ == "__main__":
    main()
