"""Blame on real host-shaped databases, a file and PostgreSQL (`seeded_host`): after an edit, a review's
rewrite, a restore and an outside rewrite."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.clock import ManualClock
from app.core.errors import NotFoundError
from app.core.models import RevisionSource
from app.core.models.blame import Blame, origin_label
from app.review.apply import apply_verdict
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from app.store.past.blame import FIRST_SEEN, units
from tests.review.review_helpers import SEED_UPDATE_IDS
from tests.support.hostdb import HOUR
from tests.support.pg_host import HostDb
from tests.support.runs_helpers import host_has_it_open


def texts(blame: Blame) -> list[tuple[str, str]]:
    return [(line.text.strip(), line.origin.source) for line in blame.lines]


def test_first_seen_text_is_not_guessed(seeded_store: MemoryStore, clock: ManualClock) -> None:
    store = seeded_store
    store.observe()
    blame = store.blame(4)
    (line,) = blame.lines
    assert line.text == "Lives in Berlin (CET)"
    assert line.origin.source == FIRST_SEEN and line.origin.revision_id is None
    assert line.origin.at == clock.now_ms()  # when the dashboard first saw it
    assert origin_label(line.origin).startswith("as first seen on 2026-10-21")


def test_edit_then_review_then_restore(seeded_store: MemoryStore, clock: ManualClock) -> None:
    store = seeded_store
    store.observe()
    clock.advance(HOUR)
    edited = store.edit(5, "Prefers pnpm. Uses workspaces.")
    edit_rev = store.history(5)[-1].id
    clock.advance(HOUR)
    document = {
        "promote": [],
        "update_existing": [
            {
                "memory_id": 5,
                "content": "Prefers pnpm. Uses workspaces. Never yarn in examples.",
                "candidate_ids": list(SEED_UPDATE_IDS),
            }
        ],
        "dismiss_existing": [],
        "consume_candidate_ids": list(SEED_UPDATE_IDS),
    }
    apply_verdict(store, parse_verdict(document), run_id="run-9", holder="test")
    review_rev = store.history(5)[-1]
    blame = store.blame(5)
    assert texts(blame) == [
        ("Prefers pnpm.", RevisionSource.DASHBOARD),
        ("Uses workspaces.", RevisionSource.DASHBOARD),
        ("Never yarn in examples.", RevisionSource.REVIEW),
    ]
    assert [line.origin.revision_id for line in blame.lines] == [edit_rev, edit_rev, review_rev.id]
    assert blame.lines[2].origin.run_id == "run-9"
    assert blame.lines[2].origin.candidate_ids == SEED_UPDATE_IDS
    # The review consumed those candidates (the host's pool no longer has them): their words come from
    # the evidence archive.
    assert [blame.evidence[item].session_id for item in SEED_UPDATE_IDS] == [
        "ses_c3f1",
        "ses_c3f1",
        "ses_d9e2",
        "ses_d9e2",
    ]
    assert origin_label(blame.lines[2].origin) == "review run run-9"
    assert "".join(line.text for line in blame.lines) == store.get(5).content

    clock.advance(HOUR)
    store.restore(5, edit_rev)  # back to the edited text: the review's sentence goes, the others stay
    blame = store.blame(5)
    assert texts(blame) == [
        ("Prefers pnpm.", RevisionSource.DASHBOARD),
        ("Uses workspaces.", RevisionSource.DASHBOARD),
    ]
    assert edited.content == store.get(5).content


def test_restore_owns_the_sentences_it_brings_back(seeded_store: MemoryStore, clock: ManualClock) -> None:
    store = seeded_store
    store.observe()
    clock.advance(HOUR)
    store.edit(4, "Lives in Berlin (CET). Works remotely.")
    clock.advance(HOUR)
    store.edit(4, "Lives in Hamburg. Works remotely.")
    first = store.history(4)[0].id
    clock.advance(HOUR)
    store.restore(4, first)
    restored = store.history(4)[-1]
    blame = store.blame(4)
    assert [line.origin.revision_id for line in blame.lines] == [restored.id, first]
    assert blame.lines[0].origin.source == RevisionSource.RESTORE
    assert origin_label(blame.lines[0].origin) == "restore"


def test_outside_rewrite_is_the_hosts(
    seeded_store: MemoryStore, seeded_host: HostDb, clock: ManualClock
) -> None:
    store = seeded_store
    store.observe()
    clock.advance(HOUR)
    seeded_host.sql(
        "UPDATE user_memories SET content = ?, updated_at = ? WHERE id = 1",
        ("Works mostly in Python and TypeScript\nAvoids Java.", clock.now_ms()),
    )
    store.observe()  # the rewrite recorded first
    blame = store.blame(1)
    assert texts(blame) == [
        ("Works mostly in Python and TypeScript", FIRST_SEEN),
        ("Avoids Java.", RevisionSource.OBSERVED),
    ]
    assert origin_label(blame.lines[1].origin) == "host (observed)"


def test_multi_line_content_is_blamed_by_line(seeded_store: MemoryStore, clock: ManualClock) -> None:
    store = seeded_store
    store.observe()
    clock.advance(HOUR)
    store.edit(4, "Lives in Berlin (CET).\nCommutes by bike. Likes trains.\nSpeaks German.")
    first = store.history(4)[-1].id
    clock.advance(HOUR)
    store.edit(4, "Lives in Berlin (CET).\nCommutes by bike. Likes planes.\nSpeaks German.")
    second = store.history(4)[-1].id
    blame = store.blame(4)
    assert [line.text for line in blame.lines] == [
        "Lives in Berlin (CET).\n",
        "Commutes by bike. Likes planes.\n",
        "Speaks German.",
    ]
    assert [line.origin.revision_id for line in blame.lines] == [first, second, first]


def test_evidence_words_of_the_candidates_cited(seeded_store: MemoryStore, clock: ManualClock) -> None:
    store = seeded_store
    store.observe()
    clock.advance(HOUR)
    store.update_content(4, "Lives in Berlin (CET). Runs pytest -q.", [151], run_id="run-2", source="review")
    blame = store.blame(4)
    assert blame.lines[1].origin.candidate_ids == (151,)
    assert blame.evidence[151].content == "Runs tests with pytest -q before committing"
    assert blame.to_json()[1]["evidence"] == [
        {
            "candidate_id": 151,
            "content": "Runs tests with pytest -q before committing",
            "session_id": "ses_e004",
            "archived_at": clock.now_ms() - HOUR,  # archived by the first look
            "created_at": 1_792_249_080_000,
            "source_compartment_start": 1,
            "source_compartment_end": 2,
        }
    ]


def test_evidence_from_the_pool_was_never_archived(host_db: Path, clock: ManualClock) -> None:
    # A store without the archive table reads a cited candidate's words from the host's pool: the same
    # `Evidence`, with no archiving instant to claim (null in JSON).
    store = MemoryStore.open(host_db, clock=clock)
    store.observe()
    clock.advance(HOUR)
    store.update_content(4, "Lives in Berlin (CET). Runs pytest -q.", [151], run_id="r", source="review")
    store.close()
    conn = sqlite3.connect(host_db)
    with conn:
        conn.execute("DROP TABLE mdash_evidence")  # our own table, as before the archive's migration
    conn.close()
    store = MemoryStore.open(host_db, clock=clock)
    try:
        blame = store.blame(4)
    finally:
        store.close()
    found = blame.evidence[151]
    assert (found.content, found.session_id, found.archived_at) == (
        "Runs tests with pytest -q before committing",
        "ses_e004",
        None,
    )
    assert blame.evidence_json(151)["archived_at"] is None
    assert blame.evidence_json(151)["created_at"] == 1_792_249_080_000


def test_deleted_memory_blames_its_last_text(seeded_store: MemoryStore, clock: ManualClock) -> None:
    store = seeded_store
    store.observe()
    clock.advance(HOUR)
    store.edit(4, "Lives in Berlin. Bikes.")
    clock.advance(HOUR)
    store.delete(4)
    assert [line.text.strip() for line in store.blame(4).lines] == ["Lives in Berlin.", "Bikes."]
    with pytest.raises(NotFoundError):
        store.blame(999)


def test_read_only_store_blames_what_it_observed(seeded_host: HostDb, clock: ManualClock) -> None:
    with host_has_it_open(seeded_host):  # the host has the file open: a read-only store reads it live
        store = MemoryStore.open(seeded_host.target, clock=clock, read_only=True)
        try:
            store.observe()
            seeded_host.sql("UPDATE user_memories SET content = 'Prefers tabs. Always.' WHERE id = 2")
            store.observe()
            blame = store.blame(2)
            assert texts(blame) == [
                ("Prefers tabs.", RevisionSource.OBSERVED),
                ("Always.", RevisionSource.OBSERVED),
            ]
            assert blame.lines[0].origin.revision_id is not None and blame.lines[0].origin.revision_id < 0
        finally:
            store.close()


@given(st.text(alphabet=st.sampled_from("ab. !?\n\r…"), max_size=40))
def test_units_give_the_text_back(text: str) -> None:
    assert "".join(units(text)) == text
