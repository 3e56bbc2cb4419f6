"""How memories, revisions and candidates look on a terminal and in JSON."""

from __future__ import annotations

import json
import sys
from typing import Any

from app.card import card_meta
from app.clock import format_instant
from app.screening import make_visible
from app.store.models import Candidate, Memory, Revision
from app.timefmt import relative


def memory_json(memory: Memory, now: int) -> dict[str, Any]:
    return {
        "id": memory.id,
        "content": memory.content,
        "status": memory.status,
        "promoted_at": memory.promoted_at,
        "created_at": memory.created_at,
        "updated_at": memory.updated_at,
        "rewritten": memory.rewritten,
        "content_changed_at": memory.content_changed_at,
        "source_candidate_ids": list(memory.source_candidate_ids),
        "provenance": None if memory.provenance is None else [entry.to_json() for entry in memory.provenance],
        "unknown_provenance_ids": list(memory.unknown_provenance_ids),
        "sources": list(memory.sources),
        "trust": memory.trust,
        "expires_at": memory.expires_at,
        "expired": memory.expired,
        "injected": memory.injected,
        "hidden_characters": memory.has_hidden_characters,
        "revision_count": memory.revision_count,
        "card_meta": card_meta(memory, now),
    }


def candidate_json(candidate: Candidate) -> dict[str, Any]:
    return {
        "id": candidate.id,
        "content": candidate.content,
        "session_id": candidate.session_id,
        "source_compartment_start": candidate.compartment_start,
        "source_compartment_end": candidate.compartment_end,
        "created_at": candidate.created_at,
    }


def compartments(start: int | None, end: int | None) -> str:
    """`4–9`, with `?` for an open end (the host stores null)."""
    return f"{'?' if start is None else start}–{'?' if end is None else end}"


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def one_line(text: str, width: int = 72) -> str:
    flat = " ".join(make_visible(text).split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def memory_line(memory: Memory, now: int) -> str:
    status = memory.status + (" (expired)" if memory.expired else "")
    return f"#{memory.id:<6} {status:<20} {one_line(memory.content)}"


def memory_details(memory: Memory, now: int) -> str:
    lines = [f"Memory #{memory.id}", card_meta(memory, now), ""]
    lines.append(make_visible(memory.content))
    lines.append("")
    lines.append(f"promoted  {format_instant(memory.promoted_at)}")
    if memory.content_changed_at is not None:
        lines.append(f"rewritten {format_instant(memory.content_changed_at)}")
    if memory.expires_at is not None:
        lines.append(f"expires   {format_instant(memory.expires_at)} ({relative(memory.expires_at, now)})")
    lines.append(f"sources   {', '.join(memory.sources)} (trust: {memory.trust})")
    if memory.has_hidden_characters:
        lines.append("warning   content has hidden (invisible, bidi-control or tag) characters")
    for entry in memory.provenance or ():
        span = compartments(entry.compartment_start, entry.compartment_end)
        added = f", added {format_instant(entry.added_at)}" if entry.added_at else ""
        lines.append(
            f"  candidate #{entry.candidate_id}: session {entry.session_id}, compartments {span}, "
            f"{entry.origin}{added}"
        )
    unknown = memory.unknown_provenance_ids
    if unknown:
        lines.append(f"  provenance unknown for: {', '.join(str(i) for i in unknown)}")
    return "\n".join(lines)


def revision_line(revision: Revision) -> str:
    what = revision.kind
    if revision.new_status and revision.previous_status != revision.new_status:
        what += f" {revision.previous_status or '-'} → {revision.new_status}"
    extra = f" run {revision.run_id}" if revision.run_id else ""
    ids = f" +candidates {', '.join(map(str, revision.candidate_ids))}" if revision.candidate_ids else ""
    return f"r{revision.id:<5} {format_instant(revision.changed_at)}  {revision.source:<9} {what}{extra}{ids}"
