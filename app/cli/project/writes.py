"""`edit`, `dismiss` and `reactivate` with `--kind project`: change one project memory the host's way, as a
command of the log (`app.commands.project`), so `undo` and `redo` (and the window's Undo) walk it.

`edit ID --content TEXT` (or `--file`) replaces the text, `edit ID --category NAME` moves it; `dismiss`
archives it (`--reason` kept in its metadata, as the host keeps it); `reactivate` makes it active again.
The writers check the text, category and reason where they enter; a project the host's native module
owns is refused, saying why.
"""

from __future__ import annotations

import argparse

from app.cli.arguments import read_text_input
from app.cli.project.reads import refuse_options
from app.cli.project.render import project_line
from app.cli.registry import Opener
from app.cli.render import one_line
from app.commands.project import (
    ArchiveProjectMemory,
    ChangeProjectCategory,
    EditProjectContent,
    ProjectChange,
    RestoreProjectMemory,
)
from app.commands.runner import execute
from app.core.errors import InvalidInputError
from app.store import MemoryStore

CLI = "cli"


def _one_id(args: argparse.Namespace) -> int:
    """The one project memory named by its id (no filter: each change is one memory's)."""
    refuse_options(args, ("status", "search", "source"), "project")
    ids = list(dict.fromkeys(args.ids))
    if len(ids) != 1:
        raise InvalidInputError("name one project memory by its id; nothing was changed")
    return int(ids[0])


def _run(store: MemoryStore, command: ProjectChange) -> tuple[bool, str]:
    """Do the command; whether it changed anything, and the memory's line as it now is."""
    memory = execute(store, command, CLI)
    return command.changed_anything(), project_line(memory, store.now())


def cmd_edit(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=True) as store:
        if args.category is not None:
            command: ProjectChange = ChangeProjectCategory(args.id, args.category)
        else:
            text = str(args.content) if args.content is not None else read_text_input(args.file)
            command = EditProjectContent(args.id, text)
        changed, line = _run(store, command)
    print(line if changed else f"#{args.id}: no change")
    return 0


def cmd_dismiss(args: argparse.Namespace, opener: Opener) -> int:
    memory_id = _one_id(args)
    with opener(args, write=True) as store:
        changed, line = _run(store, ArchiveProjectMemory(memory_id, args.reason))
    print(line if changed else f"#{memory_id}: already archived")
    if changed and args.reason and args.reason.strip():
        print(f"        reason: {one_line(args.reason, 200)}")
    return 0


def cmd_reactivate(args: argparse.Namespace, opener: Opener) -> int:
    memory_id = _one_id(args)
    refuse_options(args, ("at", "in", "never"), "project")
    with opener(args, write=True) as store:
        changed, line = _run(store, RestoreProjectMemory(memory_id))
    print(line if changed else f"#{memory_id}: already active")
    return 0
