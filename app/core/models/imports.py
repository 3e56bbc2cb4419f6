"""An import's read model: what an export file brought in and what it skipped (`ImportResult`).

Made by `app.store.write.importer` (user memories) and `app.store.project.importing` (project memories:
`projects`, with `notes` on what an imported one left out); shown by `import` and the window's Import.
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
class ProjectImportResult:
    """The project-memory section's part: ids as for user memories, and what was left out of one."""

    imported: list[Imported] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)  # (the file's id, what was left out)

    def lines(self, verb: str) -> list[str]:
        count = len(self.imported)
        lines = [f"{verb} {count} project memor{'y' if count == 1 else 'ies'}, skipped {len(self.skipped)}"]
        lines += [f"  #{i.from_id}" + (f" → #{i.memory_id}" if i.memory_id else "") for i in self.imported]
        for skipped in self.skipped:
            here = f" (#{skipped.existing_id} here)" if skipped.existing_id is not None else ""
            lines.append(f"  skipped #{skipped.from_id}: {skipped.reason}{here}")
        lines += [f"  #{from_id}: {note}" for from_id, note in self.notes]
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "imported": [{"from_id": i.from_id, "memory_id": i.memory_id} for i in self.imported],
            "skipped": [
                {"from_id": s.from_id, "reason": s.reason, "existing_id": s.existing_id} for s in self.skipped
            ],
            "notes": [{"from_id": from_id, "note": note} for from_id, note in self.notes],
        }


@dataclass
class ImportResult:
    imported: list[Imported] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    dry_run: bool = False
    projects: ProjectImportResult | None = None  # None: the file had no project memories

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
        if self.projects is not None:
            lines += self.projects.lines(verb)
        return lines

    def to_json(self) -> dict[str, Any]:
        projects = {} if self.projects is None else {"project_memories": self.projects.to_json()}
        return {
            "dry_run": self.dry_run,
            "imported": [{"from_id": i.from_id, "memory_id": i.memory_id} for i in self.imported],
            "skipped": [
                {"from_id": s.from_id, "reason": s.reason, "existing_id": s.existing_id} for s in self.skipped
            ],
            **projects,
        }
