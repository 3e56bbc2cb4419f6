"""The project page's speed at 100,000 project memories over 50 projects, as a person feels it: from the
key's event to the end of the paint that shows its result (`PaintProbe`), with the app's real timers.

`python -m tests.bench.window.measure_projects [--rounds N]` prints, for each row, the median and the
worst of N rounds: picking a project (its first look at the host's rows, then again), J, Page Down, and
one key typed in the project's search. The budget is the house's: 100 ms for a keystroke."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

BUDGET_S = 0.100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from tests.bench.generate import NOW
    from tests.bench.project_memories import cached, project_identity

    os.environ["MEMORY_DASHBOARD_NOW"] = str(NOW)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "context.db"
        shutil.copy(cached(), db)
        run(db, project_identity(7), project_identity(8), args.rounds)


def run(db: Path, first: str, second: str, rounds: int) -> None:
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest

    from app.core.clock import clock_from_env
    from app.store import MemoryStore
    from tests.bench.window.paint_probe import PaintProbe, wait_for_paints
    from ui.runtime.controller import Controller
    from ui.runtime.qt_app import application, wait_until
    from ui.window.main_window import MainWindow

    app = application(offscreen=True)
    store = MemoryStore.open(db, clock=clock_from_env())
    settings = QSettings(str(db.with_suffix(".ini")), QSettings.Format.IniFormat)
    controller = Controller(store)
    window = MainWindow(controller, settings=settings, watch=False)
    window.resize(1400, 900)
    window.show()
    controller.refresh()
    wait_until(app, lambda: window.model.rowCount() > 0)
    wait_until(app, lambda: not controller.runner.busy)
    switch = window.projects
    projects = {project.identity: project for project in store.project.projects()}
    results: dict[str, list[float]] = {}

    def paint_of(what: str, widget_shows: Callable[[], bool], act: Callable[[], None]) -> None:
        page = switch.page
        probe = PaintProbe(page.list.viewport(), widget_shows)
        start = time.perf_counter()
        act()
        end = wait_for_paints([probe], what)
        probe.remove()
        results.setdefault(what, []).append(end - start)

    def listed(identity: str) -> bool:
        page = switch.page
        return page.project is not None and page.project.identity == identity and page.model.rowCount() > 0

    for name, identity in (("pick a project (first look)", first), ("pick another project", second)):
        wanted = projects[identity]
        paint_of(name, partial(listed, identity), partial(switch.choose, wanted))
        wait_until(app, lambda: not controller.runner.busy)
    page = switch.page
    page.list.setFocus()

    def moved(before: int, step: int | None) -> bool:
        row = page.list.currentIndex().row()
        return row == before + step if step is not None else row > before

    for key, name, step in ((Qt.Key.Key_J, "J", 1), (Qt.Key.Key_PageDown, "Page Down", None)):
        for _ in range(rounds):
            before = page.list.currentIndex().row()
            paint_of(name, partial(moved, before, step), partial(QTest.keyClick, page.list, key))
            wait_until(app, lambda: not controller.runner.busy)
    from ui.project.filters import ProjectView, matches

    for letter in "qxzvkwjyfg"[:rounds]:
        page.filters.search.clear()
        wait_until(app, lambda: page.model.rowCount() == len(page.rows))
        hits = len(matches(page.rows, ProjectView(search=letter)))

        def searched(letter: str = letter, hits: int = hits) -> bool:
            return page.filters.search.text() == letter and page.model.rowCount() == hits

        def typed(letter: str = letter) -> None:
            QTest.keyClicks(page.filters.search, letter)

        paint_of("a key in the search", searched, typed)
    print(
        f"{len(page.rows):,} memories in the project shown;"
        f" {sum(p.memory_count for p in projects.values()):,} in all"
    )
    for name, times in results.items():
        median, worst = statistics.median(times), max(times)
        verdict = "" if name.startswith("pick") else ("  pass" if median <= BUDGET_S else "  MISS")
        print(f"{name:32} median {median * 1000:7.1f} ms  worst {worst * 1000:7.1f} ms{verdict}")
    window.close()
    controller.runner.wait_for_done(10_000)
    store.close()


if __name__ == "__main__":
    main()
