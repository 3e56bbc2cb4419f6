"""Skipping the observation scan when nobody has committed since the last clean look (SQLite; PostgreSQL's
looks are `server_watch`'s).

`PRAGMA data_version` moves, for one connection, whenever another connection (of this process or any
other, the host's included) commits to the file. Our own commits on that same connection do not move it,
and our writers keep `mdash_seen` current themselves. So if the connection whose scan last found no
outside change still reports the version it had before that scan, the host's tables cannot differ from
what the store has seen and the full comparison (a scan of every memory) is skipped. A different
connection, another version or any doubt means a scan, as before. A read-only store, which keeps what
it has seen in memory, skips its look the same way (it never commits; an immutable or snapshot read
never sees a commit at all).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection


@dataclass(frozen=True, slots=True)
class Look:
    """A connection and its data version, taken before a scan."""

    connection: object
    version: object  # SQLite's data version (int), or PostgreSQL's snapshot (`server_watch`)


class ChangeWatch:
    def __init__(self, enabled: bool) -> None:
        self._enabled = enabled
        self._clean: Look | None = None

    @property
    def enabled(self) -> bool:
        """Whether looks tell anything (SQLite)."""
        return self._enabled

    def look(self, conn: Connection) -> Look | None:
        """The version now, as the first statement of a read (None where the dialect has none)."""
        if not self._enabled:
            return None
        version = conn.exec_driver_sql("PRAGMA data_version").scalar()
        return Look(conn.connection.dbapi_connection, int(version or 0))

    def unchanged(self, look: Look | None) -> bool:
        """Nothing committed by anyone else since a scan that found everything as seen."""
        clean = self._clean
        return (
            look is not None
            and clean is not None
            and clean.connection is look.connection
            and clean.version == look.version
        )

    def mark_clean(self, look: Look | None) -> None:
        self._clean = look

    def look_in_write(self, conn: Connection) -> Look | None:
        """The version as a write of ours begins (for `mark_recorded`)."""
        return self.look(conn)

    def mark_recorded(self, look: Look | None, during: Look | None = None) -> None:
        """What a scan under `look` found is recorded. That write moved the version other connections
        see, so the next look scans again, unless the write ran on the look's own connection and nobody
        committed between the look and the write (`during`, the version as the write began, is the
        look's): then what it recorded is all there was, and our own commit leaves that connection's
        version as it is."""
        if (
            look is not None
            and during is not None
            and during.connection is look.connection
            and during.version == look.version
        ):
            self._clean = during

    def note_write(self, conn: Connection) -> None:
        """Inside one of our write transactions: nothing to note where our commits move no version."""
