"""The read model of a project memory, `ProjectMemory`, and the one function that makes it from a raw
`memories` row whatever its cells hold.

The host declares no CHECKs on `memories`: a TEXT column (by SQLite's affinity) holds text, text that is
not UTF-8, or a blob; an INTEGER column also text, a blob, a real or any 64-bit integer; NOT NULL is
all the host enforces. `project_memory` takes the fast path for a well-typed row (this runs for every
card of a 100,000-row listing) and otherwise reads each cell through `app.store.read.host_cells`, noting
what it held in `oddities`, so a row is marked rather than hidden. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from app.store.read.host_cells import (
    TIME_MAX,
    TIME_MIN,
    describe,
    optional_integer,
    optional_text,
    optional_time,
    status_value,
    text_note,
    text_value,
    time_note,
    time_value,
)

T = TypeVar("T")

# The statuses the host writes, and those it injects (`injection`); any other value is shown as it is.
ACTIVE = "active"
PERMANENT = "permanent"
ARCHIVED = "archived"
INJECTED_STATUSES = (ACTIVE, PERMANENT)

# `memories` columns in the order `project_memory` unpacks them (the mural cue columns are the host's
# render cache, not part of what a person reads).
PROJECT_COLUMNS = (
    "id",
    "project_path",
    "category",
    "content",
    "normalized_hash",
    "importance",
    "scope",
    "shareable",
    "source_session_id",
    "source_type",
    "seen_count",
    "retrieval_count",
    "first_seen_at",
    "created_at",
    "updated_at",
    "last_seen_at",
    "last_retrieved_at",
    "status",
    "expires_at",
    "verification_status",
    "verified_at",
    "classified_at",
    "superseded_by_memory_id",
    "merged_from",
    "metadata_json",
)


@dataclass(frozen=True, slots=True)
class ProjectMemory:
    """One `memories` row as the app reads it: every field of its declared type, oddities noted.

    Text columns read as text (a blob decoded, U+FFFD for bad bytes; a blob status or category as its
    literal, so it never passes for a real one); instants clamped into what a clock can show; counts,
    ids and scores that are no integer read as None. `merged_from` and `metadata_json` stay the raw text
    (`links` reads the first)."""

    id: int
    project_path: str
    category: str
    content: str
    normalized_hash: str
    importance: int | None
    scope: str
    shareable: bool
    source_session_id: str | None
    source_type: str | None
    seen_count: int | None
    retrieval_count: int | None
    first_seen_at: int
    created_at: int
    updated_at: int
    last_seen_at: int
    last_retrieved_at: int | None
    status: str
    expires_at: int | None
    verification_status: str | None
    verified_at: int | None
    classified_at: int | None
    superseded_by: int | None
    merged_from: str | None
    metadata_json: str | None
    oddities: tuple[str, ...] = ()

    def injectable_at(self, now: int) -> bool:
        """The host's rule: active or permanent, and not expired (half-open: gone at `expires_at`)."""
        return self.status in INJECTED_STATUSES and (self.expires_at is None or self.expires_at > now)


def _is_int(value: object) -> bool:
    return type(value) is int


def _sound_time(value: object) -> bool:
    return type(value) is int and TIME_MIN <= value <= TIME_MAX


def _positions(*names: str) -> tuple[int, ...]:
    return tuple(PROJECT_COLUMNS.index(name) for name in names)


# Where each kind of column sits in a row, for the fast path's checks.
_TEXTS = _positions("project_path", "category", "content", "normalized_hash", "scope", "status")
_OPTIONAL_TEXTS = _positions(
    "source_session_id", "source_type", "verification_status", "merged_from", "metadata_json"
)
_OPTIONAL_INTS = _positions("importance", "seen_count", "retrieval_count", "superseded_by_memory_id")
_TIMES = _positions("first_seen_at", "created_at", "updated_at", "last_seen_at")
_OPTIONAL_TIMES = _positions("last_retrieved_at", "expires_at", "verified_at", "classified_at")
_SHAREABLE = PROJECT_COLUMNS.index("shareable")


def _well_typed(values: Sequence[Any]) -> bool:
    """Every cell of its declared type, instants in range: nothing to read cell by cell."""
    return (
        all(type(values[i]) is str for i in _TEXTS)
        and all(values[i] is None or type(values[i]) is str for i in _OPTIONAL_TEXTS)
        and all(values[i] is None or _is_int(values[i]) for i in _OPTIONAL_INTS)
        and all(_sound_time(values[i]) for i in _TIMES)
        and all(values[i] is None or _sound_time(values[i]) for i in _OPTIONAL_TIMES)
        and _is_int(values[_SHAREABLE])
        and values[_SHAREABLE] in (0, 1)
    )


def project_memory(values: Sequence[Any]) -> ProjectMemory:
    """A raw `memories` row (columns in PROJECT_COLUMNS order) as a `ProjectMemory`, whatever it holds."""
    if _well_typed(values):
        fields = list(values)
        fields[_SHAREABLE] = fields[_SHAREABLE] == 1
        return ProjectMemory(*fields)
    return _odd_row(values)


def _shareable(value: object) -> tuple[bool, str | None]:
    """Shareable only as the host selects it (`shareable = 1`); any value but 0 or 1 is noted."""
    if _is_int(value) and value in (0, 1):
        return value == 1, None
    shared = _is_int(value) and value == 1
    return shared, f"shareable is {describe(value)}, not 0 or 1: read as {'yes' if shared else 'no'}"


def _label(column: str, value: object) -> tuple[str, str | None]:
    """A status or category: text as it is, a blob as its literal (never mistaken for a real one)."""
    if value is None:
        return "", f"{column} is NULL"
    return status_value(value), text_note(column, value)


class _Notes:
    """The oddities of one row, gathered as its cells are read."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def take(self, read: tuple[T, str | None]) -> T:
        value, note = read
        if note is not None:
            self.found.append(note)
        return value

    def text(self, column: str, value: object) -> str:
        return self.take((text_value(value), text_note(column, value)))

    def time(self, column: str, value: object) -> int:
        return self.take((time_value(value), time_note(column, value)))


def _odd_row(values: Sequence[Any]) -> ProjectMemory:
    cell = dict(zip(PROJECT_COLUMNS, values, strict=True))
    notes = _Notes()
    return ProjectMemory(
        id=cell["id"],
        project_path=notes.text("project_path", cell["project_path"]),
        category=notes.take(_label("category", cell["category"])),
        content=notes.text("content", cell["content"]),
        normalized_hash=notes.text("normalized_hash", cell["normalized_hash"]),
        importance=notes.take(optional_integer("importance", cell["importance"])),
        scope=notes.take(_label("scope", cell["scope"])),
        shareable=notes.take(_shareable(cell["shareable"])),
        source_session_id=notes.take(optional_text("source_session_id", cell["source_session_id"])),
        source_type=notes.take(optional_text("source_type", cell["source_type"])),
        seen_count=notes.take(optional_integer("seen_count", cell["seen_count"])),
        retrieval_count=notes.take(optional_integer("retrieval_count", cell["retrieval_count"])),
        first_seen_at=notes.time("first_seen_at", cell["first_seen_at"]),
        created_at=notes.time("created_at", cell["created_at"]),
        updated_at=notes.time("updated_at", cell["updated_at"]),
        last_seen_at=notes.time("last_seen_at", cell["last_seen_at"]),
        last_retrieved_at=notes.take(optional_time("last_retrieved_at", cell["last_retrieved_at"])),
        # The column's default is 'active', but an explicit NULL is no status the host injects.
        status=notes.take(_label("status", cell["status"])),
        expires_at=notes.take(optional_time("expires_at", cell["expires_at"])),
        verification_status=notes.take(optional_text("verification_status", cell["verification_status"])),
        verified_at=notes.take(optional_time("verified_at", cell["verified_at"])),
        classified_at=notes.take(optional_time("classified_at", cell["classified_at"])),
        superseded_by=notes.take(
            optional_integer("superseded_by_memory_id", cell["superseded_by_memory_id"])
        ),
        merged_from=notes.take(optional_text("merged_from", cell["merged_from"])),
        metadata_json=notes.take(optional_text("metadata_json", cell["metadata_json"])),
        oddities=tuple(notes.found),
    )
