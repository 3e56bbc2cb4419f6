"""The conformance suite: every store backend must pass it.

Backends: the host's own `context.db` shape (a file built from the host schema), a fresh embedded store
(created by the app itself), and a PostgreSQL database (empty: the store creates the host's tables in
their PostgreSQL form; a server for the run comes from `postgres_server` in conftest, never skipped
quietly). Candidates are added with plain SQL, as the host adds them (`pg_host.HostDb`). A manual clock
is driven across the expiry instant.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.commands.export import export_data
from app.commands import runner
from app.commands.other import UndoRun
from app.core.clock import ManualClock
from app.core.paths import embedded_database_path
from app.core.provenance import host_can_read
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import ExpiryRequiredError, MemoryFilter, MemoryStore, NotFoundError
from app.transfer.export_format import parse_export
from tests.support.hostdb import build_host_db
from tests.support.pg_host import HostDb, PostgresHostDb, SqliteHostDb

NOW = 1_800_000_000_000
Backend = tuple[MemoryStore, HostDb, ManualClock]


@pytest.fixture(params=["host-file", "embedded", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    clock = ManualClock(NOW)
    host: HostDb
    if request.param == "host-file":
        host = SqliteHostDb(build_host_db(tmp_path / "context.db", seed=False))
        store = MemoryStore.open(host.target, clock=clock)
    elif request.param == "embedded":
        store = MemoryStore.open(None, clock=clock)  # no --db, no host file: the embedded store
        host = SqliteHostDb(embedded_database_path())
        assert store.origin == "embedded"
    else:
        host = PostgresHostDb(request.getfixturevalue("postgres_db"))
        store = MemoryStore.open(host.target, clock=clock)  # an empty database: host tables created
    yield store, host, clock
    store.close()


def add_candidate(
    host: HostDb, cid: int, content: str, session: str, start: int | None = 1, end: int | None = 2
) -> None:
    host.sql(
        "INSERT INTO user_memory_candidates (id, content, session_id, source_compartment_start,"
        " source_compartment_end, created_at) VALUES (?,?,?,?,?,?)",
        (cid, content, session, start, end, NOW - 1000),
    )


def test_promote_writes_host_readable_provenance_and_consumes(
    backend: Backend,
) -> None:
    store, host, _ = backend
    add_candidate(host, 10, "Prefers pnpm", "ses_x", 1, None)
    add_candidate(host, 11, "Uses pnpm workspaces", "ses_y")
    before = host.profile_version()
    memory = store.promote([10, 11])
    assert memory.content == "Prefers pnpm; Uses pnpm workspaces"  # one line, as the host injects it
    assert memory.source_candidate_ids == (10, 11)
    assert host_can_read(memory.provenance_raw)
    assert [e.session_id for e in memory.provenance or ()] == ["ses_x", "ses_y"]
    assert memory.sources == ("session:ses_x", "session:ses_y")
    assert memory.promoted_at == memory.created_at == memory.updated_at == NOW
    assert not memory.rewritten
    assert host.query("SELECT count(*) FROM user_memory_candidates") == [(0,)]
    assert host.profile_version() == before + 1
    assert [r.kind for r in store.history(memory.id)] == ["create"]


def test_update_accumulates_ids_and_provenance(backend: Backend) -> None:
    store, host, clock = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "A")
    add_candidate(host, 2, "b", "ses_b")
    clock.advance(5_000)
    updated = store.update_content(memory.id, "AB", [2, 1, 2, 99], run_id="r1", source="review")
    assert updated.source_candidate_ids == (1, 2, 99)
    assert [e.candidate_id for e in updated.provenance or ()] == [1, 2]
    assert updated.provenance and updated.provenance[1].origin == "update"
    assert updated.provenance[1].added_at == NOW + 5_000
    assert updated.unknown_provenance_ids == (99,)
    assert "unknown:" in updated.sources
    assert updated.rewritten and updated.updated_at == NOW + 5_000
    last = store.history(memory.id)[-1]
    assert (last.source, last.run_id, last.candidate_ids) == ("review", "r1", (2, 99))
    assert (last.previous_content, last.new_content) == ("A", "AB")


def test_update_with_only_gone_ids_keeps_provenance_json(
    backend: Backend,
) -> None:
    store, host, _ = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "A")
    raw = memory.provenance_raw
    updated = store.update_content(memory.id, "A2", [500, 501])
    assert updated.provenance_raw == raw
    assert updated.source_candidate_ids == (1, 500, 501)


def test_updated_at_is_monotonic_with_clock_behind(backend: Backend) -> None:
    store, host, clock = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "A")
    clock.set(NOW - 60_000)  # the clock went backwards
    first = store.update_content(memory.id, "B")
    second = store.update_content(memory.id, "C")
    assert memory.updated_at < first.updated_at < second.updated_at


def _expiring(backend: Backend) -> tuple[MemoryStore, HostDb, ManualClock, int]:
    store, host, clock = backend
    add_candidate(host, 1, "rotating credential note", "ses_a")
    add_candidate(host, 2, "stable note", "ses_a")
    expiring = store.promote([1]).id
    store.promote([2])
    store.set_expiry(expiring, NOW + 10_000)
    return store, host, clock, expiring


RECALL_SHAPES = [
    ("profile", lambda s: s.profile()),
    ("recall-all", lambda s: s.recall()),
    ("recall-search", lambda s: s.recall("note")),
    ("recall-relevance", lambda s: s.recall("note credential", order="relevance")),
    ("recall-limit", lambda s: s.recall(limit=5)),
    ("recall-search-limit", lambda s: s.recall("credential", limit=1, order="relevance")),
]


@pytest.mark.parametrize(("shape", "read"), RECALL_SHAPES, ids=[name for name, _ in RECALL_SHAPES])
def test_expiry_is_half_open_on_every_recall_shape(backend: Backend, shape: str, read: object) -> None:
    store, _host, clock, expiring = _expiring(backend)
    assert callable(read)
    clock.set(NOW + 10_000 - 1)
    assert expiring in [m.id for m in read(store)], shape
    clock.set(NOW + 10_000)
    assert expiring not in [m.id for m in read(store)], shape
    # The dashboard's listing still shows it, marked expired.
    listed = {m.id: m for m in store.list_memories()}
    assert listed[expiring].expired
    assert expiring in store.list_ids(MemoryFilter(status="expired"))


def test_expiring_or_expired_is_every_memory_with_an_expiry_in_the_listings_order(backend: Backend) -> None:
    store, host, clock, expiring = _expiring(backend)
    add_candidate(host, 3, "short-lived note", "ses_a")
    lapsing = store.promote([3]).id
    store.set_expiry(lapsing, NOW + 1_000)
    either = MemoryFilter(status="expiring_or_expired")
    order = [i for i in store.list_ids(MemoryFilter(status="all")) if i in (expiring, lapsing)]
    assert sorted(order) == sorted([expiring, lapsing])
    assert store.list_ids(either) == order
    clock.set(NOW + 1_000)  # one has expired, the other not yet
    assert store.list_ids(MemoryFilter(status="expired")) == [lapsing]
    assert store.list_ids(MemoryFilter(status="expiring")) == [expiring]
    assert store.list_ids(either) == order
    assert store.first_ids(either, 1) == (order[:1], 2)
    store.set_expiry(lapsing, None)
    assert store.list_ids(either) == [expiring]


def test_expiry_lives_in_own_tables_until_the_sweep(backend: Backend) -> None:
    store, host, clock, expiring = _expiring(backend)
    row = host.query("SELECT status, updated_at FROM user_memories WHERE id=?", (expiring,))
    assert row[0][0] == "active"
    version = host.profile_version()
    clock.set(NOW + 10_000)
    assert store.sweep() == [expiring]
    assert host.query("SELECT status FROM user_memories WHERE id=?", (expiring,)) == [("dismissed",)]
    assert host.profile_version() == version + 1
    last = store.history(expiring)[-1]
    assert (last.kind, last.source, last.new_status) == ("status", "expiry", "dismissed")
    assert store.sweep() == []


def test_reactivating_an_expired_memory_asks_for_a_new_expiry(
    backend: Backend,
) -> None:
    store, _host, clock, expiring = _expiring(backend)
    clock.set(NOW + 20_000)
    store.sweep()
    with pytest.raises(ExpiryRequiredError):
        store.reactivate(expiring)
    again = store.reactivate(expiring, None)
    assert again.status == "active" and again.expires_at is None and again.injected


def test_trust_is_the_weakest_source(backend: Backend) -> None:
    store, host, _ = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1])
    assert memory.trust == "semi"
    edited = store.edit(memory.id, "edited by me")
    assert edited.sources == ("session:ses_a", "user:dashboard")
    assert edited.trust == "semi"


def test_the_trust_filter_agrees_with_the_cards(backend: Backend) -> None:
    store, host, _ = backend
    add_candidate(host, 1, "a", "ses_a")
    add_candidate(host, 2, "b", "ses_b")
    add_candidate(host, 3, "c", "ses_c")
    first, second = store.promote([1]), store.promote([2], "zero\u200bwidth")
    third = store.promote([3])
    store.set_trust("session:ses_a", "untrusted")
    store.edit(third.id, "edited by me")  # its own source joins the session's
    assert sorted(store.list_ids(MemoryFilter(trust="untrusted"))) == [first.id, second.id]
    assert store.list_ids(MemoryFilter(trust="screened")) == [second.id]
    assert store.list_ids(MemoryFilter(trust="semi")) == [third.id]


def test_observed_rewrite_is_recorded_once(backend: Backend) -> None:
    store, host, _ = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "original")
    host.sql("UPDATE user_memories SET content='host version', updated_at=? WHERE id=?", (NOW + 7, memory.id))
    store.observe()
    seen = store.get(memory.id)
    assert seen.rewritten and seen.content_changed_at == NOW + 7
    history = store.history(memory.id)
    observed = [r for r in history if r.source == "observed"]
    assert len(observed) == 1
    assert (observed[0].previous_content, observed[0].new_content, observed[0].changed_at) == (
        "original",
        "host version",
        NOW + 7,
    )
    store.observe()
    assert len([r for r in store.history(memory.id) if r.source == "observed"]) == 1


def test_delete_keeps_revisions_and_restore_brings_it_back(
    backend: Backend,
) -> None:
    store, host, _ = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "keep me")
    store.set_expiry(memory.id, NOW + 99_000)
    revision = store.delete(memory.id)
    with pytest.raises(NotFoundError):
        store.get(memory.id)
    assert [r.kind for r in store.history(memory.id)] == ["create", "expiry", "delete"]
    back = store.restore(memory.id, revision.id)
    assert back.id == memory.id and back.content == "keep me" and back.expires_at == NOW + 99_000
    source_ids = host.query("SELECT source_candidate_ids FROM user_memories WHERE id=?", (memory.id,))[0][0]
    assert isinstance(source_ids, str) and json.loads(source_ids) == [1]


def test_restore_writes_a_new_revision(backend: Backend) -> None:
    store, host, _ = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "v1")
    store.edit(memory.id, "v2")
    first = store.history(memory.id)[0]
    restored = store.restore(memory.id, first.id)
    history = store.history(memory.id)
    assert restored.content == "v1"
    assert [r.source for r in history] == ["dashboard", "dashboard", "restore"]
    assert history[1].new_content == "v2"  # history is never rewritten


def test_writer_records_an_unseen_host_rewrite_first(backend: Backend) -> None:
    store, host, clock = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "original")
    host.sql("UPDATE user_memories SET content='host version', updated_at=? WHERE id=?", (NOW + 5, memory.id))
    clock.advance(60_000)
    store.edit(memory.id, "my version")  # no read in between: the writer itself must notice
    history = store.history(memory.id)
    assert [(r.source, r.previous_content, r.new_content) for r in history[1:]] == [
        ("observed", "original", "host version"),
        ("dashboard", "host version", "my version"),
    ]


def test_update_makes_unreadable_provenance_readable_and_keeps_the_old(
    backend: Backend,
) -> None:
    store, host, _ = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "A")
    broken = (
        '[{"candidate_id":1,"session_id":"ses_a"},{"candidate_id":1,"session_id":"ses_a",'
        '"source_compartment_start":1,"source_compartment_end":2}]'
    )
    host.sql("UPDATE user_memories SET source_candidate_provenance=? WHERE id=?", (broken, memory.id))
    add_candidate(host, 2, "b", "ses_b")
    updated = store.update_content(memory.id, "AB", [2])
    assert host_can_read(updated.provenance_raw)
    assert [e.candidate_id for e in updated.provenance or ()] == [1, 2]
    assert store.history(memory.id)[-1].detail["previous_provenance"] == broken


def test_digest_lists_what_changed_since_the_look_and_import_skips_what_is_here(
    backend: Backend,
) -> None:
    store, host, clock = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "original")
    store.mark_seen()
    host.sql("UPDATE user_memories SET content='host version', updated_at=? WHERE id=?", (NOW + 5, memory.id))
    clock.advance(60_000)
    store.observe()
    digest = store.digest()
    assert [(c.memory_id, c.kind, c.by) for c in digest.changes] == [(memory.id, "rewritten", "observed")]
    store.mark_seen(digest.upto)
    assert not store.digest()
    before = host.profile_version()
    result = store.import_export(parse_export(json.dumps(export_data(store))), "self.json")
    assert (result.imported, [s.from_id for s in result.skipped]) == ([], [memory.id])
    assert host.profile_version() == before


def test_search_ignores_case_and_takes_wildcards_literally(backend: Backend) -> None:
    store, host, _ = backend
    add_candidate(host, 1, "Prefers pnpm", "ses_a")
    add_candidate(host, 2, "100% sure_thing", "ses_a")
    pnpm, sure = store.promote([1]).id, store.promote([2]).id
    assert store.list_ids(MemoryFilter(search="PNPM")) == [pnpm]
    assert store.list_ids(MemoryFilter(search="0% SURE_")) == [sure]
    assert store.list_ids(MemoryFilter(search="p_pm")) == []  # `_` is no wildcard
    assert store.list_ids(MemoryFilter(search="%")) == [sure]
    assert [m.id for m in store.recall("Sure")] == [sure]
    assert store.list_ids(MemoryFilter(search=f"#{pnpm}")) == [pnpm]


def test_blame_and_as_of_after_an_edit_an_outside_rewrite_and_a_delete(backend: Backend) -> None:
    store, host, clock = backend
    add_candidate(host, 1, "a", "ses_a")
    memory = store.promote([1], "Prefers pnpm.")
    clock.advance(1000)
    store.edit(memory.id, "Prefers pnpm. Uses workspaces.")
    host.sql(
        "UPDATE user_memories SET content=?, updated_at=? WHERE id=?",
        ("Prefers pnpm. Uses workspaces. Never yarn.", NOW + 2000, memory.id),
    )
    clock.set(NOW + 3000)
    store.observe()
    blame = store.blame(memory.id)
    assert [(line.text.strip(), line.origin.source) for line in blame.lines] == [
        ("Prefers pnpm.", "dashboard"),
        ("Uses workspaces.", "dashboard"),
        ("Never yarn.", "observed"),
    ]
    assert store.memory_as_of(memory.id, NOW + 1999).content == "Prefers pnpm. Uses workspaces."
    assert store.memory_as_of(memory.id, NOW + 2000).content == "Prefers pnpm. Uses workspaces. Never yarn."
    clock.advance(1000)
    store.delete(memory.id)
    assert [state.memory_id for state in store.profile_as_of(NOW + 2500)] == [memory.id]
    assert store.profile_as_of(clock.now_ms()) == []
    with pytest.raises(NotFoundError):
        store.memory_as_of(memory.id, NOW - 1)  # promoted after that instant


def test_evidence_outlives_the_candidate_and_a_run_undoes_in_one_write_the_log_too(backend: Backend) -> None:
    store, host, clock = backend
    add_candidate(host, 1, "prefers pnpm", "ses_a")
    add_candidate(host, 2, "uses pnpm workspaces", "ses_b")
    memory = store.promote([1], "Prefers pnpm")
    store.observe()  # a look: candidate 2 is archived too
    host.sql("DELETE FROM user_memory_candidates WHERE id = 2")  # the host prunes it
    found = store.evidence([1, 2, 3])
    assert sorted(found) == [1, 2] and found[2].content == "uses pnpm workspaces"
    add_candidate(host, 4, "pnpm in every example", "ses_c")
    verdict = {
        "promote": [],
        "update_existing": [
            {"memory_id": memory.id, "content": "Prefers pnpm everywhere", "candidate_ids": [4]}
        ],
        "dismiss_existing": [],
        "consume_candidate_ids": [4],
    }
    run_id = apply_verdict(store, parse_verdict(verdict)).run_id
    assert store.evidence([4])[4].session_id == "ses_c"  # archived before the run consumed it
    assert [run.run_id for run in store.runs()] == [run_id]
    clock.advance(1_000)
    before = host.profile_version()
    undone = runner.execute(store, UndoRun(run_id), "cli")  # a command in the log (`app.commands`)
    assert [memory_id for memory_id, _ in undone.restored] == [memory.id]
    assert store.get(memory.id).content == "Prefers pnpm"
    assert host.profile_version() == before + 1
    assert runner.undo(store) is not None and store.get(memory.id).content == "Prefers pnpm everywhere"
    assert runner.redo(store) is not None and store.get(memory.id).content == "Prefers pnpm"
    assert host.profile_version() == before + 3  # one bump each
    assert [(entry.kind, entry.done) for entry in runner.history(store)] == [("run-undo", True)]
