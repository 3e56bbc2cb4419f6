"""Merging memories of one project on a file in the host's whole shape: the kept one edited the host's
way, the others archived with `superseded_by_memory_id`, revisions in the project log, links both ways;
undo and redo the host's way; members of two projects refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.commands import runner
from app.commands.merging import MergeProjectMemories
from app.commands.payload import PayloadError
from app.core.clock import ManualClock
from app.core.errors import InvalidInputError
from app.store import MemoryStore
from app.store.links import links_of
from app.store.project.hashing import normalized_hash
from app.store.project.revisions import fetch_history, rows_of
from app.tidy import merge
from tests.support.host80 import ALPHA, BETA, DAY, NOW, T0, add_memory, add_project, build_host80, connect
from tests.support.hostdb import query


@pytest.fixture
def project_db(tmp_path: Path) -> tuple[Path, list[int]]:
    path = build_host80(tmp_path / "context.db")
    with connect(path) as conn:
        add_project(conn, ALPHA, ("ses_alpha1",))
        add_project(conn, BETA, ("ses_beta1",))
        ids = [
            add_memory(conn, ALPHA, "Build with pnpm", category="CONFIG_VALUES", created_at=T0),
            add_memory(
                conn, ALPHA, "Never npm. Build with PNPM!", category="CONFIG_VALUES", created_at=T0 + DAY
            ),
            add_memory(conn, BETA, "Build with pnpm", category="CONFIG_VALUES", created_at=T0),
        ]
    return path, ids


@pytest.fixture
def project_store(project_db: tuple[Path, list[int]]) -> Iterator[MemoryStore]:
    store = MemoryStore.open(project_db[0], clock=ManualClock(NOW))
    yield store
    store.close()


def _row(path: Path, memory_id: int) -> tuple[object, ...]:
    return query(
        path,
        "SELECT content, normalized_hash, status, superseded_by_memory_id FROM memories WHERE id = ?",
        (memory_id,),
    )[0]


def test_project_merge_undo_and_redo(project_store: MemoryStore, project_db: tuple[Path, list[int]]) -> None:
    path, (kept, other, _) = project_db
    plan = merge.plan(project_store, [other, kept], kind="project")
    assert plan.kept == kept and plan.draft == "Build with pnpm. Never npm."
    epoch = query(path, "SELECT project_memory_epoch FROM project_state WHERE project_path = ?", (ALPHA,))
    merge.apply(project_store, plan, plan.draft, "cli", kind="project")
    assert _row(path, kept) == (plan.draft, normalized_hash(plan.draft), "active", None)
    assert _row(path, other)[2:] == ("archived", kept)
    assert (
        query(path, "SELECT project_memory_epoch FROM project_state WHERE project_path = ?", (ALPHA,)) > epoch
    )
    linked = project_store.project.with_links(kept)
    assert linked is not None
    with project_store.read_snapshot() as conn:
        assert [rev.kind for rev in fetch_history(conn, kept)] == ["content"]
        assert [rev.new_status for rev in fetch_history(conn, other)] == ["archived"]
    project_store.close()
    reopened = MemoryStore.open(path, clock=ManualClock(NOW + DAY))
    try:
        with reopened.read_snapshot() as conn:
            found = links_of(conn, "project", [kept, other])
        assert [link.phrase_for(kept) for link in found[kept]] == [f"merged from #{other}"]
        assert [link.phrase_for(other) for link in found[other]] == [f"merged into #{kept}"]
        runner.undo(reopened)
        assert _row(path, kept)[:3] == ("Build with pnpm", normalized_hash("Build with pnpm"), "active")
        assert _row(path, other)[2:] == ("active", None)
        with reopened.read_snapshot() as conn:
            assert links_of(conn, "project", [kept]) == {}
        runner.redo(reopened)
        assert _row(path, kept)[0] == plan.draft and _row(path, other)[2:] == ("archived", kept)
    finally:
        reopened.close()


def test_undo_refused_when_the_host_moved_a_member(
    project_store: MemoryStore, project_db: tuple[Path, list[int]]
) -> None:
    path, (kept, other, _) = project_db
    merge.apply(
        project_store,
        merge.plan(project_store, [kept, other], kind="project"),
        "Pnpm only",
        "cli",
        kind="project",
    )
    with connect(path) as conn:
        conn.execute(
            "UPDATE memories SET content = 'Yarn now', normalized_hash = ? WHERE id = ?",
            (normalized_hash("Yarn now"), kept),
        )
    with pytest.raises(InvalidInputError, match=f"Project memory #{kept} changed since it was merged"):
        runner.undo(project_store)
    assert _row(path, other)[2:] == ("archived", kept)


def test_the_member_that_already_says_it_all_is_kept(
    project_store: MemoryStore, project_db: tuple[Path, list[int]]
) -> None:
    """The host's UNIQUE(project, category, hash) holds archived rows too: a member whose text is the
    draft is the one kept, and keeping another is refused with a message."""
    path, (kept, other, _) = project_db
    with connect(path) as conn:
        whole = add_memory(
            conn, ALPHA, "build with PNPM. Never npm", category="CONFIG_VALUES", created_at=T0 + 2 * DAY
        )
    plan = merge.plan(project_store, [kept, whole], kind="project")
    assert plan.kept == whole
    forced = merge.plan(project_store, [kept, whole], into=kept, kind="project")
    with pytest.raises(InvalidInputError, match=f"keep #{whole} instead"):
        merge.apply(project_store, forced, forced.draft, "cli", kind="project")
    assert _row(path, whole)[2] == "active" and other


def test_members_of_two_projects_are_refused(
    project_store: MemoryStore, project_db: tuple[Path, list[int]]
) -> None:
    _, (kept, _, elsewhere) = project_db
    with pytest.raises(InvalidInputError, match="only memories of one project"):
        merge.plan(project_store, [kept, elsewhere], kind="project")


def _merged_from(path: Path, memory_id: int) -> object:
    return query(path, "SELECT merged_from FROM memories WHERE id = ?", (memory_id,))[0][0]


def test_a_merge_writes_merged_from_the_hosts_way_and_undo_puts_it_back(
    project_store: MemoryStore, project_db: tuple[Path, list[int]]
) -> None:
    path, (kept, other, _) = project_db
    with connect(path) as conn:  # each already made from others: their lineage stays
        conn.execute("UPDATE memories SET merged_from = '[90]' WHERE id = ?", (kept,))
        conn.execute("UPDATE memories SET merged_from = ? WHERE id = ?", (f"[91, {kept}]", other))
        third = add_memory(conn, ALPHA, "pnpm, not npm", category="CONFIG_VALUES", created_at=T0 + 3 * DAY)
    merge.apply(
        project_store,
        merge.plan(project_store, [kept, other, third], kind="project"),
        "Pnpm",
        "cli",
        kind="project",
    )
    lineage = f"[90,{other},91,{third}]"  # JSON.stringify's shape; the kept memory never lists itself
    assert _merged_from(path, kept) == lineage
    project_store.observe()  # a later look
    with project_store.read_snapshot() as conn:
        (revision,) = fetch_history(conn, kept)  # the text and merged_from: one revision, nothing observed
        before, after = rows_of(conn, revision.id)
    assert before is not None and after is not None
    assert (revision.kind, before["merged_from"], after["merged_from"]) == ("content", "[90]", lineage)
    project_store.close()
    reopened = MemoryStore.open(path, clock=ManualClock(NOW + DAY))
    try:
        runner.undo(reopened)  # from the command's logged payload
        assert _merged_from(path, kept) == "[90]" and _row(path, kept)[0] == "Build with pnpm"
        runner.redo(reopened)
        assert _merged_from(path, kept) == lineage
        with connect(path) as conn:
            conn.execute("UPDATE memories SET merged_from = '[90]' WHERE id = ?", (kept,))
        with pytest.raises(InvalidInputError, match=f"Project memory #{kept} changed since it was merged"):
            runner.undo(reopened)
    finally:
        reopened.close()


def test_a_merge_logged_before_merges_wrote_merged_from_still_loads() -> None:
    logged = {"kept": 1, "text_before": "a", "text_after": "b", "statuses_before": {"2": "active"}}
    state = MergeProjectMemories.load(logged).state
    assert state is not None and state.merged_from_after is None  # its undo leaves merged_from be
    now = MergeProjectMemories.load({**logged, "merged_from_before": None, "merged_from_after": "[2]"}).state
    assert now is not None and (now.merged_from_before, now.merged_from_after) == (None, "[2]")
    with pytest.raises(PayloadError, match="must hold exactly"):
        MergeProjectMemories.load({**logged, "merged_from_after": "[2]"})
