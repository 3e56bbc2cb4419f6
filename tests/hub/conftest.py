"""The hub's tests run with the clock pinned (`MEMORY_DASHBOARD_NOW`), so times in the hub are exact."""

from __future__ import annotations

import pytest
from hub_host import NOW


@pytest.fixture(autouse=True)
def _pinned_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(NOW))
