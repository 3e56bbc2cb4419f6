"""Relative times as the card shows them: floored, `just now`, `5m ago`, `23d ago`, `4mo ago`, `2y ago`."""

from __future__ import annotations

from app.core.text_input import int64_problem, whole_number_int64

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS
MONTH_MS = 30 * DAY_MS
YEAR_MS = 365 * DAY_MS


def _span(delta_ms: int) -> str:
    if delta_ms < MINUTE_MS:
        return ""
    if delta_ms < HOUR_MS:
        return f"{delta_ms // MINUTE_MS}m"
    if delta_ms < DAY_MS:
        return f"{delta_ms // HOUR_MS}h"
    if delta_ms < 60 * DAY_MS:
        return f"{delta_ms // DAY_MS}d"
    if delta_ms < YEAR_MS:
        return f"{delta_ms // MONTH_MS}mo"
    return f"{delta_ms // YEAR_MS}y"


def relative(then_ms: int, now_ms: int) -> str:
    """`2h ago` for the past, `in 3d` for the future; anything under a minute either way is `just now`."""
    delta = now_ms - then_ms
    if delta >= 0:
        span = _span(delta)
        return f"{span} ago" if span else "just now"
    span = _span(-delta)
    return f"in {span}" if span else "just now"


def parse_duration(text: str) -> int:
    """Milliseconds from `90s`, `15m`, `12h`, `7d`, `2w`, `3mo`, `1y`: ASCII digits only (int() would
    take other scripts' digits), at most a 64-bit number of milliseconds; ValueError with a message else."""
    units = {
        "s": 1000,
        "m": MINUTE_MS,
        "h": HOUR_MS,
        "d": DAY_MS,
        "w": 7 * DAY_MS,
        "mo": MONTH_MS,
        "y": YEAR_MS,
    }
    value = text.strip().lower()
    for suffix in sorted(units, key=len, reverse=True):
        number = value.removesuffix(suffix)
        if number != value and number.isascii() and number.isdigit():
            count = whole_number_int64(number)
            if count is None or int64_problem(count * units[suffix]) is not None:
                raise ValueError(f"the duration {value[:30]} is too long")
            return count * units[suffix]
    raise ValueError(f"not a duration like 7d, 12h or 30m: {text[:60]!r}")
