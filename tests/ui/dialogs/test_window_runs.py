"""The window's evidence and Runs: the provenance table shows each candidate's archived words; the Runs
window (Review menu, Ctrl+Shift+U) lists runs, shows what one changed, selects a change's card, undoes a
run."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QTableWidget
from pytestqt.qtbot import QtBot

from app.core.models.evidence import NOT_ARCHIVED
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from tests.review.review_helpers import seed_verdict
from tests.support.pg_host import HostDb
from tests.support.runs_helpers import add_dream_run
from tests.ui.window_helpers import card_content, make_window, select, settle
from ui.dialogs.runs import RunsDialog
from ui.window.main_window import MainWindow

WORDS_141 = "Prefers pnpm over npm for every JavaScript project"
NEW_TEXT = "Prefers pnpm: workspaces, and pnpm in every example"


def cell(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    return item.text() if item is not None else ""


def reviewed_window(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> MainWindow:
    """The window after the seed's review of #5, #5 selected."""
    apply_verdict(store, parse_verdict(seed_verdict(NEW_TEXT)))
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    return window


def test_the_provenance_table_shows_each_candidates_words(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = reviewed_window(qtbot, store, tmp_path)
    table = window.panel.provenance
    rows = {cell(table, row, 0): row for row in range(table.rowCount())}
    qtbot.waitUntil(lambda: WORDS_141 in table.words(rows["#141"]), timeout=10_000)
    assert table.words(rows["#46"]) == NOT_ARCHIVED
    tip = table.item(rows["#141"], 5)
    assert tip is not None and "ses_c3f1" in tip.toolTip()


def open_runs(qtbot: QtBot, window: object) -> RunsDialog:
    acts = window.acts  # type: ignore[attr-defined]
    assert acts.runs.shortcuts()[0] == QKeySequence("Ctrl+Shift+U")
    menus = [a.menu() for a in window.menuBar().actions()]  # type: ignore[attr-defined]
    assert any(acts.runs in menu.actions() for menu in menus if menu is not None)
    acts.runs.trigger()
    dialog = window.findChild(RunsDialog)  # type: ignore[attr-defined]
    assert isinstance(dialog, RunsDialog) and dialog.isVisible()
    return dialog


def test_runs_window_lists_shows_selects_and_undoes(
    qtbot: QtBot, seeded_store: MemoryStore, seeded_host: HostDb, tmp_path: Path
) -> None:
    """On a host-shaped file and on PostgreSQL (`seeded_host`)."""
    store = seeded_store
    run_id = apply_verdict(store, parse_verdict(seed_verdict(NEW_TEXT))).run_id
    add_dream_run(seeded_host, 1, 1, 2, "{broken")
    window = make_window(qtbot, store, tmp_path)
    dialog = open_runs(qtbot, window)
    qtbot.waitUntil(lambda: dialog.runs_table.rowCount() == 2, timeout=10_000)
    labels = {cell(dialog.runs_table, row, 1): cell(dialog.runs_table, row, 2) for row in range(2)}
    assert labels["host:1"] == "unreadable run" and labels[run_id] == "dashboard review"
    qtbot.waitUntil(lambda: dialog.changes_table.rowCount() == 1, timeout=10_000)  # the newest, selected
    assert cell(dialog.changes_table, 0, 0) == "#5" and WORDS_141 in cell(dialog.changes_table, 0, 3)
    select(qtbot, window, 4)
    dialog.changes_table.cellActivated.emit(0, 0)  # Enter on the change
    qtbot.waitUntil(lambda: (m := window.selected_memory()) is not None and m.id == 5, timeout=10_000)
    assert dialog.undo_button.isEnabled()
    dialog.confirm = lambda _title, _text: True
    dialog.undo_button.click()
    qtbot.waitUntil(lambda: "memory #5: restored" in dialog.notice.text(), timeout=10_000)
    assert "not put back in the host's pool" in dialog.notice.text()
    settle(qtbot, window)
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm", timeout=10_000)


def test_undo_is_disabled_on_a_read_only_store(
    qtbot: QtBot, host_db: Path, store: MemoryStore, tmp_path: Path
) -> None:
    apply_verdict(store, parse_verdict(seed_verdict(NEW_TEXT)))
    read_only = MemoryStore.open(host_db, read_only=True, clock=store.clock)
    try:
        window = make_window(qtbot, read_only, tmp_path)
        dialog = open_runs(qtbot, window)
        qtbot.waitUntil(lambda: dialog.changes_table.rowCount() == 1, timeout=10_000)
        assert not dialog.undo_button.isEnabled() and "Read-only" in dialog.undo_button.toolTip()
        dialog.close()
        settle(qtbot, window)
    finally:
        read_only.close()


def test_a_cards_candidates_tooltip_gives_their_words(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = reviewed_window(qtbot, store, tmp_path)
    memory = window.selected_memory()
    assert memory is not None
    tips = window.list.card_delegate.evidence_tips
    base = "from candidates: 46, 47, 48, 141, 143, 145, 146"
    first = tips.tip(memory, base)  # the first hover asks for the words
    assert first.startswith(base) and "hover again" in first
    settle(qtbot, window)
    shown = tips.tip(memory, base)
    assert f"#141 \u201c{WORDS_141}\u201d (session ses_c3f1)" in shown
    assert f"#46 {NOT_ARCHIVED}" in shown


def test_the_history_gives_each_added_candidates_words(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = reviewed_window(qtbot, store, tmp_path)
    revisions = window.panel.revisions

    def tip() -> str:
        item = revisions.topLevelItem(0)
        return item.toolTip(5) if item is not None else ""

    qtbot.waitUntil(lambda: WORDS_141 in tip(), timeout=10_000)
    assert "candidates added: 141, 143, 145, 146" in tip() and "ses_c3f1" in tip()


def test_activating_a_change_shows_its_revision_and_undo_lists_a_memory_changed_since(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    apply_verdict(store, parse_verdict(seed_verdict(NEW_TEXT)))
    store.edit(5, "Prefers pnpm, edited since the review")  # the newest revision is no longer the run's
    window = make_window(qtbot, store, tmp_path)
    dialog = open_runs(qtbot, window)
    qtbot.waitUntil(lambda: dialog.changes_table.rowCount() == 1, timeout=10_000)
    assert dialog.detail is not None
    wanted = dialog.detail.changes[0].revision.id
    select(qtbot, window, 4)
    dialog.changes_table.cellActivated.emit(0, 0)

    def shown() -> int | None:
        revision = window.panel.revisions.current_revision()
        return revision.id if revision is not None else None

    qtbot.waitUntil(lambda: shown() == wanted, timeout=10_000)
    assert window.panel.history_memory_id == 5
    dialog.confirm = lambda _title, _text: True
    dialog.undo_button.click()
    qtbot.waitUntil(lambda: "changed again since the run" in dialog.notice.text(), timeout=10_000)
    settle(qtbot, window)
    assert card_content(window, 5) == "Prefers pnpm, edited since the review"


def test_the_runs_window_follows_a_first_run_and_its_undo(
    qtbot: QtBot, store: MemoryStore, tmp_path: Path
) -> None:
    window = make_window(qtbot, store, tmp_path)
    select(qtbot, window, 5)
    dialog = open_runs(qtbot, window)
    qtbot.waitUntil(lambda: dialog.notice.text() == "No review runs recorded yet.", timeout=10_000)
    dialog.close()
    run_id = apply_verdict(store, parse_verdict(seed_verdict(NEW_TEXT))).run_id
    dialog = open_runs(qtbot, window)  # the same window, shown again
    qtbot.waitUntil(lambda: dialog.changes_table.rowCount() == 1, timeout=10_000)
    assert cell(dialog.runs_table, 0, 1) == run_id and dialog.notice.text() == ""
    assert dialog.undo_button.isEnabled()
    dialog.confirm = lambda _title, _text: True
    dialog.undo_button.click()
    qtbot.waitUntil(lambda: "memory #5: restored" in dialog.notice.text(), timeout=10_000)
    qtbot.waitUntil(lambda: "· undone" in cell(dialog.runs_table, 0, 3), timeout=10_000)
    qtbot.waitUntil(
        lambda: dialog.detail is not None and dialog.detail.run.undone_at is not None, timeout=10_000
    )
    assert not dialog.undo_button.isEnabled() and "Undone 2026" in dialog.undo_button.toolTip()
    settle(qtbot, window)
    qtbot.waitUntil(lambda: card_content(window, 5) == "Prefers pnpm", timeout=10_000)
    memory = window.selected_memory()
    assert memory is not None and memory.source_candidate_ids == (46, 47, 48)  # no longer cites #141
