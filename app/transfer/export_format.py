"""The app's export file (`memory-dashboard export`), read back for `import`: every value checked once here.

An export is a JSON object with `format`, `version`, `exported_at`, `database` and `memories`; exports
written before `format` and `version` existed are version 1. A file that is not an export, or one of a newer
version, is refused whole (`InvalidInputError`). Within an export, a memory whose texts break the content
rules (`app.core.text_input`) is left out and reported, the others imported; a value of the wrong type
anywhere refuses the whole file, naming where it is (`memories[3].revisions[0].changed_at`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.errors import InvalidInputError
from app.core.models import RevisionKind
from app.core.provenance import host_can_read_entry
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

    def text(self, key: str, *, optional: bool = False) -> Any:
        return self._value(key, optional, str, "is not text")

    def items(self, key: str, *, optional: bool = False) -> list[Any] | None:
        found: list[Any] | None = self._value(key, optional, list, "is not a list")
        return found

    def ids(self, key: str) -> tuple[int, ...]:
        found = self.items(key) or []
        if any(type(item) is not int or int64_problem(item) is not None for item in found):
            raise self.fail(key, "holds something other than 64-bit whole numbers")
        return tuple(found)


def _texts_problem(memory: ExportedMemory) -> str | None:
    """The first text of a memory that breaks the content rules (the content itself, or any text kept)."""
    problem = content_problem(memory.content)
    if problem is not None:
        return f"its content {problem}"
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
        changed_at=f.integer("changed_at"),
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
        if not host_can_read_entry(entry) or int64_problem(entry["candidate_id"]) is not None:
            raise f.fail(f"provenance[{number}]", "is not an entry the host can read")
    return tuple(entries)


def _memory(data: object, path: str) -> ExportedMemory:
    f = _Fields(data, path)
    sources = f.items("sources", optional=True) or []
    if not all(isinstance(source, str) for source in sources):
        raise f.fail("sources", "holds something other than text")
    memory = ExportedMemory(
        id=f.integer("id"),
        content=f.text("content"),
        status=f.text("status"),
        promoted_at=f.integer("promoted_at"),
        created_at=f.integer("created_at"),
        updated_at=f.integer("updated_at"),
        content_changed_at=f.integer("content_changed_at", optional=True),
        source_candidate_ids=f.ids("source_candidate_ids"),
        provenance=_provenance(f),
        sources=tuple(sources),
        expires_at=f.integer("expires_at", optional=True),
        revisions=tuple(
            _revision(item, f"{path}.revisions[{number}]")
            for number, item in enumerate(f.items("revisions", optional=True) or [])
        ),
    )
    problem = _texts_problem(memory)
    if problem is None:
        return memory
    return replace(memory, problem=problem)


def parse_export(text: str, label: str = "the file") -> ExportFile:
    """The export `text` holds, every value checked; ExportError (nothing imported) if it is not one."""
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
    version = top.integer("version", optional=True) or 1
    if version > EXPORT_VERSION:
        raise ExportError(
            f"{label} was written by a newer Memory Dashboard (export version {version}; this version reads "
            f"up to {EXPORT_VERSION}); update the app. Nothing was imported."
        )
    return ExportFile(
        version=version,
        exported_at=top.integer("exported_at"),
        database=top.text("database", optional=True) or "",
        memories=tuple(_memory(item, f"memories[{n}]") for n, item in enumerate(data["memories"])),
    )
