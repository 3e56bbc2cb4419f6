"""Tidy over the demo store: the pairs that may contradict make a list a person can read.

The demo names four editors, four package managers, three shells and so on, each in five wordings:
every two wordings of two choices in one category clash, hundreds of pairs that say a few things.
"""

from __future__ import annotations

from pathlib import Path

from app.demo.build import build_demo_store
from app.store import MemoryStore
from app.tidy.finder import find_groups
from app.tidy.source import active_items

NOW = 1_767_225_600_000
READABLE = 60  # entries a person reads through in a sitting


def test_the_demo_lists_tens_of_pairs_that_may_contradict(tmp_path: Path) -> None:
    store = MemoryStore.open(build_demo_store(tmp_path / "demo.db", now=NOW))
    try:
        items = active_items(store)
    finally:
        store.close()
    by_id = {item.id: item.text for item in items}
    report = find_groups(items)
    listed = report.contradictions
    assert 0 < len(listed) <= READABLE
    # Alike pairs are folded under one, not lost: hundreds of pairs stand behind the entries.
    assert sum(1 + len(pair.also) for pair in listed) > 5 * len(listed)
    # A memory that only mentions a tool ("Keeps prettier configuration in the repository root") makes no
    # choice to clash with another's (refusing the tool it keeps may still contradict), and a refused
    # mock of the database refuses no database.
    for pair in listed:
        assert not pair.reason.startswith("database: refused"), pair.reason
        if "refused" in pair.reason:
            continue
        for a, b in ((pair.a, pair.b), *pair.also):
            texts = (by_id[a], by_id[b])
            assert not any(text.startswith("Keeps ") and " configuration " in text for text in texts), texts
