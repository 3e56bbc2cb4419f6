"""A count with its noun in the right number, for every view that says how many: `1 memory`,
`2 memories`, `1,204 groups`, `1 time` -- never "1 memories" nor "group(s)"."""

from __future__ import annotations


def noun(count: int, singular: str, plural: str | None = None) -> str:
    """`singular` for exactly one, else `plural` (by default `memory` → `memories`, `group` → `groups`;
    only the last word changes: `active memory` → `active memories`)."""
    if count == 1:
        return singular
    if plural is not None:
        return plural
    if singular.endswith("y") and singular[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return singular[:-1] + "ies"
    return singular + "s"


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """`count` (thousands separated) and its noun: `1 memory`, `12,000 memories`, `0 groups`."""
    return f"{count:,} {noun(count, singular, plural)}"
