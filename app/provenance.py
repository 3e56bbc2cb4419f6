"""The host's provenance JSON: read it, write it so the host can read it, and merge candidate ids.

`source_candidate_ids` is a JSON array of ints. `source_candidate_provenance` is a JSON array of entries
or NULL ("provenance unknown"). The host's reader discards the whole list when one entry lacks
`candidate_id` (int), `session_id` (str) or either `source_compartment_*` key (int or null), so every
entry we write carries those four keys first, in the host's order, then `origin` and `added_at`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

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


def host_can_read(raw: str | None) -> bool:
    """True when the host's reader would accept this column value (NULL reads as "unknown", also fine)."""
    if raw is None:
        return True
    try:
        data = json.loads(raw)
    except (ValueError, TypeError):
        return False
    return isinstance(data, list) and all(host_can_read_entry(entry) for entry in data)


def parse_provenance(raw: str | None) -> tuple[ProvenanceEntry, ...] | None:
    """The entries as the host reads them: None ("unknown") for NULL or any list the host would discard."""
    if raw is None:
        return None
    try:
        data = json.loads(raw)  # once: every card of a listing goes through here
    except (ValueError, TypeError):
        return None
    if not isinstance(data, list):
        return None
    entries = []
    for item in data:
        if not host_can_read_entry(item):
            return None
        origin = item.get("origin")
        added_at = item.get("added_at")
        entries.append(
            ProvenanceEntry(
                candidate_id=item["candidate_id"],
                session_id=item["session_id"],
                compartment_start=item["source_compartment_start"],
                compartment_end=item["source_compartment_end"],
                origin=origin if isinstance(origin, str) and origin else ORIGIN_PROMOTION,
                added_at=added_at if _is_int(added_at) else None,
            )
        )
    return tuple(entries)


def serialize_provenance(entries: Iterable[ProvenanceEntry]) -> str:
    return json.dumps([entry.to_json() for entry in entries], separators=(",", ":"), ensure_ascii=False)


def parse_candidate_ids(raw: str | None) -> tuple[int, ...]:
    """The ids of `source_candidate_ids`; anything that is not a JSON array of ints reads as empty."""
    if not raw or raw == "[]":  # most revisions add no candidates: skip the parser
        return ()
    try:
        data = json.loads(raw)
    except (ValueError, TypeError):
        return ()
    if not isinstance(data, list):
        return ()
    return tuple(item for item in data if _is_int(item))


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
        try:
            kept = json.loads(previous_raw or "null")
        except ValueError:
            kept = None
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
