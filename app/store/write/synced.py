"""Copying a memory from another machine (the hub's "Copy to this machine"), in the caller's transaction.

A manual promotion without candidates here: a new active host row with the other machine's content,
candidate ids and provenance, each entry's origin now `sync` naming the source machine (`synced_from`,
`synced_memory_id`; the entry's old origin kept as `synced_origin`, keys the host ignores). Provenance
the other machine did not know stays unknown (NULL). Its `create` revision (source `dashboard`, as a
person's promotion) names the machine and the memory there. A memory whose content is already here is
refused: the copy would be a duplicate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from app.core.errors import InvalidInputError
from app.core.models import MemoryStatus, RevisionKind, RevisionSource
from app.core.provenance import host_can_read_entry, read_candidate_ids, serialize_candidate_ids
from app.core.text_input import tolerant_json_loads
from app.store.schema.tables import user_memories
from app.store.write.revision_log import WriteContext, add_revision, inserted_id, mark_seen
from app.store.write.writes import INSERT_MEMORY, validate_content

ORIGIN_SYNC = "sync"


@dataclass(frozen=True, slots=True)
class MachineMemory:
    """A memory as another machine published it (its host columns as text)."""

    machine: str
    memory_id: int
    content: str
    candidate_ids: str | None
    provenance: str | None


def synced_provenance(memory: MachineMemory) -> str | None:
    """The entries the host can read, with origin `sync` and the source machine; NULL stays NULL."""
    parsed = tolerant_json_loads(memory.provenance) if memory.provenance is not None else None
    if not isinstance(parsed, list):
        return None
    entries = [
        {
            **entry,
            "origin": ORIGIN_SYNC,
            "synced_origin": entry.get("origin", "promotion"),
            "synced_from": memory.machine,
            "synced_memory_id": memory.memory_id,
        }
        for entry in parsed
        if host_can_read_entry(entry)
    ]
    return json.dumps(entries, separators=(",", ":"), ensure_ascii=False)


def copy_memory(ctx: WriteContext, memory: MachineMemory) -> int:
    """The new memory's id; `InvalidInputError` when its content is already here."""
    validate_content(memory.content)
    existing = ctx.conn.execute(
        select(user_memories.c.id).where(user_memories.c.content == memory.content).limit(1)
    ).scalar()
    if existing is not None:
        raise InvalidInputError(f"its content is already here as memory #{existing}; nothing was copied")
    ids, _ = read_candidate_ids(memory.candidate_ids)
    created: dict[str, Any] = {
        "candidate_ids": ids,
        "new_content": memory.content,
        "new_status": MemoryStatus.ACTIVE,
        "detail": {"copied_from": memory.machine, "copied_memory_id": memory.memory_id},
    }
    row = {
        "content": memory.content,
        "status": MemoryStatus.ACTIVE,
        "source_candidate_ids": serialize_candidate_ids(ids),
        "source_candidate_provenance": synced_provenance(memory),
        **dict.fromkeys(("promoted_at", "created_at", "updated_at"), ctx.now),
    }
    memory_id = inserted_id(ctx.conn.execute(INSERT_MEMORY, row))
    add_revision(ctx, memory_id, RevisionKind.CREATE, RevisionSource.DASHBOARD, **created)
    mark_seen(ctx, memory_id)
    ctx.profile_changed = True
    return memory_id
