"""The demo's project memories: the host's own tables in the demo's file only, three projects with every
link the project page shows, and what `list --kind project` and `tidy --kind project` find there."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from app.core.clock import ManualClock
from app.demo.build import build_demo_store
from app.store import MemoryStore
from app.store.connect.engine import create_host_database
from tests.support.host80 import build_host80
from tests.support.hostdb import has_table, query
from tests.support.project_tables import TABLES

NOW = 1_800_000_000_000


def _schema(path: Path) -> dict[str, str]:
    """The statements of the host's project-memory tables and of what hangs on them, by name."""
    names = ", ".join("?" for _ in TABLES)
    rows = query(
        path, f"SELECT name, sql FROM sqlite_master WHERE tbl_name IN ({names}) AND sql IS NOT NULL", TABLES
    )
    return {str(name): str(sql) for name, sql in rows}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_store(tmp_path_factory.mktemp("demo") / "demo.db", count=60, now=NOW)


def _ids(path: Path) -> dict[str, int]:
    return {
        str(content): int(str(memory_id))
        for memory_id, content in query(path, "SELECT id, content FROM memories")
    }


def test_the_demo_holds_the_hosts_own_project_tables(demo: Path, tmp_path: Path) -> None:
    host = build_host80(tmp_path / "host.db")
    assert _schema(demo) == _schema(host)
    # A person's new database is made with the user-memory tables only: never the host's project ones.
    own = tmp_path / "context.db"
    create_host_database(own)
    assert not has_table(own, "memories") and has_table(own, "user_memories")


def test_the_demo_has_projects_with_links_both_ways(demo: Path) -> None:
    ids = _ids(demo)
    store = MemoryStore.open(demo, clock=ManualClock(NOW))
    try:
        projects = {project.display_name: project.memory_count for project in store.project.projects()}
        assert projects == {"billing-service": 12, "dashboard-web": 6, "infra": 2}
        memories = store.project.memories()
        statuses = {memory.status for memory in memories}
        assert {"active", "archived", "permanent"} <= statuses
        assert any(memory.verification_status == "verified" for memory in memories)
        assert any(memory.expires_at is not None and memory.expires_at > NOW for memory in memories)
        first = store.project.with_links(ids["Payments go through the Stripe Charges API"])
        current = ids["Payments go through Stripe PaymentIntents with an idempotency key each"]
        assert first is not None and first.host.chain.end == current and len(first.host.chain.steps) == 2
        assert first.host.chain.problem is None
        merged = store.project.with_links(ids["Every migration is reversible and reviewed by two people"])
        sources = (ids["Every migration is reversible"], ids["Two people review every migration"])
        assert merged is not None and merged.host.merged.ids == sources
        source = store.project.with_links(sources[0])
        assert source is not None and source.host.merged_into == (merged.memory.id,)
    finally:
        store.close()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_list_and_tidy_find_the_demos_project_memories(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(capsys, "--db", str(demo), "list", "--kind", "project")
    assert code == 0
    assert "billing-service" in out and "dashboard-web" in out and "infra" in out
    code, out = run(capsys, "--db", str(demo), "tidy", "--kind", "project")
    assert code == 0
    assert "with #11: the same text" in out  # the rule said twice
    assert "close wording (" in out  # the test run said twice, reworded
    assert "database: postgres in #16, sqlite in #17" in out  # the dev database moved
