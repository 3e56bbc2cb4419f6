"""The hub commands' project-memory options: `hub publish --project P` (that project's memories only; all
projects' by default) and `hub list --kind project [--project P] [--machine M]` (the project memories this
role published, by machine and project, each row checked as it enters: a refused row is listed with why,
its texts escaped). `app.hub` loads only when one of them runs.
"""

from __future__ import annotations

import argparse
from itertools import groupby
from typing import TYPE_CHECKING

from app.cli.render import one_line, print_json
from app.core.text_input import text_problem
from app.present.card import shown_word

if TYPE_CHECKING:
    from app.hub.project_rows import HubProjectMemory

USER_KIND, PROJECT_KIND = "user", "project"


def _project_name(given: str) -> str:
    problem = text_problem(given)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"the project {problem}")
    return given


def add_publish_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--project", metavar="P", type=_project_name,
        help="publish the project memories of this project only (its identity or its name); default: "
        "every project's",
    )  # fmt: skip


def add_list_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kind", choices=(USER_KIND, PROJECT_KIND), default=USER_KIND,
        help="user memories (cards across machines, the default) or project memories",
    )  # fmt: skip
    parser.add_argument(
        "--project", metavar="IDENTITY", type=_project_name, help="with --kind project: this project's only"
    )
    parser.add_argument("--machine", metavar="NAME", help="with --kind project: this machine's only")


def memory_line(row: HubProjectMemory) -> str:
    """One project memory of `hub list --kind project`: sound, or refused with why."""
    memory = row.memory
    if row.refused is not None or memory is None:
        why = one_line(row.refused or "", 300)
        return f"  #{row.memory_id} refused: {why}\n      {one_line(row.content, 100)}"
    line = f"  #{row.memory_id} [{shown_word(memory.category)}] {shown_word(memory.status)}"
    if memory.superseded_by is not None:
        line += f" · superseded by #{memory.superseded_by}"
    line += f" · {one_line(memory.content, 100)}"
    odd = [*memory.notes, *([row.oddities] if row.oddities else [])]
    return line + (f"\n      odd: {one_line('; '.join(odd), 200)}" if odd else "")


def listing_text(rows: list[HubProjectMemory]) -> str:
    from app.hub.words import machine_name

    if not rows:
        return "the hub holds no project memory this role published"
    refused = sum(1 for row in rows if row.refused is not None)
    groups = groupby(rows, key=lambda row: (row.machine, row.project_path, row.path_bytes))
    lines = [f"{len(rows):,} project memories ({refused:,} refused)"]
    for (machine, _, _), members in groups:
        kept = list(members)
        lines.append(f"{machine_name(machine, 40)} · {kept[0].project_shown}")
        lines += [memory_line(row) for row in kept]
    return "\n".join(lines)


def cmd_list_projects(args: argparse.Namespace, url: str) -> int:
    from app.hub.project_rows import hub_project_memories

    rows = hub_project_memories(url, machine=args.machine, project=args.project)
    if args.json:
        print_json({"project_memories": [row.to_json() for row in rows]})
    else:
        print(listing_text(rows))
    return 0
