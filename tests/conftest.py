"""Shared test set-up: Qt offscreen, a fixed clock, real host-shaped SQLite files."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The shared helpers (hostdb, review_helpers, window_helpers) import by name from any test folder.
sys.path.insert(0, str(Path(__file__).parent / "ui"))
sys.path.insert(0, str(Path(__file__).parent / "review"))
sys.path.insert(0, str(Path(__file__).parent))

import pytest
from hostdb import PROMOTED_5, build_host_db

from app.core.clock import ManualClock
from app.store import MemoryStore

# "Now" in the seed: the review rewrote #5 on 2026-10-21 03:13:32 UTC.
REVIEW_TIME = 1_792_552_412_000


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never touch the real user's data, settings or host database."""
    monkeypatch.setenv("MEMORY_DASHBOARD_DATA_DIR", str(tmp_path / "appdata"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdgconfig"))
    monkeypatch.delenv("MEMORY_DASHBOARD_DB", raising=False)
    monkeypatch.delenv("MEMORY_DASHBOARD_NOW", raising=False)


@pytest.fixture
def host_db(tmp_path: Path) -> Path:
    return build_host_db(tmp_path / "context.db")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(REVIEW_TIME)


@pytest.fixture
def store(host_db: Path, clock: ManualClock) -> Iterator[MemoryStore]:
    opened = MemoryStore.open(host_db, clock=clock)
    yield opened
    opened.close()


__all__ = ["PROMOTED_5", "REVIEW_TIME"]
