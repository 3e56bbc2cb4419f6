"""The hub window on a real hub of three machines: cards naming their machines with each one's status, the
diff of a card whose machines differ, Copy to this machine (the local host file gains the memory, origin
sync) and Dismiss on every machine (the hub gains the requests) through the window's own actions, a hub
that is down (a message), and the ways in: `--db URL` of a hub, `hub open`, `screenshot`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from app.core.paths import DatabaseChoice
from app.hub.cards import HubCard
from app.store import MemoryStore
from tests.support import hub_host
from tests.support.hostdb import query
from tests.support.hub_host import NOW, host_file, hub_query, hub_sql, local_memories, publish_file
from tests.support.hub_machines import EDIT, FIRST_ID, publish_machines
from tests.ui.window_helpers import make_window as make_main_window
from ui.cards.layout import CARD_CHARS
from ui.hub.delegate import pills
from ui.hub.model import CARD_ROLE
from ui.hub.session import HubSession
from ui.hub.window import HubWindow
from ui.main import main
from ui.widgets.long_text import BLOCK_CHARS, SHOWN_CHARS
from ui.window import menus

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher


@pytest.fixture
def hub(hub_db: str, tmp_path: Path) -> str:
    """A hub of three machines, 40 memories each (`hub_machines`)."""
    (tmp_path / "machines").mkdir()
    publish_machines(tmp_path / "machines", hub_db, 40)
    return hub_db


def make_window(qtbot: QtBot, url: str, local: Path | None = None) -> HubWindow:
    session = HubSession(url, DatabaseChoice(str(local), "--db") if local is not None else None)
    window = HubWindow(session, lambda: NOW)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.close())
    window.resize(1300, 850)
    window.show()
    session.load()
    return window


def answering(asked: list[str], yes: bool) -> Callable[[str, str], bool]:
    """A stand-in for the window's confirmation: records the question, answers `yes`."""

    def confirm(_title: str, text: str) -> bool:
        asked.append(text)
        return yes

    return confirm


def loaded(qtbot: QtBot, window: HubWindow) -> None:
    qtbot.waitUntil(lambda: window.listing is not None and bool(window.model.rowCount()), timeout=10_000)
    qtbot.waitUntil(lambda: not window.model.unloaded(*window.visible_rows()), timeout=10_000)


def select(qtbot: QtBot, window: HubWindow, machine: str, memory_id: int) -> HubCard:
    assert window.select_key((machine, memory_id))

    def shown() -> bool:  # its texts read, and the side panel (and the actions) brought up to date
        card = window.current_card()
        return card is not None and card.loaded and window.detail.card is card

    qtbot.waitUntil(shown, timeout=10_000)
    card = window.current_card()
    assert card is not None
    return card


def test_cards_name_their_machines_and_a_difference_is_a_diff(qtbot: QtBot, hub: str) -> None:
    window = make_window(qtbot, hub)
    loaded(qtbot, window)

    assert window.model.rowCount() == 45  # 5 seeded + 40 memories, grouped across 3 machines
    assert "3 machines (desktop, devbox, laptop) · 45 cards · 10 differ" in window.counts.text()
    same = select(qtbot, window, "devbox", FIRST_ID)
    assert [text for text, _tone in pills(same)] == [
        f"desktop #{FIRST_ID} · active",
        f"devbox #{FIRST_ID} · active",
        f"laptop #{FIRST_ID} · active",
    ]
    assert window.detail.text.isVisible() and not window.detail.diff.isVisible()
    assert window.detail.copies.rowCount() == 3
    differs = select(qtbot, window, "laptop", FIRST_ID + 2)
    assert [text for text, _tone in pills(differs)] == [
        f"desktop #{FIRST_ID + 2} · active",
        f"laptop #{FIRST_ID + 2} · active",
        "not on devbox",
        "differs: 2 texts",
    ]
    assert window.detail.diff.isVisible() and window.detail.older.count() == 2
    qtbot.waitUntil(lambda: window.detail.diff.settled, timeout=10_000)
    shown = window.detail.diff.view.text()  # type: ignore[attr-defined]
    assert EDIT.strip(", ") in shown
    tooltip = window.model.data(window.list.currentIndex(), Qt.ItemDataRole.ToolTipRole)
    assert "not on devbox" in str(tooltip) and "2 different texts" in str(tooltip)


def test_keyboard_and_search(qtbot: QtBot, hub: str) -> None:
    window = make_window(qtbot, hub)
    loaded(qtbot, window)
    window.list.setFocus()
    first = window.list.currentIndex().row()
    qtbot.keyClick(window.list, Qt.Key.Key_J)
    assert window.list.currentIndex().row() == first + 1
    qtbot.keyClick(window.list, Qt.Key.Key_K)
    assert window.list.currentIndex().row() == first
    assert window.list.accessibleName() and window.search.accessibleName()
    window.activateWindow()
    window.search.setFocus()
    qtbot.keyClick(window.search, Qt.Key.Key_Tab)  # search → cards → the copies' table
    assert window.list.hasFocus()
    qtbot.keyClick(window.list, Qt.Key.Key_Tab)
    assert window.detail.copies.hasFocus()
    window.list.setFocus()
    assert "Ctrl+Shift+C" in window.acts.copy_here.toolTip()

    window.search.setText("says so in the README")
    qtbot.waitUntil(lambda: window.model.rowCount() == 10, timeout=10_000)
    assert all(window.model.card(row).differs for row in range(10))  # type: ignore[union-attr]
    assert "45 cards · 10 found" in window.counts.text()
    window.search.clear()
    qtbot.waitUntil(lambda: window.model.rowCount() == 45, timeout=10_000)


def test_copy_to_this_machine_through_the_window(
    qtbot: QtBot, hub: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = host_file(tmp_path / "here.db")
    window = make_window(qtbot, hub, local)
    loaded(qtbot, window)
    card = select(qtbot, window, "laptop", FIRST_ID + 3)  # on laptop only
    asked: list[str] = []
    monkeypatch.setattr(window, "confirm", answering(asked, True))

    with qtbot.waitSignal(window.copiedHere, timeout=10_000):
        window.acts.copy_here.trigger()

    assert str(local) in asked[0] and f"laptop #{FIRST_ID + 3}" in asked[0]
    [(status, provenance)] = query(
        local,
        "SELECT status, source_candidate_provenance FROM user_memories WHERE content = ?",
        (card.text,),
    )
    assert status == "active"
    entries = json.loads(str(provenance))
    assert entries and {(e["origin"], e["synced_from"], e["synced_memory_id"]) for e in entries} == {
        ("sync", "laptop", FIRST_ID + 3)
    }
    assert "Copied laptop" in window.statusBar().currentMessage()

    window.acts.copy_here.trigger()  # its content is here now: refused, with a message
    qtbot.waitUntil(window.banner.isVisible, timeout=10_000)
    assert "already here" in window.banner.text()


def test_dismiss_on_every_machine_through_the_window(
    qtbot: QtBot, hub: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(qtbot, hub)
    loaded(qtbot, window)
    select(qtbot, window, "laptop", FIRST_ID + 2)  # two texts: laptop's and desktop's edited copy
    monkeypatch.setattr(window, "confirm", answering([], False))
    window.acts.dismiss_everywhere.trigger()
    qtbot.waitUntil(lambda: not window.session.runner.busy, timeout=10_000)
    assert hub_query(hub, "SELECT count(*) FROM hub_requests") == [(0,)]  # cancelled: nothing queued

    asked: list[str] = []
    monkeypatch.setattr(window, "confirm", answering(asked, True))
    with qtbot.waitSignal(window.session.listingLoaded, timeout=10_000):
        window.acts.dismiss_everywhere.trigger()

    assert f"desktop #{FIRST_ID + 2}, laptop #{FIRST_ID + 2}" in asked[0]
    assert hub_query(hub, "SELECT machine, memory_id, kind FROM hub_requests ORDER BY machine") == [
        ("desktop", FIRST_ID + 2, "dismiss"),
        ("laptop", FIRST_ID + 2, "dismiss"),
    ]
    card = select(qtbot, window, "laptop", FIRST_ID + 2)
    assert [c.shown_status for c in card.copies] == ["active, dismiss requested"] * 2
    assert not window.acts.dismiss_everywhere.isEnabled()
    assert not window.acts.copy_here.isEnabled()  # no local database in this window


def test_a_hub_that_is_down_is_a_message(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, f"postgresql://nobody@/hub?host={tmp_path / 'no-server'}")
    qtbot.waitUntil(window.banner.isVisible, timeout=15_000)
    assert "Traceback" not in window.banner.text() and "no-server" in window.banner.text()
    assert window.model.rowCount() == 0 and not window.acts.dismiss_everywhere.isEnabled()


def test_opening_a_hub_from_the_command_line(
    hub: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_DB", str(host_file(tmp_path / "here.db")))
    assert main(["--db", hub, "--smoke", "--offscreen"]) == 0  # `--db` of a hub: the hub window
    assert main(["--smoke", "--offscreen", "hub", "open", "--hub", hub]) == 0
    out = tmp_path / "hub.png"
    assert main(["--db", hub, "screenshot", str(out), "--select", str(FIRST_ID + 2)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    down = f"postgresql://nobody@/hub?host={tmp_path / 'no-server'}"
    assert main(["--smoke", "--offscreen", "hub", "open", "--hub", down]) == 3
    assert "Traceback" not in capsys.readouterr().err


def test_the_main_window_opens_a_hub(qtbot: QtBot, hub: str, tmp_path: Path) -> None:
    store = MemoryStore.open(host_file(tmp_path / "here.db"))
    main_window = make_main_window(qtbot, store, tmp_path)
    file_menu = main_window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu) and main_window.acts.open_hub in file_menu.actions()
    menus.open_hub_at(main_window, hub)  # the URL typed in Open hub… (its keys: tests/ui/dialogs)
    [window] = main_window.findChildren(HubWindow)
    loaded(qtbot, window)
    assert window.session.local is not None and window.session.local.target == store.location
    qtbot.waitUntil(window.acts.copy_here.isEnabled, timeout=10_000)
    assert window.model.data(window.model.index(0), CARD_ROLE) is not None
    window.close()


MIB = 1024 * 1024
LONG_NAME = "lap\u202e<b>top</b>\t" + "m" * 5_000  # what any publisher may call a machine
SHOWN_NAME = "lap⟦U+202E⟧<b>top</b>\\tmmm"


def rename_desktop(url: str) -> None:
    for table in ("hub_machines", "hub_memories", "hub_revisions", "hub_evidence"):
        hub_sql(url, f"UPDATE {table} SET machine = %s WHERE machine = 'desktop'", (LONG_NAME,))


@pytest.fixture
def two_machines(hub_db: str, tmp_path: Path) -> str:
    """A laptop and a desktop with the seeded memories."""
    publish_file(host_file(tmp_path / "laptop.db"), hub_db, "laptop")
    publish_file(host_file(tmp_path / "desktop.db"), hub_db, "desktop")
    return hub_db


def shown_words(window: HubWindow, card: HubCard) -> list[str]:
    """Every text the window shows of the selected card and of the hub, outside the memory's text."""
    table = window.detail.copies
    items = [table.item(row, column) for row in range(table.rowCount()) for column in range(4)]
    cells = [item.text() for item in items if item is not None]
    pickers = [window.detail.older.itemText(i) for i in range(window.detail.older.count())]
    tip = window.model.data(window.list.currentIndex(), Qt.ItemDataRole.ToolTipRole)
    return [*(text for text, _tone in pills(card)), window.detail.title.text(), *cells, *pickers,
            window.counts.text(), window.counts.toolTip(), str(tip)]  # fmt: skip


def test_a_machine_name_of_any_length_is_cut_and_shown_visibly(
    qtbot: QtBot, two_machines: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub_sql(two_machines, "UPDATE hub_memories SET content = 'laptop: ' || content WHERE memory_id = 4"
            " AND machine = 'laptop'")  # fmt: skip
    hub_sql(two_machines, "UPDATE hub_memories SET content = 'desktop: ' || content WHERE memory_id = 3"
            " AND machine = 'desktop'")  # fmt: skip
    rename_desktop(two_machines)
    window = make_window(qtbot, two_machines)
    loaded(qtbot, window)
    asked: list[str] = []
    monkeypatch.setattr(window, "confirm", answering(asked, False))
    for machine, memory_id in (("laptop", 4), (LONG_NAME, 3), ("laptop", 5)):
        card = select(qtbot, window, machine, memory_id)
        # Nothing the publishers wrote sizes the window (a 5,000-character name made it 58,526 px wide
        # through the side panel's title).
        assert window.detail.minimumSizeHint().width() < 1300 // 2
        window.acts.dismiss_everywhere.trigger()
        words = [*shown_words(window, card), asked[-1]]
        assert any(SHOWN_NAME in text for text in words)
        assert all(len(text) < 2_000 and "\u202e" not in text and "\t" not in text for text in words)
    assert "<b>" not in str(window.model.data(window.list.currentIndex(), Qt.ItemDataRole.ToolTipRole))
    window.grab()


def test_a_huge_text_without_spaces_is_shown_by_its_start(qtbot: QtBot, two_machines: str) -> None:
    """Memory 5 a spaceless 1 MiB text on the laptop, copied to the desktop and grown there to 10 MiB
    (one card, a diff); laptop's memory 4 a spaceless 1 MiB text of its own. The window once spent minutes
    laying out such a text whole (a card's two lines, the side panel)."""
    link = json.dumps([{"candidate_id": 46, "session_id": "s", "source_compartment_start": None,
                        "source_compartment_end": None, "synced_from": "laptop",
                        "synced_memory_id": 5}])  # fmt: skip
    change = "UPDATE hub_memories SET content = repeat(%s, %s), updated_at = %s"
    hub_sql(two_machines, f"{change} WHERE machine = 'laptop' AND memory_id IN (4, 5)", ("x", MIB, NOW))
    hub_sql(two_machines, f"{change}, source_candidate_provenance = %s WHERE machine = 'desktop'"
            " AND memory_id = 5", ("y", 10 * MIB, NOW + 1, link))  # fmt: skip
    hub_sql(two_machines, "UPDATE hub_memories SET content = content || 'z' WHERE memory_id = 4"
            " AND machine = 'laptop'")  # fmt: skip
    window = make_window(qtbot, two_machines)
    loaded(qtbot, window)  # every card on screen painted with its text
    diffed = select(qtbot, window, "laptop", 5)
    assert diffed.differs and len(diffed.text) == 10 * MIB
    shown = window.model.data(window.list.currentIndex(), Qt.ItemDataRole.DisplayRole)
    assert (
        len(str(shown)) <= CARD_CHARS + 2
    )  # what a card lays out is the text's start, as in the main window
    qtbot.waitUntil(lambda: window.detail.diff.settled, timeout=30_000)
    alone = select(qtbot, window, "laptop", 4)
    assert not alone.differs and len(alone.text) == MIB + 1
    panel = window.detail.text
    assert panel.text == alone.text and not panel.whole  # the panel shows its start, with Show all
    assert len(panel.view.toPlainText()) < SHOWN_CHARS + SHOWN_CHARS // BLOCK_CHARS + 1
    window.grab()


def test_copy_to_this_machine_refuses_hidden_characters_as_hub_pull_does(
    qtbot: QtBot, two_machines: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub_sql(two_machines, "UPDATE hub_memories SET content = %s WHERE memory_id = 4 AND machine = 'laptop'",
            ("Prefers \u202epnpm",))  # fmt: skip
    local = host_file(tmp_path / "here.db")
    before = local_memories(local)
    window = make_window(qtbot, two_machines, local)
    loaded(qtbot, window)
    select(qtbot, window, "laptop", 4)
    assert "⟦U+202E⟧" in window.detail.text.view.toPlainText()
    monkeypatch.setattr(window, "confirm", answering([], True))
    window.acts.copy_here.trigger()
    qtbot.waitUntil(window.banner.isVisible, timeout=10_000)
    assert "hidden character(s)" in window.banner.text() and "--allow-hidden" in window.banner.text()
    assert local_memories(local) == before
