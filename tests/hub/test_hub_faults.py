"""A publish killed midway (kill -9 of a child process) leaves the hub as before or after each batch;
the next publish goes on from the watermark and every row is there once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support import hub_host
from tests.support.hub_host import host_file, hub_query, local_memories, machine_memories, publish_file

ROOT = Path(__file__).resolve().parents[2]
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher
BATCH = 50
CHILD = """
import sys
sys.path[:0] = [sys.argv[3]]
from tests.support.hub_host import publish_file
from pathlib import Path
publish_file(Path(sys.argv[1]), sys.argv[2], "box", batch={batch})
"""


def _wait_for_a_batch(url: str, child: subprocess.Popen[bytes]) -> None:
    """Until the child's first batch of memories is committed (a machine row alone is not a batch: a
    loaded machine can be killed between the two)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and child.poll() is None:
        if hub_query(url, "SELECT to_regclass('hub_memories') IS NOT NULL") == [(True,)] and hub_query(
            url, "SELECT count(*) > 0 FROM hub_memories WHERE machine = 'box'"
        ) == [(True,)]:
            return
        time.sleep(0.005)


def test_a_publish_killed_midway_leaves_whole_batches_and_the_next_one_completes(
    hub_db: str, tmp_path: Path
) -> None:

    box = host_file(tmp_path / "box.db", memories=20_000)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(batch=BATCH), str(box), hub_db, str(ROOT)],
        stderr=subprocess.PIPE,
    )
    _wait_for_a_batch(hub_db, child)
    assert child.poll() is None, child.stderr.read() if child.stderr else b""  # still publishing
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else b""
    assert child.stderr is not None
    child.stderr.close()
    published = machine_memories(hub_db, "box")
    local = local_memories(box)
    assert 0 < len(published) < len(local)
    assert len(published) % BATCH == 0  # whole batches only
    # the hub holds exactly the oldest changes, up to the watermark moved with the last whole batch
    by_change = sorted(local, key=lambda row: (row[5], row[0]))
    assert sorted(published, key=lambda row: (row[5], row[0])) == by_change[: len(published)]
    [(mark,)] = hub_query(hub_db, "SELECT memory_mark FROM hub_machines WHERE machine = 'box'")
    assert mark == by_change[len(published) - 1][5]
    report = publish_file(box, hub_db, "box")
    assert report.first is False
    assert report.memories == len(local) - len(published)
    assert machine_memories(hub_db, "box") == local
    assert hub_query(hub_db, "SELECT count(*) FROM hub_memories") == [(len(local),)]
