"""The Runs window shows a host dream run's changes to its project's memories after the user memories'
ones: "project #N", labelled inferred, with the project's name; activating one selects no card."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.support.dream_rewrite import REWRITTEN, rewrite_in_a_dream_run
from tests.support.host80 import ALPHA
from tests.ui.dialogs.test_window_runs import cell
from tests.ui.runtime_helpers import dispose
from ui.dialogs.runs import RunsDialog
from ui.runtime.controller import Controller


def test_a_host_runs_project_changes_are_listed_inferred_with_the_projects_name(
    qtbot: QtBot, tmp_path: Path
) -> None:
    scenario = rewrite_in_a_dream_run(tmp_path / "context.db")
    store, run, seeded = scenario.store, scenario.run, scenario.seeded
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
        assert item is not None and f"after: {REWRITTEN}" in item.toolTip()
        dialog.changes_table.cellActivated.emit(0, 0)
        assert selected == []  # no card of the user memories is a project memory
        assert not dialog.undo_button.isEnabled()  # the host's own change: the run's undo has none
    finally:
        dialog.close()
        dispose(controller)
        store.close()
