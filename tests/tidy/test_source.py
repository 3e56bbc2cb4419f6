"""The memories tidy reads from a real host file: the active ones, with their evidence."""

from __future__ import annotations

from pathlib import Path

from app.store import MemoryStore
from app.tidy.finder import find_groups
from app.tidy.source import active_items
from tests.support.tidy_memories import PLANTED, tidy_db


def test_active_memories_are_read_and_grouped(tmp_path: Path) -> None:
    path = tidy_db(tmp_path / "context.db", dismissed=(6,))
    store = MemoryStore.open(path)
    try:
        items = active_items(store)
    finally:
        store.close()
    assert [item.id for item in items] == [1, 2, 3, 4, 5, 7, 8]
    assert items[0].text == PLANTED[0] and items[0].sources == ("session:ses_seed",)
    report = find_groups(items)
    assert [group.members for group in report.groups] == [(1, 2)]  # #6, dismissed, is not read
    assert [(pair.a, pair.b) for pair in report.contradictions] == [(3, 4)]
