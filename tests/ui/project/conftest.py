"""A window over a host file of schema v80 with the shared project-memory scenario (and a few user
memories, so the window opens on its cards)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.host80 import NOW, Seeded
from tests.ui.project.helpers import seed_window_file
from tests.ui.window_helpers import make_window
from ui.window.main_window import MainWindow


@pytest.fixture
def seeded(host80: Path) -> Seeded:
    return seed_window_file(host80)


@pytest.fixture
def project_store(host80: Path, seeded: Seeded) -> Iterator[MemoryStore]:
    store = MemoryStore.open(host80, clock=ManualClock(NOW))
    yield store
    store.close()


@pytest.fixture
def window(qtbot: QtBot, project_store: MemoryStore, tmp_path: Path) -> MainWindow:
    return make_window(qtbot, project_store, tmp_path)
