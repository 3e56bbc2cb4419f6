"""What opening a store and reading the window's first screen load: only what that open and those reads
use. The launch runs them before its first frame, so every module they import is on the way to it; what
only a rarer role needs (blame and rapidfuzz, as-of, the digest, observing, imports and export files,
the project memories' services, review runs, the command kinds, the Tidy, the hub) loads when first
asked for.

The open and the reads run in a child process, as a launch runs them, which then names the modules it
has loaded."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from app.core.clock import ManualClock
from app.store import MemoryStore
from tests.conftest import REVIEW_TIME

ROOT = Path(__file__).resolve().parents[3]

# The launch's open (`app.cli.opener.open_store`, not observing) and the first screen's reads.
PROBE = """
import argparse, json, sys
from app.cli.opener import open_store
from ui.runtime.first_page import read_first_screen
from ui.cards.listing import ViewFilter

with open_store(argparse.Namespace(db=sys.argv[1], demo=False, read_only=False), observe=False) as s:
    screen = read_first_screen(s, ViewFilter())
print(json.dumps({"cards": len(screen.listing.ids), "modules": sorted(sys.modules)}))
"""

# Loaded by a rarer role than the first screen: on first use, never by the open or its reads.
RARE = (
    "rapidfuzz",
    "app.diff",
    "app.store.past.blame",
    "app.store.past.as_of",
    "app.store.past.as_of_scan",
    "app.store.past.project_past",
    "app.store.read.digest",
    "app.store.write.watermark",
    "app.core.models.as_of",
    "app.core.models.blame",
    "app.core.models.digest",
    "app.store.observe.observe",
    "app.store.observe.project_observe",
    "app.transfer",
    "app.core.models.imports",
    "app.store.write.importer",
    "app.store.project.importing",
    "app.store.project.service",
    "app.store.project.edits",
    "app.store.project.removal",
    "app.store.project.revisions",
    "app.store.evidence.runs",
    "app.store.evidence.undo",
    "app.store.evidence.project_runs",
    "app.core.models.runs",
    "app.commands.registry",
    "app.commands.presence",
    "app.store.write.merging",
    "app.store.write.synced",
    "app.store.write.removal",
    "app.store.write.triage",
    "app.store.write.lease",
    "app.review",
    "app.tidy",
    "app.hub",
    "alembic",
    "psycopg",
    "sqlalchemy.orm",
)


def first_screen_modules(host_db: Path, tmp_path: Path) -> list[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "MEMORY_DASHBOARD_DATA_DIR": str(tmp_path / "data"),
    }
    args = [sys.executable, "-c", PROBE, str(host_db)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["cards"] > 0  # the reads read a first page (and its first card's history)
    return [str(name) for name in found["modules"]]


def test_the_rare_modules_are_modules_there_are() -> None:
    assert [name for name in RARE if importlib.util.find_spec(name) is None] == []


def test_opening_a_store_and_reading_its_first_screen_loads_no_rare_role(
    host_db: Path, tmp_path: Path
) -> None:
    MemoryStore.open(host_db, clock=ManualClock(REVIEW_TIME)).close()  # our tables made: Alembic is done
    modules = first_screen_modules(host_db, tmp_path)
    loaded = [name for name in modules if any(name == r or name.startswith(f"{r}.") for r in RARE)]
    assert loaded == []
