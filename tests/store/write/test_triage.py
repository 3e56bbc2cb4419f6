"""A person's triage of the candidate pool through the store: one public method per write, one lease rule.

Promote, merge and discard are `MemoryStore` methods, each one transaction; the store refuses all three
while the automated review holds its lease, whether the window, the CLI or a test calls them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from app.core.errors import EXIT_LEASE_HELD, LeaseHeldError
from app.store import MemoryStore
from app.store.write import triage, writes
from tests.conftest import REVIEW_TIME
from tests.review.review_helpers import hold_lease, pending_ids, snapshot
from tests.support.hostdb import profile_version

REVIEW_ISO = "2026-10-21T03:13:32Z"  # REVIEW_TIME


def test_merge_is_one_transaction_with_one_profile_bump(store: MemoryStore, host_db: Path) -> None:
    before = profile_version(host_db)
    store.merge_candidates(5, [141, 146], "Prefers pnpm, also in examples")
    assert profile_version(host_db) == before + 1
    assert pending_ids(host_db) == [143, 145, 151, 152]


def test_a_merge_that_fails_at_its_last_step_leaves_nothing_behind(
    store: MemoryStore, host_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(host_db)

    def refuse(*_: object) -> int:
        raise RuntimeError("consuming failed")

    monkeypatch.setattr(writes, "consume_candidates", refuse)
    with pytest.raises(RuntimeError, match="consuming failed"):
        store.merge_candidates(5, [141], "Prefers pnpm, merged")
    assert snapshot(host_db) == before  # the content update went back with it


def test_discard_drops_repeats_and_does_not_touch_the_profile(store: MemoryStore, host_db: Path) -> None:
    before = profile_version(host_db)
    assert store.discard_candidates([151, 151, 152]) == 2
    assert pending_ids(host_db) == [141, 143, 145, 146]
    assert profile_version(host_db) == before  # nothing the host injects changed


def test_the_store_refuses_every_triage_write_while_the_review_holds_the_lease(
    store: MemoryStore, host_db: Path
) -> None:
    hold_lease(host_db, "host-dreamer", expiry=REVIEW_TIME + 60_000, generation=2)
    before = snapshot(host_db)
    for write in (
        lambda: store.discard_candidates([152]),
        lambda: store.promote([151]),
        lambda: store.merge_candidates(5, [141]),
    ):
        with pytest.raises(LeaseHeldError, match="host-dreamer"):
            write()
    assert snapshot(host_db) == before


def test_an_expired_lease_does_not_block_a_discard(store: MemoryStore, host_db: Path) -> None:
    hold_lease(host_db, "crashed-dreamer", expiry=REVIEW_TIME - 1, generation=2)
    assert store.discard_candidates([152]) == 1


def test_the_cli_discard_is_refused_while_the_review_holds_the_lease(
    host_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", REVIEW_ISO)
    hold_lease(host_db, "host-dreamer", expiry=REVIEW_TIME + 60_000, generation=2)
    assert main(["--db", str(host_db), "discard", "151", "152"]) == EXIT_LEASE_HELD
    assert "host-dreamer" in capsys.readouterr().err
    assert pending_ids(host_db) == [141, 143, 145, 146, 151, 152]


def test_the_cli_discard_deletes_the_candidates(
    host_db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", REVIEW_ISO)
    assert main(["--db", str(host_db), "discard", "151", "152", "999"]) == 0
    assert capsys.readouterr().out.strip() == "discarded 2 candidate(s)"
    assert pending_ids(host_db) == [141, 143, 145, 146]


def test_one_line_joins_texts_as_the_host_injects_a_memory() -> None:
    assert (
        triage.one_line(["Prefers pnpm", "Uses pnpm\nworkspaces  "]) == "Prefers pnpm; Uses pnpm workspaces"
    )
    assert triage.one_line(["Prefers pnpm.", "", "  Code first!", "then text"]) == (
        "Prefers pnpm. Code first! then text"
    )
    assert triage.one_line(["\n\n"]) == ""
