"""`MemoryStore.links`, asked for each page of cards painted: the links both ways, read without asking the
database's catalogue whether the links' table exists (the store knows since it opened)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event

from app.core.models.links import Relation
from app.store import MemoryStore
from app.store.links import add_link


def test_links_are_read_without_a_question_to_the_catalogue(store: MemoryStore) -> None:
    with store.database.write() as ctx:
        add_link(ctx, "user", 1, 3, Relation.MERGED_INTO, "command:1")
    statements: list[str] = []
    event.listen(store.database.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    found = store.links([1, 2, 3])
    assert [link.to_id for link in found[1]] == [3] and [link.from_id for link in found[3]] == [1]
    assert 2 not in found
    assert [s for s in statements if "sqlite_master" in s or "PRAGMA" in s.upper()] == []


def test_a_file_without_the_links_table_has_no_links(host_db: Path) -> None:
    read_only = MemoryStore.open(host_db, read_only=True)  # never opened: none of our tables
    try:
        assert not read_only.database.links_stored
        assert read_only.links([1, 2]) == {}
    finally:
        read_only.close()
