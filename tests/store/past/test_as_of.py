"""As of: a hand-written timeline of writes on a real database (a host-shaped file and PostgreSQL, see
`seeded_host`), read back at every instant around each write.

The timeline (hours after the first look, t0): t1 the dashboard edits #4; t2 it promotes candidate 141
(#6); t3 a host-like process rewrites #5 and creates #7 (its own `BEGIN IMMEDIATE`), which the
dashboard observes later; t4 it dismisses #1; t5 it deletes #3; t6 it sets #6 to expire at t7.
"""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import bindparam, literal_column, select
from sqlalchemy.exc import OperationalError

from app.core.clock import ManualClock
from app.core.errors import NotFoundError
from app.core.models import MemoryStatus
from app.core.models.as_of import MemoryAsOf
from app.store import MemoryStore
from app.store.connect.engine import plain_rows
from app.store.past import as_of_scan
from app.store.past.as_of import facts_from_history, fetch_facts
from app.store.read.host_cells import UndecodableText, decode_text
from app.store.schema.tables import user_memories
from tests.support.hostdb import HOUR, memory_row_insert
from tests.support.pg_host import HostDb
from tests.support.runs_helpers import host_has_it_open

T0 = 1_792_552_412_000  # conftest's REVIEW_TIME: the store's first look
CANDIDATE_141 = "Prefers pnpm over npm for every JavaScript project"


def at(hours: float) -> int:
    return T0 + int(hours * HOUR)


def host_writes(host: HostDb, now: int) -> None:
    """What the host's own review does, outside the dashboard, in one transaction: rewrite #5, create #7."""
    host.script(
        [
            (
                "UPDATE user_memories SET content = 'Prefers pnpm, never yarn', updated_at = ? WHERE id = 5",
                (now,),
            ),
            memory_row_insert(7, "Reviews diffs in the terminal", promoted_at=now + 30 * 60_000, ids=[152]),
        ]
    )


@pytest.fixture
def timeline(seeded_store: MemoryStore, clock: ManualClock, seeded_host: HostDb) -> MemoryStore:
    store, host_db = seeded_store, seeded_host
    store.observe()  # t0: the first look
    clock.set(at(1))
    store.edit(4, "Lives in Berlin (CET). Works remotely.")
    clock.set(at(2))
    assert store.promote([141]).id == 6
    host_writes(host_db, at(3))
    clock.set(at(3.75))
    store.observe()  # the dashboard observes the host's writes
    clock.set(at(4))
    store.dismiss(1)
    clock.set(at(5))
    store.delete(3)
    clock.set(at(6))
    store.set_expiry(6, at(7))
    clock.set(at(8))
    return store


def states(store: MemoryStore, when: int) -> dict[int, MemoryAsOf]:
    return {state.memory_id: state for state in store.as_of(when)}


def content(store: MemoryStore, when: int) -> dict[int, str | None]:
    return {mid: state.content if state.known else "?" for mid, state in states(store, when).items()}


def test_before_the_first_look_is_unknown_not_guessed(timeline: MemoryStore) -> None:
    before = states(timeline, at(-1))
    assert sorted(before) == [1, 2, 3, 4, 5]  # #6 and #7 were created later: absent
    assert all(not state.known for state in before.values())
    assert {state.unknown_before for state in before.values()} == {T0}
    assert before[4].unknown_note == "unknown before 2026-10-21 03:13:32 UTC (first seen)"
    profile = timeline.profile_as_of(at(-1))
    assert [state.memory_id for state in profile] == [1, 2, 3, 4, 5]  # unknown ones are said, not dropped


def test_each_write_shows_from_its_instant_on(timeline: MemoryStore) -> None:
    assert content(timeline, at(0)) == {
        1: "Works mostly in Python and TypeScript",
        2: "Prefers tabs over spaces",
        3: "Legacy memory without provenance",
        4: "Lives in Berlin (CET)",
        5: "Prefers pnpm",
    }
    assert content(timeline, at(1) - 1)[4] == "Lives in Berlin (CET)"
    assert content(timeline, at(1))[4] == "Lives in Berlin (CET). Works remotely."
    assert 6 not in states(timeline, at(2) - 1)
    assert content(timeline, at(2))[6] == CANDIDATE_141


def test_observed_outside_rewrite_dates_from_the_hosts_write(timeline: MemoryStore) -> None:
    assert content(timeline, at(3) - 1)[5] == "Prefers pnpm"
    assert content(timeline, at(3))[5] == "Prefers pnpm, never yarn"
    assert 7 not in states(timeline, at(3.5) - 1)  # created by the host at its promoted_at
    assert content(timeline, at(3.5))[7] == "Reviews diffs in the terminal"


def test_dismissal_deletion_and_expiry(timeline: MemoryStore) -> None:
    assert states(timeline, at(4) - 1)[1].status == MemoryStatus.ACTIVE
    assert states(timeline, at(4))[1].status == MemoryStatus.DISMISSED
    gone = states(timeline, at(5) - 1)[3]
    assert gone.known and gone.content == "Legacy memory without provenance" and not gone.exists_now
    assert 3 not in states(timeline, at(5))
    assert states(timeline, at(6) - 1)[6].expires_at is None
    assert states(timeline, at(6))[6].expires_at == at(7)
    assert states(timeline, at(7) - 1)[6].injected
    assert not states(timeline, at(7))[6].injected


def test_profile_as_of_each_instant(timeline: MemoryStore) -> None:
    def profile(when: int) -> list[int]:
        return [state.memory_id for state in timeline.profile_as_of(when)]

    assert profile(at(0)) == [1, 3, 4, 5]  # #2 was dismissed before the first look
    assert profile(at(2)) == [1, 3, 4, 5, 6]
    assert profile(at(3.5)) == [1, 3, 4, 5, 6, 7]
    assert profile(at(4)) == [3, 4, 5, 6, 7]
    assert profile(at(5)) == [4, 5, 6, 7]
    assert profile(at(7)) == [4, 5, 7]
    assert [memory.id for memory in timeline.profile()] == profile(at(8))


def test_the_profile_is_the_full_past_filtered(timeline: MemoryStore) -> None:
    """The profile reads only what it shows (the text of the injected rows); its answer is the full
    past's injected and unknown states, at every instant, before the first look too."""
    for when in (at(-1), at(0), at(1), at(2.5), at(3.5), at(4.5), at(5.5), at(6.5), at(7), at(8)):
        full = [state for state in timeline.as_of(when) if state.injected or not state.known]
        assert timeline.profile_as_of(when) == full, when
    assert 2 in [state.memory_id for state in timeline.profile_as_of(at(-1))]  # dismissed, unknown then


def test_a_future_instant_means_now(timeline: MemoryStore, clock: ManualClock) -> None:
    future = timeline.as_of(at(24 * 365))
    assert future == timeline.as_of(clock.now_ms())
    now = {memory.id: memory for memory in timeline.list_memories()}
    assert {state.memory_id: (state.content, state.status) for state in future} == {
        mid: (memory.content, memory.status) for mid, memory in now.items()
    }


def test_one_memory_as_of(timeline: MemoryStore) -> None:
    assert timeline.memory_as_of(4, at(0.5)).content == "Lives in Berlin (CET)"
    with pytest.raises(NotFoundError, match="did not exist at"):
        timeline.memory_as_of(6, at(1))
    with pytest.raises(NotFoundError, match="does not exist"):
        timeline.memory_as_of(99, at(1))


@pytest.mark.parametrize("hours", [-1, 0, 0.5, 1, 2.5, 3, 3.5, 4, 5, 6, 7, 8])
def test_the_query_agrees_with_the_revisions_read_one_by_one(timeline: MemoryStore, hours: float) -> None:
    """`fetch_facts` (one set-based query) against `facts_from_history` over each memory's history."""
    with timeline.database.read() as conn:  # the query itself is under test
        found = sorted(fetch_facts(conn, at(hours)), key=lambda item: item.memory_id)
    assert [item.memory_id for item in found] == [1, 2, 3, 4, 5, 6, 7]
    for item in found:
        assert facts_from_history(item, timeline.history(item.memory_id), at(hours)) == item


def test_read_only_store_uses_what_it_observed_in_memory(seeded_host: HostDb, clock: ManualClock) -> None:
    host_db = seeded_host
    MemoryStore.open(host_db.target, clock=clock).close()  # the own tables exist; the first look is in them
    writable = MemoryStore.open(host_db.target, clock=clock)
    writable.observe()
    writable.close()
    with host_has_it_open(host_db):  # the host has the file open: the read-only store reads live
        store = MemoryStore.open(host_db.target, clock=clock, read_only=True)
        try:
            store.observe()
            clock.set(at(2))
            host_writes(host_db, at(1))
            store.observe()
            assert content(store, at(1) - 1)[5] == "Prefers pnpm"
            assert content(store, at(1))[5] == "Prefers pnpm, never yarn"
        finally:
            store.close()


def test_odd_host_rows_are_shown_not_raised(host_db: Path, clock: ManualClock) -> None:
    conn = sqlite3.connect(host_db)
    conn.execute(
        "INSERT INTO user_memories (id, content, status, promoted_at, created_at, updated_at)"
        " VALUES (8, X'6869FF', X'616374697665', 'yesterday', 0, 0)"
    )
    conn.commit()
    conn.close()
    store = MemoryStore.open(host_db, clock=clock)
    try:
        store.observe()
        odd = store.memory_as_of(8, clock.now_ms())
        assert odd.known and odd.content == "hi\ufffd"
        assert odd.status == "x'616374697665'" and not odd.injected  # a blob 'active' is not injected
        assert 8 not in [state.memory_id for state in store.profile_as_of(clock.now_ms())]
    finally:
        store.close()


def test_without_own_tables_only_now_is_known(seeded_host: HostDb, clock: ManualClock) -> None:
    store = MemoryStore.open(
        seeded_host.target, clock=clock, read_only=True
    )  # never migrated: no record at all
    try:
        now = {state.memory_id: state for state in store.as_of(clock.now_ms() + HOUR)}
        assert now[5].known and now[5].content == "Prefers pnpm"
        before = store.as_of(clock.now_ms() - 1)
        assert before and not any(state.known for state in before)
    finally:
        store.close()


# Host cells of every odd kind, written before the first look (no revision: the row as it is) and
# rewritten by the host after it (observed: a revision, so the read's usual path meets them).
_ODD_ROWS = (
    "INSERT INTO user_memories (id, content, status, promoted_at, created_at, updated_at) VALUES"
    " (8, CAST(X'6869FF' AS TEXT), 'active', 1, 0, 0),"  # text that is not UTF-8
    " (9, 'plain', CAST(X'61637469FF' AS TEXT), 1, 0, 0),"  # a status that is not UTF-8
    " (10, X'6869', 'active', 1, 0, 0),"  # a blob
    " (11, 'when?', 'active', 'yesterday', 0, 0),"  # a time that is text
    " (12, 42, 'active', 1, 0, 0)"  # a number
)
_ODD_REWRITES = (
    "UPDATE user_memories SET content = CAST(X'6869FF21' AS TEXT), updated_at = 1 WHERE id IN (8, 11, 12);"
    " UPDATE user_memories SET content = X'686921', updated_at = 1 WHERE id = 10;"
    " UPDATE user_memories SET content = 'plain!', updated_at = 1 WHERE id = 9;"
    " INSERT INTO user_memories (id, content, status, promoted_at, created_at, updated_at)"
    f" VALUES (13, CAST(X'FF' AS TEXT), 'active', {at(1)}, 0, 0);"
)


@pytest.mark.parametrize("few_up_to", [as_of_scan.FEW_AFTER, 0])
def test_the_whole_past_at_once_reads_odd_rows_as_one_by_one(
    host_db: Path, clock: ManualClock, few_up_to: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole past is read with sqlite3's own decoding, and again with the store's when a text is
    not UTF-8: the answer is the one the read by ids (the store's decoding throughout) gives."""
    monkeypatch.setattr(as_of_scan, "FEW_AFTER", few_up_to)
    host = sqlite3.connect(host_db)
    host.execute(_ODD_ROWS)
    host.commit()
    store = MemoryStore.open(host_db, clock=clock)
    try:
        store.observe()  # t0: the first look
        clock.set(at(1))
        host.executescript(_ODD_REWRITES)
        clock.set(at(1.5))
        store.observe()  # observed: a revision each
        clock.set(at(2))
        store.edit(4, "Lives in Berlin (CET). Works remotely.")  # a revision after the instants below
        clock.set(at(3))
        everyone = list(range(1, 14))
        for when in (at(-1), at(0.5), at(1.75), at(2.5)):
            expected = store.as_of(when, everyone)  # by ids: `fetch_facts` and `resolve`
            assert store.as_of(when) == expected, when
            injected = [state for state in expected if state.injected or not state.known]
            assert store.profile_as_of(when) == injected, when
            assert all(type(state.content) in (str, type(None)) for state in store.as_of(when))
        then = {state.memory_id: state for state in store.profile_as_of(at(1.75))}
        assert then[8].content == "hi\ufffd!" and then[13].content == "\ufffd"
        assert then[10].content == "hi!" and then[12].content == "hi\ufffd!"
        assert 9 not in then  # its status is not 'active'
        assert gc.isenabled()  # off during the read only
    finally:
        store.close()
        host.close()


@pytest.mark.parametrize("few_up_to", [as_of_scan.FEW_AFTER, 0])
def test_an_unknown_memory_whose_expiry_had_passed_stays_in_the_profile(
    timeline: MemoryStore, seeded_host: HostDb, few_up_to: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before the first look a memory's state is unknown, its expiry then too: the profile says so
    rather than dropping it as expired (an expiry with no revision: written before revisions were kept)."""
    monkeypatch.setattr(as_of_scan, "FEW_AFTER", few_up_to)
    seeded_host.sql("INSERT INTO mdash_expiry (memory_id, expires_at, set_at) VALUES (2, ?, ?)", (at(-2), T0))
    when = at(-1)  # before the first look; #2's expiry had passed by then
    profile = {state.memory_id: state for state in timeline.profile_as_of(when)}
    assert 2 in profile and not profile[2].known
    expected = [state for state in timeline.as_of(when, [1, 2, 3, 4, 5]) if state.injected or not state.known]
    assert timeline.profile_as_of(when) == expected  # as the read by ids says


def test_plain_rows_fall_back_to_the_stores_decoding_and_restore_it(
    host_db: Path, clock: ManualClock
) -> None:
    host = sqlite3.connect(host_db)
    host.execute(_ODD_ROWS)
    host.commit()
    host.close()
    store = MemoryStore.open(host_db, clock=clock)
    m = user_memories.c
    both = select(m.content).where(m.id >= bindparam("b_from"), m.id <= 9).order_by(m.id)
    try:
        with store.read_snapshot() as conn:
            driver = conn.connection.driver_connection
            assert isinstance(driver, sqlite3.Connection)
            found = [row[0] for row in plain_rows(conn, both, {"b_from": 8})]
            assert found == ["hi\ufffd", "plain"] and isinstance(found[0], UndecodableText)
            assert driver.text_factory is decode_text
            plain = plain_rows(conn, both, {"b_from": 9})
            assert plain == [("plain",)] and type(plain[0]) is tuple and type(plain[0][0]) is str
            assert driver.text_factory is decode_text
            listed = plain_rows(conn, select(m.id).where(m.id.in_([8, 9])).order_by(m.id), {})
            assert [row[0] for row in listed] == [8, 9]  # an `IN` list: read as every other read
            with pytest.raises(OperationalError, match="no such column"):  # SQLAlchemy's, as every read's
                plain_rows(conn, select(m.id).where(literal_column("nowhere") == 1), {})
            assert driver.text_factory is decode_text
    finally:
        store.close()
