"""The History's words in the window, on a real file: each revision is named `r<id>` in the History as
in Blame (a restore names the one it restored the same way), a run undo's deletion is called the same in
its row and its caption, and an expiry change shows its old and new expiry, not "No change"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QTreeWidget
from pytestqt.qtbot import QtBot

from app.cli import main
from app.core.clock import format_instant
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from app.transfer.export_format import parse_export
from tests.support.hostdb import build_host_db
from tests.ui.window_helpers import make_window, select, settle
from ui.diff.view import DiffView
from ui.window.main_window import MainWindow

DAY = 86_400_000


def column(table: QTreeWidget, number: int) -> list[str]:
    items = (table.topLevelItem(row) for row in range(table.topLevelItemCount()))
    return [item.text(number) for item in items if item is not None]


def shown_diff(qtbot: QtBot, window: MainWindow) -> DiffView:
    slot = window.panel.diff
    qtbot.waitUntil(lambda: slot.requested > 0 and slot.settled, timeout=10_000)
    view = slot.view
    assert isinstance(view, DiffView)
    return view


def test_history_and_blame_name_a_restored_revision_alike(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    store.edit(5, "Prefers pnpm. Uses workspaces.")
    first = store.history(5)[-1]
    store.edit(5, "Prefers yarn. Uses workspaces.")
    store.restore(5, first.id)
    restore = store.history(5)[-1]
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    revisions = window.panel.revisions
    qtbot.waitUntil(lambda: revisions.topLevelItemCount() == 3, timeout=10_000)
    names = column(revisions, 0)
    assert names == [f"r{restore.id}", f"r{store.history(5)[-2].id}", f"r{first.id}"]
    assert column(revisions, 3)[0] == f"restored from r{first.id}"
    qtbot.waitUntil(lambda: window.panel.revision_summary.text() != "", timeout=10_000)
    assert window.panel.revision_summary.text().startswith(
        f"Revision r{restore.id}: Restored from r{first.id}"
    )
    window.panel.history_tabs.setCurrentWidget(window.panel.blame)
    qtbot.waitUntil(lambda: window.panel.blame.topLevelItemCount() > 0, timeout=10_000)
    settle(qtbot, window)
    blamed = set(column(window.panel.blame, 0))
    assert blamed and blamed <= set(names)  # each revision Blame names is listed by that name


def test_an_expiry_change_shows_the_old_and_new_expiry(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    at = store.now() + 7 * DAY
    store.set_expiry(4, at)
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 4)
    revisions = window.panel.revisions
    qtbot.waitUntil(lambda: revisions.topLevelItemCount() >= 1, timeout=10_000)
    assert column(revisions, 3)[0] == f"expiry: never → {format_instant(at)}"
    view = shown_diff(qtbot, window)
    assert view.caption.text() == f"Expiry: never → {format_instant(at)}; the text is unchanged"
    assert view.summary.text() != "No change"
    assert f"Expiry: never → {format_instant(at)}" in window.panel.revision_summary.text()


def test_a_run_undos_deletion_says_so_in_its_row_and_its_caption(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    document = {
        "promote": [{"content": "Runs pytest -q", "candidate_ids": [151]}],
        "consume_candidate_ids": [151],
    }
    (promoted,) = apply_verdict(store, parse_verdict(document), run_id="review-7").promoted_memory_ids
    store.undo_run("review-7")
    window = make_window(qtbot, store, tmp_path)
    window.filters.set_status("deleted")  # the trash
    select(qtbot, window, promoted)
    revisions = window.panel.revisions
    qtbot.waitUntil(lambda: revisions.topLevelItemCount() == 2, timeout=10_000)
    assert (column(revisions, 2)[0], column(revisions, 3)[0]) == ("run undo", "deleted")
    qtbot.waitUntil(lambda: window.panel.revision_summary.text() != "", timeout=10_000)
    assert window.panel.revision_summary.text().endswith(": Deleted by undoing run review-7")


def test_an_imported_memory_is_created_once_and_imported_once(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    added = store.add("Prefers pnpm, always").id  # its history starts with its creation
    exported = tmp_path / "mine.json"
    assert main(["--db", str(store.location), "export", "-o", str(exported)]) == 0
    capsys.readouterr()
    target = MemoryStore.open(build_host_db(tmp_path / "other.db", seed=False), clock=store.clock)
    try:
        result = target.import_export(parse_export(exported.read_text(encoding="utf-8")), "mine.json")
        imported = next(item.memory_id for item in result.imported if item.from_id == added)
        window = make_window(qtbot, target, tmp_path)
        select(qtbot, window, imported)
        revisions = window.panel.revisions
        qtbot.waitUntil(lambda: revisions.topLevelItemCount() == 2, timeout=10_000)
        assert column(revisions, 3) == ["imported", "created"]
        assert column(revisions, 2) == ["import", "dashboard (imported)"]
        qtbot.waitUntil(lambda: window.panel.revision_summary.text() != "", timeout=10_000)
        assert window.panel.revision_summary.text().endswith(": Imported from mine.json")
        settle(qtbot, window)
    finally:
        target.close()
