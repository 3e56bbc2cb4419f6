"""Writers of many ids: one transaction, one revision per memory, one profile bump, all or nothing.

On the seed's host file (memories 1-5; #2 dismissed). A bad id anywhere in the list rejects the whole
command and the file is byte for byte as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.core.errors import ExpiryRequiredError, InvalidInputError, NotFoundError
from app.core.models import MemoryStatus, RevisionKind
from app.store import MemoryFilter, MemoryStore
from tests.conftest import REVIEW_TIME
from tests.review.review_helpers import snapshot
from tests.support.hostdb import host_sql, profile_version, query


def statuses(path: Path) -> dict[int, str]:
    return {int(str(i)): str(s) for i, s in query(path, "SELECT id, status FROM user_memories")}


def revision_kinds(path: Path, memory_id: int) -> list[str]:
    rows = query(path, "SELECT kind FROM mdash_revisions WHERE memory_id=? ORDER BY id", (memory_id,))
    return [str(row[0]) for row in rows]


def test_dismiss_many_is_one_bump_and_one_revision_each(store: MemoryStore, host_db: Path) -> None:
    before = profile_version(host_db)
    assert store.dismiss([1, 3, 4, 1], reason="retired") == [1, 3, 4]
    assert all(m.status == MemoryStatus.DISMISSED for m in store.get_many([1, 3, 4]))
    assert profile_version(host_db) == before + 1
    for memory_id in (1, 3, 4):
        assert revision_kinds(host_db, memory_id).count(RevisionKind.STATUS) == 1
    assert statuses(host_db)[5] == "active"


@pytest.mark.parametrize(
    "write",
    [
        lambda s: s.dismiss([1, 4, 999]),
        lambda s: s.reactivate([2, 999]),
        lambda s: s.delete([1, 999, 4]),
        lambda s: s.set_expiry([1, 999], REVIEW_TIME + 1000),
        lambda s: s.restore([1, 4]),  # not deleted: nothing to bring back
    ],
    ids=["dismiss", "reactivate", "delete", "expiry", "restore"],
)
def test_one_bad_id_changes_nothing(store: MemoryStore, host_db: Path, write: object) -> None:
    store.observe()  # the first look's baseline is written before the snapshot
    before = snapshot(host_db)
    with pytest.raises((NotFoundError, InvalidInputError)) as raised:
        write(store)  # type: ignore[operator]
    assert "nothing was changed" in str(raised.value.message)
    assert snapshot(host_db) == before


def test_a_failure_after_some_writes_rolls_back_the_others(store: MemoryStore, host_db: Path) -> None:
    """#4 is reactivated, #2 (expired, no new expiry) cannot be: neither changes."""
    store.dismiss(4)
    store.set_expiry(2, REVIEW_TIME - 1)
    before = snapshot(host_db)
    with pytest.raises(ExpiryRequiredError):
        store.reactivate([4, 2])
    assert snapshot(host_db) == before


def test_delete_many_then_restore_them_from_the_trash(store: MemoryStore, host_db: Path) -> None:
    store.set_expiry(4, REVIEW_TIME + 10_000)
    before = profile_version(host_db)
    assert store.delete([1, 4]) == [1, 4]
    assert revision_kinds(host_db, 1)[-1] == revision_kinds(host_db, 4)[-1] == RevisionKind.DELETE
    assert profile_version(host_db) == before + 1
    trash = store.list_memories(MemoryFilter(status="deleted"))
    assert [(m.id, m.status) for m in trash] == [(1, "deleted"), (4, "deleted")]  # in deletion order
    assert trash[0].content == "Works mostly in Python and TypeScript"
    assert store.list_ids(MemoryFilter(status="deleted", search="berlin")) == [4]
    assert store.restore([1, 4]) == [1, 4]
    assert profile_version(host_db) == before + 2
    back = store.get_many([1, 4])
    assert [(m.id, m.status) for m in back] == [(1, "active"), (4, "active")]
    assert back[1].expires_at == REVIEW_TIME + 10_000
    assert store.list_ids(MemoryFilter(status="deleted")) == []


def test_an_observed_delete_is_in_the_trash_and_comes_back(store: MemoryStore, host_db: Path) -> None:
    store.observe()  # seen
    host_sql(host_db, "DELETE FROM user_memories WHERE id = 4")
    store.observe()
    [gone] = store.list_memories(MemoryFilter(status="deleted"))
    assert (gone.id, gone.content, gone.status) == (4, "Lives in Berlin (CET)", "deleted")
    with pytest.raises(NotFoundError):
        store.get(4)
    back = store.restore(4)
    assert (back.content, back.status, back.provenance) == ("Lives in Berlin (CET)", "active", None)
    assert revision_kinds(host_db, 4)[-1] == RevisionKind.CREATE


def test_set_expiry_many_and_each_its_own(store: MemoryStore, host_db: Path, clock: ManualClock) -> None:
    later = REVIEW_TIME + 60_000
    assert store.set_expiry([1, 4], later) == [1, 4]
    assert [m.expires_at for m in store.get_many([1, 4])] == [later, later]
    assert store.set_expiry([1, 4], {1: None, 4: later}) == [1]  # #4 keeps its expiry: no change
    assert [m.expires_at for m in store.get_many([1, 4])] == [None, later]
    store.set_expiry([5, 3], REVIEW_TIME - 1)  # already passed: dismissed at once
    assert [m.status for m in store.get_many([5, 3])] == ["dismissed", "dismissed"]


def test_reactivate_many_and_one_id_is_the_one_element_case(store: MemoryStore, host_db: Path) -> None:
    store.dismiss([1, 4])
    before = profile_version(host_db)
    one = store.reactivate(1)
    assert one.status == "active" and profile_version(host_db) == before + 1
    assert store.reactivate([1, 4]) == [4]  # #1 already active: no revision for it, one bump for #4
    assert [m.status for m in store.get_many([1, 4])] == ["active", "active"]
    assert profile_version(host_db) == before + 2
    assert revision_kinds(host_db, 1).count(RevisionKind.STATUS) == 2


def test_put_back_is_an_undo_in_one_write(store: MemoryStore, host_db: Path, clock: ManualClock) -> None:
    """The window's Undo of Reactivate and of an expiry change: statuses and expiries as they were, one
    transaction, one bump; an expiry put back that has passed leaves its memory dismissed."""
    later, passed = REVIEW_TIME + 60_000, REVIEW_TIME - 1
    store.set_expiry(4, later)
    store.set_expiry([1, 3], passed)  # dismissed at once: the action the undo takes back
    store.reactivate(2, later)  # and a reactivation with a new expiry
    before, kinds_of_3 = profile_version(host_db), revision_kinds(host_db, 3)
    back = {
        1: (MemoryStatus.ACTIVE, None),
        3: (MemoryStatus.ACTIVE, passed),
        2: (MemoryStatus.DISMISSED, None),
    }
    assert store.put_back({4: (None, None), **back}) == [4, 1, 2]
    memories = {m.id: m for m in store.get_many([1, 2, 3, 4])}
    assert [(memories[i].status, memories[i].expires_at) for i in (1, 2, 3, 4)] == [
        ("active", None),
        ("dismissed", None),
        ("dismissed", passed),  # its old expiry had passed: not made active to be swept at once
        ("active", None),
    ]
    assert profile_version(host_db) == before + 1
    assert revision_kinds(host_db, 3) == kinds_of_3  # no status flip-flop


def test_put_back_with_an_unknown_id_changes_nothing(store: MemoryStore, host_db: Path) -> None:
    store.dismiss(1)
    before = snapshot(host_db)
    with pytest.raises(NotFoundError):
        store.put_back({1: (MemoryStatus.ACTIVE, None), 99: (MemoryStatus.ACTIVE, None)})
    assert snapshot(host_db) == before


def test_nothing_to_change_bumps_nothing(store: MemoryStore, host_db: Path) -> None:
    before = profile_version(host_db)
    store.dismiss([2])  # already dismissed
    assert profile_version(host_db) == before
