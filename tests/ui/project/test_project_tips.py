"""A project's identity and name are the host's untrusted text: the tooltips that show them (the
picker's, the listing's title, the selected memory's title) show their characters, never markup."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.store import MemoryStore
from tests.support.host80 import Seeded, add_memory, connect
from tests.ui.project.helpers import open_project, select_memory
from tests.ui.window_helpers import make_window
from ui.project.picker import PROJECT_ROLE

MARKUP = "git:<img src=x><b>bold</b>"


def test_a_project_named_in_markup_is_shown_as_its_characters(
    qtbot: QtBot, host80: Path, seeded: Seeded, tmp_path: Path
) -> None:
    with connect(host80) as conn:
        memory_id = add_memory(conn, MARKUP, "A project whose identity looks like markup")
    conn.close()
    store = MemoryStore.open(host80)
    try:
        window = make_window(qtbot, store, tmp_path)
        page = open_project(qtbot, window, MARKUP)
        select_memory(qtbot, page, memory_id)
        picker = window.projects.picker
        row = next(
            row for row in range(1, picker.count()) if picker.itemData(row, PROJECT_ROLE).identity == MARKUP
        )
        escaped = "&lt;img src=x&gt;&lt;b&gt;bold&lt;/b&gt;"
        tips = {  # each tooltip with what it must show of the project, escaped
            "picker": (str(picker.itemData(row, 3)), escaped),  # 3: Qt's tooltip role
            "title": (page.title.toolTip(), "memory of b&gt;"),  # its name: the path's last part
            "detail": (page.detail.title.toolTip(), escaped),
        }
        for where, (tip, shown) in tips.items():
            assert shown in tip, where
            assert "<img" not in tip and "<b>" not in tip and "b>" not in tip.replace("</p>", ""), where
    finally:
        store.close()
