"""As of on a generated timeline: a few hundred memories, random writes through the store (add, edit,
dismiss, reactivate, delete, restore of a deleted memory or of an old text, expiries set, cleared and
swept) and random writes by the host outside it (rewrites, dismissals, new rows, rows that arrive
already rewritten, deletes), each observed by the store.

The whole past read at once (`profile_as_of`, `as_of`: `app.store.past.as_of_scan`) is compared, at
many instants (each write's instant, a millisecond before and after it, and the middle of the gap to
the next), with the straightforward reconstruction: each memory's facts recomputed from its history
read revision by revision (`facts_from_history`) and resolved. Between writes it is compared with what
the host's table held then, as the timeline recorded it.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.core.clock import ManualClock
from app.core.models import MemoryStatus, Revision, RevisionKind
from app.core.models.as_of import MemoryAsOf
from app.store import MemoryStore
from app.store.past import as_of_scan
from app.store.past.as_of import facts_from_history, fetch_facts, ordered, resolve
from tests.support.hostdb import build_host_db, host_sql, memory_row

REVIEW_TIME = 1_792_552_412_000  # conftest's: the store's first look
MINUTE = 60_000
HOUR = 60 * MINUTE
WRITES = 400
EARLIER_ROWS = 200  # the host's rows before the first look: no revision of theirs is recorded
WORDS = ("pnpm", "yarn", "tabs", "spaces", "Berlin", "Python", "TypeScript", "pytest", "commits", "diffs")

Truth = dict[int, tuple[str, str, int | None]]  # what the host held: id -> content, status, expiry


@dataclass
class Timeline:
    """The store after the writes, and what the host's table held after each write, from when."""

    store: MemoryStore
    first_look: int
    states: list[tuple[int, Truth]] = field(default_factory=list)
    arrived_rewritten: dict[int, int] = field(default_factory=dict)  # id -> when the store first saw it

    def truth_at(self, when: int) -> Truth:
        return next(truth for at, truth in reversed(self.states) if at <= when)


def _host_truth(path: Path) -> Truth:
    conn = sqlite3.connect(path)
    try:
        expiry = dict(conn.execute("SELECT memory_id, expires_at FROM mdash_expiry").fetchall())
        rows = conn.execute("SELECT id, content, status FROM user_memories").fetchall()
        return {mid: (content, status, expiry.get(mid)) for mid, content, status in rows}
    finally:
        conn.close()


class Writer:
    """One random write at the clock's instant, through the store or by the host behind its back."""

    def __init__(self, store: MemoryStore, path: Path, clock: ManualClock, rng: random.Random) -> None:
        self.store, self.path, self.clock, self.rng = store, path, clock, rng
        self.arrived_rewritten: dict[int, int] = {}
        self.ever: set[int] = set()  # every memory that existed: those not there now are deleted

    def text(self) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(2, 6)))

    def write(self, truth: Truth) -> None:
        now, rng, store = self.clock.now_ms(), self.rng, self.store
        live = sorted(truth)
        active = [mid for mid in live if truth[mid][1] == MemoryStatus.ACTIVE]
        dismissed = [mid for mid in live if truth[mid][1] == MemoryStatus.DISMISSED]
        self.ever.update(live)
        deleted = sorted(self.ever - set(live)) if rng.random() < 0.1 else []
        choice = rng.random()
        if choice < 0.2 or not live:
            store.add(self.text())
        elif choice < 0.35:
            store.edit(rng.choice(live), self.text())
        elif choice < 0.42 and active:
            store.dismiss(rng.choice(active))
        elif choice < 0.48 and dismissed:
            store.reactivate(rng.choice(dismissed), None)
        elif choice < 0.53:
            store.delete(rng.choice(live))
        elif deleted:
            store.restore(rng.choice(deleted))
        elif choice < 0.58:
            self.restore_old_text(rng.choice(live))
        elif choice < 0.66:
            store.set_expiry(rng.choice(live), rng.choice([None, now + rng.randint(10, 600) * MINUTE]))
        elif choice < 0.7:
            store.sweep()
        else:
            self.host_write(live, now)

    def restore_old_text(self, memory_id: int) -> None:
        texts = [rev for rev in self.store.history(memory_id) if rev.new_content is not None]
        if texts:
            self.store.restore(memory_id, self.rng.choice(texts).id)

    def host_write(self, live: list[int], now: int) -> None:
        """The host's own write, observed by the store's next read (at the same instant)."""
        choice, memory_id = self.rng.random(), self.rng.choice(live)
        if choice < 0.4:
            sql = "UPDATE user_memories SET content = ?, updated_at = ? WHERE id = ?"
            host_sql(self.path, sql, (self.text(), now, memory_id))
        elif choice < 0.55:
            status = self.rng.choice([MemoryStatus.ACTIVE, MemoryStatus.DISMISSED])
            sql = "UPDATE user_memories SET status = ?, updated_at = ? WHERE id = ?"
            host_sql(self.path, sql, (str(status), now, memory_id))
        elif choice < 0.85:
            self.host_row(now, rewritten=choice >= 0.75)
        else:
            host_sql(self.path, "DELETE FROM user_memories WHERE id = ?", (memory_id,))
        self.store.observe()  # the store's next read observes it

    def host_row(self, now: int, *, rewritten: bool) -> None:
        """A new row of the host's; `rewritten`: promoted earlier and rewritten before the store saw it."""
        promoted_at = now - 3 * HOUR if rewritten else now
        conn = sqlite3.connect(self.path, timeout=5)
        try:
            (last,) = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'user_memories'").fetchone()
            memory_row(conn, last + 1, self.text(), promoted_at=promoted_at, updated_at=now)
            conn.commit()
        finally:
            conn.close()
        if rewritten:
            self.arrived_rewritten[last + 1] = now


@pytest.fixture(scope="module")
def timeline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Timeline]:
    path = build_host_db(tmp_path_factory.mktemp("generated") / "context.db")
    rng = random.Random(20261203)
    conn = sqlite3.connect(path)
    for memory_id in range(10, 10 + EARLIER_ROWS):
        promoted_at = REVIEW_TIME - rng.randint(1, 2000) * HOUR
        updated_at = min(promoted_at + rng.choice([0, 0, rng.randint(2, 500) * HOUR]), REVIEW_TIME - HOUR)
        status = rng.choice([MemoryStatus.ACTIVE] * 4 + [MemoryStatus.DISMISSED])
        text = " ".join(rng.choice(WORDS) for _ in range(4))
        memory_row(conn, memory_id, text, promoted_at=promoted_at, updated_at=updated_at, status=str(status))
    conn.commit()
    conn.close()
    clock = ManualClock(REVIEW_TIME)
    store = MemoryStore.open(path, clock=clock)
    store.observe()  # the first look
    made = Timeline(store, clock.now_ms())
    made.states.append((clock.now_ms(), _host_truth(path)))
    writer = Writer(store, path, clock, rng)
    for _ in range(WRITES):
        clock.set(clock.now_ms() + writer.rng.randint(1, 90) * MINUTE)
        writer.write(made.states[-1][1])
        made.states.append((clock.now_ms(), _host_truth(path)))
    made.arrived_rewritten = writer.arrived_rewritten
    clock.set(clock.now_ms() + HOUR)
    yield made
    store.close()


def _reference(timeline: Timeline, histories: dict[int, list[Revision]], when: int) -> list[MemoryAsOf]:
    """Every memory at `when`, its facts recomputed from its history read revision by revision."""
    store = timeline.store
    with store.database.read() as conn:  # the set-based query gives the facts that are no revision's
        facts = fetch_facts(conn, when)
    now = store.now()
    at = min(when, now)
    states = (
        resolve(facts_from_history(item, histories.get(item.memory_id, []), at), at, now) for item in facts
    )
    return ordered(state for state in states if state is not None)


def _instants(timeline: Timeline) -> list[int]:
    """Some writes' instants, a millisecond around each, the middle of the gap after; before the first
    look; after now."""
    rng = random.Random(7)
    picked = sorted(rng.sample(range(len(timeline.states) - 1), 25))
    found = [timeline.first_look - 4 * HOUR, timeline.first_look - 1, timeline.store.now() + HOUR]
    for index in picked:
        at, following = timeline.states[index][0], timeline.states[index + 1][0]
        found += [at - 1, at, at + 1, (at + following) // 2]
    return found


def test_the_timeline_has_what_the_reads_must_handle(timeline: Timeline) -> None:
    with timeline.store.database.read() as conn:
        facts = fetch_facts(conn, timeline.store.now())
    kinds = {rev.kind for item in facts for rev in timeline.store.history(item.memory_id)}
    assert kinds == set(RevisionKind)
    assert len(facts) >= EARLIER_ROWS + WRITES // 4
    assert timeline.arrived_rewritten


# Up to how many revisions after T the read leaves their memories out by `NOT IN` (past it, by a seek
# per row): the default (here always `NOT IN`), none (always the seek) and a cap some instants pass.
@pytest.mark.parametrize("few_up_to", [as_of_scan.FEW_AFTER, 0, 60])
def test_the_whole_past_read_at_once_is_the_one_rebuilt_revision_by_revision(
    timeline: Timeline, few_up_to: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(as_of_scan, "FEW_AFTER", few_up_to)
    store = timeline.store
    with store.database.read() as conn:
        everyone = [item.memory_id for item in fetch_facts(conn, store.now())]
    histories = {mid: store.history(mid) for mid in everyone}
    for when in _instants(timeline):
        expected = _reference(timeline, histories, when)
        assert store.as_of(when) == expected, when
        assert store.profile_as_of(when) == [s for s in expected if s.injected or not s.known], when


def test_between_writes_the_profile_is_what_the_host_held(timeline: Timeline) -> None:
    """What the host's table held after each write (known to the test, not read from the log) is the
    profile until the next write; the memories that arrived already rewritten are unknown before the
    store first saw them."""
    states = timeline.states
    for index, ((at, truth), (following, _)) in enumerate(itertools.pairwise(states)):
        when = (at + following) // 2
        injected = {
            mid: content
            for mid, (content, status, expires_at) in truth.items()
            if status == MemoryStatus.ACTIVE and (expires_at is None or when < expires_at)
        }
        profile = timeline.store.profile_as_of(when)
        assert {state.memory_id: state.content for state in profile if state.known} == injected, when
        unknown = {state.memory_id for state in profile if not state.known}
        assert all(timeline.arrived_rewritten.get(mid, when) > when for mid in unknown), when
        if index % 4:
            continue  # the whole listing at every fourth gap
        listing = {state.memory_id: state for state in timeline.store.as_of(when) if state.known}
        assert {mid: (s.content, s.status, s.expires_at) for mid, s in listing.items()} == {
            mid: held for mid, held in truth.items() if mid in listing
        }
        assert set(truth) - set(listing) <= set(timeline.arrived_rewritten)
