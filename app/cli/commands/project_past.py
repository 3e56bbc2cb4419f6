"""The past of project memories on the command line: `history ID --kind project`, `blame ID --kind
project` and `profile --kind project --project P [--as-of WHEN]` (what the host injected for a project
then), with the same JSON shapes as for user memories plus the project's fields (a revision's rows
before and after)."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import as_of_instant
from app.cli.project.reads import chosen_project
from app.cli.registry import Opener
from app.cli.render import print_json, revision_json, revision_line
from app.core.clock import format_instant
from app.core.errors import InvalidInputError, NotFoundError
from app.core.models import Revision
from app.core.screening import make_visible
from app.present.project_revision import row_changes
from app.store.kinds import PROJECT_MEMORIES
from app.store.project.revisions import RowPair

CHANGE_INDENT = " " * 7  # under the revision's header, as its texts are


def wants_project(args: argparse.Namespace) -> bool:
    return getattr(args, "kind", "user") == "project"


def history(args: argparse.Namespace, opener: Opener) -> int:
    """A project memory's revisions, each with its row before and after (`previous_row` / `new_row` in
    JSON; in text, what changed besides the text and status, in words)."""
    with opener(args, write=False) as store:
        revisions = store.history(args.id, kind=PROJECT_MEMORIES)
        if not revisions and store.project.memory(args.id) is None:
            raise NotFoundError(f"project memory #{args.id} does not exist")
        rows = store.project_revision_rows(args.id)
    if args.json:
        print_json([_revision_json(revision, rows.get(revision.id, (None, None))) for revision in revisions])
    elif not revisions:
        print(f"project memory #{args.id} has no recorded revisions")
    else:
        for revision in revisions:
            changes = row_changes(*rows.get(revision.id, (None, None)))
            print("\n".join([revision_line(revision), *(f"{CHANGE_INDENT}{change}" for change in changes)]))
    return 0


def _revision_json(revision: Revision, rows: RowPair) -> dict[str, Any]:
    previous, new = rows
    return {**revision_json(revision, {}), "memory_kind": "project", "previous_row": previous, "new_row": new}


def profile(args: argparse.Namespace, opener: Opener) -> int:
    """What the host injected for a project at `--as-of` (now without it), in its order; unknown ones
    said so."""
    with opener(args, write=False) as store:
        if not args.project:
            raise InvalidInputError("name the project: profile --kind project --project P --as-of WHEN")
        key = chosen_project(store, args.project).key
        at = min(as_of_instant(args.as_of), store.now()) if args.as_of is not None else store.now()
        states = store.project_as_of(key, at)
    if args.json:
        print_json([state.to_json() for state in states])
        return 0
    print(f"# as of {format_instant(at)}")
    for state in states:
        if state.memory is None:
            when = (
                format_instant(state.unknown_before) if state.unknown_before is not None else "the first look"
            )
            print(f"? #{state.memory_id} unknown before {when} (first seen)")
        else:
            print(f"- [{make_visible(state.memory.category)}] {make_visible(state.memory.content)}")
    return 0
