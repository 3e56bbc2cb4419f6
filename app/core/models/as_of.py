"""The past's read model: a memory as it was at an instant (`MemoryAsOf`) and its details in words.

Rebuilt by `app.store.past` from the revision log; shown by the window's past and `as-of`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from app.core.clock import format_instant
from app.core.models.memory import MemoryStatus
from app.core.screening import make_visible


class MemoryAsOf(NamedTuple):
    """One memory at instant `at`: its text and status then, or (known False) unknown before a date.

    A named tuple (immutable, as the frozen read models): a read of the whole past builds one per memory,
    and a tuple is built without a Python call per field as a frozen dataclass's `__init__` makes."""

    memory_id: int
    at: int
    known: bool
    content: str | None
    status: str | None
    promoted_at: int | None  # the host's, when the memory still exists
    changed_at: int | None  # its last recorded change at or before `at`
    expires_at: int | None
    exists_now: bool
    unknown_before: int | None = None  # unknown: the dashboard's first record of it

    @property
    def expired(self) -> bool:
        return self.expires_at is not None and self.at >= self.expires_at

    @property
    def injected(self) -> bool:
        """In the profile the agent was shown at `at` (as `Memory.injected`)."""
        return self.known and self.status == MemoryStatus.ACTIVE and not self.expired

    @property
    def unknown_note(self) -> str:
        when = format_instant(self.unknown_before) if self.unknown_before is not None else "the first look"
        return f"unknown before {when} (first seen)"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.memory_id,
            "as_of": self.at,
            "known": self.known,
            "content": self.content,
            "status": self.status,
            "promoted_at": self.promoted_at,
            "changed_at": self.changed_at,
            "expires_at": self.expires_at,
            "expired": self.expired,
            "injected": self.injected,
            "exists_now": self.exists_now,
            "unknown_before": self.unknown_before,
        }


def state_details(state: MemoryAsOf) -> str:
    """One memory at its instant as plain text: its text then and its facts (the CLI's `show --as-of`,
    the window's view of the past)."""
    lines = [f"Memory #{state.memory_id} as of {format_instant(state.at)}"]
    if not state.known:
        lines.append(state.unknown_note)
        return "\n".join(lines)
    lines += [f"status    {make_visible(state.status or '')}", "", make_visible(state.content or ""), ""]
    if state.changed_at is not None:
        lines.append(f"changed   {format_instant(state.changed_at)} (its last recorded change by then)")
    if state.expires_at is not None:
        lines.append(
            f"expires   {format_instant(state.expires_at)}" + (" (expired)" if state.expired else "")
        )
    lines.append(f"injected  {'yes' if state.injected else 'no'} (in the profile the agent was shown then)")
    if not state.exists_now:
        lines.append("deleted since")
    return "\n".join(lines)
