"""Commands that are not one memory's text or status: a review run's undo, a trust mark, a discard.

`runs undo` is a command like the others: its undo puts back what the run had left (each memory as it
was before the run undo, written as a restore), and its redo undoes the run again. A trust mark's undo
puts the old mark back, refused if the mark changed since. Discarding candidates deletes them from the
host's pool: nothing can bring them back, so it is never logged (and leaves the log as it is).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from app.commands.base import Command, MemoryChange
from app.commands.payload import PayloadError, as_opt_str, as_str, exact_keys
from app.commands.state import changes_between, states
from app.core.errors import InvalidInputError
from app.core.trust import DEFAULT_MARK
from app.store.evidence.undo import UndoResult

if TYPE_CHECKING:
    from app.store import MemoryStore


class UndoRun(MemoryChange[UndoResult]):
    kind: ClassVar[str] = "run-undo"
    verb = "put back by the run undo"
    written_by: ClassVar[str] = "restore"

    def __init__(self, run_id: str) -> None:
        super().__init__()
        self.run_id = run_id

    def do(self, store: MemoryStore) -> UndoResult:
        ids = store.run(self.run_id).memory_ids
        before = states(store, ids, text=True)
        result = store.undo_run(self.run_id)
        self.changes = changes_between(ids, before, states(store, ids, text=True))
        return result

    def label(self) -> str:
        return f"undo of a review run ({self.what()})"


class Trust(Command[dict[str, str]]):
    kind: ClassVar[str] = "trust"

    def __init__(self, source: str, trust: str) -> None:
        self.source, self.trust = source, trust
        self.before: str | None = None  # the mark before; None: no mark (default trust)
        self.after: str | None = None

    def do(self, store: MemoryStore) -> dict[str, str]:
        self.before = store.trust_marks().get(self.source)
        marks = store.set_trust(self.source, self.trust)
        self.after = marks.get(self.source)
        return marks

    def _step(self, store: MemoryStore, start: str | None, end: str | None, step: str) -> None:
        now = store.trust_marks().get(self.source)
        if now != start:
            raise InvalidInputError(
                f"the trust mark of {self.source} changed since, so {step} left it as it is "
                f"({now or 'no mark'})"
            )
        store.set_trust(self.source, end or DEFAULT_MARK)

    def undo(self, store: MemoryStore) -> None:
        self._step(store, self.after, self.before, "Undo")

    def redo(self, store: MemoryStore) -> None:
        self._step(store, self.before, self.after, "Redo")

    def label(self) -> str:
        return f"trust mark of {self.source}"

    def payload(self) -> dict[str, Any]:
        return {"source": self.source, "before": self.before, "after": self.after}

    @classmethod
    def load(cls, payload: dict[str, Any]) -> Trust:
        exact_keys(payload, {"source", "before", "after"}, "the payload")
        command = cls(as_str(payload["source"], "source"), DEFAULT_MARK)
        command.before = as_opt_str(payload["before"], "before")
        command.after = as_opt_str(payload["after"], "after")
        if command.before == command.after:
            raise PayloadError("the trust mark's payload changes nothing")
        return command

    def changed_anything(self) -> bool:
        return self.before != self.after


class Discard(Command[int]):
    """Candidates deleted from the pool unused: the host's pool is never refilled, so no undo."""

    kind: ClassVar[str] = "discard"
    logged: ClassVar[bool] = False

    def __init__(self, candidate_ids: Sequence[int]) -> None:
        self.candidate_ids = list(candidate_ids)

    def do(self, store: MemoryStore) -> int:
        return store.discard_candidates(self.candidate_ids)

    def undo(self, store: MemoryStore) -> None:
        raise InvalidInputError("discarded candidates are not put back in the host's pool")

    redo = undo

    def label(self) -> str:
        return f"discard of {len(self.candidate_ids):,} candidate(s)"

    def payload(self) -> dict[str, Any]:
        return {}

    @classmethod
    def load(cls, payload: dict[str, Any]) -> Discard:
        raise PayloadError("a discard is never logged")
