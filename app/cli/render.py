"""How memories, revisions and candidates look on a terminal and in JSON.

Text that comes from the host's rows (content, statuses, session ids, origins) is shown with hidden
characters visible; a row the store found odd says so (`malformed`, and each of its `oddities`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from app.core.clock import format_instant
from app.core.models import Candidate, Memory, Revision, RevisionKind
from app.core.models.evidence import (
    Evidence,
    evidence_json,
    evidence_lines,
    evidence_words,
)
from app.core.screening import make_visible
from app.present.card import MALFORMED, card_meta, shown_word, sources_line
from app.present.timefmt import relative

EvidenceFound = Mapping[int, Evidence]  # `MemoryStore.evidence`: an id missing was never archived


def _provenance_json(memory: Memory, found: EvidenceFound | None) -> list[dict[str, Any]] | None:
    if memory.provenance is None:
        return None
    entries = [entry.to_json() for entry in memory.provenance]
    if found is not None:
        for entry in entries:
            entry["evidence"] = evidence_json(found.get(entry["candidate_id"]))
    return entries


def memory_json(memory: Memory, now: int, found: EvidenceFound | None = None) -> dict[str, Any]:
    """A memory as JSON; with `found` (the archive's evidence), each provenance entry carries its
    `"evidence"` (`{"content", "session_id", "archived_at", …}` or null: never archived)."""
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
        "provenance": _provenance_json(memory, found),
        "unknown_provenance_ids": list(memory.unknown_provenance_ids),
        "sources": list(memory.sources),
        "trust": memory.trust,
        "expires_at": memory.expires_at,
        "expired": memory.expired,
        "injected": memory.injected,
        "hidden_characters": memory.has_hidden_characters,
        "revision_count": memory.revision_count,
        "card_meta": card_meta(memory, now),
        "malformed": memory.malformed,
        "oddities": list(memory.oddities),
    }


def candidate_json(candidate: Candidate) -> dict[str, Any]:
    return {
        "id": candidate.id,
        "content": candidate.content,
        "session_id": candidate.session_id,
        "source_compartment_start": candidate.compartment_start,
        "source_compartment_end": candidate.compartment_end,
        "created_at": candidate.created_at,
        "malformed": candidate.malformed,
        "oddities": list(candidate.oddities),
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


def _marks(expired: bool, malformed: bool) -> str:
    return (" (expired)" if expired else "") + (f" ({MALFORMED})" if malformed else "")


def memory_line(memory: Memory, now: int) -> str:
    status = shown_word(memory.status) + _marks(memory.expired, memory.malformed)
    return f"#{memory.id:<6} {status:<20} {one_line(memory.content)}"


def candidate_line(candidate: Candidate, now: int) -> str:
    """`#141    [session ses_c3f1]   20d ago  Prefers pnpm…` (the `candidates` listing)."""
    age = relative(candidate.created_at, now)
    session = one_line(candidate.session_id, 40)
    marks = _marks(False, candidate.malformed)
    return f"#{candidate.id:<6} [session {session}]{marks} {age:>8}  {one_line(candidate.content, 64)}"


def _oddity_lines(oddities: tuple[str, ...]) -> list[str]:
    return [f"{MALFORMED} {note}" for note in oddities]  # notes come escaped from app.store.read.rows


def memory_details(memory: Memory, now: int, found: EvidenceFound | None = None) -> str:
    lines = [f"Memory #{memory.id}", card_meta(memory, now), ""]
    lines.append(make_visible(memory.content))
    lines.append("")
    lines.append(f"promoted  {format_instant(memory.promoted_at)}")
    if memory.content_changed_at is not None:
        lines.append(f"rewritten {format_instant(memory.content_changed_at)}")
    if memory.expires_at is not None:
        lines.append(f"expires   {format_instant(memory.expires_at)} ({relative(memory.expires_at, now)})")
    lines.append(f"sources   {sources_line(memory.sources)} (trust: {memory.trust})")
    if memory.has_hidden_characters:
        lines.append("warning   content has hidden (invisible, bidi-control or tag) characters")
    lines += _oddity_lines(memory.oddities)
    for entry in memory.provenance or ():
        span = compartments(entry.compartment_start, entry.compartment_end)
        added = f", added {format_instant(entry.added_at)}" if entry.added_at else ""
        lines.append(
            f"  candidate #{entry.candidate_id}: session {one_line(entry.session_id, 80)}, "
            f"compartments {span}, {shown_word(entry.origin)}{added}"
        )
        if found is not None:
            lines.append(f"    {evidence_words(found.get(entry.candidate_id))}")
    unknown = memory.unknown_provenance_ids
    if unknown:
        lines.append(f"  provenance unknown for: {', '.join(str(i) for i in unknown)}")
        if found is not None:
            lines += evidence_lines(unknown, dict(found))
    return "\n".join(lines)


def revision_line(revision: Revision) -> str:
    """The revision's header line, then what JSON says of it: from what to what (`- old`, `+ new`, every
    line of each text), the dismissal's reason, the expiry set, a restore's origin, a note on evidence."""
    what = revision.kind
    if revision.new_status and revision.previous_status != revision.new_status:
        what += f" {shown_word(revision.previous_status or '-')} → {shown_word(revision.new_status)}"
    extra = f" run {one_line(revision.run_id, 80)}" if revision.run_id else ""
    ids = f" +candidates {', '.join(map(str, revision.candidate_ids))}" if revision.candidate_ids else ""
    head = f"r{revision.id:<5} {format_instant(revision.changed_at)}  {revision.source:<9} {what}{extra}{ids}"
    return "\n".join([head, *_revision_body(revision)])


_INDENT = " " * 7


def _text_lines(mark: str, text: str) -> list[str]:
    return [f"{_INDENT}{mark} {make_visible(line)}" for line in text.split("\n")]


def _instant_or_never(value: object) -> str:
    return format_instant(value) if isinstance(value, int) and not isinstance(value, bool) else "never"


def _revision_body(revision: Revision) -> list[str]:
    lines: list[str] = []
    old, new = revision.previous_content, revision.new_content
    if old != new:
        lines += _text_lines("-", old) if old is not None else []
        lines += _text_lines("+", new) if new is not None else []
    elif revision.kind == RevisionKind.CREATE and new is not None:
        lines += _text_lines("+", new)
    detail = revision.detail
    if detail.get("reason"):
        lines.append(f"{_INDENT}reason: {one_line(str(detail['reason']), 200)}")
    if "expires_at" in detail:
        previous, now = detail.get("previous_expires_at"), detail.get("expires_at")
        lines.append(f"{_INDENT}expiry: {_instant_or_never(previous)} → {_instant_or_never(now)}")
    if detail.get("restored_from") is not None:
        lines.append(f"{_INDENT}restored from revision {one_line(str(detail['restored_from']), 40)}")
    if detail.get("evidence"):
        lines.append(f"{_INDENT}evidence: {one_line(str(detail['evidence']), 200)}")
    return lines


def revision_json(revision: Revision, found: EvidenceFound) -> dict[str, Any]:
    """A revision as JSON with `"evidence"`: each candidate id (as text) to its archived words, or null."""
    data = revision.to_json()
    data["evidence"] = {str(item): evidence_json(found.get(item)) for item in revision.candidate_ids}
    return data


def revision_with_evidence(revision: Revision, found: EvidenceFound) -> list[str]:
    """`revision_line`, then one line per candidate with its archived words and session."""
    return [revision_line(revision), *evidence_lines(revision.candidate_ids, dict(found), "        ")]
