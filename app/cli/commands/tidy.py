"""`tidy`: the groups of likely duplicate memories and the pairs that may contradict, read-only.

Each group lists its members (oldest first) with their text and why each one is there; each pair that
may contradict says what clashes. `--kind project` looks at the host's project memories instead, within
each project and category (`--project`: one project, by identity or display name). Nothing is changed:
merging is the person's call, or the reviewer's when asked (`--ask-reviewer`,
`app.cli.commands.tidy_ask`), with a preview first.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.cli.arguments import seconds
from app.cli.commands import tidy_ask
from app.cli.project.reads import chosen_project, refuse_options
from app.cli.registry import Opener, command_adder
from app.cli.render import one_line, print_json
from app.present.plural import counted
from app.store import InvalidInputError
from app.tidy.finder import find_groups
from app.tidy.model import Contradiction, Group, TidyItem, TidyReport
from app.tidy.scoped import ScopedReport, find_in_scopes
from app.tidy.source import UnknownProject, active_items, project_scopes

TEXT_WIDTH = 90


def _member_json(item: TidyItem, group: Group) -> dict[str, Any]:
    return {
        "id": item.id,
        "content": item.text,
        "sources": list(item.sources),
        "reasons": group.reasons(item.id),
    }


def _memory_json(item: TidyItem) -> dict[str, Any]:
    return {"id": item.id, "content": item.text}


def report_json(
    report: TidyReport, by_id: dict[int, TidyItem], where: dict[str, str] | None = None
) -> dict[str, Any]:
    """The JSON of `tidy --json` (its shape is in README's command table); `where` (a project memory's
    project and category) is added to each group and pair."""
    extra = where or {}
    return {
        "kind": "user",
        "project": None,
        "memories": report.memories,
        "compared_pairs": report.compared,
        "groups": [
            {
                **extra,
                "score": round(group.score, 1),
                "members": [_member_json(by_id[member], group) for member in group.members],
                "edges": [edge.to_json() for edge in group.edges],
            }
            for group in report.groups
        ],
        "may_contradict": [
            {**extra, **pair.to_json(), "a": _memory_json(by_id[pair.a]), "b": _memory_json(by_id[pair.b])}
            for pair in report.contradictions
        ],
    }


def scoped_json(found: list[ScopedReport], project: str | None) -> dict[str, Any]:
    """`tidy --kind project --json`: the user shape, each group and pair with its project and category."""
    whole: dict[str, Any] = {"kind": "project", "project": project, "memories": 0, "compared_pairs": 0}
    whole |= {"groups": [], "may_contradict": []}
    for scoped in found:
        where = {"project": scoped.scope.project, "category": scoped.scope.category}
        part = report_json(scoped.report, {item.id: item for item in scoped.scope.items}, where)
        for key in ("memories", "compared_pairs", "groups", "may_contradict"):
            whole[key] += part[key]
    return whole


def _group_lines(number: int, group: Group, by_id: dict[int, TidyItem]) -> list[str]:
    lines = [f"group {number}: {counted(len(group.members), 'memory')}, score {group.score:.0f}"]
    for member in group.members:
        lines.append(f"  #{member:<6} {one_line(by_id[member].text, TEXT_WIDTH)}")
        lines += [f"           {reason}" for reason in group.reasons(member)]
    return lines


def _pair_lines(pair: Contradiction, by_id: dict[int, TidyItem]) -> list[str]:
    alike = [f"    {one_line(pair.alike(), TEXT_WIDTH)}"] if pair.also else []
    return [
        f"  {one_line(pair.reason, TEXT_WIDTH)}",
        f"    #{pair.a:<6} {one_line(by_id[pair.a].text, TEXT_WIDTH)}",
        f"    #{pair.b:<6} {one_line(by_id[pair.b].text, TEXT_WIDTH)}",
        *alike,
    ]


def report_text(report: TidyReport, by_id: dict[int, TidyItem], kind: str = "active", of: str = "") -> str:
    """The groups and pairs found among `report.memories` memories of `kind` (`of`: whose, if said)."""
    head = (
        f"{counted(len(report.groups), 'group')} of likely duplicates and "
        f"{counted(len(report.contradictions), 'pair')} that may contradict, "
        f"among {counted(report.memories, f'{kind} memory')}{of}"
    )
    lines = [head]
    for number, group in enumerate(report.groups, start=1):
        lines += ["", *_group_lines(number, group, by_id)]
    if report.contradictions:
        lines += ["", "may contradict (listed only; nothing is changed):"]
        for pair in report.contradictions:
            lines += _pair_lines(pair, by_id)
    return "\n".join(lines)


def _project_name(name: str, identity: str) -> str:
    """`beta (dir:/home/ana/src/beta)`; a project the host names by its identity alone, said once."""
    shown = one_line(name, TEXT_WIDTH)
    return shown if name == identity else f"{shown} ({identity})"


def scoped_text(found: list[ScopedReport]) -> str:
    """One block per project and category that has something to show, then how many were looked at."""
    blocks = []
    for scoped in found:
        report, scope = scoped.report, scoped.scope
        if report.groups or report.contradictions:
            of = f" of {_project_name(scope.name, scope.project)}"
            blocks.append(report_text(report, {item.id: item for item in scope.items}, scope.category, of))
    total = sum(scoped.report.memories for scoped in found)
    projects = len({scoped.scope.project for scoped in found})
    looked = f"{counted(total, 'active project memory')} in {counted(projects, 'project')}"
    blocks.append(f"{looked} looked at, by category")
    return "\n\n".join(blocks)


def cmd_tidy(args: argparse.Namespace, opener: Opener) -> int:
    if args.ask_reviewer and (args.kind == "project" or args.project is not None):
        print("error: --ask-reviewer sends the user memories' groups only", file=sys.stderr)
        return 1
    if args.ask_reviewer:
        return tidy_ask.cmd_ask_reviewer(args, opener)
    if args.dry_run:
        raise InvalidInputError("--dry-run goes with --ask-reviewer (tidy alone changes nothing)")
    if args.kind == "project":
        return _tidy_projects(args, opener)
    refuse_options(args, ("project",), "user")
    with opener(args, write=False) as store:
        items = active_items(store)
    report = find_groups(items)
    by_id = {item.id: item for item in items}
    if args.json:
        print_json(report_json(report, by_id))
    else:
        print(report_text(report, by_id))
    return 0


def _tidy_projects(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=False) as store:
        # Named as `list --kind project` names it, with the same message for a name no project has.
        wanted = None if args.project is None else chosen_project(store, args.project).identity
        try:
            scopes = project_scopes(store, wanted)
        except UnknownProject as exc:
            print(f"error: {one_line(str(exc), 200)}", file=sys.stderr)
            return 1
    found = find_in_scopes(scopes)
    project = scopes[0].project if args.project is not None and scopes else args.project
    if args.json:
        print_json(scoped_json(found, project))
    else:
        print(scoped_text(found))
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add(
        "tidy", cmd_tidy, "groups of likely duplicate memories and pairs that may contradict (read-only)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--kind", choices=("user", "project"), default="user", help="user memories, or the project memories"
    )
    parser.add_argument(
        "--project", metavar="P", help="with --kind project: one project, by identity or name"
    )
    tidy_ask.add_options(parser, seconds)
