"""Skipping the observation scan on PostgreSQL: a look is the server's snapshot, not a file's version.

PostgreSQL has no `PRAGMA data_version`. What it has is `pg_current_snapshot()`: the transaction ids
still running and the next one to be handed out. Every transaction that writes anything gets an id and,
when it ends, moves the snapshot (the next id passes it, or it leaves the running list), so two looks
with the same snapshot saw the same data; the ids that ended between two looks can be told from the
two snapshots alone. A read (`REPEATABLE READ`) takes its snapshot at its first statement, which is the
look, so the scan that follows reads exactly what the look names.

Our own writes end transactions too. The store notes each write's id (`note_write`, before it
commits), and ids that are all ours do not count: our writers keep `mdash_seen` current themselves, as
on SQLite. Any other transaction that ended, in this database or any other of the server (the server's
ids are shared), counts as a change: a scan finds out whether it touched the host's tables. A look
that cannot tell (more ids between the looks than are worth listing) counts as a change too.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection

from app.store.observe.change_watch import ChangeWatch, Look

SERVER = "server"  # every connection sees the same snapshots: the look's connection does not matter
SPAN_TOLD = 10_000  # ids handed out between two looks that are still listed one by one


@dataclass(frozen=True, slots=True)
class Snapshot:
    """`xmin:xmax:running,…` as PostgreSQL writes a `pg_snapshot`."""

    xmin: int
    xmax: int
    running: frozenset[int]

    def ended_since(self, before: Snapshot) -> frozenset[int] | None:
        """The ids that ended (committed or rolled back) between `before` and this snapshot; None when
        too many ids were handed out in between to list them."""
        if self.xmax - before.xmax > SPAN_TOLD:
            return None
        maybe = before.running | frozenset(range(before.xmax, self.xmax))
        return frozenset(item for item in maybe if item < self.xmax and item not in self.running)


_SNAPSHOT = "SELECT CAST(pg_current_snapshot() AS TEXT)"
_OWN_ID = "SELECT CAST(pg_current_xact_id_if_assigned() AS TEXT)"


def parse_snapshot(text: str) -> Snapshot:
    low, high, running = text.split(":")
    return Snapshot(int(low), int(high), frozenset(int(item) for item in running.split(",") if item))


class ServerChangeWatch(ChangeWatch):
    def __init__(self) -> None:
        super().__init__(enabled=True)
        self._own: set[int] = set()

    def look(self, conn: Connection) -> Look | None:
        text = conn.exec_driver_sql(_SNAPSHOT).scalar()
        return Look(SERVER, parse_snapshot(str(text))) if text else None

    def unchanged(self, look: Look | None) -> bool:
        clean = self._clean
        if look is None or clean is None:
            return False
        now, before = look.version, clean.version
        if not (isinstance(now, Snapshot) and isinstance(before, Snapshot)):
            return False
        ended = now.ended_since(before)
        return ended is not None and ended <= self._own

    def mark_clean(self, look: Look | None) -> None:
        super().mark_clean(look)
        if look is not None and isinstance(look.version, Snapshot):
            oldest = look.version.xmin  # an id below it ended before this look: never asked about again
            self._own = {item for item in self._own if item >= oldest}

    def look_in_write(self, conn: Connection) -> Look | None:
        return None  # a snapshot is all `mark_recorded` needs: no query for it

    def mark_recorded(self, look: Look | None, during: Look | None = None) -> None:
        """What a scan under `look` found is recorded (by a write of ours, noted): the tables are as
        seen at that look; anything that ended since is another look's."""
        self.mark_clean(look)

    def note_write(self, conn: Connection) -> None:
        """Inside one of our write transactions, before it commits: its id will end as ours."""
        own = conn.exec_driver_sql(_OWN_ID).scalar()
        if own is not None:
            self._own.add(int(own))


def watch_for(is_sqlite: bool) -> ChangeWatch:
    """The store's change watch: SQLite's data version, or the server's snapshots."""
    return ChangeWatch(enabled=True) if is_sqlite else ServerChangeWatch()
