"""One round of each interaction the latency rows time in the window (`tests.bench.window.measure_latency`).

A round starts from a settled window, sends the input (QTest, to the real widget), and runs the event
loop until paint probes see the result on screen: no fixed sleep anywhere on the timed path. It returns
seconds since the input: `result`, and where the time went (when signals first fired, when each part
of the result was painted, how long the result's own paint took).

`python -m tests.bench.window.latency_rounds writer DB` is the outside writer's process: a plain sqlite3
connection that commits a rewrite when asked and answers with the moment of its COMMIT.
"""

from __future__ import annotations

import contextlib
import gc
import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, SignalInstance
from PySide6.QtTest import QTest

from tests.bench.window.latency_window import BenchWindow, Marks
from tests.bench.window.measure_process import PYTHON, ROOT, child_env
from tests.bench.window.paint_probe import PaintProbe, wait_for_paints
from ui.cards.listing import Listing
from ui.cards.model import ID_ROLE
from ui.runtime.qt_app import wait_until

KEY_GAP_MS = 100  # between two letters typed into the search field
PAINT_ALONE = "the result's paint itself"
Round = dict[str, float]  # seconds since the input: "result", and where the time went


def _timed(
    what: str,
    act: Callable[[], object],
    probes: dict[str, PaintProbe],
    signals: dict[str, SignalInstance],
    *,
    optional: dict[str, PaintProbe] | None = None,
    start_of: Callable[[], float] | None = None,
) -> Round:
    """`act` (the input), then the event loop until every probe saw its paint; `start_of` gives the
    input's moment when it is not the call of `act` (the last of several keys, another process)."""
    optional = optional or {}
    marks = Marks(signals)
    gc.collect()
    called = time.perf_counter()
    try:
        act()
        end = wait_for_paints(list(probes.values()), what)
        if optional:
            with contextlib.suppress(TimeoutError):  # reported as missing from some rounds
                wait_for_paints(list(optional.values()), what, timeout_s=10)
    finally:
        for probe in (*probes.values(), *optional.values()):
            probe.remove()
        marks.remove()
    start = start_of() if start_of is not None else called
    shown = {**(probes if len(probes) > 1 else {}), **optional}
    painted = {name: probe.at - start for name, probe in shown.items() if probe.at is not None}
    last = max(probes.values(), key=lambda probe: probe.at or 0.0)
    paint = {PAINT_ALONE: last.at - last.began} if last.at and last.began else {}
    return {"result": end - start, **marks.since(start), **painted, **paint}


def next_card(bench: BenchWindow) -> Round:
    bench.settle()
    bench.focus_list()
    target = int(bench.model.index(bench.list.currentIndex().row() + 1, 0).data(ID_ROLE))
    history = bench.history_probe(lambda: bench.panel.history_memory_id == target)
    diff = bench.diff_probe(target)
    signals = {"history asked": bench.panel.historyWanted, "history read": bench.controller.historyLoaded}
    try:
        return _timed(
            "J",
            lambda: QTest.keyClick(bench.list, Qt.Key.Key_J),
            {"history painted": history, "diff painted": diff.probe},
            signals,
        )
    finally:
        diff.remove()


def page_down(bench: BenchWindow) -> Round:
    bench.settle()
    bench.focus_list()
    bar = bench.list.verticalScrollBar()
    before = bar.value()
    if before >= bar.maximum():
        raise RuntimeError("the card list is at its end: Page Down would not scroll")
    probe = bench.card_probe(lambda: bar.value() != before and bench.cards_loaded())
    return _timed(
        "Page Down",
        lambda: QTest.keyClick(bench.list, Qt.Key.Key_PageDown),
        {"page painted": probe},
        {"rows read": bench.controller.rowsLoaded},
    )


def search(bench: BenchWindow, term: str) -> Round:
    """Types `term` a letter at a time; the time runs from the last key. The field is cleared after."""
    bench.settle()
    field = bench.window.filters.search
    bench.list.scrollToTop()
    bench.activate()
    field.setFocus()
    arrived: list[Listing] = []

    def listed(listing: Listing) -> None:  # connected after the window's slot: the model holds it
        if listing.filter.search == term:
            arrived.append(listing)

    def shows() -> bool:
        ids = bench.ids_on_screen()
        return bool(arrived and ids) and ids == arrived[-1].ids[: len(ids)] and bench.cards_loaded()

    last_key: list[float] = []

    def press(letter: str, last: bool) -> None:
        if last:
            last_key.append(time.perf_counter())
        QTest.keyClicks(field, letter)  # one letter: one key press and release

    def type_term() -> None:
        for number, letter in enumerate(term):
            last = number == len(term) - 1
            QTimer.singleShot(number * KEY_GAP_MS, lambda letter=letter, last=last: press(letter, last))

    bench.controller.memoriesLoaded.connect(listed)
    signals = {
        "search asked": bench.window.filters.filterChanged,
        "listing read": bench.controller.memoriesLoaded,
    }
    try:
        return _timed(
            f"search {term!r}",
            type_term,
            {"hits painted": bench.card_probe(shows)},
            signals,
            start_of=lambda: last_key[0],
        )
    finally:
        bench.controller.memoriesLoaded.disconnect(listed)
        field.clear()  # untimed: the next round's settle waits for the whole listing again


def save_edit(bench: BenchWindow, number: int, diff_on_edit: list[bool]) -> Round:
    """Enter opens the editor and the text changes untimed; the time runs from the click on Save."""
    bench.settle()
    bench.list.show_current()  # a person edits the card they see (an earlier round may have scrolled)
    bench.settle()
    bench.focus_list()
    memory_id = bench.selected_id()
    if memory_id not in bench.ids_on_screen():  # its repaint could never be seen: say so, do not wait
        raise RuntimeError(f"the selected card #{memory_id} is not on screen")
    QTest.keyClick(bench.list, Qt.Key.Key_Return)
    commands = bench.window.commands

    def editor_open() -> bool:
        dialog = commands.edit_dialog
        return dialog is not None and dialog.isVisible() and dialog.before.id == memory_id

    if not wait_until(bench.app, editor_open, 10_000):
        raise RuntimeError("Enter did not open the editor")
    dialog = commands.edit_dialog
    assert dialog is not None
    QTest.keyClick(dialog.editor, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(dialog.editor, f"Edit {number}: ")  # at the start: the card shows it
    new = dialog.editor.toPlainText()

    def history_shows() -> bool:
        newest = bench.newest_revision()
        return bench.panel.history_memory_id == memory_id and newest is not None and newest.new_content == new

    signals = {
        "saved": bench.controller.memoryChanged,
        "history asked": bench.panel.historyWanted,
        "history read": bench.controller.historyLoaded,
        "listing read": bench.controller.memoriesLoaded,
    }
    result = _timed(
        "Save",
        lambda: QTest.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton),
        {
            "card painted": bench.card_probe(lambda: bench.card_content(memory_id) == new),
            "history painted": bench.history_probe(history_shows),
        },
        signals,
    )
    selected, newest = bench.panel.revisions.current_revision(), bench.newest_revision()
    diff_on_edit.append(selected is not None and newest is not None and selected.id == newest.id)
    return result


class OutsideWriter:
    """Another process holding a plain sqlite3 connection (`writer` below): commits a rewrite when asked
    and answers with the `perf_counter` right after its COMMIT."""

    def __init__(self, path: Path) -> None:
        args = [PYTHON, "-m", "tests.bench.window.latency_rounds", "writer", str(path)]
        self.process = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=child_env(), cwd=ROOT
        )
        if self._answer() != "ready":
            raise RuntimeError("the outside writer did not start")

    def _answer(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def rewrite(self, memory_id: int, content: str, updated_at: int) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps([memory_id, content, updated_at]) + "\n")
        self.process.stdin.flush()

    def committed_at(self) -> float:
        return float(self._answer())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(30)


def writer(path: str) -> None:
    connection = sqlite3.connect(path, isolation_level=None, timeout=5.0)  # the host's busy timeout
    print("ready", flush=True)
    for line in sys.stdin:
        memory_id, content, updated_at = json.loads(line)
        connection.execute("BEGIN IMMEDIATE")
        connection.execute(
            "UPDATE user_memories SET content = ?, updated_at = ? WHERE id = ?",
            (content, updated_at, memory_id),
        )
        connection.execute("COMMIT")
        print(time.perf_counter(), flush=True)
    connection.close()


def outside_rewrite(bench: BenchWindow, outside: OutsideWriter, number: int) -> Round:
    bench.settle()
    memory = bench.window.selected_memory()
    if memory is None:
        raise RuntimeError("no card is selected")
    new = f"Rewrite {number}: {memory.content}"

    def history_shows() -> bool:
        newest = bench.newest_revision()
        return bench.panel.history_memory_id == memory.id and newest is not None and newest.new_content == new

    watcher = bench.window.watcher
    if watcher is None:
        raise RuntimeError("the window does not watch its file")
    return _timed(
        "outside rewrite",
        lambda: outside.rewrite(memory.id, new, memory.updated_at + 1_000),
        {"card painted": bench.card_probe(lambda: bench.card_content(memory.id) == new)},
        {"change noticed": watcher.changed, "listing read": bench.controller.memoriesLoaded},
        optional={"history painted": bench.history_probe(history_shows)},
        start_of=outside.committed_at,
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["writer"]:
        writer(sys.argv[2])
