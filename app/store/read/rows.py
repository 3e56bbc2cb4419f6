"""The one place that turns raw host rows into the app's frozen rows: `Memory` and `Candidate`.

The host's tables have no CHECKs, so any SQLite value can sit in any column: text, blob, integer, real
or NULL; text that is not UTF-8; timestamps past what a clock can show; JSON nested deeper than the
parser recurses. `host_row` and `build_candidate` take whatever is there. A well-typed row takes the
fast path (a few type checks: this runs for every card of a 100,000-memory listing); any other cell is
read by `app.store.read.host_cells` as something every reader can show and gets a note in `oddities`
("updated_at is text 'yesterday', …"), which the CLI and the window show as "malformed"; so do JSON
columns that cannot be read (`app.core.provenance`). Nothing here writes: an odd row is shown, never repaired
by a read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.core.models import REWRITE_THRESHOLD_MS, Candidate, Memory
from app.core.provenance import ProvenanceEntry, parse_provenance, provenance_problem, read_candidate_ids
from app.core.screening import has_hidden_characters
from app.core.trust import NO_MARKS, TrustMarks, derive_sources, grade
from app.store.read.host_cells import (
    TIME_MAX,
    TIME_MIN,
    describe,
    optional_text,
    sound_time,
    status_value,
    text_note,
    text_value,
    time_note,
    time_value,
)

# `user_memories` and `user_memory_candidates` columns in the order `host_row` and `build_candidate`
# unpack them (reads.py selects them so; a test checks the tables against them).
HOST_COLUMNS = (
    "id",
    "content",
    "status",
    "promoted_at",
    "source_candidate_ids",
    "source_candidate_provenance",
    "created_at",
    "updated_at",
)
CANDIDATE_COLUMNS = (
    "id",
    "content",
    "session_id",
    "source_compartment_start",
    "source_compartment_end",
    "created_at",
)


# -- memories --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HostRow:
    """A `user_memories` row as the app reads it (`host_row`): every field of its declared type."""

    id: int
    content: str
    status: str
    promoted_at: int
    created_at: int
    updated_at: int
    source_candidate_ids: str | None
    source_candidate_provenance: str | None
    oddities: tuple[str, ...] = ()


def host_row(values: Sequence[Any]) -> HostRow:
    """A raw `user_memories` row (columns in HOST_COLUMNS order), whatever its cells hold."""
    memory_id, content, status, promoted_at, ids, provenance, created_at, updated_at = values
    if (
        type(content) is str
        and type(status) is str
        and type(promoted_at) is int
        and type(created_at) is int
        and type(updated_at) is int
        and TIME_MIN <= promoted_at <= TIME_MAX
        and TIME_MIN <= created_at <= TIME_MAX
        and TIME_MIN <= updated_at <= TIME_MAX
        and (ids is None or type(ids) is str)
        and (provenance is None or type(provenance) is str)
    ):
        return HostRow(memory_id, content, status, promoted_at, created_at, updated_at, ids, provenance)
    ids_text, ids_note = optional_text("source_candidate_ids", ids)
    provenance_text, provenance_note = optional_text("source_candidate_provenance", provenance)
    notes = (
        text_note("content", content),
        text_note("status", status),
        time_note("promoted_at", promoted_at),
        time_note("created_at", created_at),
        time_note("updated_at", updated_at),
        ids_note,
        provenance_note,
    )
    return HostRow(
        memory_id,
        text_value(content),
        status_value(status),
        time_value(promoted_at),
        time_value(created_at),
        time_value(updated_at),
        ids_text,
        provenance_text,
        tuple(note for note in notes if note is not None),
    )


@dataclass(frozen=True, slots=True)
class OwnFacts:
    """What the dashboard's tables (or its in-memory log) know about one memory."""

    expires_at: int | None = None
    own_sources: tuple[str, ...] = ()
    revision_count: int = 0
    last_content_change: int | None = None
    tracked: bool = False  # seen before: the baseline below is known
    baseline_rewritten_at: int | None = None
    first_seen_at: int | None = None  # when the dashboard first read the row (None: not recorded)


NO_FACTS = OwnFacts()


@dataclass(slots=True)
class OwnFactRows:
    """The raw rows of the dashboard's tables about some memories, as `fetch_own_facts` reads them:
    (memory_id, expires_at), (memory_id, source) in the order added, (memory_id, revision count, last
    content change) and (memory_id, baseline_rewritten_at, first_seen_at)."""

    expiries: list[Sequence[Any]]
    sources: list[Sequence[Any]]
    stats: list[Sequence[Any]]
    seen: list[Sequence[Any]]


def own_facts(rows: OwnFactRows) -> dict[int, OwnFacts]:
    """Each memory's `OwnFacts` from the rows of the dashboard's tables."""
    expires = {mid: at for mid, at in rows.expiries}
    sources: dict[int, list[str]] = {}
    for mid, source in rows.sources:
        sources.setdefault(mid, []).append(source)
    stats = {mid: (count, changed) for mid, count, changed in rows.stats}
    baselines = {mid: base for mid, base, _first in rows.seen}
    first_seen = {mid: first for mid, _base, first in rows.seen}
    facts = {}
    for mid in set(expires) | set(sources) | set(stats) | set(baselines):
        count, changed = stats.get(mid, (0, None))
        facts[mid] = OwnFacts(
            expires_at=expires.get(mid),
            own_sources=tuple(sources.get(mid, ())),
            revision_count=count,
            last_content_change=changed,
            tracked=mid in baselines,
            baseline_rewritten_at=baselines.get(mid),
            first_seen_at=first_seen.get(mid),
        )
    return facts


def looks_rewritten(promoted_at: int, updated_at: int) -> bool:
    """The host's own rule for a row without history: updated over a minute after promotion. It holds for
    every status: the host writes all three instants from one `now` at promotion, so a dismissed row
    seen for the first time with a later `updated_at` may have been rewritten before it was dismissed,
    and shows so until its revisions say otherwise."""
    return updated_at - promoted_at > REWRITE_THRESHOLD_MS


def _showable_facts(facts: OwnFacts) -> tuple[OwnFacts, tuple[str, ...]]:
    """Our own tables hold only what our writers checked, but an older version or a hand edit may not:
    the three instants made showable like the host's."""
    values = (facts.expires_at, facts.last_content_change, facts.baseline_rewritten_at, facts.first_seen_at)
    names = ("expires_at", "last_content_change", "baseline_rewritten_at", "first_seen_at")
    notes = tuple(
        f"{name} is {describe(value)}, not epoch milliseconds in range"
        for name, value in zip(names, values, strict=True)
        if not sound_time(value)
    )
    expires_at, last_change, baseline, first_seen = (
        value if sound_time(value) else time_value(value) for value in values
    )
    shown = replace(
        facts,
        expires_at=expires_at,
        last_content_change=last_change,
        baseline_rewritten_at=baseline,
        first_seen_at=first_seen,
    )
    return shown, notes


def _showable_added_at(
    entries: tuple[ProvenanceEntry, ...],
) -> tuple[tuple[ProvenanceEntry, ...], tuple[str, ...]]:
    """Provenance `added_at` is ours and optional; one no clock can show (JSON numbers have no 64-bit
    limit) is left out of what is shown."""
    kept = tuple(entry if sound_time(entry.added_at) else replace(entry, added_at=None) for entry in entries)
    return kept, ("source_candidate_provenance has an added_at out of range: left out",)


def _json_notes(
    row: HostRow, ids_note: str | None, provenance: tuple[ProvenanceEntry, ...] | None
) -> tuple[tuple[ProvenanceEntry, ...] | None, tuple[str, ...]]:
    """What is odd in the two JSON columns (nothing, for nearly every row: checked cheaply first)."""
    notes: tuple[str, ...] = () if ids_note is None else (ids_note,)
    if provenance is None:
        problem = provenance_problem(row.source_candidate_provenance, provenance)
        return None, notes if problem is None else (*notes, problem)
    for entry in provenance:  # a plain loop: this runs for every card
        if entry.added_at is not None and not TIME_MIN <= entry.added_at <= TIME_MAX:
            provenance, added = _showable_added_at(provenance)
            return provenance, notes + added
    return provenance, notes


def _content_change(row: HostRow, facts: OwnFacts) -> int | None:
    if facts.last_content_change is not None:
        return facts.last_content_change
    if facts.tracked:
        return facts.baseline_rewritten_at
    return row.updated_at if looks_rewritten(row.promoted_at, row.updated_at) else None


def build_memory(row: HostRow, facts: OwnFacts, as_of: int, marks: TrustMarks = NO_MARKS) -> Memory:
    """The app's `Memory` for a row from `host_row` and what our own tables know, its trust graded under
    the person's `marks`; JSON columns that cannot be read (or only in part) are noted next to the row's
    own oddities."""
    ids, ids_note = read_candidate_ids(row.source_candidate_ids)
    provenance, notes = _json_notes(row, ids_note, parse_provenance(row.source_candidate_provenance))
    if facts is not NO_FACTS and not (
        sound_time(facts.expires_at)
        and sound_time(facts.last_content_change)
        and sound_time(facts.baseline_rewritten_at)
    ):
        facts, fact_notes = _showable_facts(facts)
        notes += fact_notes
    sources = derive_sources(ids, provenance, facts.own_sources)
    changed_at = _content_change(row, facts)
    hidden = has_hidden_characters(row.content)
    trust, reasons = grade(sources, marks, row.content, hidden)
    return Memory(
        id=row.id,
        content=row.content,
        status=row.status,
        promoted_at=row.promoted_at,
        created_at=row.created_at,
        updated_at=row.updated_at,
        source_candidate_ids=ids,
        provenance=provenance,
        provenance_raw=row.source_candidate_provenance,
        expires_at=facts.expires_at,
        as_of=as_of,
        rewritten=changed_at is not None,
        content_changed_at=changed_at,
        sources=sources,
        trust=trust,
        has_hidden_characters=hidden,
        revision_count=facts.revision_count,
        first_seen_at=facts.first_seen_at,
        oddities=row.oddities + notes if notes else row.oddities,
        trust_reasons=reasons,
    )


def build_memories(
    rows: Sequence[HostRow], facts: Mapping[int, OwnFacts], as_of: int, marks: TrustMarks = NO_MARKS
) -> list[Memory]:
    return [build_memory(row, facts.get(row.id, NO_FACTS), as_of, marks) for row in rows]


# -- candidates ------------------------------------------------------------------------------------


def _compartment(column: str, value: object) -> tuple[int | None, str | None]:
    if value is None or isinstance(value, int):
        return value, None
    return None, f"{column} is {describe(value)}, not an integer: read as unknown"


def build_candidate(values: Sequence[Any]) -> Candidate:
    """A raw `user_memory_candidates` row (columns in CANDIDATE_COLUMNS order) as the app's `Candidate`."""
    candidate_id, content, session_id, start, end, created_at = values
    if (
        type(content) is str
        and type(session_id) is str
        and (start is None or type(start) is int)
        and (end is None or type(end) is int)
        and type(created_at) is int
        and TIME_MIN <= created_at <= TIME_MAX
    ):
        return Candidate(candidate_id, content, session_id, start, end, created_at)
    start_value, start_note = _compartment("source_compartment_start", start)
    end_value, end_note = _compartment("source_compartment_end", end)
    notes = (
        text_note("content", content),
        text_note("session_id", session_id),
        start_note,
        end_note,
        time_note("created_at", created_at),
    )
    return Candidate(
        candidate_id,
        text_value(content),
        text_value(session_id),
        start_value,
        end_value,
        time_value(created_at),
        tuple(note for note in notes if note is not None),
    )
