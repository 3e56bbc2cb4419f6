"""The evidence archive on real databases, a host-shaped file and PostgreSQL (`seeded_host`): every
candidate the dashboard saw keeps its words after the host deletes it, whoever deletes it (the host, a
review, a person's triage); read-only stores keep theirs in memory. Cells only SQLite can hold and a table
without AUTOINCREMENT are tested on the file.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from app.core.clock import ManualClock
from app.core.models.evidence import NOT_ARCHIVED, evidence_words
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryFilter, MemoryStore
from tests.conftest import REVIEW_TIME
from tests.review.review_helpers import SEED_UPDATE_IDS, seed_verdict, verdict
from tests.support.hostdb import PENDING, host_sql, query
from tests.support.pg_host import HostDb, SqliteHostDb
from tests.support.runs_helpers import host_has_it_open

WORDS = {cid: content for cid, content, *_ in PENDING}


def host_adds(host: HostDb, candidate_id: int, content: str) -> None:
    host.sql(
        "INSERT INTO user_memory_candidates (id, content, session_id, created_at)"
        " VALUES (?, ?, 'ses_new', 1)",
        (candidate_id, content),
    )


def host_deletes(host: HostDb, ids: list[int]) -> None:
    """The host's own process: its own connection, one transaction, deletes candidates (pruning them)."""
    host.script([("DELETE FROM user_memory_candidates WHERE id = ?", (i,)) for i in ids])


def host_promotes(host: HostDb, memory_id: int, ids: list[int]) -> None:
    """The host's own promotion: in one transaction of its own connection, a memory with the candidates'
    provenance, then the candidates deleted."""
    marks = ",".join("?" * len(ids))
    rows = host.query(f"SELECT id, session_id FROM user_memory_candidates WHERE id IN ({marks})", tuple(ids))
    provenance = [
        {
            "candidate_id": i,
            "session_id": s,
            "source_compartment_start": None,
            "source_compartment_end": None,
        }
        for i, s in rows
    ]
    insert = (
        "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids,"
        " source_candidate_provenance, created_at, updated_at)"
        " VALUES (?, 'Host promoted', 'active', 1, ?, ?, 1, 1)"
    )
    host.script(
        [
            (insert, (memory_id, json.dumps(ids), json.dumps(provenance))),
            *[("DELETE FROM user_memory_candidates WHERE id = ?", (i,)) for i in ids],
        ]
    )


def own_table_names(host: HostDb) -> list[str]:
    """The dashboard's tables in the database (none in one only a read-only store opened)."""
    catalog = (
        "SELECT name FROM sqlite_master WHERE name LIKE 'mdash_%'"
        if host.dialect == "sqlite"
        else "SELECT tablename FROM pg_tables"
        " WHERE schemaname = current_schema() AND tablename LIKE 'mdash_%'"
    )
    return [str(row[0]) for row in host.query(catalog)]


def test_every_provenance_id_the_dashboard_saw_keeps_its_words(
    seeded_store: MemoryStore, seeded_host: HostDb
) -> None:
    store, host_db = seeded_store, seeded_host
    store.observe()  # the dashboard looks: every pending candidate is archived
    host_promotes(host_db, 60, [151, 152])  # the host consumes two
    host_deletes(host_db, [146])  # and prunes one
    update = {"memory_id": 5, "content": "Prefers pnpm, workspaces", "candidate_ids": [141, 143, 145]}
    apply_verdict(store, parse_verdict(verdict(update_existing=[update], consume=[141, 143, 145])))
    store.observe()
    memories = store.list_memories(MemoryFilter(status="all"))
    named = {entry.candidate_id for memory in memories for entry in memory.provenance or ()}
    assert {141, 143, 145, 151, 152} <= named
    assert store.evidence([146])[146].content == WORDS[146]  # pruned, in no provenance: still archived
    found = store.evidence(sorted(named))
    for candidate_id in named & set(WORDS):  # every id the dashboard saw
        assert found[candidate_id].content == WORDS[candidate_id]
    assert not {46, 47, 48} & set(found)  # consumed before the dashboard first opened the file


def test_candidates_deleted_by_the_host_and_consumed_by_a_review_keep_their_words(
    seeded_store: MemoryStore, seeded_host: HostDb
) -> None:
    store, host_db = seeded_store, seeded_host
    store.observe()  # the dashboard looks at the file
    host_deletes(host_db, [151, 152])  # pruned by the host after the look
    result = apply_verdict(store, parse_verdict(seed_verdict()))
    assert result.consumed == len(SEED_UPDATE_IDS)
    assert host_db.query("SELECT count(*) FROM user_memory_candidates") == [(0,)]
    memory = store.get(5)
    found = store.evidence([*memory.source_candidate_ids, 151, 152])
    for candidate_id in (*SEED_UPDATE_IDS, 151, 152):
        assert found[candidate_id].content == WORDS[candidate_id]
        assert found[candidate_id].archived_at == REVIEW_TIME
    assert found[141].session_id == "ses_c3f1"
    assert (found[145].compartment_start, found[145].compartment_end) == (2, None)
    # 46, 47 and 48 were consumed before the dashboard first opened the file
    assert not {46, 47, 48} & set(found)
    assert evidence_words(found.get(46)) == NOT_ARCHIVED


def test_the_review_archives_candidates_added_after_the_last_look(
    seeded_store: MemoryStore, seeded_host: HostDb
) -> None:
    store, host_db = seeded_store, seeded_host
    store.observe()
    host_adds(host_db, 160, "Likes short answers")
    promotion = parse_verdict(
        {
            "promote": [{"content": "Likes short answers", "candidate_ids": [160]}],
            "consume_candidate_ids": [160],
        }
    )
    apply_verdict(store, promotion)  # no look in between: the apply itself archives before consuming
    assert store.evidence([160])[160].content == "Likes short answers"


def test_observing_archives_the_pool_before_it_is_shown(
    seeded_store: MemoryStore, seeded_host: HostDb
) -> None:
    """Whoever shows the pool observes first (the CLI's opener, the window's watch, the review's prompt):
    a candidate shown then keeps its words after the host consumes it."""
    store, host_db = seeded_store, seeded_host
    host_adds(host_db, 180, "Prefers tabs")
    store.observe()
    shown = {c.id: c.content for c in store.candidates()}
    assert shown[180] == "Prefers tabs"
    host_deletes(host_db, [180])
    assert store.evidence([180])[180].content == "Prefers tabs"


def test_manual_promote_merge_and_discard_archive_before_consuming(
    seeded_store: MemoryStore, seeded_host: HostDb
) -> None:
    store, host_db = seeded_store, seeded_host
    host_adds(host_db, 170, "fresh")
    promoted = store.promote([170])  # never looked at: the triage write archives first
    store.merge_candidates(promoted.id, [141])
    store.discard_candidates([152])
    found = store.evidence([170, 141, 152])
    assert [found[i].content for i in (170, 141, 152)] == ["fresh", WORDS[141], WORDS[152]]


def test_odd_candidate_rows_are_archived_as_they_are_and_shown_escaped(
    store: MemoryStore, host_db: Path
) -> None:
    conn = sqlite3.connect(host_db)
    conn.execute(
        "INSERT INTO user_memory_candidates VALUES"
        " (180, CAST(x'6869ff0a' AS TEXT), x'00ff', 'a', 2.5, 'yesterday')"
    )
    conn.execute("INSERT INTO user_memory_candidates VALUES (181, 42, 'ses\u202e', NULL, NULL, 1)")
    conn.commit()
    conn.close()
    store.observe()
    host_deletes(SqliteHostDb(host_db), [180, 181])
    raw = query(
        host_db,
        "SELECT typeof(content), hex(content), typeof(session_id), typeof(source_compartment_start),"
        " typeof(created_at) FROM mdash_evidence WHERE candidate_id = 180",
    )
    assert raw == [("text", "6869FF0A", "blob", "text", "text")]  # kept exactly as the host held it
    assert query(host_db, "SELECT typeof(content) FROM mdash_evidence WHERE candidate_id = 181") == [
        ("text",)
    ]
    found = store.evidence([180, 181])
    assert found[180].content == "hi\ufffd\n" and found[180].oddities
    assert found[181].content == "42"
    assert "\u202e" not in evidence_words(found[181])  # the bidi control is shown, not obeyed
    assert "(malformed)" in evidence_words(found[180])


def test_a_look_with_nothing_new_writes_nothing(seeded_store: MemoryStore, seeded_host: HostDb) -> None:
    store, host_db = seeded_store, seeded_host
    store.observe()
    archived = host_db.query("SELECT candidate_id, first_seen_at FROM mdash_evidence ORDER BY 1")
    host_db.sql("UPDATE dream_state SET value = value WHERE 1 = 0")  # a commit by someone else
    host_db.sql("INSERT INTO dream_state VALUES ('other', 'x')")
    store.observe()
    assert host_db.query("SELECT candidate_id, first_seen_at FROM mdash_evidence ORDER BY 1") == archived
    assert [row[0] for row in archived] == sorted(WORDS)


def test_nothing_is_written_to_the_host_tables(seeded_store: MemoryStore, seeded_host: HostDb) -> None:
    before = seeded_host.query("SELECT * FROM user_memory_candidates ORDER BY id")
    seeded_store.observe()
    assert seeded_host.query("SELECT * FROM user_memory_candidates ORDER BY id") == before


def test_a_read_only_store_keeps_its_archive_in_memory(seeded_host: HostDb, clock: ManualClock) -> None:
    host_db = seeded_host
    with host_has_it_open(host_db):  # read live: the store sees the host's later commits
        read_only = MemoryStore.open(host_db.target, read_only=True, clock=clock)
        try:
            read_only.observe()
            host_adds(host_db, 200, "added after the first look")
            read_only.observe()  # a later look keeps only what is new
            host_deletes(host_db, [141, 143, 200])
            read_only.observe()
            found = read_only.evidence([141, 143, 200, 46])
            assert found[141].content == WORDS[141] and found[143].content == WORDS[143]
            assert found[200].content == "added after the first look"
            assert 46 not in found
        finally:
            read_only.close()
    assert own_table_names(host_db) == []  # wrote nothing


def test_a_read_only_store_reads_the_stored_archive_too(seeded_host: HostDb, clock: ManualClock) -> None:
    host_db = seeded_host
    writable = MemoryStore.open(host_db.target, clock=clock)
    writable.observe()
    writable.close()
    host_deletes(host_db, [141])
    host_adds(host_db, 190, "later")
    read_only = MemoryStore.open(host_db.target, read_only=True, clock=clock)
    try:
        read_only.observe()
        host_deletes(host_db, [190])
        found = read_only.evidence([141, 190])
        assert found[141].content == WORDS[141] and found[190].content == "later"
    finally:
        read_only.close()
    assert host_db.query("SELECT count(*) FROM mdash_evidence WHERE candidate_id = 190") == [(0,)]


def test_without_autoincrement_a_reused_id_below_the_watermark_is_still_found(tmp_path: Path) -> None:
    path = tmp_path / "plain.db"
    conn = sqlite3.connect(path)
    schema = query_schema_without_autoincrement()
    conn.executescript(schema)
    conn.execute("INSERT INTO user_memory_candidates VALUES (1, 'one', 's', NULL, NULL, 1)")
    conn.execute("INSERT INTO user_memory_candidates VALUES (5, 'five', 's', NULL, NULL, 1)")
    conn.commit()
    conn.close()
    store = MemoryStore.open(path, clock=ManualClock(REVIEW_TIME))
    try:
        store.observe()
        host_sql(path, "INSERT INTO user_memory_candidates VALUES (3, 'three', 's', NULL, NULL, 1)")
        store.observe()
        assert store.evidence([3])[3].content == "three"
    finally:
        store.close()


def query_schema_without_autoincrement() -> str:
    from app.store.connect.engine import host_schema_sql

    return host_schema_sql().replace("AUTOINCREMENT", "")
