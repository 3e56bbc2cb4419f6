"""A file never opened by the dashboard: Alembic loads while SQLite checks every page of it, when the
store will migrate it; a read-only open loads no Alembic at all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.hostdb import build_host_db

ROOT = Path(__file__).resolve().parents[3]

# Opens the file as the store does (its check only, no migration yet), then waits for the thread that
# loads Alembic, if there is one, and says whether Alembic's command module is loaded.
SCRIPT = """
import sys, threading
from pathlib import Path
from app.store.connect.engine import open_sqlite_file
opened = open_sqlite_file(Path(sys.argv[1]), read_only=sys.argv[2] == "read-only", create=False)
for thread in threading.enumerate():
    if thread.name == "alembic import":
        thread.join()
print("alembic.command" in sys.modules)
opened.close()
"""


@pytest.mark.parametrize(("mode", "loaded"), [("writable", "True"), ("read-only", "False")])
def test_alembic_loads_beside_the_check_of_a_file_to_migrate(tmp_path: Path, mode: str, loaded: str) -> None:
    path = build_host_db(tmp_path / "context.db")
    args = [sys.executable, "-c", SCRIPT, str(path), mode]
    done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == loaded, done.stderr
