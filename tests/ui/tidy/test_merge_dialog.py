"""The merge preview in the Tidy dialog: members to check, the one to keep, the draft (edited text never
replaced), the evidence and what each becomes; Apply with Ctrl+Enter through the window's undo history,
the cards showing the merge, and Ctrl+Z in the window taking it back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from app.tidy import merge
from tests.support.tidy_memories import tidy_db
from tests.ui.runtime_helpers import dispose
from tests.ui.tidy.test_tidy_dialog import child
from tests.ui.window_helpers import make_window, select, settle
from ui.runtime.controller import Controller
from ui.tidy.dialog import TidyDialog
from ui.tidy.merge_dialog import MergeDialog

TEXTS = [
    "Prefers pnpm over npm",
    "prefers  PNPM over npm. Uses pnpm workspaces",
    "Prefers pnpm over npm for every project",
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(tidy_db(tmp_path / "context.db", TEXTS))
    yield opened
    opened.close()


@pytest.fixture
def controller(store: MemoryStore) -> Iterator[Controller]:
    made = Controller(store)
    yield made
    dispose(made)


def test_preview_drafts_again_until_edited(qtbot: QtBot, controller: Controller, store: MemoryStore) -> None:
    dialog = MergeDialog(controller, merge.plan(store, [1, 2, 3]))
    qtbot.addWidget(dialog)
    assert dialog.checked() == [1, 2, 3]
    assert dialog.editor.toPlainText() == (
        "Prefers pnpm over npm. Uses pnpm workspaces. Prefers pnpm over npm for every project"
    )
    assert dialog.evidence.text() == "candidates #1, #2, #3 (from session:ses_seed)"
    assert dialog.becomes.text().splitlines()[1] == "#2: dismissed, merged into #1"
    dialog.members.item(2).setCheckState(Qt.CheckState.Unchecked)
    assert dialog.editor.toPlainText() == "Prefers pnpm over npm. Uses pnpm workspaces"
    dialog.keep.setCurrentIndex(dialog.keep.findData(2))
    assert dialog.plan is not None and dialog.plan.kept == 2
    assert dialog.becomes.text().splitlines()[0] == "#1: dismissed, merged into #2"
    dialog.editor.setPlainText("Uses pnpm only")
    assert dialog.keys.changed()  # Esc would ask before throwing it away
    dialog.members.item(2).setCheckState(Qt.CheckState.Checked)
    assert dialog.editor.toPlainText() == "Uses pnpm only"  # what was typed is never replaced
    dialog.members.item(0).setCheckState(Qt.CheckState.Unchecked)
    dialog.members.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert not dialog.apply_button.isEnabled() and "at least two" in dialog.notice.text()


def test_merge_from_tidy_and_undo_in_the_window(qtbot: QtBot, store: MemoryStore, tmp_path: Path) -> None:
    window = make_window(qtbot, store, tmp_path)
    window.acts.tidy.trigger()
    tidy = window.findChild(TidyDialog)
    assert tidy is not None
    qtbot.waitUntil(lambda: tidy.report is not None, timeout=10_000)
    settle(qtbot, window)
    tidy.tree.setCurrentItem(child(tidy, 0, 1))
    assert tidy.merge_button.isEnabled()
    tidy.merge_button.click()
    qtbot.waitUntil(lambda: isinstance(getattr(tidy, "preview", None), MergeDialog), timeout=10_000)
    preview = tidy.preview
    with qtbot.waitSignal(preview.merged, timeout=10_000):
        qtbot.keyClick(preview.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    # The cards show the merge with its result, not after the whole listing is read again.
    assert window.model.ids == (1,)
    settle(qtbot, window)
    assert [(m.status) for m in store.get_many([1, 2, 3])] == ["active", "dismissed", "dismissed"]
    assert tidy.tree.topLevelItemCount() == 0 and tidy.status.text().startswith("Merged into #1")
    assert window.model.ids == (1,)
    shown = window.model.memory(1)
    assert shown is not None and shown.content.endswith("Prefers pnpm over npm for every project")
    select(qtbot, window, 1)
    qtbot.waitUntil(lambda: window.panel.links.plain() == "merged from #2, #3", timeout=10_000)
    assert window.panel.links.isVisibleTo(window.panel)
    window.activateWindow()
    window.acts.undo.trigger()  # Ctrl+Z
    qtbot.waitUntil(lambda: store.get(2).status == "active", timeout=10_000)
    assert store.get(1).content == TEXTS[0]
    qtbot.waitUntil(lambda: sorted(window.model.ids) == [1, 2, 3], timeout=10_000)
    tidy.close()
