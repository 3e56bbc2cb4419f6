"""The host's provenance JSON: read it, write it so the host can read it, and merge candidate ids.

`source_candidate_ids` is a JSON array of ints. `source_candidate_provenance` is a JSON array of entries
or NULL ("provenance unknown"). The host's reader discards the whole list when one entry lacks
`candidate_id` (int), `session_id` (str) or either `source_compartment_*` key (int or null), so every
entry we write carries those four keys first, in the host's order, then `origin` and `added_at`.

Reading is tolerant: the host's columns may hold any SQLite value and JSON of any nesting (Python's parser
recurses: `tolerant_json_loads` turns a RecursionError into "unreadable"); what cannot be read is
"unknown" (provenance) or empty (ids), and `read_candidate_ids`/`provenance_problem` say what was odd.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.text_input import INT64_MAX, INT64_MIN, tolerant_json_loads

ORIGIN_PROMOTION = "promotion"
ORIGIN_UPDATE = "update"
ORIGIN_MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class ProvenanceEntry:
    candidate_id: int
    session_id: str
    compartment_start: int | None
    compartment_end: int | None
    origin: str = ORIGIN_PROMOTION  # entries without `origin` read as promotion
    added_at: int | None = None

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "candidate_id": self.candidate_id,
            "session_id": self.session_id,
            "source_compartment_start": self.compartment_start,
            "source_compartment_end": self.compartment_end,
            "origin": self.origin,
        }
        if self.added_at is not None:
            entry["added_at"] = self.added_at
        return entry


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_int_or_null(value: object) -> bool:
    return value is None or _is_int(value)


def host_can_read_entry(entry: object) -> bool:
    """The host's own check of one provenance entry."""
    return (
        isinstance(entry, dict)
        and _is_int(entry.get("candidate_id"))
        and isinstance(entry.get("session_id"), str)
        and "source_compartment_start" in entry
        and "source_compartment_end" in entry
        and _is_int_or_null(entry["source_compartment_start"])
        and _is_int_or_null(entry["source_compartment_end"])
    )


def _json_list(raw: object) -> list[Any] | None:
    """The JSON array a column holds, or None for anything else (not text, bad syntax, too deep, no array)."""
    if not isinstance(raw, str):
        return None
    data = tolerant_json_loads(raw)
    return data if isinstance(data, list) else None


def host_can_read(raw: str | None) -> bool:
    """True when the host's reader would accept this column value (NULL reads as "unknown", also fine)."""
    if raw is None:
        return True
    data = _json_list(raw)
    return data is not None and all(host_can_read_entry(entry) for entry in data)


def _entry(item: dict[str, Any]) -> ProvenanceEntry:
    origin = item.get("origin")
    added_at = item.get("added_at")
    return ProvenanceEntry(
        candidate_id=item["candidate_id"],
        session_id=item["session_id"],
        compartment_start=item["source_compartment_start"],
        compartment_end=item["source_compartment_end"],
        origin=origin if isinstance(origin, str) and origin else ORIGIN_PROMOTION,
        added_at=added_at if _is_int(added_at) else None,
    )


def parse_provenance(raw: object) -> tuple[ProvenanceEntry, ...] | None:
    """The entries as the host reads them: None ("unknown") for NULL or any list the host would discard
    (also for a value that is not text at all, or JSON nested past what the parser can take)."""
    if raw is None:
        return None
    data = _json_list(raw)  # parsed once: every card of a listing goes through here
    if data is None:
        return None
    entries = []
    for item in data:
        if not host_can_read_entry(item):
            return None
        entries.append(_entry(item))
    return tuple(entries)


def provenance_sessions(raw: object) -> tuple[tuple[str, ...], frozenset[int]] | None:
    """What trust needs of a provenance column, read as `parse_provenance` reads it but without building
    its entries: the session ids in order (repeats dropped) and the candidate ids described; None where
    the host reads "unknown". A listing filtered by trust reads this for every row."""
    data = _json_list(raw) if raw is not None else None
    if data is None:
        return None
    sessions: dict[str, None] = {}
    ids: set[int] = set()
    for item in data:
        if type(item) is not dict:
            return None
        candidate, session = item.get("candidate_id"), item.get("session_id")
        start, end = item.get("source_compartment_start", ""), item.get("source_compartment_end", "")
        if (
            type(candidate) is not int
            or type(session) is not str
            or not (start is None or type(start) is int)
            or not (end is None or type(end) is int)
        ):
            return None  # a missing compartment key reads as "" above: not int or null
        sessions[session] = None
        ids.add(candidate)
    return tuple(sessions), frozenset(ids)


def provenance_problem(raw: object, parsed: tuple[ProvenanceEntry, ...] | None) -> str | None:
    """What is odd about a provenance column `parse_provenance` read as `parsed` (NULL is not odd: the
    host's "unknown")."""
    if raw is None or parsed is not None:
        return None
    if not isinstance(raw, str):
        return "source_candidate_provenance is not text"
    if _json_list(raw) is None:
        return "source_candidate_provenance is not a readable JSON array: provenance unknown"
    return "source_candidate_provenance has an entry the host cannot read: provenance unknown"


def serialize_provenance(entries: Iterable[ProvenanceEntry]) -> str:
    return json.dumps([entry.to_json() for entry in entries], separators=(",", ":"), ensure_ascii=False)


def parse_candidate_ids(raw: object) -> tuple[int, ...]:
    """The ids of `source_candidate_ids`; anything that is not a JSON array of ints reads as empty
    (items that are not ints are left out)."""
    return read_candidate_ids(raw)[0]


def read_candidate_ids(raw: object) -> tuple[tuple[int, ...], str | None]:
    """The ids of `source_candidate_ids` and what is odd about the column, if anything: not a JSON array
    (read as no ids), items that are not integers (left out), ids past 64 bits (kept: JSON allows them,
    but no candidate row can have one)."""
    if raw is None or raw == "[]":  # NULL is the column's legacy "none"; most revisions add no candidates
        return (), None
    data = _json_list(raw)
    if data is None:
        return (), "source_candidate_ids is not a readable JSON array: read as no ids"
    ids = tuple([item for item in data if type(item) is int and INT64_MIN <= item <= INT64_MAX])
    return (ids, None) if len(ids) == len(data) else _odd_ids(data)


def _odd_ids(data: list[Any]) -> tuple[tuple[int, ...], str]:
    ids = tuple(item for item in data if _is_int(item))
    problems = []
    if len(ids) != len(data):
        problems.append(f"{len(data) - len(ids):,} item(s) that are not ids (left out)")
    if any(not INT64_MIN <= item <= INT64_MAX for item in ids):
        problems.append("ids outside 64 bits")
    return ids, f"source_candidate_ids has {' and '.join(problems)}"


def serialize_candidate_ids(ids: Sequence[int]) -> str:
    return json.dumps(list(ids), separators=(",", ":"))


def union_ids(existing: Sequence[int], appended: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Order-preserving, de-duplicating union; returns (all ids, the ids newly added)."""
    seen: set[int] = set()
    merged: list[int] = []
    for item in existing:
        if item not in seen:
            seen.add(item)
            merged.append(item)
    added: list[int] = []
    for item in appended:
        if item not in seen:
            seen.add(item)
            merged.append(item)
            added.append(item)
    return tuple(merged), tuple(added)


def without_candidates(
    ids_raw: object, provenance_raw: object, removed: Collection[int]
) -> tuple[object, object]:
    """`source_candidate_ids` and `source_candidate_provenance` with the candidates `removed` taken out (the
    undo of the update that appended them): their ids and their entries go, every other item stays as it
    was, keys the host or others wrote too. A column that is not a readable JSON array, or that names none
    of them, comes back as it was."""

    def without(raw: object, named: Callable[[Any], bool]) -> object:
        data = _json_list(raw)
        if data is None:
            return raw
        kept = [item for item in data if not named(item)]
        return raw if len(kept) == len(data) else json.dumps(kept, separators=(",", ":"), ensure_ascii=False)

    def cites(item: Any) -> bool:
        return (
            isinstance(item, dict) and _is_int(item.get("candidate_id")) and item["candidate_id"] in removed
        )

    return without(ids_raw, lambda item: _is_int(item) and item in removed), without(provenance_raw, cites)


def merged_provenance_json(previous_raw: str | None, appended: Sequence[ProvenanceEntry]) -> str | None:
    """The provenance column after appending entries: never NULL-ed by an update.

    Nothing found to append keeps the previous JSON exactly as it was (NULL stays NULL). A legacy NULL
    row that gains entries gets a list of just those. An entry whose candidate is already described is
    not repeated.
    """
    if not appended:
        return previous_raw
    previous = parse_provenance(previous_raw) if previous_raw is not None else ()
    if previous is None:
        # Unreadable to the host, which would discard the new evidence with it: keep the entries it can
        # read and append ours (the writer keeps the old JSON whole in its revision, so nothing is lost).
        kept = tolerant_json_loads(previous_raw or "null")
        base: list[Any] = (
            [item for item in kept if host_can_read_entry(item)] if isinstance(kept, list) else []
        )
        known = {item["candidate_id"] for item in base}
        base = base + [e.to_json() for e in appended if e.candidate_id not in known]
        return json.dumps(base, separators=(",", ":"), ensure_ascii=False)
    known_ids = {entry.candidate_id for entry in previous}
    fresh = [entry for entry in appended if entry.candidate_id not in known_ids]
    if not fresh:
        return previous_raw
    # Re-serialise the previous entries from their raw JSON so keys the host or others wrote survive.
    raw_items: list[Any] = json.loads(previous_raw) if previous_raw is not None else []
    raw_items.extend(entry.to_json() for entry in fresh)
    return json.dumps(raw_items, separators=(",", ":"), ensure_ascii=False)


def compartment_span(start: int | None, end: int | None) -> str:
    """The compartments a candidate came from, as read: `12–15`, `12` (one), `from 12` (its end unknown,
    which `12–…` would make look clipped), `up to 15`, or `—` when neither is recorded."""
    if start is None and end is None:
        return "—"
    if end is None:
        return f"from {start}"
    if start is None:
        return f"up to {end}"
    return str(start) if start == end else f"{start}–{end}"
