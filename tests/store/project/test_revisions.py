"""The project-memory revision log and seen copy (`app.store.project.revisions`) on a host file of
schema v80 with our tables migrated: a write recorded with its rows before and after, read back in
order; the seen copy follows the row; links (`app.store.links`) read from both ends."""

from __future__ import annotations

from pathlib import Path

from app.core.models.links import Relation, grouped_phrases
from app.store.connect.engine import OpenedDatabase, transaction
from app.store.links import add_link, drop_links_made_by, links_of
from app.store.project import revisions, writes
from app.store.project.reads import fetch_memory
from app.store.schema.migrate import upgrade
from app.store.write.revision_log import WriteContext
from tests.support.host80 import NOW, Seeded
from tests.support.hostdb import query


def test_a_write_is_recorded_with_both_rows_and_read_back(
    host80: Path, seeded: Seeded, database: OpenedDatabase
) -> None:
    upgrade(database.engine, database.location)
    with transaction(database.engine, write=True, location=database.location) as conn:
        ctx = WriteContext(conn, NOW)
        done = writes.change_category(conn, seeded.active, "BUILD", NOW)
        first = revisions.record(ctx, "category", "dashboard", done.before, done.after)
        revisions.mark_seen(ctx, seeded.active)
        done = writes.edit_content(conn, seeded.active, "Build with pnpm only", NOW + 1)
        revisions.record(ctx, "content", "dashboard", done.before, done.after, changed_at=NOW + 1)
        revisions.mark_seen(ctx, seeded.active)
    with transaction(database.engine, write=False, location=database.location) as conn:
        history = revisions.fetch_history(conn, seeded.active)
        before, after = revisions.rows_of(conn, first)
        now = fetch_memory(conn, seeded.active)
    assert [item.kind for item in history] == ["category", "content"]
    assert history[1].previous_content == "Build with pnpm, never npm"
    assert history[1].new_content == "Build with pnpm only"
    assert before is not None and before["category"] == "CONFIG_VALUES"
    assert after is not None and after["category"] == "BUILD"
    assert now is not None
    seen = query(
        host80,
        "SELECT content, category, updated_at FROM mdash_project_seen WHERE memory_id = ?",
        (seeded.active,),
    )
    assert seen == [("Build with pnpm only", "BUILD", now.updated_at)]


def test_links_read_from_both_ends_and_go_with_their_change(database: OpenedDatabase) -> None:
    upgrade(database.engine, database.location)
    with transaction(database.engine, write=True, location=database.location) as conn:
        ctx = WriteContext(conn, NOW)
        add_link(ctx, "user", 7, 12, Relation.MERGED_INTO, "command:1")
        add_link(ctx, "user", 9, 12, Relation.MERGED_INTO, "command:1")
        add_link(ctx, "project", 7, 3, Relation.SUPERSEDES, "command:2")
    with transaction(database.engine, write=False, location=database.location) as conn:
        found = links_of(conn, "user", [7, 12, 3])
    assert grouped_phrases(12, found[12]) == ["merged from #7, #9"]
    assert grouped_phrases(7, found[7]) == ["merged into #12"]
    assert 3 not in found  # the project memory #3's link is not a user memory's
    with transaction(database.engine, write=True, location=database.location) as conn:
        assert drop_links_made_by(WriteContext(conn, NOW), "command:1") == 2
    with transaction(database.engine, write=False, location=database.location) as conn:
        assert links_of(conn, "user", [12]) == {}
        assert grouped_phrases(3, links_of(conn, "project", [3])[3]) == ["superseded by #7"]
