"""Resolving a pair that may contradict: the person keeps one memory and sets the other aside, one command
the window's and the CLI's Undo take back. Never made by the finder itself: tidy only lists such pairs.

User memories (`ResolveContradiction`): the other one dismissed, with a reason naming the kept one.
Project memories (`ResolveProjectContradiction`): the other one archived the host's way (its reason kept
in `metadata_json`, `app.store.project.writes.archive`). Either way a `resolved_contradiction` link goes
from the kept memory to the one set aside, made by the command's log entry (`command:<log id>`, as a
merge's links are); its undo reactivates (or restores) the other and drops the link, refused as the
plain dismiss's or archive's undo is if the memory changed since; its redo makes both again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from app.commands.merging import USER_KIND
from app.commands.payload import PayloadError, as_int
from app.commands.project import ArchiveProjectMemory
from app.commands.status import Dismiss
from app.core.errors import InvalidInputError, NotFoundError
from app.core.models import MemoryStatus
from app.core.models.links import Relation
from app.store.links import add_link, drop_links_made_by
from app.store.project.model import INJECTED_STATUSES
from app.store.project.service import PROJECT_KIND

if TYPE_CHECKING:
    from app.store import MemoryStore


def reason_for(kept: int) -> str:
    """The reason recorded on the memory set aside."""
    return f"contradicts #{kept}, which was kept"


def _refuse_same(kept: int, other: int) -> None:
    if kept == other:
        raise InvalidInputError(f"#{kept} cannot be kept over itself; nothing was changed")


def _link(store: MemoryStore, kind: str, kept: int, other: int, made_by: str) -> None:
    with store.write() as ctx:
        add_link(ctx, kind, kept, other, Relation.RESOLVED_CONTRADICTION, made_by)


def _unlink(store: MemoryStore, made_by: str) -> None:
    with store.write() as ctx:
        drop_links_made_by(ctx, made_by)


def _load_pair(payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The kept id out of a payload, and the rest (what the plain dismiss or archive reads)."""
    rest = dict(payload)
    if "kept" not in rest:
        raise PayloadError("the payload names no memory kept")
    return as_int(rest.pop("kept"), "kept"), rest


class ResolveContradiction(Dismiss):
    """Keep the user memory `kept` over `other`: `other` dismissed, the link recorded."""

    kind: ClassVar[str] = "resolve-contradiction"

    def __init__(self, kept: int, other: int) -> None:
        super().__init__(other, reason_for(kept))
        self.kept, self.other = kept, other

    def do(self, store: MemoryStore) -> Any:
        _refuse_same(self.kept, self.other)
        found = {memory.id: memory for memory in store.get_many([self.kept, self.other], deleted=False)}
        for memory_id in (self.kept, self.other):
            if memory_id not in found:
                raise NotFoundError(f"memory #{memory_id} does not exist; nothing was changed")
        for memory_id in (self.kept, self.other):  # a pair the agent is shown: both active
            if found[memory_id].status != MemoryStatus.ACTIVE:
                raise InvalidInputError(
                    f"memory #{memory_id} is not active ({found[memory_id].status}); nothing was changed"
                )
        return super().do(store)

    def logged_as(self, store: MemoryStore, entry_id: int) -> None:
        super().logged_as(store, entry_id)
        _link(store, USER_KIND, self.kept, self.other, self.made_by)

    def undo(self, store: MemoryStore) -> None:
        super().undo(store)
        _unlink(store, self.made_by)

    def redo(self, store: MemoryStore) -> None:
        super().redo(store)
        _link(store, USER_KIND, self.kept, self.other, self.made_by)

    def label(self) -> str:
        return f"keep #{self.kept} over #{self.other}"

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "kept": self.kept}

    @classmethod
    def load(cls, payload: dict[str, Any]) -> ResolveContradiction:
        kept, rest = _load_pair(payload)
        command = super().load(rest)
        ids = command.memory_ids()
        if len(ids) != 1 or ids[0] == kept:
            raise PayloadError("the payload names no memory set aside for another")
        command.kept, command.other = kept, ids[0]
        return command


class ResolveProjectContradiction(ArchiveProjectMemory):
    """Keep the project memory `kept` over `other` (of the same project): `other` archived with a reason,
    the link recorded."""

    kind: ClassVar[str] = "resolve-project-contradiction"
    note: ClassVar[str] = "the reason it was set aside stays in its metadata"

    def __init__(self, kept: int, other: int) -> None:
        super().__init__(other, reason_for(kept))
        self.kept = kept

    def do(self, store: MemoryStore) -> Any:
        _refuse_same(self.kept, self.memory_id)
        found = {i: store.project.memory(i) for i in (self.kept, self.memory_id)}
        for memory_id, memory in found.items():
            if memory is None:
                raise NotFoundError(f"project memory #{memory_id} does not exist; nothing was changed")
        kept, other = found[self.kept], found[self.memory_id]
        assert kept is not None and other is not None
        if kept.project_path != other.project_path:
            raise InvalidInputError(
                f"#{self.kept} and #{self.memory_id} belong to different projects; nothing was changed"
            )
        for memory in (kept, other):  # a pair the agent is shown: both active or permanent
            if memory.status not in INJECTED_STATUSES:
                raise InvalidInputError(
                    f"project memory #{memory.id} is not in use ({memory.status}); nothing was changed"
                )
        return super().do(store)

    def logged_as(self, store: MemoryStore, entry_id: int) -> None:
        super().logged_as(store, entry_id)
        _link(store, PROJECT_KIND, self.kept, self.memory_id, self.made_by)

    def undo(self, store: MemoryStore) -> None:
        super().undo(store)
        _unlink(store, self.made_by)

    def redo(self, store: MemoryStore) -> None:
        super().redo(store)
        _link(store, PROJECT_KIND, self.kept, self.memory_id, self.made_by)

    def label(self) -> str:
        return f"keep project memory #{self.kept} over #{self.memory_id}"

    def payload(self) -> dict[str, Any]:
        return {**super().payload(), "kept": self.kept}

    @classmethod
    def load(cls, payload: dict[str, Any]) -> ResolveProjectContradiction:
        kept, rest = _load_pair(payload)
        command = super().load(rest)
        if command.memory_id == kept:
            raise PayloadError("the payload names no memory set aside for another")
        command.kept = kept
        return command
