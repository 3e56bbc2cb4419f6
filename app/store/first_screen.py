"""The window's first screen read with the standard library's `sqlite3`, before SQLAlchemy is imported.

A launch paints its first cards from this read; the store (`MemoryStore.open`, which imports
SQLAlchemy, migrates and sweeps) is opened once they are painted. It reads exactly what the store's
first page of the default listing reads (`ui.cards.listing.load_first_page` with the window's starting
filter: active memories, newest promoted first): the same statements, frozen here from the SQL the store
compiles (`tests/store/read/test_fast_first_screen.py` runs both and holds them equal), and the same row
conversion (`rows.host_row`, `rows.own_facts`, `rows.build_memories`).

`read_first_screen` answers None whenever the store could show something else, and the launch then
takes the ordinary path: not a plain file this process can write (the store would open a read-only
snapshot), our tables absent or at another revision (the store would migrate them), an expired memory
still active (the store's open sweeps it), no memory to show, or any error while reading.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from app.core.models import Memory, MemoryStatus, RevisionKind
from app.store.read.host_cells import decode_text
from app.store.read.rows import OwnFactRows, build_memories, host_row, own_facts

# Our tables as the store reads them at head (`app.store.schema.migrate.HEAD_REVISION`, `OWN_TABLES`
# and the trust marks' table): the test holds these equal to the store's.
HEAD_REVISION = "0010_command_log"
VERSION_TABLE = "mdash_alembic_version"
OWN_TABLES = (
    "mdash_revisions",
    "mdash_seen",
    "mdash_expiry",
    "mdash_memory_sources",
    "mdash_review_runs",
    "mdash_meta",
    "mdash_trust_marks",
)
ACTIVE = str(MemoryStatus.ACTIVE)  # plain str: the bare driver binds it
LOCK_WAIT_S = 1.0  # a host holding the file locked longer: the ordinary path waits for it instead
CONTENT = str(RevisionKind.CONTENT)

# The store's statements for the first page of the default listing, as SQLAlchemy compiles them for
# SQLite; `{ids}` is the `IN` list's placeholders (one `?` per id).
FIRST_IDS = (
    "SELECT user_memories.id \nFROM user_memories \nWHERE user_memories.status = ? "
    "ORDER BY user_memories.promoted_at DESC, user_memories.id DESC\n LIMIT ? OFFSET ?"
)
COUNT = (
    "SELECT count(*) AS count_1 \nFROM (SELECT user_memories.id AS id \nFROM user_memories \n"
    "WHERE user_memories.status = ?) AS anon_1"
)
HOST_ROWS = (
    "SELECT user_memories.id, user_memories.content, user_memories.status, user_memories.promoted_at, "
    "user_memories.source_candidate_ids, user_memories.source_candidate_provenance, "
    "user_memories.created_at, user_memories.updated_at \nFROM user_memories \n"
    "WHERE user_memories.id IN ({ids})"
)
EXPIRIES = (
    "SELECT mdash_expiry.memory_id, mdash_expiry.expires_at \nFROM mdash_expiry \n"
    "WHERE mdash_expiry.memory_id IN ({ids})"
)
SOURCES = (
    "SELECT mdash_memory_sources.memory_id, mdash_memory_sources.source \nFROM mdash_memory_sources \n"
    "WHERE mdash_memory_sources.memory_id IN ({ids}) "
    "ORDER BY mdash_memory_sources.added_at, mdash_memory_sources.source"
)
REVISION_STATS = (
    "SELECT mdash_revisions.memory_id, count(*) AS count_1, max(CASE WHEN (mdash_revisions.kind = ?) "
    "THEN mdash_revisions.changed_at END) AS max_1 \nFROM mdash_revisions \n"
    "WHERE mdash_revisions.memory_id IN ({ids}) GROUP BY mdash_revisions.memory_id"
)
SEEN = (
    "SELECT mdash_seen.memory_id, mdash_seen.baseline_rewritten_at, mdash_seen.first_seen_at \n"
    "FROM mdash_seen \nWHERE mdash_seen.memory_id IN ({ids})"
)
MARKS = (
    "SELECT mdash_trust_marks.source, mdash_trust_marks.trust \nFROM mdash_trust_marks "
    "ORDER BY mdash_trust_marks.source"
)
# Checks before the read (not the store's statements): which tables exist, our revision, and whether an
# active memory's expiry has passed (`app.store.write.expiry_sweep.due_ids`: the store's open sweeps it).
TABLES = "SELECT name FROM sqlite_master WHERE type = 'table'"
REVISION = f"SELECT version_num FROM {VERSION_TABLE}"
DUE = (
    "SELECT 1 FROM user_memories JOIN mdash_expiry ON mdash_expiry.memory_id = user_memories.id "
    "WHERE user_memories.status = ? AND mdash_expiry.expires_at <= ? LIMIT 1"
)


@dataclass(frozen=True, slots=True)
class FirstScreen:
    """The first `len(ids)` ids of the default listing, how many it holds, and the first rows' memories."""

    ids: list[int]
    total: int
    rows: list[Memory]


def read_first_screen(path: Path, now: int, first: int, rows: int) -> FirstScreen | None:
    """The default listing's first screen of the SQLite file at `path` (read only), or None when only
    the store can say what it shows (see the module's docstring). Never raises."""
    try:
        if not (path.is_file() and os.access(path, os.R_OK | os.W_OK) and os.access(path.parent, os.W_OK)):
            return None
        uri = f"file:{quote(str(path.resolve()))}?mode=ro"
        conn = sqlite3.connect(uri, uri=True, timeout=LOCK_WAIT_S, isolation_level=None)
        conn.text_factory = decode_text  # as the store's connections: text that is not UTF-8 is marked
    except (OSError, sqlite3.Error, ValueError):
        return None
    try:
        conn.execute("BEGIN")  # one snapshot for the checks and the read
        if not usable(conn, now):
            return None
        return first_screen(conn, now, first, rows)
    except (sqlite3.Error, ValueError, TypeError, OverflowError):
        return None
    finally:
        conn.close()


def usable(conn: sqlite3.Connection, now: int) -> bool:
    """Our tables at head, and nothing the store's open would sweep."""
    tables = {str(name) for (name,) in conn.execute(TABLES)}
    if not tables.issuperset((VERSION_TABLE, *OWN_TABLES)):
        return False
    revisions = [version for (version,) in conn.execute(REVISION)]
    if revisions != [HEAD_REVISION]:
        return False
    return conn.execute(DUE, (ACTIVE, now)).fetchone() is None


def first_screen(conn: sqlite3.Connection, now: int, first: int, rows: int) -> FirstScreen | None:
    """The store's statements for the first page (`MemoryStore.first_ids`, then `get_many` of the first
    `rows` ids), in its order; None when no memory is shown or a row vanished (the store reads the trash)."""
    ids = [int(item) for (item,) in conn.execute(FIRST_IDS, (ACTIVE, first, 0))]
    if not ids:
        return None
    total = len(ids)
    if total == first:
        total = int(conn.execute(COUNT, (ACTIVE,)).fetchone()[0])
    shown = ids[:rows]
    found = {row.id: row for row in map(host_row, _with_ids(conn, HOST_ROWS, shown))}
    if len(found) < len(shown):
        return None
    facts = own_facts(
        OwnFactRows(
            _with_ids(conn, EXPIRIES, shown),
            _with_ids(conn, SOURCES, shown),
            _with_ids(conn, REVISION_STATS, shown, (CONTENT,)),
            _with_ids(conn, SEEN, shown),
        )
    )
    marks = {str(source): str(trust) for source, trust in conn.execute(MARKS)}
    return FirstScreen(ids, total, build_memories([found[i] for i in shown], facts, now, marks))


def _with_ids(
    conn: sqlite3.Connection, sql: str, ids: Sequence[int], before: tuple[object, ...] = ()
) -> list[Sequence[Any]]:
    return conn.execute(sql.format(ids=", ".join("?" * len(ids))), (*before, *ids)).fetchall()
