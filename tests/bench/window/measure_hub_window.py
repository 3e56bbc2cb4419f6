"""The `hub-window` rows: a hub of 3 machines × N memories (`tests/support/hub_machines.py`: shared,
copied and edited, one machine's own), then the time from launch to the first card painted with its text.

"launch": `memory-dashboard --db HUB --smoke --offscreen` as a person starts it (Python, Qt, the hub's
read, the first page's texts, the paint), wall time of the whole process (its note gives the main
window's launch on a 5-memory file in the same run: what a start-up costs on the machine at that time);
"open": the same window opened in this process (Qt already loaded), from the call to the paint. The
floor of both is the budget, 2 s, so a ratio at or under 1 meets it. Without a PostgreSQL server
the rows are skipped with a message.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import make_url

from tests.bench.generate import BenchDb
from tests.bench.headless.measure_postgres import _admin, _server, _with_database
from tests.bench.timing import Result
from tests.bench.window.measure_process import PYTHON, wall_times
from tests.support import pg_cluster
from tests.support.hostdb import build_host_db

# The hub is filled by `tests/support/hub_machines.py` run as a script, with this checkout's root on its
# path (it imports `tests.support.*`).
MACHINES_SCRIPT = Path(__file__).resolve().parents[2] / "support" / "hub_machines.py"
BUDGET_S = 2.0
DATABASE = "mdash_bench_hub_window"


def _open_to_paint(url: str) -> float:
    from ui.hub.app import watch_first_card
    from ui.hub.opening import open_hub_window
    from ui.runtime.qt_app import application, wait_until

    app = application(offscreen=True)
    painted: list[float] = []
    start = time.perf_counter()
    window = open_hub_window(url, None)
    watch_first_card(window, lambda: painted.append(time.perf_counter()))
    errors: list[str] = []
    window.session.failed.connect(errors.append)
    if not wait_until(app, lambda: bool(painted or errors), 60_000) or errors:
        raise RuntimeError(f"the hub window did not paint: {errors}")
    window.close()
    app.processEvents()
    return painted[0] - start


def hub_window_rows(db: BenchDb, work: Path, rounds: int) -> list[Result]:
    """The rows at `db.memories // 10` memories per machine (10,000 at the full size), or none."""
    per_machine = max(100, db.memories // 10)
    with _server() as server:
        if server is None:
            print(f"  hub-window rows skipped: {pg_cluster.HOW_TO}", file=sys.stderr)
            return []
        _admin(server, f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        _admin(server, f'CREATE DATABASE "{DATABASE}"')
        url = _with_database(server, DATABASE)
        try:
            root = str(MACHINES_SCRIPT.parents[2])  # this checkout's `app`, whatever is installed
            env = {
                **os.environ,
                "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
            }
            subprocess.run(
                [PYTHON, str(MACHINES_SCRIPT), url, str(per_machine)], check=True, cwd=work, env=env
            )
            script = Path(PYTHON).parent / "memory-dashboard"
            launch = wall_times([str(script), "--db", url, "--smoke", "--offscreen"], rounds)
            small = build_host_db(work / "hub-window-reference.db")
            reference = wall_times([str(script), "--db", str(small), "--smoke", "--offscreen"], rounds)
            small.unlink()
            opened = [_open_to_paint(url) for _ in range(rounds)]
        finally:
            _admin(server, f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')
    size = f"3 machines × {per_machine:,} memories"
    return [
        Result(
            f"hub-window: launch to first card ({size})",
            statistics.median(launch),
            BUDGET_S,
            1.0,
            note=(
                "memory-dashboard --db HUB --smoke; floor = the budget, 2 s; the main window's launch on "
                f"a 5-memory file in the same run: {statistics.median(reference):.2f} s"
            ),
            ours_rounds=launch,
        ),
        Result(
            f"hub-window: open to first card ({size})",
            statistics.median(opened),
            BUDGET_S,
            1.0,
            note="in process, Qt loaded: the hub's listing, the first page of texts, the paint",
            ours_rounds=opened,
        ),
    ]
