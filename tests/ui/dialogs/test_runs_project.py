"""The Runs window shows a host dream run's changes to its project's memories after the user memories'
ones: "project #N", labelled inferred, with the project's name; activating one selects no card."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.host80 import ALPHA, DAY, HOUR, NOW, add_dream_run, build_host80, seed_projects
from tests.ui.dialogs.test_window_runs import cell
from tests.ui.runtime_helpers import dispose
from ui.dialogs.runs import RunsDialog
from ui.runtime.controller import Controller


def test_a_host_runs_project_changes_are_listed_inferred_with_the_projects_name(
    qtbot: QtBot, tmp_path: Path
) -> None:
    path = build_host80(tmp_path / "context.db")
    seeded = seed_projects(path)
    clock = ManualClock(NOW)
    store = MemoryStore.open(path, clock=clock)
    store.observe()
    during = NOW + DAY
    host = sqlite3.connect(path)
    with host:
        run = add_dream_run(host, ALPHA, during - HOUR, during + HOUR)
        host.execute(
            "UPDATE memories SET content = 'Build with bun', updated_at = ? WHERE id = ?",
            (during, seeded.active),
        )
    host.close()
    clock.set(during + 2 * HOUR)
    name = next(p.display_name for p in store.project.projects() if p.identity == ALPHA)
    controller = Controller(store)
    selected: list[tuple[int, int]] = []
    dialog = RunsDialog(controller, lambda memory, revision: selected.append((memory, revision)))
    qtbot.addWidget(dialog)
    try:
        dialog.reload()
        qtbot.waitUntil(lambda: dialog.changes_table.rowCount() == 1, timeout=10_000)
        assert cell(dialog.runs_table, 0, 1) == f"host:{run}"
        row = [cell(dialog.changes_table, 0, column) for column in range(4)]
        assert row[0] == f"project #{seeded.active}"
        assert row[2].endswith("· inferred") and row[3] == f"project {name}"
        item = dialog.changes_table.item(0, 0)
        assert item is not None and "after: Build with bun" in item.toolTip()
        dialog.changes_table.cellActivated.emit(0, 0)
        assert selected == []  # no card of the user memories is a project memory
        assert not dialog.undo_button.isEnabled()  # the host's own change: the run's undo has none
    finally:
        dialog.close()
        dispose(controller)
        store.close()
