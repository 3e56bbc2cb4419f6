"""What a machine publishes, read from its own store in one snapshot: memories, revisions, evidence.

Rows come out as the hub stores them, whatever the host's cells hold (`app.store.read.host_cells`): times
as epoch ms in range, text as text (NUL, which PostgreSQL's text cannot hold, as U+FFFD). Each query
streams in batches, ordered so that a batch's last row is the watermark to publish from next time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, text

from app.store.read.host_cells import status_value, text_value, time_value
from app.store.read.reads import REVISION_COLUMNS as STORE_REVISION_COLUMNS

MEMORY_COLUMNS = (
    "memory_id",
    "content",
    "status",
    "promoted_at",
    "created_at",
    "updated_at",
    "source_candidate_ids",
    "source_candidate_provenance",
)
# The revisions table's columns as the store reads them, its own id named as the hub keys it.
REVISION_COLUMNS = ("revision_id", *STORE_REVISION_COLUMNS[1:])
EVIDENCE_COLUMNS = ("memory_id", "candidate_id", "session_id", "content", "detail")

Row = tuple[Any, ...]

# Rows with updated_at at the watermark are read again (a write in the same millisecond may have come
# after the last publish); the hub's upsert ignores those that did not change.
_MEMORY_SELECT = (
    "SELECT id, content, status, promoted_at, created_at, updated_at, source_candidate_ids,"
    " source_candidate_provenance FROM user_memories"
)
_ALL_MEMORIES = text(f"{_MEMORY_SELECT} ORDER BY updated_at, id")
_MEMORIES = text(f"{_MEMORY_SELECT} WHERE updated_at >= :mark ORDER BY updated_at, id")
_REVISIONS = text(
    f"SELECT {', '.join(STORE_REVISION_COLUMNS)} FROM mdash_revisions WHERE id > :mark ORDER BY id"
)
_IDS = text("SELECT id FROM user_memories")
# The sum is of ids modulo a prime: no 64-bit overflow whatever the ids; the hub sums the same way.
TALLY_MODULUS = 1_000_003
_TALLY = text(f"SELECT count(*), coalesce(sum(id % {TALLY_MODULUS}), 0) FROM user_memories")
_BY_ID = text(f"{_MEMORY_SELECT} WHERE id IN :ids ORDER BY id").bindparams(bindparam("ids", expanding=True))
ID_CHUNK = 500  # ids per `IN (...)`: well under SQLite's limit of bound parameters


def clean(value: object) -> str:
    return text_value(value).replace("\x00", "\ufffd")


def optional(value: object) -> str | None:
    return None if value is None else clean(value)


def memory_row(raw: Sequence[Any]) -> Row:
    memory_id, content, status, promoted, created, updated, ids, provenance = raw
    return (
        int(memory_id),
        clean(content),
        status_value(status).replace("\x00", "\ufffd"),
        time_value(promoted),
        time_value(created),
        time_value(updated),
        optional(ids),
        optional(provenance),
    )


def revision_row(raw: Sequence[Any]) -> Row:
    rid, memory_id, changed, kind, source, run_id, ids, *texts = raw
    return (
        int(rid),
        int(memory_id),
        time_value(changed),
        clean(kind),
        clean(source),
        optional(run_id),
        clean(ids if ids is not None else "[]"),
        *(optional(value) for value in texts),
    )


def _batches(
    conn: Connection, query: Any, params: dict[str, Any], size: int, convert: Any
) -> Iterator[list[Row]]:
    result = conn.execute(query, params)
    while True:
        raw = result.fetchmany(size)
        if not raw:
            return
        yield [convert(row) for row in raw]


def memory_batches(conn: Connection, mark: int | None, size: int) -> Iterator[list[Row]]:
    """The memories changed at or after `mark` (all of them for None), oldest change first."""
    if mark is None:
        return _batches(conn, _ALL_MEMORIES, {}, size, memory_row)
    return _batches(conn, _MEMORIES, {"mark": mark}, size, memory_row)


def revision_batches(conn: Connection, mark: int | None, size: int, own_tables: bool) -> Iterator[list[Row]]:
    """The revisions after revision id `mark` (all for None), in id order; none without our tables."""
    if not own_tables:
        return iter(())
    return _batches(conn, _REVISIONS, {"mark": mark if mark is not None else -1}, size, revision_row)


def memory_ids(conn: Connection) -> list[int]:
    """Every memory id this machine holds now: what the hub keeps of it, deleted ones left out."""
    return [int(row[0]) for row in conn.execute(_IDS)]


def memory_tally(conn: Connection) -> tuple[int, int]:
    """How many memories this machine holds, and a sum of their ids: what the hub's tally must match."""
    count, total = conn.execute(_TALLY).one()
    return int(count), int(total)


def memories_by_id(conn: Connection, ids: Sequence[int]) -> Iterator[list[Row]]:
    """The memories of `ids`, a chunk at a time."""
    for start in range(0, len(ids), ID_CHUNK):
        yield [memory_row(row) for row in conn.execute(_BY_ID, {"ids": list(ids[start : start + ID_CHUNK])})]


def archived_evidence_batches(conn: Connection, mark: int | None, size: int) -> Iterator[list[Row]]:
    """The evidence archive's rows (`mdash_evidence`, candidates kept after the host deleted them) as
    `EVIDENCE_COLUMNS`: none yet. The table is being added to the store in parallel; when it lands, read
    it here (rows newer than `mark`) and the publish sends them to `hub_evidence` with no other change.
    Until then the evidence published is each memory's candidate ids and provenance JSON."""
    del conn, mark, size
    return iter(())
