"""Time as epoch milliseconds, from an injectable clock.

Every writer and every relative time takes its `now` from a Clock so tests can drive time across an
expiry instant. `MEMORY_DASHBOARD_NOW` (epoch ms or ISO 8601) fixes the clock for the CLI. An instant a
person enters (`parse_instant`) lies between the years 1 and 9999, so every later display of it works;
`format_instant` shows any integer a host row may hold, out of that range as its number.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Protocol

from app.core.text_input import is_whole_number, whole_number_int64

NOW_ENV = "MEMORY_DASHBOARD_NOW"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE_MS = timedelta(milliseconds=1)
# The instants a date can show (years 1 to 9999): every instant a person enters must lie here, so that
# every later display of it works. Well inside SQLite's 64-bit integers.
MIN_INSTANT_MS = (datetime(1, 1, 1, tzinfo=UTC) - EPOCH) // ONE_MS
MAX_INSTANT_MS = (datetime.max.replace(tzinfo=UTC) - EPOCH) // ONE_MS
_RANGE = "a time must lie between the years 1 and 9999"
# The instants every reader can show: Python's datetime stops at year 9999, Windows' gmtime (behind
# `datetime.fromtimestamp`) at 3000 and before 1970. A host's timestamp outside is shown clamped, and noted
# (`app.store.read.host_cells`); one coming in from a file (an import) is refused.
TIME_MIN = 0
TIME_MAX = 32_535_215_999_999  # 3000-12-31 23:59:59.999 UTC


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


def instant_problem(ms: int) -> str | None:
    """Whether `ms` lies in the range a date can show (years 1 to 9999 UTC)."""
    if MIN_INSTANT_MS <= ms <= MAX_INSTANT_MS:
        return None
    return f"{ms} is out of range: {_RANGE}"


def parse_instant(text: str) -> int:
    """Epoch milliseconds from `1700000000000` or an ISO 8601 date/time (naive means UTC), in the range
    of `instant_problem`; ValueError with a message otherwise."""
    value = text.strip()
    if not value:
        raise ValueError("empty time")
    if is_whole_number(value):
        number = whole_number_int64(value)
        if number is None:
            shown = value if len(value) <= 40 else value[:40] + "..."
            raise ValueError(f"{shown} is out of range: {_RANGE}")
        ms = number
    else:
        ms = _iso_ms(value, text)
    problem = instant_problem(ms)
    if problem is not None:
        raise ValueError(problem)
    return ms


def _iso_ms(value: str, text: str) -> int:
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError(f"not an epoch-ms number or ISO 8601 time: {text[:60]!r}") from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return (parsed - EPOCH) // ONE_MS  # exact, and never overflows: the range is checked on the result


def format_instant(ms: int) -> str:
    """An absolute, human-readable UTC timestamp (for tooltips and exports); an instant no date can show
    (a host row may hold any integer) is shown as its number, never an exception."""
    try:
        return (EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (OverflowError, ValueError, TypeError):
        return f"epoch ms {ms} (out of range)"


def clock_from_env(environ: Mapping[str, str] | None = None) -> Clock:
    """A ManualClock fixed at MEMORY_DASHBOARD_NOW when it is set, else the system clock."""
    env = os.environ if environ is None else environ
    fixed = env.get(NOW_ENV)
    if fixed:
        return ManualClock(parse_instant(fixed))
    return SystemClock()
