"""The demo store holds every state a card can show, made by the store's own writers."""

from __future__ import annotations

from pathlib import Path

from app.core.clock import ManualClock
from app.core.provenance import host_can_read
from app.demo import build
from app.demo.build import build_demo_store, ensure_demo_store
from app.store import MemoryStore
from tests.support.hostdb import query

NOW = 1_800_000_000_000


def test_demo_store_has_every_card_state(tmp_path: Path) -> None:
    path = build_demo_store(tmp_path / "demo.db", count=60, now=NOW)
    store = MemoryStore.open(path, clock=ManualClock(NOW))
    try:
        memories = store.list_memories()
        assert len(memories) == 62
        assert any(m.expired and m.status == "dismissed" for m in memories)
        assert any(m.expires_at is not None and not m.expired for m in memories)
        assert any(m.status == "dismissed" and not m.expired for m in memories)
        assert any(m.provenance is None for m in memories)  # the legacy row
        assert any(m.status not in ("active", "dismissed") for m in memories)
        assert any(m.has_hidden_characters for m in memories)
        assert any(m.rewritten for m in memories) and any(not m.rewritten for m in memories)
        assert any(len(m.source_candidate_ids) > 8 for m in memories)
        assert any("user:dashboard" in m.sources for m in memories)
        origins = {entry.origin for m in memories for entry in m.provenance or ()}
        assert origins == {"promotion", "update", "manual"}
        sources = {r.source for m in memories for r in store.history(m.id)}
        assert {"review", "dashboard", "observed", "expiry"} <= sources
        assert len(store.candidates()) == 12
    finally:
        store.close()
    for (raw,) in query(path, "SELECT source_candidate_provenance FROM user_memories"):
        assert host_can_read(raw)  # type: ignore[arg-type]


def test_ensure_demo_store_builds_once(tmp_path: Path) -> None:
    target = tmp_path / "demo.db"
    assert ensure_demo_store(target) == target and target.exists()
    before = target.stat().st_mtime_ns
    ensure_demo_store(target)
    assert target.stat().st_mtime_ns == before


def test_the_full_demo_is_built_through_the_stores_public_writers(tmp_path: Path) -> None:
    """The README's demo (and its screenshot) as before the writers were unified: same rows, same history."""
    path = build_demo_store(tmp_path / "demo.db", now=NOW)
    counts = {
        table: query(path, f"SELECT count(*) FROM {table}")[0][0]
        for table in ("user_memories", "user_memory_candidates", "mdash_revisions", "mdash_memory_sources")
    }
    assert counts == {
        "user_memories": 322,
        "user_memory_candidates": 12,
        "mdash_revisions": 421,
        "mdash_memory_sources": 30,
    }
    source = (Path(build.__file__)).read_text(encoding="utf-8")
    assert (
        "app.store.write" not in source and ".write()" not in source
    )  # no private writer, no raw transaction


def test_every_run_the_demos_histories_name_is_a_listed_run(tmp_path: Path) -> None:
    path = build_demo_store(tmp_path / "demo.db", count=60, now=NOW)
    store = MemoryStore.open(path, clock=ManualClock(NOW))
    try:
        revisions = [r for m in store.list_memories() for r in store.history(m.id)]
        named = {r.run_id for r in revisions if r.run_id is not None}
        runs = {run.run_id: run for run in store.runs()}
        assert named and named <= set(runs)  # each opens in the Runs window
        for run_id in named:
            detail = store.run(run_id)
            assert detail.changes and detail.run.holder == build.DEMO_REVIEWER
            counted = (detail.run.promoted or 0) + (detail.run.rewrote or 0)
            assert counted == len(detail.changes)  # what it says it did is what its revisions show
    finally:
        store.close()
