"""Merging user memories on a real host file: the preview, Apply as one command (one write, one profile
bump), the host's provenance still readable, links both ways after reopening, blame of a merged
sentence, as-of before the merge, undo and redo, and an undo refused when a member changed since."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.commands import runner
from app.core.clock import ManualClock
from app.core.errors import ConflictError, InvalidInputError
from app.core.models.blame import origin_label
from app.core.provenance import host_can_read, parse_provenance
from app.store import MemoryStore
from app.store.links import links_of
from app.tidy import merge
from app.tidy.merge_plan import MergeMember, draft_text, plan_merge
from tests.commands.test_commands import begun
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import DAY, PROMOTED_5, build_host_db, host_sql, memory_row, profile_version, query

DRAFT = "Prefers pnpm. Uses pnpm workspaces in monorepos"


def _provenance(candidate: int, session: str) -> list[dict[str, object]]:
    return [
        {
            "candidate_id": candidate,
            "session_id": session,
            "source_compartment_start": 1,
            "source_compartment_end": 2,
        }
    ]


@pytest.fixture
def merge_db(tmp_path: Path) -> Path:
    """The seed (#5 "Prefers pnpm", candidates 46-48) with an exact duplicate #6 and a longer #7."""
    path = build_host_db(tmp_path / "context.db")
    conn = sqlite3.connect(path)
    with conn:
        memory_row(
            conn,
            6,
            "prefers  PNPM.",
            promoted_at=PROMOTED_5 + DAY,
            ids=[60],
            provenance=_provenance(60, "ses_six"),
        )
        memory_row(
            conn,
            7,
            "Prefers pnpm. Uses pnpm workspaces in monorepos",
            promoted_at=PROMOTED_5 + 2 * DAY,
            ids=[70],
            provenance=_provenance(70, "ses_seven"),
        )
    conn.close()
    return path


@pytest.fixture
def merge_store(merge_db: Path) -> Iterator[MemoryStore]:
    store = MemoryStore.open(merge_db, clock=ManualClock(REVIEW_TIME))
    yield store
    store.close()


def test_the_draft_says_each_sentence_once() -> None:
    members = [
        MergeMember(1, "Prefers pnpm over npm", 1),
        MergeMember(2, "prefers  PNPM over npm.", 2),
        MergeMember(3, "Uses pnpm workspaces. Prefers pnpm over npm!", 3),
    ]
    text, origins = draft_text(members)
    assert text == "Prefers pnpm over npm. Uses pnpm workspaces."
    assert origins == (("Prefers pnpm over npm", 1), ("Uses pnpm workspaces.", 3))


def test_the_plan_keeps_the_oldest_unless_told() -> None:
    members = [
        MergeMember(9, "B", 20, (3,)),
        MergeMember(4, "A", 10, (1, 2)),
        MergeMember(7, "C", 30, (2, 5)),
    ]
    plan = plan_merge(members)
    assert plan.kept == 4 and plan.absorbed == (9, 7)
    assert plan.candidate_ids == (1, 2, 3, 5)  # promotion order, each once
    assert plan_merge(members, into=7).kept == 7
    with pytest.raises(InvalidInputError, match="#8"):
        plan_merge(members, into=8)
    with pytest.raises(InvalidInputError):
        plan_merge(members[:1])


def test_merge_is_one_write_and_one_bump(merge_store: MemoryStore, merge_db: Path) -> None:
    plan = merge.plan(merge_store, [7, 6, 5])
    assert plan.kept == 5 and plan.draft == DRAFT
    assert plan.candidate_ids == (46, 47, 48, 60, 70)
    version = profile_version(merge_db)
    with begun(merge_store) as transactions:
        merge.apply(merge_store, plan, plan.draft, "cli")
    assert len(transactions) == 1
    assert profile_version(merge_db) == version + 1
    assert [(m.content, m.status) for m in merge_store.get_many([5, 6, 7])] == [
        (DRAFT, "active"),
        ("prefers  PNPM.", "dismissed"),
        ("Prefers pnpm. Uses pnpm workspaces in monorepos", "dismissed"),
    ]
    ids_raw, provenance_raw = query(
        merge_db, "SELECT source_candidate_ids, source_candidate_provenance FROM user_memories WHERE id = 5"
    )[0]
    assert json.loads(str(ids_raw)) == [46, 47, 48, 60, 70]
    assert isinstance(provenance_raw, str) and host_can_read(provenance_raw)
    entries = parse_provenance(provenance_raw)
    assert entries is not None
    assert [(e.candidate_id, e.session_id) for e in entries][-2:] == [(60, "ses_six"), (70, "ses_seven")]


def test_links_blame_and_as_of_after_reopening(merge_store: MemoryStore, merge_db: Path) -> None:
    merge_store.observe()  # the first look (the window's, the CLI's): what as-of knows from
    plan = merge.plan(merge_store, [5, 6, 7])
    merge_store.clock.advance(DAY)  # type: ignore[attr-defined]
    merge.apply(merge_store, plan, plan.draft, "window")
    merge_store.close()
    store = MemoryStore.open(merge_db, clock=ManualClock(REVIEW_TIME + 2 * DAY))
    try:
        with store.read_snapshot() as conn:
            found = links_of(conn, "user", [5, 6, 7])
        assert [link.phrase_for(5) for link in found[5]] == ["merged from #6", "merged from #7"]
        assert [link.phrase_for(7) for link in found[7]] == ["merged into #5"]
        lines = {line.text.strip(): line.origin for line in store.blame(5).lines}
        merged = lines["Uses pnpm workspaces in monorepos"]
        assert merged.merged_from == 7 and merged.candidate_ids == (70,)
        assert origin_label(merged).endswith("merged from #7")
        assert lines["Prefers pnpm."].merged_from is None  # the kept memory's own sentence
        before = {m.memory_id: (m.content, m.status) for m in store.as_of(REVIEW_TIME + DAY - 1, [5, 6, 7])}
        assert before[6] == ("prefers  PNPM.", "active") and before[5] == ("Prefers pnpm", "active")
    finally:
        store.close()


def test_undo_and_redo(merge_store: MemoryStore, merge_db: Path) -> None:
    plan = merge.plan(merge_store, [5, 6, 7])
    merge.apply(merge_store, plan, "Prefers pnpm, with workspaces", "cli")
    version = profile_version(merge_db)
    step = runner.undo(merge_store)
    assert step is not None and profile_version(merge_db) == version + 1
    assert [(m.content, m.status) for m in merge_store.get_many([5, 6, 7])] == [
        ("Prefers pnpm", "active"),
        ("prefers  PNPM.", "active"),
        ("Prefers pnpm. Uses pnpm workspaces in monorepos", "active"),
    ]
    with merge_store.read_snapshot() as conn:
        assert links_of(conn, "user", [5]) == {}
    runner.redo(merge_store)
    assert merge_store.get(5).content == "Prefers pnpm, with workspaces"
    assert merge_store.get(6).status == "dismissed"
    with merge_store.read_snapshot() as conn:
        assert len(links_of(conn, "user", [5])[5]) == 2


def test_undo_refused_when_a_member_changed(merge_store: MemoryStore, merge_db: Path) -> None:
    plan = merge.plan(merge_store, [5, 6])
    merge.apply(merge_store, plan, plan.draft, "cli")
    host_sql(merge_db, "UPDATE user_memories SET status = 'active', updated_at = updated_at + 1 WHERE id = 6")
    with pytest.raises(ConflictError, match="Memory #6 changed since it was merged"):
        runner.undo(merge_store)
    assert merge_store.get(5).content == plan.draft
    with merge_store.read_snapshot() as conn:
        assert len(links_of(conn, "user", [5])[5]) == 1
