"""The project list (identities, names, counts, who owns them) and what the host injects at an instant."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection

from app.store.connect.engine import open_sqlite_file, transaction
from app.store.project.authority import MANAGED_REASON, REPAIR_REASON
from app.store.project.injection import injected
from app.store.project.projects import display_name, list_projects
from app.store.project.reads import fetch_project
from tests.support.host80 import ALPHA, BETA, DAY, MANAGED, NOW, REPAIRING, T0, Seeded, add_memory, connect


def test_every_project_with_its_name_counts_and_owner(reading: Connection, seeded: Seeded) -> None:
    projects = {project.identity: project for project in list_projects(reading)}
    assert set(projects) == {ALPHA, BETA, MANAGED, REPAIRING}
    alpha, beta = projects[ALPHA], projects[BETA]
    assert (alpha.display_name, alpha.memory_count, alpha.session_count) == (ALPHA, 18, 2)
    assert (beta.display_name, beta.memory_count, beta.session_count, beta.key) == ("beta", 1, 1, BETA)
    assert projects[MANAGED].read_only_reason == MANAGED_REASON
    assert projects[REPAIRING].read_only_reason == REPAIR_REASON
    assert alpha.read_only_reason is None


def test_the_hosts_own_name_wins(host80: Path, seeded: Seeded) -> None:
    with connect(host80) as conn:
        conn.execute("INSERT INTO workspaces (name, created_at, updated_at) VALUES ('w', 1, 1)")
        conn.execute(
            "INSERT INTO workspace_members VALUES (1, ?, 'Alpha service', '/home/ana/src/alpha', 1)", (ALPHA,)
        )
    conn.close()
    opened = open_sqlite_file(host80, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as reading:
            names = {project.identity: project.display_name for project in list_projects(reading)}
    finally:
        opened.close()
    assert names[ALPHA] == "Alpha service"


def test_names_from_paths() -> None:
    assert display_name("dir:/home/ana/src/beta/", {}) == "beta"
    assert display_name("C:\\src\\gamma", {}) == "gamma"
    assert display_name("git:abc", {}) == "git:abc"


def test_a_project_path_that_is_not_utf8_can_still_be_opened(host80: Path) -> None:
    with connect(host80) as conn:
        add_memory(conn, "placeholder", "Odd path memory")
        conn.execute("UPDATE memories SET project_path = CAST(? AS TEXT)", (b"dir:/srv/\xffodd",))
    conn.close()
    opened = open_sqlite_file(host80, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as reading:
            (project,) = list_projects(reading)
            memories = fetch_project(reading, project.key)
    finally:
        opened.close()
    assert project.key == b"dir:/srv/\xffodd"
    assert project.identity == "dir:/srv/\ufffdodd"
    assert project.oddity is not None
    assert [memory.content for memory in memories] == ["Odd path memory"]


def test_injection_follows_the_hosts_rule_and_order(reading: Connection, seeded: Seeded) -> None:
    ids = [memory.id for memory in injected(reading, ALPHA, NOW)]
    c3 = seeded.chain[2]
    # ARCHITECTURE by updated_at descending then id, then CONFIG_VALUES, then PROJECT_RULES.
    assert ids == [
        c3,
        seeded.verified,
        seeded.merged,
        seeded.merged_garbage,
        seeded.merged_object,
        seeded.active,
        seeded.permanent,
        seeded.expiring,
    ]


def test_injection_as_of_an_instant_is_half_open(reading: Connection, seeded: Seeded) -> None:
    expired_at = T0 + 2 * DAY
    assert seeded.expired in [memory.id for memory in injected(reading, ALPHA, expired_at - 1)]
    assert seeded.expired not in [memory.id for memory in injected(reading, ALPHA, expired_at)]


def test_a_project_injects_only_its_own(reading: Connection, seeded: Seeded) -> None:
    assert [memory.id for memory in injected(reading, BETA, NOW)] == [seeded.beta]
    assert injected(reading, "git:nobody", NOW) == []


def test_a_blob_path_and_a_text_path_of_the_same_bytes_are_two_projects(host80: Path) -> None:
    """A blob `dir:/a` is not the text `dir:/a` (SQLite keeps them apart); text that is not UTF-8 and a
    blob of its bytes read alike, so they are one project, listed once."""
    with connect(host80) as conn:
        text_id = add_memory(conn, "dir:/a", "Text path")
        blob_id = add_memory(conn, b"dir:/a", "Blob path")
        odd_text = add_memory(conn, "placeholder", "Odd text path")
        conn.execute(
            "UPDATE memories SET project_path = CAST(? AS TEXT) WHERE id = ?", (b"\xffodd", odd_text)
        )
        odd_blob = add_memory(conn, b"\xffodd", "Odd blob path")
    conn.close()
    opened = open_sqlite_file(host80, read_only=True, create=False)
    try:
        with transaction(opened.engine, write=False, location=opened.location) as reading:
            projects = list_projects(reading)
            listed = {
                project.key: [m.id for m in fetch_project(reading, project.key)] for project in projects
            }
    finally:
        opened.close()
    assert len(projects) == 3
    assert listed == {"dir:/a": [text_id], b"dir:/a": [blob_id], b"\xffodd": [odd_text, odd_blob]}
    assert {project.key: project.memory_count for project in projects}[b"\xffodd"] == 2
