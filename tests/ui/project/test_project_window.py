"""The window's project memories: the picker lists every project (named, counted, a non-UTF-8 path and a
managed project marked), cards show every field, the links both ways select their memory, an outside
rewrite's history and word diff, an edit undone with Ctrl+Z, a managed project read-only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.host80 import ALPHA, BETA, MANAGED, T0, Seeded, add_memory, connect
from tests.ui.project.helpers import open_project, select_memory
from tests.ui.window_helpers import settle
from ui.project.detail import ANCHOR
from ui.project.picker import ABOUT_YOU, PROJECT_ROLE
from ui.project.texts import card_meta
from ui.window.main_window import MainWindow


def test_the_picker_lists_about_you_then_every_project(
    qtbot: QtBot, host80: Path, seeded: Seeded, tmp_path: Path
) -> None:
    with connect(host80) as conn:
        add_memory(conn, b"dir:/home/ana/caf\xe9", "A path that is not UTF-8")
    conn.close()
    store = MemoryStore.open(host80)
    try:
        from tests.ui.window_helpers import make_window

        window = make_window(qtbot, store, tmp_path)
        picker = window.projects.picker
        assert window.projects.built is None  # nothing of the projects before one is picked
        assert picker.count() == 1 and picker.itemText(0) == ABOUT_YOU
        width = picker.width()
        picker.choices.want()
        qtbot.waitUntil(lambda: picker.choices.state == "read", timeout=10_000)
        texts = [picker.itemText(row) for row in range(picker.count())]
        assert texts[0] == ABOUT_YOU
        assert "beta (1)" in texts
        assert f"{ALPHA} (18)" in texts
        assert f"{MANAGED} (1) · read-only" in texts
        odd = [text for text in texts if text.startswith("⚠ ")]
        assert odd == ["⚠ dir:/home/ana/caf\ufffd (1)"]
        assert picker.width() == width  # filled without moving anything
        odd_row = texts.index(odd[0])
        picker.activated.emit(odd_row)  # its raw bytes select its memories
        page = window.projects.page
        qtbot.waitUntil(lambda: page.model.rowCount() == 1, timeout=10_000)
        listed = page.model.memory(page.model.ids[0])
        assert listed is not None and listed.content == "A path that is not UTF-8"
        assert page.picker.currentIndex() == odd_row
        beta = next(
            picker.itemData(row, PROJECT_ROLE) for row in range(1, picker.count()) if "beta" in texts[row]
        )
        assert beta.identity == BETA
    finally:
        store.close()


def test_cards_show_the_fields_and_filters_select(qtbot: QtBot, window: MainWindow, seeded: Seeded) -> None:
    page = open_project(qtbot, window, ALPHA)
    assert window.pages.currentWidget() is page
    assert not window.acts.edit.isEnabled() and not window.filters.isEnabled()  # user writers off
    assert len(page.model.ids) == 18
    verified = page.model.memory(seeded.verified)
    assert verified is not None
    meta = card_meta(verified, window.controller.store.now())
    for shown in ("ARCHITECTURE", "active", "importance 90", "verified", "seen 7", "retrieved 12"):
        assert shown in meta
    assert "ecosystem · shareable" in meta and "ses_alpha1" in meta
    odd = page.model.memory(seeded.odd_status)
    assert odd is not None and " deleted " in card_meta(odd, 0)  # any status, as it is
    expired = page.model.memory(seeded.expired)
    assert expired is not None and "expired" in card_meta(expired, window.controller.store.now())
    select_memory(qtbot, page, seeded.verified)
    fields = page.detail.fields.text()
    assert "Verification: verified" in fields and "Scope ecosystem · shareable" in fields
    assert "Source session: ses_alpha1 (historian)" in fields
    # Filters: a category, a status, a search (every word), #id.
    filters = page.filters
    filters.category.setCurrentIndex(filters.category.findData("PROJECT_RULES"))
    assert sorted(page.model.ids) == sorted([seeded.permanent, seeded.expired, seeded.expiring])
    filters.status.setCurrentIndex(filters.status.findData("permanent"))
    assert page.model.ids == [seeded.permanent]
    filters.clear()
    qtbot.keyClicks(filters.search, "fastapi served")
    assert sorted(page.model.ids) == sorted(seeded.chain[1:])
    filters.search.setText(f"#{seeded.merged}")
    assert page.model.ids == [seeded.merged]
    # Back to About you: the user cards, their writers again.
    window.projects.picker.activated.emit(0)
    assert window.pages.currentWidget() is window.splitter and window.filters.isEnabled()


def test_links_both_ways_and_a_click_selects(qtbot: QtBot, window: MainWindow, seeded: Seeded) -> None:
    page = open_project(qtbot, window, ALPHA)
    first, middle, last = seeded.chain
    select_memory(qtbot, page, first)
    qtbot.waitUntil(lambda: "superseded by" in page.detail.links.text(), timeout=10_000)
    links = page.detail.links.text()
    assert f'href="{ANCHOR}{middle}"' in links and f'href="{ANCHOR}{last}"' in links
    assert "the chain&#x27;s end" in links or "the chain's end" in links
    page.detail.links.linkActivated.emit(f"{ANCHOR}{middle}")  # a click on #middle
    qtbot.waitUntil(lambda: page.detail.history_memory_id == middle, timeout=10_000)
    assert page.current_id() == middle
    qtbot.waitUntil(lambda: "supersedes" in page.detail.links.text(), timeout=10_000)
    assert f'supersedes <a href="{ANCHOR}{first}">' in page.detail.links.text()
    # A loop and a dangling id are said; a merge lists its sources with their sessions.
    select_memory(qtbot, page, seeded.loop[0])
    qtbot.waitUntil(lambda: "loops back" in page.detail.links.text(), timeout=10_000)
    select_memory(qtbot, page, seeded.dangling)
    qtbot.waitUntil(lambda: "does not exist" in page.detail.links.text(), timeout=10_000)
    select_memory(qtbot, page, seeded.merged)
    qtbot.waitUntil(lambda: "merged from" in page.detail.links.text(), timeout=10_000)
    text = page.detail.links.text()
    assert "session ses_alpha1" in text and "session ses_alpha2" in text
    select_memory(qtbot, page, seeded.merge_sources[0])
    qtbot.waitUntil(lambda: "merged into" in page.detail.links.text(), timeout=10_000)
    # A filter hiding the linked memory is cleared to show it.
    page.filters.search.setText(f"#{seeded.merge_sources[0]}")
    page.detail.links.linkActivated.emit(f"{ANCHOR}{seeded.merged}")
    assert page.current_id() == seeded.merged and page.filters.search.text() == ""


def test_an_outside_rewrite_shows_its_history_and_word_diff(
    qtbot: QtBot, window: MainWindow, host80: Path, seeded: Seeded
) -> None:
    page = open_project(qtbot, window, ALPHA)  # its first look: the rows as first seen
    conn = sqlite3.connect(host80)
    conn.execute(
        "UPDATE memories SET content = 'Build with pnpm 9, never npm', updated_at = ? WHERE id = ?",
        (T0 + 20 * 86_400_000, seeded.active),
    )
    conn.commit()
    conn.close()
    window.acts.refresh.trigger()  # F5: the project shown is read again too
    qtbot.waitUntil(
        lambda: any(row.content == "Build with pnpm 9, never npm" for row in page.rows), timeout=10_000
    )
    select_memory(qtbot, page, seeded.active)
    qtbot.waitUntil(lambda: page.detail.revisions.topLevelItemCount() >= 1, timeout=10_000)
    revision = page.detail.revisions.current_revision()
    assert revision is not None
    assert revision.previous_content == "Build with pnpm, never npm"
    assert revision.new_content == "Build with pnpm 9, never npm"
    qtbot.waitUntil(lambda: page.detail.diff.settled, timeout=10_000)
    assert page.detail.revision_summary.text()
    assert page.detail.diff.view.isVisible()


def test_an_edit_and_its_undo_with_ctrl_z(qtbot: QtBot, window: MainWindow, seeded: Seeded) -> None:
    page = open_project(qtbot, window, ALPHA)
    select_memory(qtbot, page, seeded.active)
    page.list.setFocus()
    assert page.acts.edit.isEnabled()
    page.acts.edit.trigger()
    dialog = page.dialog
    assert dialog is not None and dialog.textValue() == "Build with pnpm, never npm"
    dialog.setTextValue("Build with pnpm 10, never npm")
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=5_000)
    qtbot.keyClick(dialog, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # saves, as everywhere
    store = window.controller.store

    def content() -> str | None:
        memory = page.model.memory(seeded.active)
        return memory.content if memory is not None else None

    qtbot.waitUntil(lambda: content() == "Build with pnpm 10, never npm", timeout=10_000)
    assert "project memory" in window.acts.undo.text()
    qtbot.waitUntil(lambda: page.detail.revisions.topLevelItemCount() >= 1, timeout=10_000)
    settle(qtbot, window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    page.list.setFocus()
    assert window.acts.undo.isEnabled(), window.acts.undo.text()
    qtbot.keyClick(page.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: content() == "Build with pnpm, never npm", timeout=10_000)
    memory = store.project.memory(seeded.active)
    assert memory is not None and memory.content == "Build with pnpm, never npm"
    user = store.get(seeded.active)  # the user memory with the same id was left alone
    assert user is None or user.content in ("Prefers pnpm over npm", "Code first, explanation after")


def test_a_category_with_a_hidden_character_is_refused(
    qtbot: QtBot, window: MainWindow, seeded: Seeded
) -> None:
    page = open_project(qtbot, window, ALPHA)
    select_memory(qtbot, page, seeded.active)
    page.acts.category.trigger()
    dialog = page.dialog
    assert dialog is not None
    dialog.setTextValue("RULES\u202eSECRET")
    with qtbot.waitSignal(window.controller.error, timeout=10_000) as refused:
        dialog.accept()
    assert "hidden character" in str(refused.args[0]) and "U+202E" in str(refused.args[0])
    memory = window.controller.store.project.memory(seeded.active)
    assert memory is not None and memory.category == "CONFIG_VALUES"


def test_a_managed_project_is_read_only_and_says_why(
    qtbot: QtBot, window: MainWindow, seeded: Seeded
) -> None:
    page = open_project(qtbot, window, MANAGED)
    select_memory(qtbot, page, seeded.managed)
    assert "authority_managed" not in page.title.text()  # said once, in the detail
    assert "authority_managed" in page.title.toolTip()
    assert page.detail.read_only.isVisibleTo(page) and "authority_managed" in page.detail.read_only.text()
    for action in page.acts.writers:
        assert not action.isEnabled()
        assert action.toolTip().startswith("Read-only:")
    page.edit()  # a key that reaches it anyway opens nothing
    assert page.dialog is None


def test_the_picker_leaves_the_column_as_narrow_as_its_filters(window: MainWindow) -> None:
    """Beside the listing's title, the picker never makes the cards' column wider than its filter row
    does (a splitter dragged narrow keeps where it was put)."""
    assert window.title_row.minimumSizeHint().width() <= window.filters.more.minimumSizeHint().width()
    assert window.projects.picker.width() > window.projects.picker.minimumWidth()  # its full width shown
