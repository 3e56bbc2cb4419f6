"""The app's export file (`memory-dashboard export`), read back for `import`: every value checked once here.

An export is a JSON object with `format`, `version`, `exported_at`, `database` and `memories`; exports
written before `format` and `version` existed are version 1. A file that is not an export, or one of a newer
version, is refused whole (`InvalidInputError`). Within an export, a memory whose texts break the content
rules (`app.core.text_input`), or whose content holds hidden characters (`app.core.screening`, refused as
in a review's verdict unless allowed), is left out and reported, the others imported. A value the app
would call malformed anywhere refuses the whole file, naming where it is
(`memories[3].revisions[0].changed_at`): a wrong type, a time that is not epoch milliseconds the readers
can show (`TIME_MIN..TIME_MAX`), a status the host does not know, a candidate id that is not positive, a
version that is none.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.clock import TIME_MAX, TIME_MIN
from app.core.errors import InvalidInputError
from app.core.models import MemoryStatus, RevisionKind
from app.core.provenance import host_can_read_entry
from app.core.screening import hidden_problem
from app.core.text_input import (
    DuplicateKeyError,
    content_problem,
    int64_problem,
    strict_json_loads,
    text_problem,
)

EXPORT_FORMAT = "memory-dashboard-export"
EXPORT_VERSION = 1
MAX_EXPORT_BYTES = 512 * 1024 * 1024
# The statuses an imported memory may have: the host's own. Any other word would be a memory the host
# never injects and the app shows as odd; refused, like a verdict's mistake, rather than guessed at.
HOST_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.DISMISSED)
# The highest id an imported memory keeps. The host counts its ids up from the highest ever used (SQLite's
# AUTOINCREMENT, PostgreSQL's identity moved past an import) and its JavaScript reads them exactly only
# below 2**53: an id kept up to 2**52 leaves as many again for the host's later inserts. A memory whose id
# is higher, or below 1, takes a new one, as one whose id is already used here.
MAX_KEPT_ID = 2**52
_TIMES = "epoch milliseconds from 1970 to the end of year 3000"


class ExportError(InvalidInputError):
    """The file is not an export this version can read; nothing was imported."""


@dataclass(frozen=True, slots=True)
class ExportedRevision:
    id: int
    kind: str
    source: str
    changed_at: int
    run_id: str | None
    candidate_ids: tuple[int, ...]
    previous_content: str | None
    new_content: str | None
    previous_status: str | None
    new_status: str | None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ExportedMemory:
    id: int
    content: str
    status: str
    promoted_at: int
    created_at: int
    updated_at: int
    content_changed_at: int | None
    source_candidate_ids: tuple[int, ...]
    provenance: tuple[Mapping[str, Any], ...] | None  # entries as exported (the host's four keys and more)
    sources: tuple[str, ...]
    expires_at: int | None
    revisions: tuple[ExportedRevision, ...]
    problem: str | None = None  # why it cannot be imported (a content rule), or None

    @property
    def id_keepable(self) -> bool:
        """Whether its id is one the import may keep (if this database has never used it)."""
        return 1 <= self.id <= MAX_KEPT_ID


@dataclass(frozen=True, slots=True)
class ExportFile:
    version: int
    exported_at: int
    database: str
    memories: tuple[ExportedMemory, ...]


class _Fields:
    """Typed reads of one JSON object's fields, each error naming the field's path."""

    def __init__(self, data: object, path: str) -> None:
        if not isinstance(data, dict):
            raise ExportError(f"{path} is not an object; nothing was imported")
        self.data: dict[str, Any] = data
        self.path = path

    def fail(self, key: str, what: str) -> ExportError:
        return ExportError(f"{self.path}.{key} {what}; nothing was imported")

    def _value(self, key: str, optional: bool, accepted: type, what: str) -> Any:
        value = self.data.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, accepted) or (accepted is int and isinstance(value, bool)):
            raise self.fail(key, what)
        return value

    def integer(self, key: str, *, optional: bool = False) -> Any:
        value = self._value(key, optional, int, "is not a whole number")
        if value is not None and int64_problem(value) is not None:
            raise self.fail(key, "does not fit 64 bits")
        return value

    def time(self, key: str, *, optional: bool = False) -> Any:
        value = self.integer(key, optional=optional)
        if value is not None and not TIME_MIN <= value <= TIME_MAX:
            raise self.fail(key, f"is {value}, not {_TIMES}")
        return value

    def text(self, key: str, *, optional: bool = False) -> Any:
        return self._value(key, optional, str, "is not text")

    def items(self, key: str, *, optional: bool = False) -> list[Any] | None:
        found: list[Any] | None = self._value(key, optional, list, "is not a list")
        return found

    def ids(self, key: str) -> tuple[int, ...]:
        found = self.items(key) or []
        if any(not _is_id(item) for item in found):
            raise self.fail(key, "holds something other than ids (positive 64-bit whole numbers)")
        return tuple(found)


def _is_id(value: object) -> bool:
    """A candidate id as the host makes them: a positive whole number of 64 bits."""
    return type(value) is int and value > 0 and int64_problem(value) is None


def _texts_problem(memory: ExportedMemory, allow_hidden: bool) -> str | None:
    """The first text of a memory that breaks the content rules (the content itself, or any text kept),
    or hidden characters in its content (what the host would inject) unless they are allowed."""
    problem = content_problem(memory.content)
    if problem is not None:
        return f"its content {problem}"
    hidden = None if allow_hidden else hidden_problem(memory.content)
    if hidden is not None:
        return f"its content {hidden} (`memory-dashboard import --allow-hidden` takes it)"
    texts = [memory.status, *memory.sources]
    for revision in memory.revisions:
        texts += [revision.kind, revision.source, revision.run_id or "", revision.previous_status or ""]
        texts += [revision.new_status or "", revision.previous_content or "", revision.new_content or ""]
    texts += [str(entry.get("session_id", "")) for entry in memory.provenance or ()]
    texts += [json.dumps(revision.detail, ensure_ascii=False) for revision in memory.revisions]
    for text in texts:
        bad = text_problem(text)
        if bad is not None:
            return f"a text of its history {bad}"
    return None


def _revision(data: object, path: str) -> ExportedRevision:
    f = _Fields(data, path)
    detail = f.data.get("detail") or {}
    if not isinstance(detail, dict):
        raise f.fail("detail", "is not an object")
    kind = f.text("kind")
    if kind not in set(RevisionKind):
        raise f.fail("kind", f"is not a revision kind ({', '.join(RevisionKind)})")
    return ExportedRevision(
        id=f.integer("id"),
        kind=kind,
        source=f.text("source"),
        changed_at=f.time("changed_at"),
        run_id=f.text("run_id", optional=True),
        candidate_ids=f.ids("candidate_ids"),
        previous_content=f.text("previous_content", optional=True),
        new_content=f.text("new_content", optional=True),
        previous_status=f.text("previous_status", optional=True),
        new_status=f.text("new_status", optional=True),
        detail=detail,
    )


def _provenance(f: _Fields) -> tuple[Mapping[str, Any], ...] | None:
    entries = f.items("provenance", optional=True)
    if entries is None:
        return None
    for number, entry in enumerate(entries):
        if not host_can_read_entry(entry) or not _is_id(entry["candidate_id"]):
            raise f.fail(f"provenance[{number}]", "is not an entry the host can read")
        _Fields(entry, f"{f.path}.provenance[{number}]").time("added_at", optional=True)
    return tuple(entries)


def _quoted(text: str, limit: int = 40) -> str:
    """A text of the file in a message: quoted, cut, every character past ASCII and every control as an
    escape (a bidi override or a terminal's ESC cannot reach the person's screen)."""
    return json.dumps(text[:limit]) + ("…" if len(text) > limit else "")


def _status(f: _Fields, memory_id: int) -> str:
    status: str = f.text("status")
    if status not in HOST_STATUSES:
        known = " or ".join(HOST_STATUSES)
        raise f.fail(
            "status", f"of memory #{memory_id} is {_quoted(status)}, not a status the host knows ({known})"
        )
    return status


def _memory(data: object, path: str, allow_hidden: bool) -> ExportedMemory:
    f = _Fields(data, path)
    sources = f.items("sources", optional=True) or []
    if not all(isinstance(source, str) for source in sources):
        raise f.fail("sources", "holds something other than text")
    memory_id = f.integer("id")
    memory = ExportedMemory(
        id=memory_id,
        content=f.text("content"),
        status=_status(f, memory_id),
        promoted_at=f.time("promoted_at"),
        created_at=f.time("created_at"),
        updated_at=f.time("updated_at"),
        content_changed_at=f.time("content_changed_at", optional=True),
        source_candidate_ids=f.ids("source_candidate_ids"),
        provenance=_provenance(f),
        sources=tuple(sources),
        expires_at=f.time("expires_at", optional=True),
        revisions=tuple(
            _revision(item, f"{path}.revisions[{number}]")
            for number, item in enumerate(f.items("revisions", optional=True) or [])
        ),
    )
    problem = _texts_problem(memory, allow_hidden)
    if problem is None:
        return memory
    return replace(memory, problem=problem)


def parse_export(text: str, label: str = "the file", *, allow_hidden: bool = False) -> ExportFile:
    """The export `text` holds, every value checked; ExportError (nothing imported) if it is not one.
    `allow_hidden`: memories whose content holds hidden characters come in too (else they are skipped)."""
    try:
        data = strict_json_loads(text)
    except DuplicateKeyError as exc:
        raise ExportError(f"{label} is not a Memory Dashboard export: {exc}; nothing was imported") from exc
    except ValueError as exc:
        raise ExportError(
            f"{label} is not a Memory Dashboard export (not JSON: {exc}); nothing was imported"
        ) from exc
    if not isinstance(data, dict) or not isinstance(data.get("memories"), list) or "exported_at" not in data:
        raise ExportError(
            f"{label} is not a Memory Dashboard export (no `exported_at` and `memories`); "
            "nothing was imported"
        )
    if data.get("format", EXPORT_FORMAT) != EXPORT_FORMAT:
        raise ExportError(
            f"{label} is not a Memory Dashboard export (format {str(data['format'])[:60]!r}); "
            "nothing was imported"
        )
    top = _Fields(data, "export")
    version = top.integer("version", optional=True)
    version = 1 if version is None else version
    if version < 1:
        raise top.fail("version", f"is {version}, not an export version (1 to {EXPORT_VERSION})")
    if version > EXPORT_VERSION:
        raise ExportError(
            f"{label} was written by a newer Memory Dashboard (export version {version}; this version reads "
            f"up to {EXPORT_VERSION}); update the app. Nothing was imported."
        )
    database = top.text("database", optional=True) or ""
    if text_problem(database) is not None:  # kept in the detail of imported revisions that name a run
        raise top.fail("database", str(text_problem(database)))
    return ExportFile(
        version=version,
        exported_at=top.time("exported_at"),
        database=database,
        memories=tuple(
            _memory(item, f"memories[{n}]", allow_hidden) for n, item in enumerate(data["memories"])
        ),
    )
