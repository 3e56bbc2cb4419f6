"""The past of project memories on the command line: `history ID --kind project`, `blame ID --kind
project` and `profile --kind project --project P [--as-of WHEN]` (what the host injected for a project
then), with the same JSON shapes as for user memories plus the project's fields."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import as_of_instant
from app.cli.registry import Opener
from app.cli.render import one_line, print_json, revision_json, revision_line
from app.core.clock import format_instant
from app.core.errors import InvalidInputError, NotFoundError
from app.core.screening import make_visible
from app.store.kinds import PROJECT_MEMORIES
from app.store.project.reads import ProjectKey

KINDS = ("user", "project")


def add_kind_option(parser: argparse.ArgumentParser) -> None:
    """`--kind {user,project}`: which of the host's memories (user memories unless said)."""
    parser.add_argument(
        "--kind", choices=KINDS, default="user", help="user memories (default) or project ones"
    )


def add_project_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--project", metavar="P", help="a project: its identity (git:…) or its name")


def wants_project(args: argparse.Namespace) -> bool:
    return getattr(args, "kind", "user") == "project"


def history(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=False) as store:
        revisions = store.history(args.id, kind=PROJECT_MEMORIES)
        if not revisions and store.project.memory(args.id) is None:
            raise NotFoundError(f"project memory #{args.id} does not exist")
    if args.json:
        print_json([{**revision_json(revision, {}), "memory_kind": "project"} for revision in revisions])
    elif not revisions:
        print(f"project memory #{args.id} has no recorded revisions")
    else:
        for revision in revisions:
            print(revision_line(revision))
    return 0


def _project(store: Any, name: str | None) -> ProjectKey:
    """The one project `--project` names; a missing, unknown or ambiguous name is a bad input."""
    if not name:
        raise InvalidInputError("--kind project needs --project P (an identity such as git:… or a name)")
    found = store.project.find_project(name)
    if not found:
        raise InvalidInputError(f"no project named {one_line(name, 80)}")
    if len(found) > 1:
        identities = ", ".join(one_line(item.identity, 60) for item in found)
        raise InvalidInputError(
            f"{one_line(name, 80)} names several projects: {identities}; give the identity"
        )
    key: ProjectKey = found[0].key
    return key


def profile(args: argparse.Namespace, opener: Opener) -> int:
    """What the host injected for a project at `--as-of` (now without it), in its order; unknown ones
    said so."""
    with opener(args, write=False) as store:
        key = _project(store, args.project)
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
