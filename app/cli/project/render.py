"""How project memories look on a terminal and in JSON: the user memories' shape where a field means the
same (`id`, `content`, `status`, times, `expired`, `injected`, `malformed`, `oddities`), plus the host's
project fields, and for `show` the links both ways, each oddity (a loop, a dangling id, a `merged_from`
that is no list of ids) said as what it is.

Text from the host's rows is shown with hidden characters visible, as everywhere on the command line.
"""

from __future__ import annotations

from typing import Any

from app.cli.render import one_line
from app.core.clock import format_instant
from app.core.models.links import Link, grouped_phrases
from app.core.screening import has_hidden_characters, make_visible
from app.present.card import MALFORMED, shown_word
from app.present.plural import counted
from app.present.timefmt import relative
from app.store.project.model import ProjectMemory
from app.store.project.service import PROJECT_KIND, ProjectMemoryLinks


def expired(memory: ProjectMemory, now: int) -> bool:
    """Past its own `expires_at` (half-open: gone at that instant), whatever its status."""
    return memory.expires_at is not None and memory.expires_at <= now


def project_memory_json(memory: ProjectMemory, now: int, project: str | None = None) -> dict[str, Any]:
    """A project memory as JSON; `project`: its project's display name (None: not looked up)."""
    return {
        "kind": PROJECT_KIND,
        "id": memory.id,
        "content": memory.content,
        "status": memory.status,
        "created_at": memory.created_at,
        "updated_at": memory.updated_at,
        "expires_at": memory.expires_at,
        "expired": expired(memory, now),
        "injected": memory.injectable_at(now),
        "hidden_characters": has_hidden_characters(memory.content),
        "malformed": bool(memory.oddities),
        "oddities": list(memory.oddities),
        "project_path": memory.project_path,
        "project": project,
        "category": memory.category,
        "normalized_hash": memory.normalized_hash,
        "importance": memory.importance,
        "scope": memory.scope,
        "shareable": memory.shareable,
        "source_session_id": memory.source_session_id,
        "source_type": memory.source_type,
        "seen_count": memory.seen_count,
        "retrieval_count": memory.retrieval_count,
        "first_seen_at": memory.first_seen_at,
        "last_seen_at": memory.last_seen_at,
        "last_retrieved_at": memory.last_retrieved_at,
        "verification_status": memory.verification_status,
        "verified_at": memory.verified_at,
        "classified_at": memory.classified_at,
        "superseded_by": memory.superseded_by,
        "merged_from": memory.merged_from,
        "metadata_json": memory.metadata_json,
    }


def _own_link_json(link: Link, memory_id: int) -> dict[str, Any]:
    return {
        "relation": link.relation,
        "from_id": link.from_id,
        "to_id": link.to_id,
        "phrase": link.phrase_for(memory_id),
        "made_at": link.made_at,
        "made_by": link.made_by,
    }


def links_json(linked: ProjectMemoryLinks) -> dict[str, Any]:
    """The links both ways: the host's (chain to its end, supersedes, merges and their sources) and ours."""
    host, memory_id = linked.host, linked.memory.id
    return {
        "superseded_by_chain": {
            "steps": list(host.chain.steps),
            "end": host.chain.end,
            "problem": host.chain.problem,
        },
        "supersedes": list(host.supersedes),
        "merged_from": {"ids": list(host.merged.ids), "problem": host.merged.problem},
        "merged_into": list(host.merged_into),
        "merge_sources": [
            {"id": item.memory_id, "source_session_id": item.source_session_id, "missing": item.missing}
            for item in host.sources
        ],
        "own": [_own_link_json(link, memory_id) for link in linked.own],
    }


def project_line(memory: ProjectMemory, now: int, project: str | None = None) -> str:
    """`#12     active      CONFIG_VALUES  Build with pnpm…`, the project first when several are listed."""
    status = shown_word(memory.status) + (" (expired)" if expired(memory, now) else "")
    status += f" ({MALFORMED})" if memory.oddities else ""
    where = f"{one_line(project, 24):<25}" if project is not None else ""
    return f"#{memory.id:<6} {where}{status:<20} {shown_word(memory.category):<16} {one_line(memory.content)}"


def _how_often(count: int | None) -> str:
    """`1 time`, `3 times`; a count the host left empty is said so."""
    return "an unknown number of times" if count is None else counted(count, "time")


def _times(memory: ProjectMemory, now: int) -> list[str]:
    lines = [
        f"created   {format_instant(memory.created_at)}",
        f"updated   {format_instant(memory.updated_at)} ({relative(memory.updated_at, now)})",
    ]
    if memory.expires_at is not None:
        lines.append(f"expires   {format_instant(memory.expires_at)} ({relative(memory.expires_at, now)})")
    verified = f" at {format_instant(memory.verified_at)}" if memory.verified_at is not None else ""
    lines.append(f"verified  {shown_word(memory.verification_status or 'unknown')}{verified}")
    last = f" (last {format_instant(memory.last_retrieved_at)})" if memory.last_retrieved_at else ""
    seen, retrieved = _how_often(memory.seen_count), _how_often(memory.retrieval_count)
    lines.append(f"seen      {seen} · retrieved {retrieved}{last}")
    session = one_line(memory.source_session_id, 80) if memory.source_session_id else "unknown"
    kind = f" ({shown_word(memory.source_type)})" if memory.source_type else ""
    lines.append(f"source    session {session}{kind}")
    return lines


SHOWN_LINKS = 20  # ids or sources a text `show` names before counting the rest (`--json` lists every one)
REST = "(--json lists them)"


def _ids(ids: tuple[int, ...] | list[int]) -> str:
    shown = ", ".join(f"#{item}" for item in ids[:SHOWN_LINKS])
    rest = len(ids) - SHOWN_LINKS
    return shown + (f" and {rest:,} more {REST}" if rest > 0 else "")


def link_lines(linked: ProjectMemoryLinks) -> list[str]:
    host, memory_id = linked.host, linked.memory.id
    lines: list[str] = []
    if host.chain.steps:
        chain = " → ".join(f"#{item}" for item in host.chain.steps)
        lines.append(f"superseded by #{host.chain.steps[0]}; followed to the end: {chain}")
    elif linked.memory.superseded_by is not None:
        lines.append(f"superseded by #{linked.memory.superseded_by}")
    if host.chain.problem:
        lines.append(f"  {MALFORMED} {host.chain.problem}")
    if host.supersedes:
        lines.append(f"supersedes {_ids(host.supersedes)}")
    if host.merged.ids:
        lines.append(f"merged from {_ids(host.merged.ids)}")
    if host.merged.problem:
        lines.append(f"  {MALFORMED} {make_visible(host.merged.problem)}")
    if host.merged_into:
        lines.append(f"merged into {_ids(host.merged_into)}")
    for source in host.sources[:SHOWN_LINKS]:
        said = (
            "no such memory" if source.missing else f"session {one_line(source.source_session_id or '?', 80)}"
        )
        lines.append(f"  source #{source.memory_id}: {said}")
    if len(host.sources) > SHOWN_LINKS:
        lines.append(f"  and {len(host.sources) - SHOWN_LINKS:,} more sources {REST}")
    lines += [f"{phrase} (dashboard)" for phrase in grouped_phrases(memory_id, list(linked.own))]
    return lines


def project_details(linked: ProjectMemoryLinks, now: int, project: str, read_only: str | None) -> str:
    memory = linked.memory
    head = " · ".join(
        [
            one_line(project, 60),
            shown_word(memory.category),
            shown_word(memory.status) + (" (expired)" if expired(memory, now) else ""),
            f"importance {memory.importance}",
            f"scope {shown_word(memory.scope)}",
            f"shareable {'yes' if memory.shareable else 'no'}",
        ]
    )
    lines = [f"Project memory #{memory.id}", head, "", make_visible(memory.content), ""]
    lines += _times(memory, now)
    lines += link_lines(linked)
    if has_hidden_characters(memory.content):
        lines.append("warning   content has hidden (invisible, bidi-control or tag) characters")
    if read_only is not None:
        lines.append(f"read-only {read_only}")
    lines += [f"{MALFORMED} {note}" for note in memory.oddities]
    return "\n".join(lines)
