"""`hub status`: the machines this role published, when, how many rows (memories, active ones, revisions,
archived candidates), and the pending requests."""

from __future__ import annotations

from contextlib import closing
from dataclasses import asdict, dataclass
from typing import Any

import psycopg

from app.core.hub_layout import EVIDENCE, MACHINES, MEMORIES, REQUESTS, REVISIONS
from app.hub.connect import HubError, connect_hub, hub_location
from app.hub.schema.tables import require_schema
from app.store.connect.server import unreachable_message

_MACHINES = f"""
SELECT m.machine, m.published_at, m.checked_at,
  (SELECT count(*) FROM {MEMORIES} h WHERE h.machine = m.machine),
  (SELECT count(*) FROM {MEMORIES} h WHERE h.machine = m.machine AND h.status = 'active'),
  (SELECT count(*) FROM {REVISIONS} r WHERE r.machine = m.machine),
  (SELECT count(*) FROM {EVIDENCE} e WHERE e.machine = m.machine),
  (SELECT count(*) FROM {REQUESTS} q WHERE q.machine = m.machine AND q.applied_at IS NULL)
FROM {MACHINES} m ORDER BY m.machine
"""


@dataclass(frozen=True, slots=True)
class MachineStatus:
    machine: str
    published_at: int | None  # last publish that changed something
    checked_at: int | None  # last publish that finished
    memories: int
    active: int
    revisions: int
    evidence: int  # archived candidates
    pending_requests: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def machines(hub: psycopg.Connection[Any], location: str) -> list[MachineStatus]:
    """What this role sees of the hub (row-level security hides other roles' machines); `HubError`
    where the database is not a hub set up by `hub setup`."""
    require_schema(hub, location)
    return [MachineStatus(*row) for row in hub.execute(_MACHINES).fetchall()]


def hub_status(url: str) -> list[MachineStatus]:
    location = hub_location(url)
    with closing(connect_hub(url)) as hub:
        try:
            return machines(hub, location)
        except psycopg.Error as exc:
            raise HubError(unreachable_message(location, exc)) from exc
