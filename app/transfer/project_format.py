"""The export file's project-memory section (`project_memories`, from export version 2), read back for
`import`: every value checked once here.

Each item is one row of the host's `memories` table as the export read it: `id`, `project_path`,
`category`, `content`, `importance`, `scope`, `shareable`, `source_session_id`, `source_type`,
`seen_count`, `retrieval_count`, the instants `first_seen_at`, `created_at`, `updated_at`,
`last_seen_at`, `last_retrieved_at`, `expires_at`, `verified_at` (epoch milliseconds), `status`,
`verification_status`, `superseded_by_memory_id`, `merged_from` and `metadata_json` (the raw JSON text
the host keeps), and, where the row was odd, `oddities` (what the reader noted) and `project_path_hex`
(the raw bytes of a path that is not UTF-8: `project_path` then shows them as U+FFFD). The host's own
caches (`normalized_hash`, `classified_at`, the mural cue) are not carried: an import computes the hash
and leaves the rest for the host to make again.

A value of the wrong JSON type, or a time that is not epoch milliseconds from 1970 to 3000, refuses the
whole file (`ExportError`). A value of the right type that the host would not write is that memory's
`problem` (it is left out and reported, the others imported): content by the content rules, hidden
characters unless allowed, a project path, category or source session by `app.core.project_values`, a
status, scope, source type or verification status not among the host's words, an importance outside
1..100, a count below 0 or past the host's exact integers, a link that is no id, a path that was not
UTF-8. The JSON columns are kept only if they parse: `merged_from` as a JSON list of ids, `metadata_json`
as JSON whose values are storable text and 64-bit numbers, each at most 64 KiB as a content; else the
column is left empty and the memory's `notes` say so.
A hub's project memories (`app.hub.project_rows`) are read and checked by the same `read_project_memory`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.core import project_values as host
from app.core.incoming_checks import Problems
from app.core.text_input import (
    MAX_CONTENT_BYTES,
    DuplicateKeyError,
    content_problem,
    json_depth_ok,
    strict_json_loads,
)
from app.transfer.fields import ExportError, Fields, is_id

SECTION = "project_memories"
FIRST_VERSION = 2  # the export version that introduced the section
SHOWN_PROBLEMS = 3
ALLOW_HIDDEN = "(`memory-dashboard import --allow-hidden` takes it)"


@dataclass(frozen=True, slots=True)
class ExportedProjectMemory:
    id: int
    project_path: str
    category: str
    content: str
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
    superseded_by: int | None
    merged_from: tuple[int, ...] | None  # the ids, when the file's text was a JSON list of ids
    metadata_json: str | None  # kept only when it parsed
    project_path_hex: str | None = None
    notes: tuple[str, ...] = ()  # what the import leaves out of this memory, and why
    problem: str | None = None  # why the memory is left out, or None


def _shareable(f: Fields) -> bool:
    value = f.data.get("shareable")
    if value in (True, False, 0, 1) and type(value) in (bool, int):
        return bool(value)
    raise f.fail("shareable", "is not true, false, 0 or 1")


def _too_large(name: str, raw: str, notes: list[str]) -> bool:
    """Whether the column's text is past what any host row holds (noted): the host reads it with every
    row it renders, so a file cannot plant megabytes there."""
    size = len(raw.encode("utf-8", errors="surrogatepass"))
    if size <= MAX_CONTENT_BYTES:
        return False
    notes.append(f"{name} left out: it is {size:,} bytes; the limit is {MAX_CONTENT_BYTES:,} (64 KiB)")
    return True


def _merged_from(raw: str | None, notes: list[str]) -> tuple[int, ...] | None:
    if raw is None or _too_large("merged_from", raw, notes):
        return None
    data: object = None
    if json_depth_ok(raw):
        try:
            data = strict_json_loads(raw)
        except ValueError:
            data = None
    if isinstance(data, list) and all(is_id(item) for item in data):
        return tuple(data)
    notes.append("merged_from left out: it is not a JSON list of ids")
    return None


def _metadata(raw: str | None, notes: list[str], allow_hidden: bool) -> str | None:
    if raw is None or _too_large("metadata_json", raw, notes):
        return None
    why = None
    if not json_depth_ok(raw):
        why = "it is nested too deep"
    else:
        try:
            checks = Problems(allow_hidden)
            checks.value("metadata_json", strict_json_loads(raw))
            why = checks.items[0].what if checks.items else None
        except DuplicateKeyError as exc:
            why = str(exc)
        except ValueError:
            why = "it is not JSON"
    if why is None:
        return raw
    notes.append(f"metadata_json left out: {why}")
    return None


def _problems(
    memory: ExportedProjectMemory, allow_hidden: bool, checks: type[Problems], hint: str
) -> str | None:
    """Why the memory is left out (see the module docstring), or None; `hint` ends a refusal of hidden
    characters only (how to let them in)."""
    found = checks(allow_hidden)
    found.text("its content", memory.content, content_problem)
    found.text("its project_path", memory.project_path, host.project_path_problem)
    found.text("its category", memory.category, host.category_problem)
    if memory.source_session_id is not None:
        found.text("its source_session_id", memory.source_session_id, host.session_id_problem)
    found.add("its status", host.word_problem(memory.status, host.STATUSES))
    found.add("its scope", host.word_problem(memory.scope, host.SCOPES))
    found.add("its source_type", host.word_problem(memory.source_type, host.SOURCE_TYPES, optional=True))
    words = host.VERIFICATION_STATUSES
    found.add("its verification_status", host.word_problem(memory.verification_status, words, optional=True))
    low, high = host.IMPORTANCE_RANGE
    if memory.importance is not None and not low <= memory.importance <= high:
        found.add("its importance", f"is {memory.importance}, not {low} to {high}")
    for name, count in (("seen_count", memory.seen_count), ("retrieval_count", memory.retrieval_count)):
        found.add(f"its {name}", host.count_problem(count))
    if memory.superseded_by is not None:
        found.whole_id("its superseded_by_memory_id", memory.superseded_by)
    if memory.project_path_hex is not None:
        found.add("its project_path", "was not UTF-8 where it was exported: no project here has that name")
    if not found.items:
        return None
    lines = [f"{item.where} {item.what}" for item in found.items[:SHOWN_PROBLEMS]]
    more = len(found.items) - SHOWN_PROBLEMS
    lines += [f"and {more:,} more"] if more > 0 else []
    return "; ".join(lines) + (f" {hint}" if found.only_hidden else "")


def read_project_memory(
    data: object,
    path: str,
    allow_hidden: bool,
    *,
    checks: type[Problems] = Problems,
    hint: str = ALLOW_HIDDEN,
    consequence: str = "nothing was imported",
) -> ExportedProjectMemory:
    """One item of the section (or a hub's row of the same fields) read and checked: `ExportError`
    ending in `consequence` for a value of the wrong type, a `problem` (`checks`' rules) for a value the
    host would not write."""
    f = Fields(data, path, consequence)
    notes: list[str] = []
    hex_path = f.text("project_path_hex", optional=True)
    memory = ExportedProjectMemory(
        id=f.integer("id"),
        project_path=f.text("project_path"),
        category=f.text("category"),
        content=f.text("content"),
        importance=f.integer("importance", optional=True),
        scope=f.text("scope"),
        shareable=_shareable(f),
        source_session_id=f.text("source_session_id", optional=True),
        source_type=f.text("source_type", optional=True),
        seen_count=f.integer("seen_count", optional=True),
        retrieval_count=f.integer("retrieval_count", optional=True),
        first_seen_at=f.time("first_seen_at"),
        created_at=f.time("created_at"),
        updated_at=f.time("updated_at"),
        last_seen_at=f.time("last_seen_at"),
        last_retrieved_at=f.time("last_retrieved_at", optional=True),
        status=f.text("status"),
        expires_at=f.time("expires_at", optional=True),
        verification_status=f.text("verification_status", optional=True),
        verified_at=f.time("verified_at", optional=True),
        superseded_by=f.integer("superseded_by_memory_id", optional=True),
        merged_from=_merged_from(f.text("merged_from", optional=True), notes),
        metadata_json=_metadata(f.text("metadata_json", optional=True), notes, allow_hidden),
        project_path_hex=hex_path[:200] if hex_path is not None else None,
        notes=tuple(notes),
    )
    return replace(memory, problem=_problems(memory, allow_hidden, checks, hint))


def parse_project_memories(
    top: Fields, version: int, *, allow_hidden: bool = False
) -> tuple[ExportedProjectMemory, ...]:
    """The file's project memories (none in a file without the section); ExportError if the section is
    malformed or comes in a file of a version before it existed."""
    items = top.items(SECTION, optional=True)
    if items is None:
        return ()
    if version < FIRST_VERSION:
        raise top.fail(
            SECTION, f"is in an export of version {version}; it exists from version {FIRST_VERSION}"
        )
    read = tuple(read_project_memory(item, f"{SECTION}[{n}]", allow_hidden) for n, item in enumerate(items))
    first: dict[int, int] = {}
    for number, memory in enumerate(read):
        # The links name memories by id: two of one id would leave them meaning either.
        if first.setdefault(memory.id, number) != number:
            raise ExportError(
                f"{SECTION}[{number}].id is #{memory.id}, as is {SECTION}[{first[memory.id]}].id; "
                "nothing was imported"
            )
    return read
