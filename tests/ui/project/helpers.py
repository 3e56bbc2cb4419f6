"""Project memories in the window, for its tests: the shared scenario with a few user memories (so the
window opens on its cards), picking a project as a person does, selecting a card."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.support.host80 import T0, Seeded, connect, seed_projects
from tests.ui.window_helpers import settle
from ui.project.page import ProjectPage
from ui.project.picker import PROJECT_ROLE
from ui.window.main_window import MainWindow


def seed_window_file(path: Path) -> Seeded:
    """`seed_projects` in a file from `build_host80`, and two user memories."""
    found = seed_projects(path)
    with connect(path) as conn:
        for offset, text in enumerate(["Prefers pnpm over npm", "Code first, explanation after"]):
            conn.execute(
                "INSERT INTO user_memories (content, status, promoted_at, source_candidate_ids, created_at,"
                " updated_at) VALUES (?, 'active', ?, '[]', ?, ?)",
                (text, T0 + offset, T0 + offset, T0 + offset),
            )
    conn.close()
    return found


def open_project(qtbot: QtBot, window: MainWindow, identity: str) -> ProjectPage:
    """Pick `identity` in the picker above the user cards, as a person does; its page listed."""
    picker = window.projects.picker
    picker.choices.want()
    qtbot.waitUntil(lambda: picker.choices.state == "read", timeout=10_000)
    projects = [picker.itemData(row, PROJECT_ROLE) for row in range(picker.count())]
    row = next(row for row, project in enumerate(projects) if project and project.identity == identity)
    picker.activated.emit(row)
    page = window.projects.page
    qtbot.waitUntil(lambda: page.project is not None and page.model.rowCount() > 0, timeout=10_000)
    settle(qtbot, window)
    return page


def select_memory(qtbot: QtBot, page: ProjectPage, memory_id: int) -> None:
    """Select a card; its links and history read."""
    assert page.select_id(memory_id)
    qtbot.waitUntil(lambda: page.detail.history_memory_id == memory_id, timeout=10_000)
