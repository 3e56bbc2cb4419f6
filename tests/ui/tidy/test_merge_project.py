"""Merge… for a group of project memories in View → Tidy…: the same preview, the kept one edited the
host's way and the others archived and superseded by it, through the window's undo stack (Ctrl+Z
undoes it), the project page shown repainted each time."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.host80 import ALPHA
from tests.support.tidy_memories import project_db
from tests.ui.project.helpers import open_project
from tests.ui.window_helpers import make_window, settle
from ui.tidy.dialog import TidyDialog
from ui.tidy.merge_dialog import MergeDialog


def test_a_project_group_is_merged_with_a_preview_and_undone(qtbot: QtBot, tmp_path: Path) -> None:
    ids = project_db(tmp_path / "context.db")
    store = MemoryStore.open(tmp_path / "context.db")
    try:
        window = make_window(qtbot, store, tmp_path)
        page = open_project(qtbot, window, ALPHA)
        kept, absorbed = ids["alpha_lint"], ids["alpha_lint_again"]
        window.acts.tidy.trigger()
        tidy = window.findChild(TidyDialog)
        assert tidy is not None
        qtbot.waitUntil(lambda: tidy.kind.isEnabled(), timeout=10_000)
        with qtbot.waitSignal(tidy.finished_listing, timeout=10_000):
            tidy.kind.setCurrentIndex(tidy.kind.findData(ALPHA))
        group = tidy.tree.topLevelItem(0)
        assert group is not None and group.text(0).startswith("Group 1: 2 memories")
        member = group.child(0)
        assert member is not None
        tidy.tree.setCurrentItem(member)
        assert tidy.merge_button.isEnabled()
        tidy.merge_button.click()
        qtbot.waitUntil(lambda: isinstance(getattr(tidy, "preview", None), MergeDialog), timeout=10_000)
        preview = tidy.preview
        assert preview.windowTitle() == f"Merge 2 project memories into #{kept}"
        assert f"#{absorbed}: archived, superseded by #{kept}" in preview.becomes.text()
        preview.editor.setPlainText("Runs the linter before every commit, always")
        with qtbot.waitSignal(preview.merged, timeout=10_000):
            qtbot.keyClick(preview.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        gone = store.project.memory(absorbed)
        assert gone is not None and gone.status == "archived" and gone.superseded_by == kept
        now_kept = store.project.memory(kept)
        assert now_kept is not None and now_kept.content == "Runs the linter before every commit, always"

        def shown_status(memory_id: int) -> str | None:
            memory = page.model.memory(memory_id)
            return memory.status if memory is not None else None

        qtbot.waitUntil(lambda: shown_status(absorbed) == "archived", timeout=10_000)  # repainted
        assert "merge of 2 project memories" in window.acts.undo.text()
        assert tidy.tree.topLevelItemCount() == 1 and tidy.status.text().startswith(f"Merged into #{kept}")
        window.acts.undo.trigger()  # Ctrl+Z
        qtbot.waitUntil(lambda: shown_status(absorbed) == "active", timeout=10_000)
        back = store.project.memory(kept)
        assert back is not None and back.content == "Runs the linter before every commit"
        tidy.close()
        settle(qtbot, window)
    finally:
        store.close()
