"""The host's lease protocol on `dream_state`, for the global `user-memories` key.

A lease is four rows, `lease:<key>:holder|heartbeat|expiry|generation`, values as text (epoch ms for
heartbeat and expiry). It is held while `now < expiry`. Acquiring writes holder, heartbeat,
expiry = now + 2 min and generation + 1; the holder re-checks the generation right before it commits,
so a holder whose lease expired and was taken over cannot commit stale work. Releasing deletes holder,
heartbeat and expiry and keeps the generation. A crashed holder blocks nobody past its expiry.

Every function here runs on a connection inside a write transaction the caller owns. The review's apply
takes the lease; the store refuses a person's writes to the candidate pool while someone else holds it.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

from sqlalchemy import Connection, delete, insert, select, update

from app.core.clock import format_instant
from app.core.errors import LeaseHeldError
from app.core.text_input import int64_problem
from app.store.schema.tables import dream_state

LEASE_KEY = "user-memories"
LEASE_DURATION_MS = 2 * 60_000
FIELDS = ("holder", "heartbeat", "expiry", "generation")


@dataclass(frozen=True, slots=True)
class LeaseState:
    """The lease rows as found (None for a missing or unreadable value)."""

    holder: str | None
    heartbeat: int | None
    expiry: int | None
    generation: int

    def held_at(self, now: int) -> bool:
        return self.expiry is not None and now < self.expiry


@dataclass(frozen=True, slots=True)
class Lease:
    """A lease we acquired: the generation is our fencing token."""

    key: str
    holder: str
    generation: int
    expiry: int


def default_holder() -> str:
    return f"memory-dashboard:{socket.gethostname()}:{os.getpid()}"


def row_key(key: str, name: str) -> str:
    return f"lease:{key}:{name}"


def _number(text: str | None) -> int | None:
    """Epoch ms (or a counter) stored as text; tolerate `123.0`, read garbage as missing. So is a number
    no 64-bit integer holds (`2**70`): no holder wrote it as a time, and it could be neither compared
    sensibly nor shown, nor its generation + 1 stored."""
    if text is None:
        return None
    try:
        value = int(float(text.strip()))
    except (ValueError, OverflowError):
        return None
    return value if int64_problem(value) is None else None


def read_lease(conn: Connection, key: str = LEASE_KEY) -> LeaseState:
    keys = {row_key(key, name): name for name in FIELDS}
    rows = conn.execute(select(dream_state.c.key, dream_state.c.value).where(dream_state.c.key.in_(keys)))
    values = {keys[str(k)]: str(v) for k, v in rows}
    return LeaseState(
        holder=values.get("holder"),
        heartbeat=_number(values.get("heartbeat")),
        expiry=_number(values.get("expiry")),
        generation=_number(values.get("generation")) or 0,
    )


def _put(conn: Connection, key: str, value: str) -> None:
    done = conn.execute(update(dream_state).where(dream_state.c.key == key).values(value=value))
    if done.rowcount == 0:
        conn.execute(insert(dream_state).values(key=key, value=value))


def held_message(state: LeaseState, now: int, key: str = LEASE_KEY) -> str:
    assert state.expiry is not None
    seconds = max(0, (state.expiry - now + 999) // 1000)
    return (
        f"the {key!r} lease is held by {state.holder or 'an unknown holder'} until "
        f"{format_instant(state.expiry)} ({seconds} s from now): the automated review is running. "
        "Nothing was changed; try again after it ends or expires."
    )


def ensure_free(conn: Connection, now: int, holder: str | None = None, key: str = LEASE_KEY) -> LeaseState:
    """Refuse when someone other than `holder` holds an unexpired lease."""
    state = read_lease(conn, key)
    if state.held_at(now) and (holder is None or state.holder != holder):
        raise LeaseHeldError(held_message(state, now, key))
    return state


def acquire(
    conn: Connection, holder: str, now: int, *, key: str = LEASE_KEY, duration_ms: int = LEASE_DURATION_MS
) -> Lease:
    """Take the lease (free, expired, or already ours); refuse while another holder's is unexpired."""
    state = ensure_free(conn, now, holder, key)
    lease = Lease(key, holder, state.generation + 1, now + duration_ms)
    _put(conn, row_key(key, "holder"), holder)
    _put(conn, row_key(key, "heartbeat"), str(now))
    _put(conn, row_key(key, "expiry"), str(lease.expiry))
    _put(conn, row_key(key, "generation"), str(lease.generation))
    return lease


def verify(conn: Connection, lease: Lease, now: int) -> None:
    """Still ours and unexpired? The generation is the fencing token: anyone who took over has moved it.

    An expired lease is not ours any more even if nobody took it yet: the host's protocol holds a lease
    only while now < expiry, so writing past it could race a holder that acquires it this instant.
    """
    state = read_lease(conn, lease.key)
    if state.generation == lease.generation and state.holder == lease.holder and not state.held_at(now):
        raise LeaseHeldError(
            f"the {lease.key!r} lease expired before the verdict was written; everything was rolled back"
        )
    if state.generation != lease.generation or state.holder != lease.holder:
        taken_by = state.holder or "nobody (released)"
        raise LeaseHeldError(
            f"the {lease.key!r} lease was taken over before commit (generation {state.generation}, "
            f"ours {lease.generation}; holder {taken_by}); everything was rolled back"
        )


def release(conn: Connection, lease: Lease) -> bool:
    """Delete holder, heartbeat and expiry if the lease is still ours; the generation stays."""
    state = read_lease(conn, lease.key)
    if state.generation != lease.generation or state.holder != lease.holder:
        return False
    keys = [row_key(lease.key, name) for name in ("holder", "heartbeat", "expiry")]
    conn.execute(delete(dream_state).where(dream_state.c.key.in_(keys)))
    return True
