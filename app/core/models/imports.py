"""An import's read model: what an export file brought in and what it skipped (`ImportResult`).

Made by `app.store.write.importer`; shown by `import` and the window's Import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Imported:
    from_id: int
    memory_id: int


@dataclass(frozen=True, slots=True)
class Skipped:
    from_id: int
    reason: str
    existing_id: int | None = None


@dataclass
class ImportResult:
    imported: list[Imported] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    dry_run: bool = False

    def summary_lines(self) -> list[str]:
        """`imported 3 memories, skipped 1`, then a line per memory, for a terminal or a message box."""
        verb = "would import" if self.dry_run else "imported"
        count = len(self.imported)
        lines = [f"{verb} {count} memor{'y' if count == 1 else 'ies'}, skipped {len(self.skipped)}"]
        for item in self.imported:
            lines.append(f"  #{item.from_id}" + (f" → #{item.memory_id}" if item.memory_id else ""))
        for skipped in self.skipped:
            here = f" (#{skipped.existing_id} here)" if skipped.existing_id is not None else ""
            lines.append(f"  skipped #{skipped.from_id}: {skipped.reason}{here}")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "imported": [{"from_id": i.from_id, "memory_id": i.memory_id} for i in self.imported],
            "skipped": [
                {"from_id": s.from_id, "reason": s.reason, "existing_id": s.existing_id} for s in self.skipped
            ],
        }
