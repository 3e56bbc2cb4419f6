"""What a project memory's card and detail say, as plain text: the card's meta line, the detail's field
lines, and its links both ways as phrases whose memory ids a view can make clickable.

Pure: the window paints and links these, the tests read them. Every value is shown as it is (a status
the host never writes, a missing count), and expiry is half-open as everywhere: at `expires_at` the
memory is expired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.clock import format_instant
from app.present.timefmt import relative
from app.store import ARCHIVED, ProjectMemory, ProjectMemoryLinks

MemoryRef = int  # a memory id a phrase names (a view links it)
Piece = str | MemoryRef  # a phrase is text and memory ids, in order


@dataclass(frozen=True, slots=True)
class LinkLine:
    """One link phrase: its pieces (text, and ids to link), and whether it says a problem."""

    pieces: tuple[Piece, ...]
    problem: bool = False

    @property
    def text(self) -> str:
        return "".join(piece if isinstance(piece, str) else f"#{piece}" for piece in self.pieces)


def expiry_text(memory: ProjectMemory, now: int) -> str | None:
    """`expires in 3d`, `expired 2d ago`, or None when it never expires (gone at `expires_at`)."""
    if memory.expires_at is None:
        return None
    if now >= memory.expires_at:
        return f"expired {relative(memory.expires_at, now)}"
    return f"expires {relative(memory.expires_at, now)}"


def _count(value: int | None) -> str:
    return "?" if value is None else f"{value:,}"


def card_meta(memory: ProjectMemory, now: int) -> str:
    """The card's line under the content: category · status · importance · expiry · verification ·
    seen/retrieved · scope · shareable · session."""
    parts = [memory.category or "(no category)", memory.status or "(no status)"]
    parts.append(f"importance {_count(memory.importance)}")
    expiry = expiry_text(memory, now)
    if expiry:
        parts.append(expiry)
    if memory.verification_status:
        parts.append(memory.verification_status)
    parts.append(f"seen {_count(memory.seen_count)} · retrieved {_count(memory.retrieval_count)}")
    parts.append(memory.scope + (" · shareable" if memory.shareable else ""))
    if memory.source_session_id:
        parts.append(memory.source_session_id)
    return " · ".join(parts)


def _when(label: str, at: int | None, now: int) -> str:
    return f"{label} {format_instant(at)} ({relative(at, now)})" if at is not None else ""


def detail_lines(memory: ProjectMemory, now: int) -> list[str]:
    """The detail's field lines, one fact each."""
    expiry = "never expires"
    if memory.expires_at is not None:
        verb = "expired" if now >= memory.expires_at else "expires"
        expiry = _when(verb, memory.expires_at, now)
    verified = memory.verification_status or "no verification"
    if memory.verified_at is not None:
        verified += f", {_when('verified', memory.verified_at, now)}"
    retrieved = f"retrieved {_count(memory.retrieval_count)}×"
    if memory.last_retrieved_at is not None:
        retrieved += f", last {relative(memory.last_retrieved_at, now)}"
    session = memory.source_session_id or "no source session"
    if memory.source_type:
        session += f" ({memory.source_type})"
    return [
        f"Category {memory.category or '(none)'} · status {memory.status or '(none)'}"
        f" · importance {_count(memory.importance)}",
        expiry[:1].upper() + expiry[1:],
        f"Verification: {verified}",
        f"Seen {_count(memory.seen_count)}× · {retrieved}",
        f"Scope {memory.scope} · {'shareable' if memory.shareable else 'not shareable'}",
        f"Source session: {session}",
        f"Created {format_instant(memory.created_at)} · updated {_when('', memory.updated_at, now).strip()}",
        *(f"Odd cell: {note}" for note in memory.oddities),
    ]


def _ids(words: str, ids: Sequence[int]) -> tuple[Piece, ...]:
    pieces: list[Piece] = [words]
    for index, memory_id in enumerate(ids):
        if index:
            pieces.append(", ")
        pieces.append(memory_id)
    return tuple(pieces)


def link_lines(found: ProjectMemoryLinks) -> list[LinkLine]:
    """The memory's links both ways: its supersession chain to the end (a loop or a dangling id said),
    what it supersedes, what it was merged from and into, the sources of a merge with their sessions,
    then the links the dashboard made (`mdash_links`)."""
    memory_id, host, own = found.memory.id, found.host, found.own
    lines: list[LinkLine] = []
    chain = host.chain
    if chain.steps:
        pieces: list[Piece] = ["superseded by "]
        for index, step in enumerate(chain.steps):
            pieces += [" → "] if index else []
            pieces.append(step)
        if len(chain.steps) > 1:
            pieces += [" (the chain's end: ", chain.end, ")"]
        lines.append(LinkLine(tuple(pieces)))
    if chain.problem:
        lines.append(LinkLine((chain.problem,), problem=True))
    if host.supersedes:
        lines.append(LinkLine(_ids("supersedes ", host.supersedes)))
    if host.merged.ids:
        lines.append(LinkLine(_ids("merged from ", host.merged.ids)))
    if host.merged.problem:
        lines.append(LinkLine((host.merged.problem,), problem=True))
    if host.merged_into:
        lines.append(LinkLine(_ids("merged into ", host.merged_into)))
    if host.sources:
        pieces = ["sources: "]
        for index, source in enumerate(host.sources):
            pieces += ["; "] if index else []
            pieces.append(source.memory_id)
            if source.missing:
                pieces.append(" (no such memory any more)")
            else:
                pieces.append(f" (session {source.source_session_id or 'unknown'})")
        lines.append(LinkLine(tuple(pieces)))
    grouped: dict[str, list[int]] = {}  # as `grouped_phrases` groups them, with the ids to link
    for link in own:
        words = link.phrase_for(memory_id).rsplit(" #", 1)[0]
        grouped.setdefault(words, []).append(link.other_end(memory_id))
    for words, ids in grouped.items():
        lines.append(LinkLine((*_ids(f"{words} ", list(dict.fromkeys(ids))), " (by the dashboard)")))
    return lines


def counts_words(shown: Sequence[ProjectMemory], rows: Sequence[ProjectMemory], now: int) -> str:
    """The status bar's counts for a project: its memories shown under the filters, of all of them
    those the host injects now (its rule), and those archived."""
    injected = sum(1 for row in rows if row.injectable_at(now))
    archived = sum(1 for row in rows if row.status == ARCHIVED)
    return f"{len(shown):,} shown · {injected:,} injected now · {archived:,} archived"
