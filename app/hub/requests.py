"""Requests queued in the hub for every machine: "Dismiss on every machine".

`queue_dismiss` finds the memory's card (every memory of this role, on any machine, with the same
content) and queues one request per machine's memory not dismissed yet. Each machine applies the
requests for its memories on its next publish (`apply_pending`), as a dashboard write through the store's
own dismiss, with its own revision ("dismissed from the hub, requested on <machine>"), then marks them
applied in the hub. Nothing writes another machine's file: a request waits for that machine. Applying
twice is harmless (a dismissed memory stays as it is), so a publish killed between the local write and
the hub's mark only repeats a no-op. A request is a hub row like any other: its values are checked where
they come in (`app.hub.incoming.request_problem`); one that fails is not applied, stays pending, and is
named by its id in the publish's report, and the publish goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import closing
from dataclasses import asdict, dataclass, field
from typing import Any

import psycopg

from app.core.errors import InvalidInputError, NotFoundError
from app.core.hub_layout import MEMORIES, REQUESTS
from app.hub.connect import HubError, connect_hub, hub_location
from app.hub.incoming import request_problem
from app.hub.schema.tables import require_schema
from app.store.connect.server import unreachable_message
from app.store.store import MemoryStore

DISMISS = "dismiss"

_CARD = f"""
SELECT o.machine, o.memory_id FROM {MEMORIES} m JOIN {MEMORIES} o ON o.content = m.content
WHERE m.machine = %s AND m.memory_id = %s AND o.status <> 'dismissed'
  AND NOT EXISTS (SELECT 1 FROM {REQUESTS} q WHERE q.machine = o.machine AND q.memory_id = o.memory_id
                  AND q.kind = 'dismiss' AND q.applied_at IS NULL)
ORDER BY o.machine, o.memory_id
"""
_KNOWN = f"SELECT 1 FROM {MEMORIES} WHERE machine = %s AND memory_id = %s"
_QUEUE = (
    f"INSERT INTO {REQUESTS} (machine, memory_id, kind, requested_on, requested_at, reason)"
    " VALUES (%s, %s, %s, %s, %s, %s)"
)
_PENDING = (
    f"SELECT id, memory_id, requested_on, reason FROM {REQUESTS}"
    " WHERE machine = %s AND kind = 'dismiss' AND applied_at IS NULL ORDER BY id"
)
_APPLIED = f"UPDATE {REQUESTS} SET applied_at = %s WHERE id = %s"


@dataclass(frozen=True, slots=True)
class RefusedRequest:
    """A request of the hub not applied here: its id there, and why."""

    id: int
    problem: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class Applied:
    """What `apply_pending` did: the memories dismissed here now, and the requests refused."""

    dismissed: list[int] = field(default_factory=list)
    refused: list[RefusedRequest] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Queued:
    machine: str
    memory_id: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def hub_reason(requested_on: str, reason: str | None) -> str:
    """The reason the dismissal's revision keeps on the machine that applies it."""
    said = f"dismissed from the hub, requested on {requested_on}"
    return f"{said}: {reason}" if reason else said


def queue_dismiss(
    url: str, machine: str, memory_id: int, *, requested_on: str, now: int, reason: str | None = None
) -> list[Queued]:
    """Queue "dismiss" for every machine's copy of memory `memory_id` of `machine` (one transaction);
    the requests queued (none when every copy is dismissed already or has one pending)."""
    location = hub_location(url)
    with closing(connect_hub(url)) as hub:
        try:
            require_schema(hub, location)
            with hub.transaction():
                if hub.execute(_KNOWN, (machine, memory_id)).fetchone() is None:
                    raise NotFoundError(f"the hub holds no memory #{memory_id} of machine {machine!r}")
                targets = [Queued(m, int(i)) for m, i in hub.execute(_CARD, (machine, memory_id)).fetchall()]
                with hub.cursor() as cursor:
                    cursor.executemany(
                        _QUEUE,
                        [(t.machine, t.memory_id, DISMISS, requested_on, now, reason) for t in targets],
                    )
        except psycopg.Error as exc:
            raise HubError(unreachable_message(location, exc)) from exc
    return targets


def apply_pending(store: MemoryStore, hub: psycopg.Connection[Any], machine: str) -> Applied:
    """Apply the dismissals the hub holds for this machine's memories. A memory this machine no longer
    holds only has its request marked applied; a request whose values are refused is left pending."""
    pending = hub.execute(_PENDING, (machine,)).fetchall()
    hub.commit()
    applied = Applied()
    for request_id, memory_id, requested_on, reason in pending:
        problem = request_problem(str(requested_on), None if reason is None else str(reason))
        if problem is None:
            try:
                before = store.get(int(memory_id)).status
                after = store.dismiss(int(memory_id), hub_reason(str(requested_on), reason)).status
                if after != before:
                    applied.dismissed.append(int(memory_id))
            except NotFoundError:
                pass
            except InvalidInputError as exc:  # the store's own rules: the request waits, the publish goes on
                problem = exc.message
        if problem is not None:
            applied.refused.append(RefusedRequest(int(request_id), problem))
            continue
        with hub.transaction():
            hub.execute(_APPLIED, (store.now(), request_id))
    return applied


def has_pending(hub: psycopg.Connection[Any], machine: str) -> bool:
    found = hub.execute(_PENDING, (machine,)).fetchone() is not None
    hub.commit()
    return found


def queue_dismiss_card(
    url: str, sources: list[tuple[str, int]], *, requested_on: str, now: int, reason: str | None = None
) -> list[Queued]:
    """ "Dismiss on every machine" for a card whose copies hold several texts: `queue_dismiss` once per
    text (`sources`: one copy of each); the requests queued, every copy once."""
    queued: list[Queued] = []
    for machine, memory_id in sources:
        queued += queue_dismiss(url, machine, memory_id, requested_on=requested_on, now=now, reason=reason)
    return queued


SHOWN_REFUSED = 10  # the first few say enough; the rest are counted


def refused_text(refused: Sequence[RefusedRequest]) -> str:
    """The requests not applied, each by its id in the hub, for a person."""
    lines = [f"  - #{item.id}: {item.problem}" for item in refused[:SHOWN_REFUSED]]
    if len(refused) > SHOWN_REFUSED:
        lines.append(f"  and {len(refused) - SHOWN_REFUSED:,} more")
    head = "hub requests not applied (their values are refused; they stay pending in the hub):"
    return "\n".join([head, *lines])
