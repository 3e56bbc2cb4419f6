"""`store.project` (`app.store.project.service`) through a `MemoryStore` opened on a host file of schema
v80: projects, filtered listings, one memory with its links both ways, what the host injects now; and a
file without the host's `memories` table answers empty."""

from __future__ import annotations

from pathlib import Path

from app.core.clock import ManualClock
from app.store import MemoryStore
from app.store.project.service import ProjectFilter
from tests.support.host80 import ALPHA, BETA, NOW, Seeded
from tests.support.hostdb import build_host_db


def _open(path: Path) -> MemoryStore:
    return MemoryStore.open(path, clock=ManualClock(NOW))


def test_listing_filters_links_and_injection(host80: Path, seeded: Seeded) -> None:
    store = _open(host80)
    try:
        names = {project.identity for project in store.project.projects()}
        assert {ALPHA, BETA} <= names
        alpha = store.project.memories(ProjectFilter(project=ALPHA))
        assert alpha and {item.project_path for item in alpha} == {ALPHA}
        rules = store.project.memories(ProjectFilter(project=ALPHA, category="PROJECT_RULES"))
        assert rules and all(item.category == "PROJECT_RULES" for item in rules)
        archived = store.project.memories(ProjectFilter(status="archived"))
        assert seeded.archived in {item.id for item in archived}
        found = store.project.memories(ProjectFilter(search="PNPM never"))
        assert [item.id for item in found] == [seeded.active]
        first, second, third = seeded.chain
        linked = store.project.with_links(first)
        assert linked is not None and linked.host.chain.end == third
        back = store.project.with_links(second)
        assert back is not None and first in back.host.supersedes
        injected_ids = [item.id for item in store.project.injected(ALPHA)]
        assert seeded.active in injected_ids and seeded.archived not in injected_ids
        assert seeded.expired not in injected_ids
        assert [item.identity for item in store.project.find_project(ALPHA)] == [ALPHA]
    finally:
        store.close()


def test_a_file_without_project_memories_answers_empty(tmp_path: Path) -> None:
    store = _open(build_host_db(tmp_path / "context.db"))
    try:
        assert store.project.projects() == []
        assert store.project.memories() == []
        assert store.project.memory(1) is None and store.project.with_links(1) is None
        assert store.project.injected(ALPHA) == []
    finally:
        store.close()
