"""Every kind of command the log can hold, by the name its entries carry: how an entry is loaded back."""

from __future__ import annotations

from typing import Any

from app.commands.base import Command
from app.commands.merging import MergeMemories, MergeProjectMemories
from app.commands.other import Trust, UndoRun
from app.commands.payload import PayloadError
from app.commands.presence import Add, CopyFromMachine, Delete, Import, Promote, RestoreDeleted
from app.commands.project import PROJECT_COMMANDS
from app.commands.resolving import ResolveContradiction, ResolveProjectContradiction
from app.commands.status import Dismiss, Reactivate, SetExpiry
from app.commands.text import Edit, Merge, RestoreRevision

_USER_COMMANDS: tuple[type[Command[Any]], ...] = (
    Edit,
    RestoreRevision,
    Merge,
    MergeMemories,
    ResolveContradiction,
    Dismiss,
    Reactivate,
    SetExpiry,
    Add,
    Promote,
    CopyFromMachine,
    Import,
    Delete,
    RestoreDeleted,
    UndoRun,
    Trust,
)
_PROJECT_MERGE: tuple[type[Command[Any]], ...] = (MergeProjectMemories, ResolveProjectContradiction)
KINDS: dict[str, type[Command[Any]]] = {
    command.kind: command for command in (*_USER_COMMANDS, *PROJECT_COMMANDS, *_PROJECT_MERGE)
}


def load(kind: str, payload: dict[str, Any], entry: str) -> Command[Any]:
    """The command log entry `entry` ("#12") describes; `PayloadError` for a kind or payload not ours."""
    found = KINDS.get(kind)
    if found is None:
        raise PayloadError(
            f"command log entry {entry} is of an unknown kind {kind[:40]!r}; nothing was changed"
        )
    try:
        return found.load(payload)
    except PayloadError as exc:
        raise PayloadError(
            f"command log entry {entry} ({kind}) is malformed: {exc}; nothing was changed"
        ) from exc
