"""What a launch of the window does before its first paint: only what that frame shows. It does not scan
the host's table for outside rewrites first (the complete listing does, after the first frame), and it
does not import what only a rarer role needs (Alembic on an up-to-date file, the review runs and their
undo, the as-of scan, the hub, PostgreSQL's driver, the tidy, the dialogs, the as-of view, the review
queue).

Each test starts the real launch (`memory-dashboard --db F --smoke`) in a child process that notes, at
the card list's first paint, the modules loaded by then, and when the store first observed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.hostdb import query

ROOT = Path(__file__).resolve().parents[3]

# The launch as `memory-dashboard --smoke` runs it; the window's show (`FirstFrame`) and the first paint's
# filter (`_FirstPaint`) note what happened, in order, as JSON lines; `OBSERVING` adds the store's
# `Observer.observe` (which imports the store into the probe itself).
PLAIN_PROBE = """
import json, sys
from PySide6.QtCore import QEvent
from ui.main import main
import ui.window.app as window_app

def note(what, **more):
    print(json.dumps({"event": what, **more}), flush=True)

class Shown(window_app.FirstFrame):
    def _now(self):
        note("shown")
        super()._now()

class Probe(window_app._FirstPaint):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and not self.done:
            note("painted", modules=sorted(sys.modules))
        return super().eventFilter(watched, event)

window_app._FirstPaint = Probe
window_app.FirstFrame = Shown
"""
OBSERVING = """
from app.store.observe import observer
observe = observer.Observer.observe
def observing(self):
    note("observe")
    return observe(self)
observer.Observer.observe = observing
"""
LAUNCH = """
sys.exit(main(["--db", sys.argv[1], "--smoke"]))
"""
PROBE = PLAIN_PROBE + OBSERVING + LAUNCH

# Loaded by a rarer role than the first frame: on first use, never before the first paint.
RARE = (
    "alembic",
    "psycopg",
    "app.hub",
    "app.tidy",
    "app.store.evidence.runs",
    "app.store.evidence.undo",
    "app.store.past.as_of_scan",
    "ui.dialogs",
    "ui.past.view",
    "ui.review.queue",
)


def launch(host_db: Path, tmp_path: Path, probe: str = PROBE) -> list[dict[str, object]]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "MEMORY_DASHBOARD_DATA_DIR": str(tmp_path / "data"),
    }
    args = [sys.executable, "-c", probe, str(host_db)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def first_paint(events: list[dict[str, object]]) -> list[str]:
    (modules,) = [event["modules"] for event in events if event["event"] == "painted"]
    assert isinstance(modules, list)
    return [str(name) for name in modules]


def test_the_launch_shows_its_window_before_it_looks_for_outside_rewrites(
    host_db: Path, tmp_path: Path
) -> None:
    events = [str(event["event"]) for event in launch(host_db, tmp_path)]
    assert events.index("shown") < events.index("observe")  # no scan of every memory before the window
    assert query(host_db, "SELECT count(*) FROM mdash_seen") != [(0,)]  # observed after it, as always


@pytest.mark.parametrize("opened_before", [True, False], ids=["up to date", "never opened"])
def test_the_launch_loads_no_rare_role_before_its_first_paint(
    host_db: Path, tmp_path: Path, opened_before: bool
) -> None:
    if opened_before:
        launch(host_db, tmp_path)  # our tables made and at head: the next launch checks, migrates nothing
    modules = first_paint(launch(host_db, tmp_path))
    loaded = [name for name in modules if any(name == r or name.startswith(f"{r}.") for r in RARE)]
    assert loaded == []  # a never-opened file too: its migration waits for the window's own open


def test_the_window_imports_no_store_before_its_first_paint(host_db: Path, tmp_path: Path) -> None:
    """The store's modules and SQLAlchemy load in the launch's child process, which reads the first
    frame (`ui.runtime.first_screen.read_aside`), and in the window only after that frame."""
    launch(host_db, tmp_path)  # opened once before: the usual launch
    modules = first_paint(launch(host_db, tmp_path, PLAIN_PROBE + LAUNCH))
    assert [name for name in modules if name.split(".")[0] == "sqlalchemy"] == []
    assert "app.store.store" not in modules and "app.store.database" not in modules


# The launch, counting the opens of the store in the window's process (the child's are not seen: its
# output goes nowhere).
COUNTING_OPENS = """
import atexit, sys
from app.store import MemoryStore
opens = []
opened = MemoryStore.open.__func__
def counting(cls, *args, **kwargs):
    opens.append(1)
    return opened(cls, *args, **kwargs)
MemoryStore.open = classmethod(counting)
atexit.register(lambda: print(f"opens={len(opens)}"))
from ui.main import main
sys.exit(main(["--db", sys.argv[1], "--smoke"]))
"""


def test_a_store_the_child_could_not_open_is_said_without_opening_it_again(tmp_path: Path) -> None:
    """The child's refusal is the launch's error, as the command line says it: the window's process
    does not open the store a second time (a locked file would make the person wait twice)."""
    garbage = tmp_path / "context.db"
    garbage.write_bytes(b"not a database at all" * 100)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), MEMORY_DASHBOARD_DATA_DIR=str(tmp_path / "data"))
    args = [sys.executable, "-c", COUNTING_OPENS, str(garbage)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("error:") == 1 and "Traceback" not in done.stderr
    assert done.stdout.strip().endswith("opens=0")


def test_a_process_that_cannot_fork_opens_its_store_first_and_shows_the_same_window(
    host_db: Path, tmp_path: Path
) -> None:
    """Where the launch cannot fork (no `os.fork`, or a thread already running, as here), nothing is read
    aside: the window's process opens the store before the window's reads, and the first frame is
    shown and painted all the same."""
    launch(host_db, tmp_path)  # opened once before: the usual launch
    running = (
        "import threading\nhold = threading.Event()\n"
        "threading.Thread(target=hold.wait, daemon=True).start()\n"
    )
    events = launch(host_db, tmp_path, running + PLAIN_PROBE + LAUNCH)
    assert [str(event["event"]) for event in events] == ["shown", "painted"]
    assert "sqlalchemy" in first_paint(events)  # the store, opened here before the window's reads
