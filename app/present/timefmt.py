"""Relative times as the card shows them: `just now`, `5m ago`, `23d ago`, `4mo ago`, `2y ago`, `in 7d`.

The past is floored (what happened less than a day ago is not "1d ago" yet); the future is rounded to
the nearest unit, as people read a deadline: an expiry set a week ahead a minute ago still reads `in 7d`,
not `in 6d`.
"""

from __future__ import annotations

from app.core.text_input import int64_problem, whole_number_int64

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS
MONTH_MS = 30 * DAY_MS
YEAR_MS = 365 * DAY_MS


_UNITS = (
    (MINUTE_MS, "m", HOUR_MS),
    (HOUR_MS, "h", DAY_MS),
    (DAY_MS, "d", 60 * DAY_MS),
    (MONTH_MS, "mo", YEAR_MS),
)


def _span(delta_ms: int, *, rounded: bool = False) -> str:
    """`5m`, `23d`, `4mo`, `2y` (floored, or the nearest unit, half up, moving on to the next unit when
    rounding reaches it); "" under a minute."""
    if delta_ms < MINUTE_MS:
        return ""
    for unit, suffix, limit in _UNITS:
        count = (delta_ms + (unit // 2 if rounded else 0)) // unit
        if max(count * unit, delta_ms) < limit:
            return f"{count}{suffix}"
    return f"{(delta_ms + (YEAR_MS // 2 if rounded else 0)) // YEAR_MS}y"


def relative(then_ms: int, now_ms: int) -> str:
    """`2h ago` for the past (floored), `in 3d` for the future (rounded); under a minute either way is
    `just now`."""
    delta = now_ms - then_ms
    if delta >= 0:
        span = _span(delta)
        return f"{span} ago" if span else "just now"
    span = _span(-delta, rounded=True)
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
