"""The window's view of the past (As of…) on a real file with a hand-written timeline, driven by keys:
the cards as they were, first screen first; read-only until Esc; unknown before the first look; a future
instant is now; each memory's history up to the instant only."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock, format_instant
from app.core.models import Revision
from app.store import MemoryStore
from tests.support.hostdb import HOUR
from tests.ui.window_helpers import edited_store, make_window, select, settle
from ui.history.revision_table import REVISION_ROLE
from ui.past.cards import card_parts
from ui.past.listing import PastListing
from ui.runtime.controller import past as controller_module
from ui.window.main_window import MainWindow


class Timeline:
    """The instants of the hand-written timeline (epoch ms, from the test clock)."""

    def __init__(self, clock: ManualClock) -> None:
        self.first_look = clock.now_ms()
        self.edited = self.first_look + HOUR  # #4 edited in the dashboard
        self.reviewed = self.first_look + 2 * HOUR  # #4 rewritten by the review
        self.deleted = self.first_look + 3 * HOUR  # #3 deleted
        self.added = self.first_look + 4 * HOUR  # a new memory written
        self.now = self.first_look + 5 * HOUR


Past = tuple[MemoryStore, Timeline]


@pytest.fixture
def timeline(host_db: Path, clock: ManualClock) -> Past:
    when = Timeline(clock)
    store = edited_store(host_db, clock)  # the first look, #4 edited, then rewritten by the review
    store.delete(3)
    clock.advance(HOUR)
    store.add("Written after everything else")
    clock.advance(HOUR)
    return store, when


@pytest.fixture
def window(qtbot: QtBot, timeline: Past, tmp_path: Path) -> MainWindow:
    shown = make_window(qtbot, timeline[0], tmp_path)
    select(qtbot, shown, 4)
    return shown


def look_back(qtbot: QtBot, window: MainWindow, at: int) -> PastListing:
    """As of `at`, through the dialog's OK; waits for the whole past (returned)."""
    listings: list[PastListing] = []
    window.controller.asOfLoaded.connect(listings.append)
    window.look_back(at)
    qtbot.waitUntil(lambda: bool(listings) and listings[-1].complete, timeout=10_000)
    qtbot.waitUntil(lambda: window.as_of_view.complete, timeout=10_000)
    return listings[-1]


def shown_ids(window: MainWindow) -> list[int]:
    return [state.memory_id for state in window.as_of_view.states()]


def test_the_past_is_shown_as_cards_newest_first(qtbot: QtBot, window: MainWindow, timeline: Past) -> None:
    when = timeline[1]
    listing = look_back(qtbot, window, when.edited + HOUR // 2)
    assert window.looking_back and listing.at == when.edited + HOUR // 2
    # #3 deleted since is there, the memory written later is not; newest promoted first; the toolbar's
    # filter (Active) leaves out #2, dismissed then
    assert shown_ids(window) == [5, 4, 3, 1]
    view = window.as_of_view
    assert view.header.text() == "4 of 5 memories then · Active"
    states = {state.memory_id: state for state in view.states()}
    assert states[4].content == "Lives in Berlin (CET)\nWorks remotely."
    assert not states[3].exists_now
    parts = card_parts(states[3])
    assert [badge.text for badge in parts.side] == ["deleted since"] and not parts.dim
    assert "As of " + format_instant(listing.at) in view.banner.label.text()
    assert "Read-only" in view.banner.label.text() and "5 memories" in view.banner.label.text()
    index = view.model.index(1, 0)
    name = f"Memory 4 as of {format_instant(listing.at)}, active, shown to the agent: Lives in Berlin"
    assert index.data(Qt.ItemDataRole.AccessibleTextRole).startswith(name)
    assert view.list.accessibleName() and view.panel.content.accessibleName() == "Memory content then"


def test_the_first_screen_is_shown_before_the_whole_past(
    qtbot: QtBot, window: MainWindow, timeline: Past, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(controller_module, "FIRST_ROWS", 2)
    window.filters.set_status("all")
    listings: list[tuple[PastListing, int, bool]] = []
    view = window.as_of_view

    def shown(listing: PastListing) -> None:  # connected after the window's slot: what it showed
        listings.append((listing, view.model.rowCount(), window.looking_back))

    window.controller.asOfLoaded.connect(shown)
    window.look_back(timeline[1].now)
    qtbot.waitUntil(lambda: len(listings) == 2, timeout=10_000)
    (first, first_rows, first_shown), (whole, whole_rows, _) = listings
    # the first screen: the two newest promoted, and #4 (selected now), with its history read along
    assert not first.complete and [state.memory_id for state in first.states] == [6, 5, 4]
    assert first.first_history is not None and first.first_history[0] == 4
    assert whole.complete and shown_ids(window) == [6, 5, 4, 2, 1]
    assert first_shown and first_rows == 3 and whole_rows == 5  # the first screen on its own first
    assert view.current_id() == 4


def test_write_actions_are_disabled_while_looking_back(
    qtbot: QtBot, window: MainWindow, timeline: Past
) -> None:
    acts = window.acts
    writing = [*acts.writers, acts.review_queue, acts.runs]
    assert acts.edit.isEnabled() and acts.delete.isEnabled() and acts.review_queue.isEnabled()
    look_back(qtbot, window, timeline[1].edited)
    assert not any(action.isEnabled() for action in writing)
    fired: list[QAction] = []
    for action in writing:
        action.triggered.connect(lambda _checked=False, action=action: fired.append(action))
    view = window.as_of_view
    view.list.setFocus()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    for key, modifier in (
        (Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_F2, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Delete, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier),
    ):
        qtbot.keyClick(view.list, key, modifier)
    assert fired == []  # a shortcut of an enabled action triggers it at once, in the key's own call
    assert window.looking_back and not window.controller.runner.busy  # no write was queued
    qtbot.keyClick(view.list, Qt.Key.Key_Escape)
    assert not window.looking_back
    assert acts.edit.isEnabled() and acts.delete.isEnabled() and acts.review_queue.isEnabled()
    assert acts.runs.isEnabled() and acts.new_memory.isEnabled()


def test_before_the_first_look_the_state_is_unknown(qtbot: QtBot, window: MainWindow, timeline: Past) -> None:
    when = timeline[1]
    look_back(qtbot, window, when.first_look - 100 * HOUR)
    view = window.as_of_view
    assert view.states() and {state.known for state in view.states()} == {False}
    first_seen = format_instant(when.first_look)
    parts = card_parts(view.states()[0])
    assert parts.status.text == "unknown"
    assert parts.content == f"unknown before {first_seen} (first seen)"
    assert f"unknown before {first_seen}" in view.panel.facts.text()
    assert "nothing is guessed" in view.panel.facts.text()
    assert "unknown then" in view.banner.label.text()
    view.banner.button.click()
    assert not window.looking_back


def test_a_future_instant_means_now(qtbot: QtBot, window: MainWindow, timeline: Past) -> None:
    store = timeline[0]
    window.filters.set_status("all")
    asked = store.now() + 1000 * HOUR
    listing = look_back(qtbot, window, asked)
    assert listing.at == store.now() and listing.future
    assert f"now: {format_instant(asked)} is in the future" in window.as_of_view.banner.label.text()
    now = {state.memory_id: state.content for state in store.as_of(store.now())}
    assert {state.memory_id: state.content for state in window.as_of_view.states()} == now
    assert 3 not in now and 6 in now


def past_revisions(window: MainWindow) -> list[Revision]:
    return window.as_of_view.panel.revisions.revisions()


def test_the_history_goes_up_to_the_instant_only(qtbot: QtBot, window: MainWindow, timeline: Past) -> None:
    store = timeline[0]
    when = timeline[1]
    look_back(qtbot, window, when.edited + HOUR // 2)
    view = window.as_of_view
    assert view.select_id(4)
    panel = view.panel
    qtbot.waitUntil(lambda: panel.history_memory_id == 4, timeout=10_000)
    every = store.history(4)
    assert len(every) == 2 and every[-1].changed_at == when.reviewed  # the edit, then the review
    assert [rev.id for rev in past_revisions(window)] == [every[0].id]  # not the review's, after then
    assert panel.title.text() == f"Memory #4 as of {format_instant(when.edited + HOUR // 2)}"
    assert "active then · shown to the agent" in panel.facts.text()
    assert panel.content_box.text == "Lives in Berlin (CET)\nWorks remotely."
    item = panel.revisions.topLevelItem(0)
    assert item is not None and isinstance(item.data(0, REVISION_ROLE), Revision)
    qtbot.waitUntil(
        lambda: panel.diff.shown == panel.diff.requested and panel.diff.requested > 0, timeout=10_000
    )
    assert "Revision" in panel.revision_summary.text()
    # the instant after the review: both revisions
    look_back(qtbot, window, when.reviewed)
    qtbot.waitUntil(lambda: panel.history_memory_id == 4 and len(past_revisions(window)) == 2, timeout=10_000)
    assert view.current_id() == 4  # the memory looked at stays selected at another instant


def test_keys_walk_the_cards_and_the_toolbar_filters_the_past(
    qtbot: QtBot, window: MainWindow, timeline: Past
) -> None:
    look_back(qtbot, window, timeline[1].edited + HOUR // 2)
    view = window.as_of_view
    view.list.setFocus()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
    assert view.current_id() == 4  # the card selected before looking back
    qtbot.keyClick(view.list, Qt.Key.Key_J)
    assert view.current_id() == 3
    qtbot.keyClick(view.list, Qt.Key.Key_Down)
    assert view.current_id() == 1  # #2, dismissed then, is not listed under Active
    qtbot.keyClick(view.list, Qt.Key.Key_K)
    assert view.current_id() == 3
    view.banner.button.setFocus()
    qtbot.keyClick(view.banner.button, Qt.Key.Key_Tab)
    assert view.list.hasFocus()  # Back to now, then the cards
    qtbot.waitUntil(lambda: view.panel.state is not None and view.panel.state.memory_id == 3, timeout=5_000)
    window.filters.search.setText("berlin")
    qtbot.waitUntil(lambda: shown_ids(window) == [4], timeout=10_000)
    assert view.header.text() == "1 of 5 memories then · Active matching “berlin”"
    window.filters.search.setText("")
    window.filters.set_status("dismissed")
    qtbot.waitUntil(lambda: shown_ids(window) == [2], timeout=10_000)
    window.filters.set_status("all")
    qtbot.waitUntil(lambda: shown_ids(window) == [5, 4, 3, 2, 1], timeout=10_000)
    view.panel.revisions.setFocus()
    qtbot.keyClick(view.panel.revisions, Qt.Key.Key_Escape)  # Esc leaves from anywhere in the view
    assert not window.looking_back
    settle(qtbot, window)


def test_leaving_drops_the_past_still_being_read(qtbot: QtBot, window: MainWindow, timeline: Past) -> None:
    window.look_back(timeline[1].edited)
    window.leave_as_of()
    settle(qtbot, window)
    assert not window.looking_back and window.as_of_view.model.rowCount() == 0
    look_back(qtbot, window, timeline[1].edited)
    window.controller.open_database(timeline[0].location)  # another database leaves the past
    qtbot.waitUntil(lambda: not window.looking_back, timeout=10_000)
    settle(qtbot, window)


def test_leaving_the_past_enables_again_every_action_enabled_before(
    qtbot: QtBot, window: MainWindow, timeline: Past
) -> None:
    acts = window.acts
    every = [action for action in window.findChildren(QAction) if action.text()]
    before = {action for action in every if action.isEnabled()}
    assert acts.import_file in before
    look_back(qtbot, window, timeline[1].edited)
    assert not acts.import_file.isEnabled()
    window.leave_as_of()
    assert not window.looking_back
    again = {action for action in every if action.isEnabled()}
    assert sorted(a.text() for a in before - again) == []
