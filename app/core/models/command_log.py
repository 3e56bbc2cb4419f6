"""One entry of the command log (`mdash_command_log`), as the undo stack and `runs` show it: a value
with no store behind it, so the window's first screen can carry it across processes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DONE, UNDONE = "done", "undone"  # an entry's state: undone entries are the redo stack


@dataclass(frozen=True, slots=True)
class LogEntry:
    id: int
    kind: str
    label: str
    made_at: int
    origin: str
    done: bool
    changed_at: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "label": self.label,
            "made_at": self.made_at,
            "origin": self.origin,
            "state": DONE if self.done else UNDONE,
            "changed_at": self.changed_at,
        }
