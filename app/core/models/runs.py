"""Review runs' read model: a run (`Run`), what it changed (`RunChange`, `RunDetail`) and what undoing
it did (`UndoResult`, said in words by `undo_lines`).

Read by `app.store.evidence.runs`, undone by `app.store.evidence.undo`; shown by the Runs dialog and
`runs`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.core.clock import format_instant
from app.core.models.evidence import flat
from app.core.models.memory import UNDO_KEY as UNDO_KEY  # re-exported: the runs' readers name it here
from app.core.models.memory import Revision

ORIGIN_DASHBOARD = "dashboard"


ORIGIN_HOST = "host"


ORIGIN_TIDY = "tidy"  # a dashboard run whose verdict answered tidy's groups (`tidy --ask-reviewer`)


UNREADABLE = "unreadable run"


@dataclass(frozen=True, slots=True)
class Run:
    """One review run. Counts are None where nobody recorded them (a host run: see `inferred`)."""

    run_id: str
    origin: str  # ORIGIN_DASHBOARD, ORIGIN_TIDY (the dashboard's too, asked from tidy) or ORIGIN_HOST
    started_at: int
    finished_at: int | None
    holder: str
    promoted: int | None = None
    rewrote: int | None = None
    dismissed: int | None = None
    consumed: int | None = None
    consumed_ids: tuple[int, ...] | None = None  # which candidates it consumed, where that was recorded
    inferred: int = 0  # outside changes observed inside a host run's window
    problem: str | None = None  # why the row cannot be read as a review run (an "unreadable run")
    notes: tuple[str, ...] = ()  # odd cells, escaped
    undone_at: int | None = None  # when its undo was made (`UNDO_KEY`); None while it stands
    project_path: str | None = None  # a host run's project (`dream_runs.project_path`)
    project_inferred: int = 0  # outside changes to that project's memories inside its window

    @property
    def readable(self) -> bool:
        return self.problem is None

    @property
    def own(self) -> bool:
        """The dashboard's own run: its changes are the revisions carrying its run id."""
        return self.origin != ORIGIN_HOST

    @property
    def label(self) -> str:
        return UNREADABLE if self.problem else f"{self.origin} review"

    def counts_line(self) -> str:
        if self.problem:
            return self.problem  # beside the label, which says "unreadable run"
        if self.origin == ORIGIN_HOST:
            line = f"{self.inferred} outside change{'s' * (self.inferred != 1)} inferred"
            if self.project_inferred:
                count = self.project_inferred
                line += f", {count} project memory change{'s' * (count != 1)}"
        else:
            line = (
                f"promoted {self.promoted or 0}, rewrote {self.rewrote or 0}, "
                f"dismissed {self.dismissed or 0}, consumed {self.consumed or 0}"
            )
        return line if self.undone_at is None else f"{line} · undone {format_instant(self.undone_at)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "origin": self.origin,
            "label": self.label,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "holder": self.holder,
            "promoted": self.promoted,
            "rewrote": self.rewrote,
            "dismissed": self.dismissed,
            "consumed": self.consumed,
            "consumed_candidate_ids": None if self.consumed_ids is None else list(self.consumed_ids),
            "inferred_changes": self.inferred,
            "readable": self.readable,
            "problem": self.problem,
            "notes": list(self.notes),
            "undone_at": self.undone_at,
            "project_path": self.project_path,
            "inferred_project_changes": self.project_inferred,
        }


@dataclass(frozen=True, slots=True)
class RunChange:
    """A change a run made; `inferred` when only its time ties it to a host run."""

    revision: Revision
    inferred: bool
    memory_kind: str = "user"  # or "project": the revision is of the host's `memories` table

    def to_json(self) -> dict[str, Any]:
        return {**self.revision.to_json(), "inferred": self.inferred, "memory_kind": self.memory_kind}


@dataclass(frozen=True, slots=True)
class RunDetail:
    run: Run
    changes: tuple[RunChange, ...] = field(default_factory=tuple)
    project_changes: tuple[RunChange, ...] = field(default_factory=tuple)  # of project memories

    @property
    def memory_ids(self) -> list[int]:
        return list(dict.fromkeys(change.revision.memory_id for change in self.changes))

    def to_json(self) -> dict[str, Any]:
        return {
            **self.run.to_json(),
            "changes": [change.to_json() for change in self.changes],
            "project_changes": [change.to_json() for change in self.project_changes],
        }


NOT_RESURRECTED = (
    "candidates the run consumed are not put back in the host's pool; "
    "their words stay in the evidence archive"
)


@dataclass(frozen=True, slots=True)
class UndoResult:
    run_id: str
    restored: tuple[tuple[int, int], ...]  # (memory id, its restore revision id)
    kept: tuple[tuple[int, Revision], ...]  # (memory id, the later change that keeps it as it is)
    not_restorable: tuple[tuple[int, str], ...]  # (memory id, why)
    consumed: int | None  # candidates the run consumed (not put back in the host's pool)
    candidate_ids: tuple[int, ...]  # the candidates its revisions name (their words stay in the archive)

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "restored": [{"memory_id": mid, "revision_id": rid} for mid, rid in self.restored],
            "kept": [{"memory_id": mid, "later_change": later.to_json()} for mid, later in self.kept],
            "not_restorable": [{"memory_id": mid, "reason": why} for mid, why in self.not_restorable],
            "consumed_not_resurrected": self.consumed,
            "candidate_ids": list(self.candidate_ids),
        }


def undo_lines(result: UndoResult) -> list[str]:
    """What an undo did, for a person: restored, kept (with the later change), refused; candidates."""
    run = flat(result.run_id, 80)
    count = len(result.restored)
    if count:
        lines = [f"undid run {run}: {count:,} {'memory' if count == 1 else 'memories'} restored"]
    elif result.kept or result.not_restorable:
        lines = [f"nothing undone: no memory run {run} changed is still as the run left it"]
    else:
        lines = [f"nothing undone: run {run} changed no memory"]
    lines += [f"  memory #{mid}: restored (revision r{rid})" for mid, rid in result.restored]
    for mid, later in result.kept:
        when = format_instant(later.changed_at)
        if later.detail.get(UNDO_KEY) == result.run_id:
            lines.append(f"  memory #{mid}: already undone (r{later.id}, at {when})")
            continue
        lines.append(
            f"  memory #{mid}: not touched, changed again since the run: r{later.id} {later.kind} by "
            f"{later.source} at {when}; restore it from its history if you want"
        )
    lines += [f"  memory #{mid}: not touched: {why}" for mid, why in result.not_restorable]
    lines.append(NOT_RESURRECTED)
    return lines
