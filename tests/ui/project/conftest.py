"""A window over a host file of schema v80 with the shared project-memory scenario (and a few user
memories, so the window opens on its cards), and the way to a project's page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.host80 import NOW, T0, Seeded, build_host80, connect, seed_projects
from tests.ui.window_helpers import make_window, settle
from ui.project.page import ProjectPage
from ui.project.picker import PROJECT_ROLE
from ui.window.main_window import MainWindow


@pytest.fixture
def host80(tmp_path: Path) -> Path:
    return build_host80(tmp_path / "context.db")


@pytest.fixture
def seeded(host80: Path) -> Seeded:
    found = seed_projects(host80)
    with connect(host80) as conn:
        for offset, text in enumerate(["Prefers pnpm over npm", "Code first, explanation after"]):
            conn.execute(
                "INSERT INTO user_memories (content, status, promoted_at, source_candidate_ids, created_at,"
                " updated_at) VALUES (?, 'active', ?, '[]', ?, ?)",
                (text, T0 + offset, T0 + offset, T0 + offset),
            )
    conn.close()
    return found


@pytest.fixture
def project_store(host80: Path, seeded: Seeded) -> Iterator[MemoryStore]:
    store = MemoryStore.open(host80, clock=ManualClock(NOW))
    yield store
    store.close()


@pytest.fixture
def window(qtbot: QtBot, project_store: MemoryStore, tmp_path: Path) -> MainWindow:
    return make_window(qtbot, project_store, tmp_path)


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
