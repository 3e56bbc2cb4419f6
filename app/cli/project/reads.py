"""`list`, `show` and `profile` with `--kind project`: the host's project memories, every project's or one
project's (`--project`, by identity or display name), one memory with its links both ways, and what the
host injects for a project now, in its order.

The user memories' commands hand over here when `--kind project` is given; an option that only means
something for user memories is refused with a message rather than ignored.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from app.cli.project.render import links_json, project_details, project_line, project_memory_json
from app.cli.registry import Opener
from app.cli.render import one_line, print_json
from app.core.errors import InvalidInputError, NotFoundError
from app.core.screening import make_visible
from app.store import MemoryStore
from app.store.project.projects import Project
from app.store.project.service import PROJECT_KIND, ProjectFilter

KIND = PROJECT_KIND  # `--kind project`
SHOWN_PROJECTS = 10  # projects named in a refusal


_DESTS = {"in": "in_"}  # options whose parsed name is not their own


def refuse_options(args: argparse.Namespace, names: Sequence[str], kind: str) -> None:
    """Options given (each `--name`) that mean nothing for `kind` memories, refused by name."""
    given = [
        name
        for name in names
        if getattr(args, _DESTS.get(name, name.replace("-", "_")), None) not in (None, False)
    ]
    if given:
        listed = ", ".join(f"--{name}" for name in given)
        hint = " (add --kind project)" if kind == "user" else ""
        raise InvalidInputError(
            f"{listed} {'is' if len(given) == 1 else 'are'} not for {kind} memories{hint}"
        )


def chosen_project(store: MemoryStore, name: str) -> Project:
    """The one project `name` names (its identity, else its display name), or a message: none or several."""
    found = store.project.find_project(name)
    if len(found) == 1:
        return found[0]
    if found:
        listed = ", ".join(one_line(item.identity, 80) for item in found[:SHOWN_PROJECTS])
        raise InvalidInputError(
            f"{len(found)} projects are named {one_line(name, 80)!r}: {listed}; give its identity"
        )
    known = [item.display_name for item in store.project.projects()]
    hint = (
        f"; the projects are: {', '.join(one_line(item, 60) for item in known[:SHOWN_PROJECTS])}"
        + (f" and {len(known) - SHOWN_PROJECTS:,} more" if len(known) > SHOWN_PROJECTS else "")
        if known
        else "; this database has no project memories"
    )
    raise InvalidInputError(f"no project is named {one_line(name, 80)!r}{hint}")


def _names(store: MemoryStore) -> dict[str, str]:
    """Each project's display name by its identity."""
    return {item.identity: item.display_name for item in store.project.projects()}


def cmd_list(args: argparse.Namespace, opener: Opener) -> int:
    refuse_options(args, ("source", "since", "until", "trust", "as-of"), "project")
    with opener(args, write=False) as store:
        project = chosen_project(store, args.project) if args.project is not None else None
        wanted = ProjectFilter(
            project=project.key if project else None,
            category=args.category,
            status=args.status,
            search=args.search,
        )
        memories = store.project.memories(wanted)
        names = _names(store)
        now = store.now()
    if args.json:
        print_json([project_memory_json(item, now, names.get(item.project_path)) for item in memories])
        return 0
    for item in memories:
        shown = None if project is not None else names.get(item.project_path, item.project_path)
        print(project_line(item, now, shown))
    if not memories:
        print("no project memories match")
    return 0


def cmd_show(args: argparse.Namespace, opener: Opener) -> int:
    refuse_options(args, ("as-of",), "project")
    with opener(args, write=False) as store:
        linked = store.project.with_links(args.id)
        if linked is None:
            raise NotFoundError(f"project memory #{args.id} does not exist")
        path = linked.memory.project_path
        project = next((item for item in store.project.projects() if item.identity == path), None)
        now = store.now()
    name = project.display_name if project else path
    read_only = project.read_only_reason if project else None
    if args.json:
        data = project_memory_json(linked.memory, now, name)
        data["links"] = links_json(linked)
        data["read_only_reason"] = read_only
        print_json(data)
    else:
        print(project_details(linked, now, name, read_only))
    return 0


def cmd_profile(args: argparse.Namespace, opener: Opener) -> int:
    refuse_options(args, ("as-of",), "project")
    if args.project is None:
        raise InvalidInputError("name the project: profile --kind project --project P")
    with opener(args, write=False) as store:
        project = chosen_project(store, args.project)
        memories = store.project.injected(project.key)
        now = store.now()
    if args.json:
        print_json([project_memory_json(item, now, project.display_name) for item in memories])
        return 0
    for item in memories:
        print(f"- [{one_line(item.category, 40)}] {make_visible(item.content)}")
    if not memories:
        print(f"nothing is injected for {one_line(project.display_name, 80)}")
    return 0
