"""The digest: what changed since the last look, through the store and the CLI, on real host-shaped files.

The watermark lives in the database (`mdash_meta`), so a rewrite the host makes in another process while
nothing has the file open shows in the next digest, with the host's time and `observed` as who did it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import main
from app.core.clock import ManualClock
from app.core.models import ChangeKind, RevisionSource
from app.core.models.digest import BY_HOST
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME
from tests.support.hostdb import HOUR, build_host_db, profile_version, query

NOW_ISO = "2026-10-21T03:13:32Z"  # REVIEW_TIME


def host_process(path: Path, sql: str, *params: object) -> None:
    """A write by another process, as the host makes it (plain sqlite3, its own connection and commit)."""
    script = (
        "import sqlite3, sys, json\n"
        "conn = sqlite3.connect(sys.argv[1], timeout=5)\n"
        "conn.execute(sys.argv[2], json.loads(sys.argv[3]))\n"
        "conn.commit()\n"
    )
    subprocess.run([sys.executable, "-c", script, str(path), sql, json.dumps(params)], check=True, timeout=60)


def opened(path: Path, at: int, *, read_only: bool = False) -> MemoryStore:
    return MemoryStore.open(path, clock=ManualClock(at), read_only=read_only)


@pytest.fixture
def looked(host_db: Path) -> Iterator[MemoryStore]:
    """The seed's store at REVIEW_TIME, just after a look."""
    store = opened(host_db, REVIEW_TIME)
    store.observe()
    store.mark_seen()
    yield store
    store.close()


def test_no_look_yet_then_mark_seen_leaves_nothing_new(host_db: Path) -> None:
    store = opened(host_db, REVIEW_TIME)
    try:
        assert store.watermark() is None and store.changed_since_look() is None
        first = store.digest()
        assert first.since is None
        assert {c.kind for c in first.changes} == {ChangeKind.CANDIDATE}  # the pool's six candidates
        before = profile_version(host_db)
        mark = store.mark_seen(first.upto)
        assert profile_version(host_db) == before  # a look changes nothing the host injects
        assert store.watermark() == mark
        assert not store.digest()
        assert store.changed_since_look() == frozenset()
    finally:
        store.close()


def test_an_outside_rewrite_made_while_nothing_was_open_shows(host_db: Path) -> None:
    store = opened(host_db, REVIEW_TIME)
    store.observe()
    store.mark_seen()
    store.close()
    rewritten_at = REVIEW_TIME + HOUR
    host_process(
        host_db,
        "UPDATE user_memories SET content = ?, updated_at = ? WHERE id = 4",
        "Lives in Paris",
        rewritten_at,
    )
    host_process(host_db, "DELETE FROM user_memories WHERE id = 3")
    store = opened(host_db, REVIEW_TIME + 2 * HOUR)
    try:
        store.observe()
        digest = store.digest()
        kinds = {(c.memory_id, c.kind, c.by) for c in digest.changes}
        assert kinds == {
            (4, ChangeKind.REWRITTEN, RevisionSource.OBSERVED),
            (3, ChangeKind.DELETED, RevisionSource.OBSERVED),
        }
        rewrite = next(c for c in digest.changes if c.memory_id == 4)
        assert (rewrite.previous_content, rewrite.new_content, rewrite.at) == (
            "Lives in Berlin (CET)",
            "Lives in Paris",
            rewritten_at,
        )
        assert digest.since is not None and digest.since == store.watermark().at  # type: ignore[union-attr]
        assert store.changed_since_look() == frozenset({3, 4})
    finally:
        store.close()


def test_changes_are_grouped_by_who_made_them(looked: MemoryStore, host_db: Path) -> None:
    store = looked
    store.edit(5, "Prefers pnpm, always")
    store.dismiss(1)
    store.set_expiry(4, REVIEW_TIME - 1)  # already passed: the sweep dismisses it
    store.reactivate(2)
    store.promote([141])
    host_process(
        host_db,
        "INSERT INTO user_memory_candidates (id, content, session_id, created_at) VALUES (?, ?, ?, ?)",
        900,
        "Likes dark themes",
        "ses_new",
        REVIEW_TIME + 1,
    )
    digest = store.digest()
    found = [(c.memory_id or c.candidate_id, c.kind, c.by) for c in digest.changes]
    assert (5, ChangeKind.REWRITTEN, RevisionSource.DASHBOARD) in found
    assert (1, ChangeKind.DISMISSED, RevisionSource.DASHBOARD) in found
    assert (4, ChangeKind.EXPIRY, RevisionSource.DASHBOARD) in found
    assert (4, ChangeKind.EXPIRED, RevisionSource.EXPIRY) in found
    assert (2, ChangeKind.REACTIVATED, RevisionSource.DASHBOARD) in found
    assert (900, ChangeKind.CANDIDATE, BY_HOST) in found
    assert any(kind == ChangeKind.NEW for _, kind, _ in found)
    groups = dict(digest.groups())
    assert set(groups) == {
        "You, in the dashboard",
        "Expiry sweep",
        "The host's sessions (new candidates)",
    }


def test_since_reads_by_time_and_leaves_the_watermark(looked: MemoryStore, host_db: Path) -> None:
    store = looked
    store.edit(5, "Prefers pnpm, always")
    mark = store.watermark()
    assert [c.memory_id for c in store.digest(REVIEW_TIME + 1).changes] == []
    assert [c.memory_id for c in store.digest(REVIEW_TIME).changes] == [5]
    assert store.watermark() == mark


def look_then_host_rewrites_4(host_db: Path) -> None:
    """A look (then closed), and the host's rewrite of #4 by another process."""
    writer = opened(host_db, REVIEW_TIME)
    writer.observe()
    writer.mark_seen()
    writer.close()
    host_process(
        host_db,
        "UPDATE user_memories SET content = 'Lives in Rome', updated_at = ? WHERE id = 4",
        REVIEW_TIME,
    )


def test_a_read_only_store_keeps_its_look_in_memory(host_db: Path) -> None:
    look_then_host_rewrites_4(host_db)
    before = query(host_db, "SELECT key, value FROM mdash_meta ORDER BY key")
    store = opened(host_db, REVIEW_TIME + HOUR, read_only=True)
    try:
        store.observe()
        assert [(c.memory_id, c.kind) for c in store.digest().changes] == [(4, ChangeKind.REWRITTEN)]
        assert store.changed_since_look() == frozenset({4})
        store.observe()
        store.mark_seen()
        assert not store.digest()
        assert store.changed_since_look() == frozenset()
    finally:
        store.close()
    assert query(host_db, "SELECT key, value FROM mdash_meta ORDER BY key") == before


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_digest_json_then_mark_seen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", NOW_ISO)
    db = str(build_host_db(tmp_path / "context.db"))
    assert run(capsys, "--db", db, "digest", "--mark-seen")[0] == 0
    host_process(
        Path(db),
        "UPDATE user_memories SET content = 'Lives in Oslo', updated_at = ? WHERE id = 4",
        REVIEW_TIME,
    )
    code, out, _ = run(capsys, "--db", db, "digest", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["since"] == REVIEW_TIME
    assert [(c["memory_id"], c["kind"], c["by"], c["at"]) for c in data["changes"]] == [
        (4, "rewritten", "observed", REVIEW_TIME)
    ]
    code, out, _ = run(capsys, "--db", db, "digest")
    assert "Since you last looked" in out and "Lives in [-Berlin (CET)-]{+Oslo+}" in out
    assert run(capsys, "--db", db, "digest", "--mark-seen")[1].startswith("marked 1 change(s) as seen")
    assert "nothing changed" in run(capsys, "--db", db, "digest")[1]
    code, out, _ = run(capsys, "--db", db, "digest", "--since", "1h", "--json")
    assert [c["memory_id"] for c in json.loads(out)["changes"]] == [4]


def test_cli_digest_refuses_a_bad_since(host_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--db", str(host_db), "digest", "--since", "yesterday-ish")
    assert code == 1 and "duration back from now" in err
    code, _, err = run(capsys, "--db", str(host_db), "--read-only", "digest", "--mark-seen")
    assert code == 4


def test_marking_a_digest_seen_leaves_what_came_after_it_new(host_db: Path) -> None:
    look_then_host_rewrites_4(host_db)
    store = opened(host_db, REVIEW_TIME + HOUR)
    try:
        store.observe()
        shown = store.digest()
        assert [c.memory_id for c in shown.changes] == [4]
        host_process(
            host_db, "UPDATE user_memories SET content = 'Tabs', updated_at = ? WHERE id = 2", REVIEW_TIME + 1
        )
        store.observe()  # a listing looked meanwhile
        store.mark_seen(shown.upto)
        assert [c.memory_id for c in store.digest().changes] == [2]
    finally:
        store.close()
