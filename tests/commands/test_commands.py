"""Each command on a real host file: do, undo and redo, each one write transaction with one profile bump,
its log row beside it; an undo refused when the memory changed since writes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from app.commands import log, runner
from app.commands.base import Command
from app.commands.other import Trust, UndoRun
from app.commands.presence import Add, Delete, Promote, RestoreDeleted
from app.commands.status import Dismiss, Reactivate, SetExpiry
from app.commands.text import Edit, Merge, RestoreRevision
from app.core.errors import ConflictError, InvalidInputError
from app.core.models import MemoryStatus
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import host_sql, profile_version, query

LATER = REVIEW_TIME + 86_400_000


@contextmanager
def begun(store: MemoryStore) -> Iterator[list[str]]:
    """The write transactions the store begins inside the block (each a `BEGIN IMMEDIATE`)."""
    seen: list[str] = []

    def statement(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        if sql == "BEGIN IMMEDIATE":
            seen.append(sql)

    engine = store.database.engine
    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)


def one_step(store: MemoryStore, host_db: Path, back: bool, bumps: int = 1) -> runner.Step:
    """An undo (`back`) or redo: one write transaction, `bumps` profile bumps (0 or 1)."""
    version = profile_version(host_db)
    with begun(store) as transactions:
        step = runner.undo(store) if back else runner.redo(store)
    assert step is not None
    assert len(transactions) == 1
    assert profile_version(host_db) == version + bumps
    return step


def states(store: MemoryStore, ids: list[int]) -> list[tuple[str, str, int | None]]:
    return [(m.content, m.status, m.expires_at) for m in store.get_many(ids, deleted=False)]


def round_trip(
    store: MemoryStore, host_db: Path, command: Command[Any], ids: list[int], bumps: int = 1
) -> None:
    """Do, undo, redo, undo: each state as it should be, each step one transaction and one bump."""
    before = states(store, ids)
    runner.execute(store, command, "cli")
    after = states(store, ids)
    assert after != before
    one_step(store, host_db, back=True, bumps=bumps)
    assert states(store, ids) == before
    one_step(store, host_db, back=False, bumps=bumps)
    assert states(store, ids) == after
    one_step(store, host_db, back=True, bumps=bumps)
    assert states(store, ids) == before


def test_edit(store: MemoryStore, host_db: Path) -> None:
    round_trip(store, host_db, Edit(5, "Prefers pnpm, always"), [5])


def test_restore_a_revision(store: MemoryStore, host_db: Path) -> None:
    store.edit(5, "Prefers yarn")
    first = store.history(5)[-1]
    store.edit(5, "Prefers bun")
    round_trip(store, host_db, RestoreRevision(5, first.id), [5])


def test_merge_keeps_the_candidates_used(store: MemoryStore, host_db: Path) -> None:
    round_trip(store, host_db, Merge(5, [141]), [5])
    assert query(host_db, "SELECT count(*) FROM user_memory_candidates WHERE id = 141") == [(0,)]


def test_dismiss_reactivate_and_expiry_of_many(store: MemoryStore, host_db: Path) -> None:
    round_trip(store, host_db, Dismiss([1, 3, 4], "old"), [1, 3, 4])
    round_trip(store, host_db, Reactivate([2], LATER), [2])
    # No bump: an expiry lives in our tables only, the host's row is untouched.
    round_trip(store, host_db, SetExpiry([1, 5], LATER), [1, 5], bumps=0)


def test_undo_of_an_expiry_that_dismissed_at_once_makes_it_active_again(
    store: MemoryStore, host_db: Path
) -> None:
    round_trip(store, host_db, SetExpiry(4, REVIEW_TIME - 1), [4])


def test_undo_of_a_reactivation_puts_the_hosts_own_status_back(store: MemoryStore, host_db: Path) -> None:
    host_sql(host_db, "UPDATE user_memories SET status = 'archived' WHERE id = 4")
    round_trip(store, host_db, Reactivate(4), [4])
    assert store.get(4).status == "archived"


def test_undo_of_a_reactivation_never_writes_back_a_status_that_was_not_text(
    store: MemoryStore, host_db: Path
) -> None:
    host_sql(host_db, "UPDATE user_memories SET status = x'ff' WHERE id = 4")  # not UTF-8: shown as U+FFFD
    runner.execute(store, Reactivate(4), "window")
    one_step(store, host_db, back=True)
    assert query(host_db, "SELECT status FROM user_memories WHERE id = 4") == [("dismissed",)]


def test_delete_add_promote_and_the_trash(store: MemoryStore, host_db: Path) -> None:
    round_trip(store, host_db, Delete([1, 4]), [1, 4])
    made = runner.execute(store, Add("Writes Rust on weekends"), "window")
    assert runner.undo(store) is not None and store.get_many([made.id], deleted=False) == []
    assert runner.redo(store) is not None and store.get(made.id).content == "Writes Rust on weekends"
    promoted = runner.execute(store, Promote([141, 143]), "cli")
    step = one_step(store, host_db, back=True)
    assert "candidates stay used" in step.note and store.get_many([promoted.id], deleted=False) == []
    store.delete(3)
    round_trip(store, host_db, RestoreDeleted([3]), [3])


def test_trust_mark(store: MemoryStore, host_db: Path) -> None:
    runner.execute(store, Trust("session:ses_a1", "untrusted"), "cli")
    one_step(store, host_db, back=True, bumps=0)
    assert store.trust_marks() == {}
    one_step(store, host_db, back=False, bumps=0)
    assert store.trust_marks() == {"session:ses_a1": "untrusted"}


def test_run_undo_is_a_command_in_the_same_log(store: MemoryStore, host_db: Path) -> None:
    verdict = {
        "update_existing": [{"memory_id": 5, "content": "Prefers pnpm everywhere", "candidate_ids": [141]}],
        "dismiss_existing": [{"memory_id": 4, "reason": "moved"}],
        "promote": [{"content": "Runs pytest -q", "candidate_ids": [151]}],
        "consume_candidate_ids": [141, 151],
    }
    run_id = apply_verdict(store, parse_verdict(verdict)).run_id
    promoted = next(i for i in store.run(run_id).memory_ids if i not in (4, 5))
    ran = states(store, [4, 5, promoted])
    runner.execute(store, UndoRun(run_id), "cli")
    undone = states(store, [4, 5, promoted])
    assert undone == [("Lives in Berlin (CET)", "active", None), ("Prefers pnpm", "active", None)]
    one_step(store, host_db, back=True)
    assert states(store, [4, 5, promoted]) == ran
    one_step(store, host_db, back=False)
    assert states(store, [4, 5, promoted]) == undone


def test_an_undo_refused_when_the_host_rewrote_the_memory_writes_nothing(
    store: MemoryStore, host_db: Path
) -> None:
    runner.execute(store, Edit(5, "Prefers yarn"), "window")
    host_sql(host_db, "UPDATE user_memories SET content = 'Rewritten by the host' WHERE id = 5")  # same time
    revisions = query(host_db, "SELECT count(*) FROM mdash_revisions")
    version = profile_version(host_db)
    with pytest.raises(ConflictError, match="changed since it was edited, so Undo left it as it is"):
        runner.undo(store)
    assert query(host_db, "SELECT content FROM user_memories WHERE id = 5") == [("Rewritten by the host",)]
    assert query(host_db, "SELECT count(*) FROM mdash_revisions") == revisions
    assert profile_version(host_db) == version
    assert [entry.done for entry in runner.history(store)] == [True]


def test_undo_of_a_promotion_refuses_a_memory_rewritten_since(store: MemoryStore) -> None:
    promoted = runner.execute(store, Promote([141]), "window")
    store.edit(promoted.id, "Rewritten since")
    with pytest.raises(ConflictError, match="changed since it was promoted"):
        runner.undo(store)
    assert store.get(promoted.id).content == "Rewritten since"


def test_the_log_is_a_linear_stack(store: MemoryStore) -> None:
    for memory_id in (1, 3, 4):
        runner.execute(store, Dismiss(memory_id), "cli")
    runner.undo(store)
    runner.undo(store)
    assert [entry.done for entry in runner.history(store)] == [True, False, False]
    runner.execute(store, Edit(5, "Prefers pnpm, always"), "window")  # drops the redo tail
    assert [(entry.label, entry.origin, entry.done) for entry in runner.history(store)] == [
        ("dismiss of #1", "cli", True),
        ("edit of #5", "window", True),
    ]
    assert runner.redo(store) is None


def test_a_command_that_changed_nothing_is_not_logged(store: MemoryStore) -> None:
    runner.execute(store, Dismiss(2), "cli")  # dismissed already
    assert runner.history(store) == []


def test_a_failure_between_the_change_and_its_log_row_leaves_neither(
    store: MemoryStore, host_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> int:
        raise RuntimeError("killed before the log row")

    monkeypatch.setattr(log, "record", broken)
    version = profile_version(host_db)
    with pytest.raises(RuntimeError):
        runner.execute(store, Edit(5, "Prefers yarn"), "cli")
    assert store.get(5).content == "Prefers pnpm"
    assert profile_version(host_db) == version
    assert query(host_db, "SELECT count(*) FROM mdash_command_log") == [(0,)]


def test_a_failure_after_an_undo_before_its_log_row_is_marked_leaves_neither(
    store: MemoryStore, host_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner.execute(store, Edit(5, "Prefers yarn"), "cli")

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("killed before the log row moved")

    monkeypatch.setattr(log, "mark", broken)
    with pytest.raises(RuntimeError):
        runner.undo(store)
    assert store.get(5).content == "Prefers yarn"
    assert query(host_db, "SELECT state FROM mdash_command_log") == [("done",)]


def test_a_malformed_entry_is_refused_with_a_message(store: MemoryStore, host_db: Path) -> None:
    runner.execute(store, Edit(5, "Prefers yarn"), "cli")
    host_sql(host_db, 'UPDATE mdash_command_log SET payload = \'{"changes": [{"id": "5"}]}\'')
    with pytest.raises(InvalidInputError, match=r"command log entry #1 .*malformed"):
        runner.undo(store)
    host_sql(host_db, "UPDATE mdash_command_log SET payload = 'not json', kind = 'edit'")
    with pytest.raises(InvalidInputError, match="malformed JSON"):
        runner.undo(store)
    host_sql(host_db, "UPDATE mdash_command_log SET kind = 'rm -rf', payload = '{}'")
    with pytest.raises(InvalidInputError, match="unknown kind"):
        runner.undo(store)
    assert store.get(5).content == "Prefers yarn"


def test_a_read_only_store_reads_the_log_and_refuses_to_undo(store: MemoryStore, host_db: Path) -> None:
    runner.execute(store, Edit(5, "Prefers yarn"), "cli")
    reader = MemoryStore.open(host_db, read_only=True)
    try:
        assert [entry.label for entry in runner.history(reader)] == ["edit of #5"]
        with pytest.raises(Exception, match="read-only"):
            runner.undo(reader)
    finally:
        reader.close()
    assert store.get(5).status == MemoryStatus.ACTIVE


def test_undo_of_reactivating_many_puts_back_the_expiry_of_one_already_active(
    store: MemoryStore, host_db: Path
) -> None:
    store.set_expiry(1, LATER)  # #1 active with an expiry, #2 dismissed
    assert runner.execute(store, Reactivate([1, 2], LATER + 1), "cli") == [2]  # only #2's status moves
    one_step(store, host_db, back=True)
    assert [(m.status, m.expires_at) for m in store.get_many([1, 2])] == [
        ("active", LATER),
        ("dismissed", None),
    ]
