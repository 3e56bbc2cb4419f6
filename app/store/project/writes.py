"""Changing a project memory the way the host does (storage-memory.ts, its dashboard's db.rs).

Each writer runs on the caller's connection inside the caller's write transaction (`BEGIN IMMEDIATE`,
`app.store.connect.engine.transaction`), so a command can add its own log in the same transaction; it
checks everything before its first statement, so a refusal leaves the file as it was. Every writer
first refuses a project the host's native module owns (`authority`), before the host's guard triggers
would abort the statement, and never touches `context_privilege_state`.

- `edit_content`: content, `normalized_hash`, `updated_at`; `shareable = 0`, `classified_at` and the
  mural cue columns cleared where the file has them; the memory's embeddings deleted; an `update` log
  row; the project's epoch bumped. A text whose hash the project already has in that category is
  refused with the host's own message (the table's UNIQUE would refuse it anyway).
- `change_category`: the same uniqueness rule; an `update` log row (under the old category, which the
  host's renderer reads by) and the epoch bump.
- `archive`: status `archived`, the reason merged into `metadata_json` as `archive_reason` (the host's
  `mergeMetadataJson`: JSON that is no object is replaced); an `archive` log row.
- `restore`: back to `active` (or the status given, for an undo); the epoch bump (the host's dashboard
  does so: its log has no row for a memory coming back). The supersession link goes too: a restored
  memory that still named a successor would count as merged in the host's own counts.
- `supersede`: `superseded_by_memory_id` set and archived; a `superseded` log row.
- `set_merged_from`: `merged_from` written (a merge's ids, or the value an undo puts back), as the host's
  mergeMemoryStats writes it: no log row (its log has no type for it), `updated_at` never behind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, update

from app.core.errors import InvalidInputError, NotFoundError
from app.core.project_values import category_problem, typed_category_problem
from app.core.text_input import content_problem, text_problem, tolerant_json_loads
from app.store.project import write_steps
from app.store.project.authority import ensure_writable
from app.store.project.hashing import normalized_hash
from app.store.project.links import chain_of
from app.store.project.model import ACTIVE, ARCHIVED, ProjectMemory
from app.store.project.reads import fetch_memory
from app.store.project.tables import MURAL_CUE_COLUMNS, MURAL_REJECTION_COLUMN, memories

m = memories.c


class DuplicateContentError(InvalidInputError):
    """The project already holds this text (by `normalized_hash`) in that category."""

    def __init__(self, existing_id: int) -> None:
        # The host's own words (its ctx_memory tool, on the same UNIQUE constraint).
        super().__init__(
            f"Memory content already exists as ID {existing_id}; merge or archive duplicates instead."
        )
        self.existing_id = existing_id


@dataclass(frozen=True, slots=True)
class ProjectWrite:
    """A write's memory before and after (equal when there was nothing to change): what an undo needs."""

    before: ProjectMemory
    after: ProjectMemory

    @property
    def changed(self) -> bool:
        return self.before != self.after


def _target(conn: Connection, memory_id: int) -> ProjectMemory:
    memory = fetch_memory(conn, memory_id)
    if memory is None:
        raise NotFoundError(f"project memory #{memory_id} does not exist")  # as show and history say it
    ensure_writable(conn, memory_id)
    return memory


def _done(conn: Connection, before: ProjectMemory) -> ProjectWrite:
    after = fetch_memory(conn, before.id)
    assert after is not None  # written in this transaction
    return ProjectWrite(before, after)


def _next_updated_at(now: int, previous: int) -> int:
    """Never backwards, never standing still, even with a clock behind the row."""
    return max(now, previous + 1)


def _refuse_duplicate(conn: Connection, memory_id: int, category: Any, hash_value: Any) -> None:
    """Another memory of the same project has this category and hash: the host's UNIQUE would abort."""
    same_project = write_steps.project_path_of(memory_id)
    found = conn.execute(
        select(m.id)
        .where(m.project_path == same_project, m.category == category, m.normalized_hash == hash_value)
        .where(m.id != memory_id)
        .limit(1)
    ).first()
    if found is not None:
        raise DuplicateContentError(found[0])


def edit_content(conn: Connection, memory_id: int, content: str, now: int) -> ProjectWrite:
    problem = content_problem(content)
    if problem is not None:
        raise InvalidInputError(f"content {problem}")
    before = _target(conn, memory_id)
    if content == before.content and not before.oddities:
        return ProjectWrite(before, before)
    new_hash = normalized_hash(content)
    own_category = select(m.category).where(m.id == memory_id).scalar_subquery()
    _refuse_duplicate(conn, memory_id, own_category, new_hash)
    values: dict[str, object] = {
        "content": content,
        "normalized_hash": new_hash,
        "updated_at": _next_updated_at(now, before.updated_at),
    }
    present = write_steps.present_columns(conn)
    # What the host judged of the old text no longer holds: private until re-classified, no stale cue.
    if "shareable" in present:
        values["shareable"] = 0
    if "classified_at" in present:
        values["classified_at"] = None
    values |= {column: None for column in MURAL_CUE_COLUMNS if column in present}
    if MURAL_REJECTION_COLUMN in present:
        values[MURAL_REJECTION_COLUMN] = 0
    conn.execute(update(memories).where(m.id == memory_id).values(values))
    write_steps.drop_embeddings(conn, memory_id)
    write_steps.log_mutation(conn, memory_id, write_steps.UPDATE, now, with_content=True)
    write_steps.bump_epoch(conn, memory_id, now)
    return _done(conn, before)


def _checked_category(category: str, typed: bool) -> str:
    problem = (typed_category_problem if typed else category_problem)(category)
    if problem is not None:
        raise InvalidInputError(f"the category {problem}")
    return category


def change_category(
    conn: Connection, memory_id: int, category: str, now: int, *, typed: bool = False
) -> ProjectWrite:
    """`typed`: a category a person gave (screened for hidden characters); an undo writes back the one
    the memory had, as the host wrote it."""
    _checked_category(category, typed)
    before = _target(conn, memory_id)
    if category == before.category and not before.oddities:
        return ProjectWrite(before, before)
    own_hash = select(m.normalized_hash).where(m.id == memory_id).scalar_subquery()
    _refuse_duplicate(conn, memory_id, category, own_hash)
    # Logged under the old category first: the host's renderer finds a change by the category it left.
    write_steps.log_mutation(conn, memory_id, write_steps.UPDATE, now, with_content=True)
    conn.execute(
        update(memories)
        .where(m.id == memory_id)
        .values(category=category, updated_at=_next_updated_at(now, before.updated_at))
    )
    write_steps.bump_epoch(conn, memory_id, now)
    return _done(conn, before)


def _with_reason(metadata_json: str | None, reason: str) -> str:
    """The host's mergeMetadataJson: the object kept, `archive_reason` set; anything else replaced."""
    base = tolerant_json_loads(metadata_json) if metadata_json else None
    merged = dict(base) if isinstance(base, dict) else {}
    merged["archive_reason"] = reason
    return json.dumps(merged, ensure_ascii=False, separators=(",", ":"))


def archive(conn: Connection, memory_id: int, now: int, reason: str | None = None) -> ProjectWrite:
    trimmed = reason.strip() if reason else ""
    # Bounded as a content is: the host reads `metadata_json` with every row it renders.
    problem = content_problem(trimmed) if trimmed else None
    if problem is not None:
        raise InvalidInputError(f"the reason {problem}")
    before = _target(conn, memory_id)
    if before.status == ARCHIVED:
        return ProjectWrite(before, before)
    values: dict[str, object] = {"status": ARCHIVED, "updated_at": _next_updated_at(now, before.updated_at)}
    if trimmed:
        values["metadata_json"] = _with_reason(before.metadata_json, trimmed)
    conn.execute(update(memories).where(m.id == memory_id).values(values))
    write_steps.log_mutation(conn, memory_id, write_steps.ARCHIVE, now)
    return _done(conn, before)


def restore(conn: Connection, memory_id: int, now: int, status: str = ACTIVE) -> ProjectWrite:
    problem = text_problem(status) or (None if status.strip() else "is empty")
    if problem is not None:
        raise InvalidInputError(f"the status {problem}")
    before = _target(conn, memory_id)
    if before.status == status and before.superseded_by is None and not before.oddities:
        return ProjectWrite(before, before)
    conn.execute(
        update(memories)
        .where(m.id == memory_id)
        .values(
            status=status, superseded_by_memory_id=None, updated_at=_next_updated_at(now, before.updated_at)
        )
    )
    write_steps.bump_epoch(conn, memory_id, now)
    return _done(conn, before)


def supersede(conn: Connection, memory_id: int, successor_id: int, now: int) -> ProjectWrite:
    if successor_id == memory_id:
        raise InvalidInputError(f"project memory #{memory_id} cannot supersede itself")
    before = _target(conn, memory_id)
    successor = fetch_memory(conn, successor_id)
    if successor is None:
        raise NotFoundError(f"no project memory #{successor_id} to supersede #{memory_id} with")
    chain = chain_of(conn, successor)
    if memory_id in chain.steps or chain.end == memory_id:
        raise InvalidInputError(
            f"#{successor_id} is already superseded, through its chain, by #{memory_id}: that would be a loop"
        )
    conn.execute(
        update(memories)
        .where(m.id == memory_id)
        .values(
            superseded_by_memory_id=successor_id,
            status=ARCHIVED,
            updated_at=_next_updated_at(now, before.updated_at),
        )
    )
    write_steps.log_mutation(conn, memory_id, write_steps.SUPERSEDED, now, superseded_by=successor_id)
    return _done(conn, before)


def set_merged_from(conn: Connection, memory_id: int, merged_from: str | None, now: int) -> ProjectWrite:
    """`merged_from` set to `merged_from` as it is (the caller writes the host's JSON list of ids)."""
    before = _target(conn, memory_id)
    if before.merged_from == merged_from and not before.oddities:
        return ProjectWrite(before, before)
    # Not strictly after: a merge's content edit of the same instant has already moved it.
    values = {"merged_from": merged_from, "updated_at": max(now, before.updated_at)}
    conn.execute(update(memories).where(m.id == memory_id).values(values))
    return _done(conn, before)
