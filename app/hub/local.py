"""What a machine publishes, read from its own store in one snapshot: memories, revisions, evidence
(the archive of candidates, `mdash_evidence`).

Rows come out as the hub stores them, whatever the host's cells hold (`app.store.read.host_cells`): times
as epoch ms in range, text as text (NUL, which PostgreSQL's text cannot hold, as U+FFFD). Each query
streams in batches, ordered so that a batch's last row is the watermark to publish from next time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, text

from app.core.text_input import INT64_MIN
from app.store.evidence.archive import archive_exists
from app.store.read.host_cells import status_value, text_value, time_value
from app.store.read.reads import REVISION_COLUMNS as STORE_REVISION_COLUMNS
from app.store.read.reads import chunks
from app.store.read.rows import build_candidate

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
# The evidence archive's columns (`mdash_evidence`), and `detail`: what was odd about the host's cells.
EVIDENCE_COLUMNS = (
    "candidate_id",
    "content",
    "session_id",
    "source_compartment_start",
    "source_compartment_end",
    "created_at",
    "first_seen_at",
    "detail",
)

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
_EVIDENCE_SELECT = (
    "SELECT candidate_id, content, session_id, source_compartment_start, source_compartment_end,"
    " created_at, first_seen_at FROM mdash_evidence"
)
_EVIDENCE = text(f"{_EVIDENCE_SELECT} WHERE candidate_id > :mark ORDER BY candidate_id")
# The sum is of ids modulo a prime: no 64-bit overflow whatever the ids; the hub sums the same way.
TALLY_MODULUS = 1_000_003
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


def evidence_row(raw: Sequence[Any]) -> Row:
    """An archived candidate as the hub keeps it: odd cells escaped as the window shows them (see
    `build_candidate`), what was odd about them in `detail`."""
    *host, first_seen = raw
    found = build_candidate(tuple(host))
    return (
        int(found.id),
        clean(found.content),
        clean(found.session_id),
        found.compartment_start,
        found.compartment_end,
        found.created_at,
        time_value(first_seen),
        clean("; ".join(found.oddities)) if found.oddities else None,
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


def has_archive(conn: Connection) -> bool:
    return archive_exists(conn)


def evidence_batches(conn: Connection, mark: int | None, size: int) -> Iterator[list[Row]]:
    """The evidence archive's rows (`mdash_evidence`: candidates kept after the host deleted them) after
    candidate id `mark` (all for None), in id order; none where this store has no archive. A host that
    hands out a deleted candidate's id again may archive a row below the mark: the tally finds it."""
    if not has_archive(conn):
        return iter(())
    return _batches(conn, _EVIDENCE, {"mark": mark if mark is not None else INT64_MIN}, size, evidence_row)


@dataclass(frozen=True, slots=True)
class Held:
    """A local table the hub must hold every row of, by id: what the tally and the comparison read."""

    table: str
    id_column: str
    select: str
    convert: Callable[[Sequence[Any]], Row]

    def ids(self, conn: Connection) -> list[int]:
        """Every id this machine holds now (what the hub keeps of it; deleted memories left out)."""
        return [int(row[0]) for row in conn.execute(text(f"SELECT {self.id_column} FROM {self.table}"))]

    def tally(self, conn: Connection) -> tuple[int, int]:
        """How many rows this machine holds, and a sum of their ids: what the hub's tally must match."""
        count, total = conn.execute(
            text(f"SELECT count(*), coalesce(sum({self.id_column} % {TALLY_MODULUS}), 0) FROM {self.table}")
        ).one()
        return int(count), int(total)

    def by_id(self, conn: Connection, ids: Sequence[int]) -> Iterator[list[Row]]:
        """The rows of `ids`, a chunk at a time."""
        query = text(f"{self.select} WHERE {self.id_column} IN :ids ORDER BY {self.id_column}").bindparams(
            bindparam("ids", expanding=True)
        )
        for chunk in chunks(ids, ID_CHUNK):
            yield [self.convert(row) for row in conn.execute(query, {"ids": list(chunk)})]


MEMORIES = Held("user_memories", "id", _MEMORY_SELECT, memory_row)
# Only where the store has its archive (`has_archive`).
EVIDENCE = Held("mdash_evidence", "candidate_id", _EVIDENCE_SELECT, evidence_row)
