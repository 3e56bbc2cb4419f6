"""Several machines' host files published into one hub, as a person with a laptop, a desktop and a remote
box would have them: the hub window's tests, its screenshot and its benchmark row use the same data.

Per machine, after `hostdb`'s five seeded memories (the same on every machine), memory `n` is one of:
- n % 4 == 0: the same text on every machine;
- n % 4 == 1: the same text on the first two machines;
- n % 4 == 2: on the first machine, and copied to the second one ("Copy to this machine": provenance
  names the first machine's memory) and edited there since: one card, two texts;
- n % 4 == 3: on one machine only (turn by turn).
Every tenth memory of the last machine is dismissed.

    python -m tests.support.hub_machines URL [MEMORIES] # set up a hub, publish 3 machines of MEMORIES each

(run as the server's administrator: `hub setup` first, then the publishes, as that role).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from contextlib import AbstractContextManager, closing
from pathlib import Path

from app.demo.content import all_texts
from app.hub.publish import publish
from app.store import MemoryStore
from tests.support.hostdb import PROMOTED_5, build_host_db

MACHINES = ("laptop", "desktop", "devbox")
FIRST_ID = 100
EDIT = ", and says so in the README"


def _text(texts: list[str], n: int) -> str:
    base = texts[n % len(texts)]
    return base if n < len(texts) else f"{base} (note {n})"


def _row(
    memory_id: int, content: str, at: int, status: str, provenance: list[dict[str, object]]
) -> tuple[object, ...]:
    ids = [entry["candidate_id"] for entry in provenance]
    return (memory_id, content, status, at, json.dumps(ids), json.dumps(provenance), at, at)


def machine_rows(machine: int, memories: int) -> list[tuple[object, ...]]:
    """The host rows of machine number `machine` (0, 1, 2)."""
    texts, rows = all_texts(), []
    for n in range(memories):
        kind, memory_id, at = n % 4, FIRST_ID + n, PROMOTED_5 + n * 60_000
        text = _text(texts, n)
        entry: dict[str, object] = {
            "candidate_id": 1_000 + n, "session_id": f"ses_{machine}{n % 7}",
            "source_compartment_start": None, "source_compartment_end": None,
        }  # fmt: skip
        status = "dismissed" if machine == len(MACHINES) - 1 and n % 10 == 9 else "active"
        if kind == 1 and machine > 1:
            continue
        if kind == 2 and machine > 1:
            continue
        if kind == 2 and machine == 1:
            entry |= {"origin": "sync", "synced_from": MACHINES[0], "synced_memory_id": memory_id}
            text, at = text + EDIT, at + 3_600_000
        if kind == 3 and (n // 4) % len(MACHINES) != machine:
            continue
        rows.append(_row(memory_id, text, at, status, [entry]))
    return rows


def machine_file(path: Path, machine: int, memories: int) -> Path:
    build_host_db(path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.executemany(
            "INSERT INTO user_memories (id, content, status, promoted_at, source_candidate_ids,"
            " source_candidate_provenance, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
            machine_rows(machine, memories),
        )
    return path


def _opener(path: Path) -> Callable[[], AbstractContextManager[MemoryStore]]:
    return lambda: closing(MemoryStore.open(path, sweep=False))


def publish_machines(folder: Path, url: str, memories: int) -> dict[str, Path]:
    """Each machine's host file made in `folder` and published to the hub `url`."""
    files = {}
    for number, machine in enumerate(MACHINES):
        files[machine] = machine_file(folder / f"{machine}.db", number, memories)
        publish(_opener(files[machine]), url, machine)
    return files


if __name__ == "__main__":
    from app.hub.schema.setup import setup_hub

    setup_hub(sys.argv[1])
    with tempfile.TemporaryDirectory() as work:
        made = publish_machines(Path(work), sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 300)
        print(f"published {', '.join(made)} to the hub")
