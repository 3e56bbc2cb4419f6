"""The window's undo entries on a real host file: each undo is one store write (one transaction, one
profile bump), and an undo never throws away a change made since."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import REVIEW_TIME
from hostdb import host_sql, profile_version, query
from sqlalchemy import event

from app.core.errors import ConflictError
from app.core.models import MemoryStatus
from app.store import MemoryStore
from ui.runtime import undo

LATER = REVIEW_TIME + 86_400_000


@contextmanager
def commits(store: MemoryStore) -> Iterator[list[str]]:
    """The write transactions the store begins inside the block (each a `BEGIN IMMEDIATE`, seen by
    SQLAlchemy's own statement event)."""
    seen: list[str] = []

    def statement(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        if sql == "BEGIN IMMEDIATE":
            seen.append(sql)

    engine = store._db.engine
    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)


def writes_of(path: Path) -> int:
    """How many revisions the dashboard has written (each transaction writes at least one)."""
    return int(str(query(path, "SELECT count(*) FROM mdash_revisions")[0][0]))


def one_write(store: MemoryStore, host_db: Path, entry: undo.UndoEntry) -> object:
    """Runs the undo; it must be one write transaction and one profile bump."""
    version = profile_version(host_db)
    with commits(store) as committed:
        result = entry.run(store)
    assert len(committed) == 1
    assert profile_version(host_db) == version + 1
    return result


def test_undo_of_a_reactivation_dismisses_and_puts_the_old_expiry_back(
    store: MemoryStore, host_db: Path
) -> None:
    store.set_expiry(2, LATER)  # #2 is dismissed in the seed
    before = store.get(2)
    store.reactivate(2, None)  # active again, and never expires
    back = one_write(store, host_db, undo.after_reactivate(before))
    assert isinstance(back, type(before))
    assert (back.status, back.expires_at) == (MemoryStatus.DISMISSED, LATER)


def test_undo_of_an_expiry_that_dismissed_at_once_makes_it_active_again(
    store: MemoryStore, host_db: Path
) -> None:
    before = store.get(4)
    store.set_expiry(4, REVIEW_TIME - 1)  # passed already: dismissed at once
    assert store.get(4).status == MemoryStatus.DISMISSED
    back = one_write(store, host_db, undo.after_expiry(before))
    assert isinstance(back, type(before))
    assert (back.status, back.expires_at) == (MemoryStatus.ACTIVE, None)


def test_undo_of_many_expiry_changes_is_one_bump(store: MemoryStore, host_db: Path) -> None:
    before = store.get_many([1, 3, 5])
    assert store.set_expiry([1, 3, 5], REVIEW_TIME - 1) == [1, 3, 5]
    one_write(store, host_db, undo.after_expiry_many([1, 3, 5], before))
    assert [(m.status, m.expires_at) for m in store.get_many([1, 3, 5])] == [("active", None)] * 3


def test_undo_of_a_promotion_refuses_a_memory_rewritten_since_and_deletes_nothing(
    store: MemoryStore, host_db: Path
) -> None:
    promoted = store.promote([141])
    store.edit(promoted.id, "Rewritten since")
    revisions = writes_of(host_db)
    with pytest.raises(ConflictError, match="changed since it was promoted"):
        undo.after_promote(promoted).run(store)
    assert store.get(promoted.id).content == "Rewritten since"
    assert writes_of(host_db) == revisions


def test_undo_of_an_edit_refuses_a_host_rewrite_that_kept_its_time(store: MemoryStore, host_db: Path) -> None:
    before = store.get(5)
    after = store.edit(5, "Prefers yarn")
    host_sql(host_db, "UPDATE user_memories SET content = 'Rewritten by the host' WHERE id = 5")  # same time
    with pytest.raises(ConflictError):
        undo.after_content_change(before, after).run(store)
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 5") == [("Rewritten by the host",)]


def test_undo_of_a_reactivation_puts_the_hosts_own_status_back(store: MemoryStore, host_db: Path) -> None:
    host_sql(host_db, "UPDATE user_memories SET status = 'archived' WHERE id = 4")
    before = store.get(4)
    store.reactivate(4)
    back = one_write(store, host_db, undo.after_reactivate(before))
    assert isinstance(back, type(before))
    assert back.status == "archived"


def test_undo_of_reactivating_many_puts_back_the_expiry_of_one_already_active(
    store: MemoryStore, host_db: Path
) -> None:
    store.set_expiry(1, LATER)  # #1 active with an expiry, #2 dismissed
    before = store.get_many([1, 2])
    changed = store.reactivate([1, 2], LATER + 1)  # a new expiry for both; only #2's status moves
    assert changed == [2]
    one_write(store, host_db, undo.after_reactivate_many(changed, before))
    assert [(m.status, m.expires_at) for m in store.get_many([1, 2])] == [
        ("active", LATER),
        ("dismissed", None),
    ]


def test_undo_of_a_reactivation_never_writes_back_a_status_that_was_not_text(
    store: MemoryStore, host_db: Path
) -> None:
    host_sql(host_db, "UPDATE user_memories SET status = x'ff' WHERE id = 4")  # not UTF-8: shown as U+FFFD
    before = store.get(4)
    assert before.oddities
    store.reactivate(4)
    one_write(store, host_db, undo.after_reactivate(before))
    assert query(host_db, "SELECT status FROM user_memories WHERE id = 4") == [("dismissed",)]
