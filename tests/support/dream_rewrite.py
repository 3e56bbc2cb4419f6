"""A host dream run that rewrote a project memory while it ran, after the store first looked: the
scenario the runs' attribution is tested on, in the store and in the Runs window."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.support.host80 import ALPHA, DAY, HOUR, NOW, Seeded, add_dream_run, build_host80, seed_projects

REWRITTEN = "Build with bun"


@dataclass(frozen=True)
class DreamRewrite:
    store: MemoryStore  # opened, and looked once before the run
    clock: ManualClock  # set after the run's end
    run: int  # the `dream_runs` row, of project ALPHA
    seeded: Seeded
    during: int  # the instant of the rewrite, inside the run's window


def rewrite_in_a_dream_run(path: Path) -> DreamRewrite:
    """A v80 host file at `path` with the shared scenario; `seeded.active` rewritten to `REWRITTEN` inside a
    dream run of its project. The store has not looked since: the caller's next look finds the rewrite."""
    build_host80(path)
    seeded = seed_projects(path)
    clock = ManualClock(NOW)
    store = MemoryStore.open(path, clock=clock)
    store.observe()
    during = NOW + DAY
    host = sqlite3.connect(path)
    with host:
        run = add_dream_run(host, ALPHA, during - HOUR, during + HOUR)
        host.execute(
            "UPDATE memories SET content = ?, updated_at = ? WHERE id = ?", (REWRITTEN, during, seeded.active)
        )
    host.close()
    clock.set(during + 2 * HOUR)
    return DreamRewrite(store, clock, run, seeded, during)
