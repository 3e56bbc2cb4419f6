"""The app's export file (`memory-dashboard export`), read back for `import`: every value checked once here.

An export is a JSON object with `format`, `version`, `exported_at`, `database` and `memories` (user
memories) and, from version 2, `project_memories` (the host's `memories` rows: its shape and checks are
`app.transfer.project_format`'s; a file without it imports as before); exports written before `format`
and `version` existed are version 1. A file that is not an export, or one of a newer version, is
refused whole (`InvalidInputError`). A value the app would call malformed anywhere refuses the
whole file, naming where it is (`memories[3].revisions[0].changed_at`): a wrong type, a time that is not
epoch milliseconds the readers can show (`TIME_MIN..TIME_MAX`), a status the host does not know (the
memory's or a revision's), a candidate id that is not positive, a provenance entry the host cannot read, a
version that is none. Within an export, a memory is left out and reported, the others imported, when
what it would write breaks the rules of `app.core.incoming_checks` (those of `hub pull`): its content and
the texts of its history (a revision's earlier and later content by the content rules, hidden characters
refused unless allowed, as in a review's verdict), its own sources (a trust mark's rules,
`app.core.trust.kept_source_problem`), every value of its provenance entries and of its revisions'
details. What a revision's detail keeps is `app.transfer.imported_detail`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.core.incoming_checks import HOST_STATUSES, Problems, quoted
from app.core.models import RevisionKind
from app.core.provenance import host_can_read_entry
from app.core.text_input import (
    DuplicateKeyError,
    content_problem,
    strict_json_loads,
    text_problem,
)
from app.core.trust import MEMORY_SOURCE_UNKNOWN, kept_source_problem
from app.transfer.fields import ExportError as ExportError  # where callers have always found it
from app.transfer.fields import Fields, is_id
from app.transfer.imported_detail import kept_detail
from app.transfer.project_format import ExportedProjectMemory, parse_project_memories

EXPORT_FORMAT = "memory-dashboard-export"
EXPORT_VERSION = 2  # 2: the project-memory section (`app.transfer.project_format`)
MAX_EXPORT_BYTES = 512 * 1024 * 1024
# The statuses an imported memory or revision may have are the host's own (`HOST_STATUSES`). Any other
# word would be a memory the host never injects and the app shows as odd; refused, like a verdict's
# mistake, rather than guessed at.
# The highest id an imported memory keeps. The host counts its ids up from the highest ever used (SQLite's
# AUTOINCREMENT, PostgreSQL's identity moved past an import) and its JavaScript reads them exactly only
# below 2**53: an id kept up to 2**52 leaves as many again for the host's later inserts. A memory whose id
# is higher, or below 1, takes a new one, as one whose id is already used here.
MAX_KEPT_ID = 2**52
SHOWN_PROBLEMS = 3  # a skipped memory's reason: the first problems, then how many more
LINE_CHARS = 200  # one problem (a number past 64 bits may have thousands of digits)
ALLOW_HIDDEN = "(`memory-dashboard import --allow-hidden` takes it)"


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
    project_memories: tuple[ExportedProjectMemory, ...] = ()


def is_own_source(source: str) -> bool:
    """A source the dashboard keeps itself, which an import writes (the others, `session:…` and
    `unknown:`, it derives from the provenance)."""
    return not source.startswith("session:") and source != MEMORY_SOURCE_UNKNOWN


def _history_text(text: str) -> str | None:
    """A revision's earlier or later content: a content's rules, though it may be empty."""
    return content_problem(text) if text.strip() else text_problem(text)


def _revision_problems(problems: Problems, number: int, revision: ExportedRevision) -> None:
    where = f"its revisions[{number}]"
    problems.text(f"{where}.source", revision.source)
    if revision.run_id is not None:
        problems.text(f"{where}.run_id", revision.run_id)
    for name, text in (
        ("previous_content", revision.previous_content),
        ("new_content", revision.new_content),
    ):
        if text is not None:
            problems.text(f"{where}.{name}", text, _history_text)
    problems.value(f"{where}.detail", dict(revision.detail))


def _problem(memory: ExportedMemory, allow_hidden: bool) -> str | None:
    """Why the memory is left out, or None: what it would write breaks the rules `hub pull` applies
    (`app.core.incoming_checks`); hidden characters are refused unless they are allowed."""
    problems = Problems(allow_hidden)
    problems.text("its content", memory.content, content_problem)
    for number, source in enumerate(memory.sources):
        if is_own_source(source):
            problems.text(f"its sources[{number}]", source, kept_source_problem)
    problems.provenance_entries("its provenance", list(memory.provenance or ()))
    for number, revision in enumerate(memory.revisions):
        _revision_problems(problems, number, revision)
    if not problems.items:
        return None
    lines = [f"{item.where} {item.what}" for item in problems.items[:SHOWN_PROBLEMS]]
    lines = [line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + "…" for line in lines]
    more = len(problems.items) - SHOWN_PROBLEMS
    lines += [f"and {more:,} more"] if more > 0 else []
    return "; ".join(lines) + (f" {ALLOW_HIDDEN}" if problems.only_hidden else "")


def _status(f: Fields, key: str, whose: str, *, optional: bool = False) -> Any:
    """A status the host knows (`HOST_STATUSES`), else the whole file is refused."""
    status = f.text(key, optional=optional)
    if status is not None and status not in HOST_STATUSES:
        known = " or ".join(HOST_STATUSES)
        raise f.fail(key, f"of {whose} is {quoted(status)}, not a status the host knows ({known})")
    return status


def _revision(data: object, path: str, whose: str) -> ExportedRevision:
    f = Fields(data, path)
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
        previous_status=_status(f, "previous_status", whose, optional=True),
        new_status=_status(f, "new_status", whose, optional=True),
        detail=detail,
    )


def _history(f: Fields, whose: str) -> tuple[ExportedRevision, ...]:
    """The memory's revisions, each detail as the import keeps it (`app.transfer.imported_detail`)."""
    items = f.items("revisions", optional=True) or []
    read = [_revision(item, f"{f.path}.revisions[{n}]", whose) for n, item in enumerate(items)]
    ids = {revision.id for revision in read}
    return tuple(replace(r, detail=kept_detail(r.detail, r.kind, ids)) for r in read)


def _provenance(f: Fields) -> tuple[Mapping[str, Any], ...] | None:
    entries = f.items("provenance", optional=True)
    if entries is None:
        return None
    for number, entry in enumerate(entries):
        if not host_can_read_entry(entry) or not is_id(entry["candidate_id"]):
            raise f.fail(f"provenance[{number}]", "is not an entry the host can read")
        Fields(entry, f"{f.path}.provenance[{number}]").time("added_at", optional=True)
    return tuple(entries)


def _memory(data: object, path: str, allow_hidden: bool) -> ExportedMemory:
    f = Fields(data, path)
    sources = f.items("sources", optional=True) or []
    if not all(isinstance(source, str) for source in sources):
        raise f.fail("sources", "holds something other than text")
    memory_id = f.integer("id")
    whose = f"memory #{memory_id}"
    memory = ExportedMemory(
        id=memory_id,
        content=f.text("content"),
        status=_status(f, "status", whose),
        promoted_at=f.time("promoted_at"),
        created_at=f.time("created_at"),
        updated_at=f.time("updated_at"),
        content_changed_at=f.time("content_changed_at", optional=True),
        source_candidate_ids=f.ids("source_candidate_ids"),
        provenance=_provenance(f),
        sources=tuple(sources),
        expires_at=f.time("expires_at", optional=True),
        revisions=_history(f, whose),
    )
    problem = _problem(memory, allow_hidden)
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
    top = Fields(data, "export")
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
        project_memories=parse_project_memories(top, version, allow_hidden=allow_hidden),
    )
