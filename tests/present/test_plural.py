"""Counts said with their noun in the right number."""

from __future__ import annotations

from app.present.plural import counted, noun


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert counted(1, "memory") == "1 memory"
    assert counted(0, "memory") == "0 memories"
    assert counted(2, "group") == "2 groups"
    assert counted(12_000, "active memory") == "12,000 active memories"
    assert counted(1, "time") == "1 time" and counted(3, "time") == "3 times"
    assert noun(2, "day") == "days"  # a vowel before the y keeps it
    assert noun(2, "memory", "memories") == "memories" and noun(1, "memory", "memories") == "memory"
