"""`kill -9` during a review's apply: the file is as before the apply or as after it, never in between,
and the lease a killed apply leaves behind blocks only until it expires."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tests.review.review_helpers import seed_verdict, snapshot, write_json
from tests.review.test_review_cli import REVIEW_TIME, cli, opened
from tests.support.hostdb import query

LEASE_MINUTES = 3  # past the lease's two minutes


def _host_state(db: Path) -> list[str]:
    """Everything but the lease rows (a killed apply may leave its lease; that is the documented case)."""
    return [line for line in snapshot(db) if "lease:user-memories" not in line]


def _wait_for(path: Path, process: subprocess.Popen[bytes], limit_s: float = 60.0) -> None:
    deadline = time.monotonic() + limit_s
    while not path.exists():
        assert process.poll() is None, "the apply ended before it reached its commit"
        assert time.monotonic() < deadline, "the apply never reached its commit"
        time.sleep(0.01)


def test_a_kill_right_before_commit_leaves_the_file_as_before(host_db: Path, tmp_path: Path) -> None:
    """The apply stops inside its write transaction, every change made but not committed, and is killed."""
    before = _host_state(opened(host_db))
    marker = tmp_path / "reached-commit"
    script = textwrap.dedent(
        f"""
        import json, time
        from pathlib import Path
        from app.core.clock import ManualClock
        from app.review.apply import apply_verdict
        from app.review.verdict import parse_verdict
        from app.store import MemoryStore

        store = MemoryStore.open({str(host_db)!r}, clock=ManualClock({REVIEW_TIME}))
        verdict = parse_verdict(Path({str(tmp_path / "v.json")!r}).read_text())

        def stall(conn):
            Path({str(marker)!r}).write_text("1")
            time.sleep(600)

        apply_verdict(store, verdict, run_id="killed", before_commit=stall)
        """
    )
    write_json(tmp_path / "v.json", seed_verdict())
    process = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE)
    try:
        _wait_for(marker, process)
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        _, err = process.communicate()
    assert process.returncode == -signal.SIGKILL, err.decode()
    assert _host_state(host_db) == before
    assert query(host_db, "PRAGMA integrity_check") == [("ok",)]

    blocked = cli(host_db, "review", "apply", str(tmp_path / "v.json"), "--run-id", "after")
    assert blocked.returncode == 6, blocked.stderr  # the killed apply's lease, still in force
    later = REVIEW_TIME + LEASE_MINUTES * 60_000
    done = cli(host_db, "review", "apply", str(tmp_path / "v.json"), "--run-id", "after", now=later)
    assert done.returncode == 0, done.stderr
    assert query(host_db, "SELECT count(*) FROM user_memory_candidates WHERE id IN (141, 143, 145, 146)") == [
        (0,)
    ]


def test_kills_at_any_moment_leave_before_or_after(host_db: Path, tmp_path: Path) -> None:
    """Several applies killed after growing delays: each leaves the whole verdict applied or none of it."""
    opened(host_db)
    verdict_file = write_json(tmp_path / "v.json", seed_verdict())
    env = {**os.environ, "MEMORY_DASHBOARD_NOW": str(REVIEW_TIME)}
    outcomes = set()
    for attempt in range(8):
        before = _host_state(host_db)
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "--db", str(host_db), "review", "apply", str(verdict_file)],
            env={**env, "MEMORY_DASHBOARD_NOW": str(REVIEW_TIME + attempt * LEASE_MINUTES * 60_000)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.2 * attempt)  # a spread of kill moments, from start-up to after the commit
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        after = _host_state(host_db)
        assert query(host_db, "PRAGMA integrity_check") == [("ok",)]
        pending = query(host_db, "SELECT count(*) FROM user_memory_candidates WHERE id = 141")[0][0]
        rewritten = query(host_db, "SELECT count(*) FROM mdash_review_runs")[0][0]
        assert (pending, rewritten) in {(1, 0), (0, 1)}, "half an apply is on disk"
        outcomes.add("after" if rewritten else "before")
        if rewritten:
            assert after != before
            break
    assert "before" in outcomes
