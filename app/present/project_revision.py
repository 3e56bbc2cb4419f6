"""What a project memory's revision changed besides its text and status, in words: its row before and
after (`previous_row` / `new_row`, the tracked fields of `app.store.project.revisions`) compared field by
field, `category CONFIG_VALUES → BUILD`, `superseded by #12`, `merged from #3, #4`, `expiry never → …`.

A pure function of the two rows, for every view that shows a project revision. The rows come from our own
log, but an older version or a damaged file may hold anything there: every value is shown as it is, on
one line, hidden characters visible; a row that is missing (a creation, a delete) compares with nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.core.clock import format_instant
from app.core.project_values import merged_from_ids
from app.present.card import shown_word

Row = Mapping[str, Any]
# The plain fields, in the order they are said; `updated_at` moves with every write and says nothing.
_PLAIN = ("category", "importance", "scope", "shareable", "verification_status")


def _value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return shown_word(str(value), 200)


def _instant(value: object) -> str:
    if value is None:
        return "never"
    if isinstance(value, int) and not isinstance(value, bool):
        return format_instant(value)
    return _value(value)


def _id(value: object) -> str:
    return f"#{value}" if isinstance(value, int) and not isinstance(value, bool) else _value(value)


def _supersession(before: object, after: object) -> str:
    if before is None:
        return f"superseded by {_id(after)}"
    if after is None:
        return f"no longer superseded by {_id(before)}"
    return f"superseded by {_id(before)} → {_id(after)}"


def _merged_ids(raw: object) -> str:
    """The host's `merged_from` (a JSON list of ids, as text) as `#3, #4`; anything else as it is."""
    found = merged_from_ids(raw) if isinstance(raw, str) else None
    if found is not None and not found[1]:  # every item an id
        return ", ".join(f"#{item}" for item in found[0]) or "nothing"
    return _value(raw)


def _merge(before: object, after: object) -> str:
    if before is None:
        return f"merged from {_merged_ids(after)}"
    if after is None:
        return f"merged from {_merged_ids(before)} → none"
    return f"merged from {_merged_ids(before)} → {_merged_ids(after)}"


def row_changes(previous: Row | None, new: Row | None) -> list[str]:
    """Each tracked field that differs between the rows, in words (nothing where a row is missing)."""
    if previous is None or new is None:
        return []
    changes = [
        f"{name.replace('_', ' ')} {_value(previous.get(name))} → {_value(new.get(name))}"
        for name in _PLAIN
        if previous.get(name) != new.get(name)
    ]
    before, after = previous.get("superseded_by"), new.get("superseded_by")
    if before != after:
        changes.append(_supersession(before, after))
    before, after = previous.get("merged_from"), new.get("merged_from")
    if before != after:
        changes.append(_merge(before, after))
    before, after = previous.get("expires_at"), new.get("expires_at")
    if before != after:
        changes.append(f"expiry {_instant(before)} → {_instant(after)}")
    return changes
