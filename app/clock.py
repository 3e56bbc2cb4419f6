"""Time as epoch milliseconds, from an injectable clock.

Every writer and every relative time takes its `now` from a Clock so tests can drive time across an
expiry instant. `MEMORY_DASHBOARD_NOW` (epoch ms or ISO 8601) fixes the clock for the CLI.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Protocol

NOW_ENV = "MEMORY_DASHBOARD_NOW"


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    """The wall clock."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class ManualClock:
    """A clock that moves only when told to (tests, `MEMORY_DASHBOARD_NOW`)."""

    def __init__(self, now_ms: int) -> None:
        self._now = now_ms

    def now_ms(self) -> int:
        return self._now

    def set(self, now_ms: int) -> None:
        self._now = now_ms

    def advance(self, delta_ms: int) -> None:
        self._now += delta_ms


def parse_instant(text: str) -> int:
    """Epoch milliseconds from `1700000000000` or an ISO 8601 date/time (naive means UTC)."""
    value = text.strip()
    if not value:
        raise ValueError("empty time")
    if value.lstrip("-").isdigit():
        return int(value)
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError(f"not an epoch-ms number or ISO 8601 time: {text!r}") from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return int(parsed.timestamp() * 1000)


def format_instant(ms: int) -> str:
    """An absolute, human-readable UTC timestamp (for tooltips and exports)."""
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def clock_from_env(environ: Mapping[str, str] | None = None) -> Clock:
    """A ManualClock fixed at MEMORY_DASHBOARD_NOW when it is set, else the system clock."""
    env = os.environ if environ is None else environ
    fixed = env.get(NOW_ENV)
    if fixed:
        return ManualClock(parse_instant(fixed))
    return SystemClock()
