"""`merge ID ID... [--into ID] [--content TEXT] [--kind user|project] [--dry-run] [--json]`: merge likely
duplicates into one memory (`app.tidy.merge`), one command that `undo` takes back.

`--dry-run` prints the preview and changes nothing: the merged draft (each distinct sentence once), the
evidence of every member in promotion order, and what each member becomes.
"""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import int64
from app.cli.registry import Opener, command_adder
from app.cli.render import one_line, print_json
from app.core.errors import InvalidInputError
from app.core.text_input import content_problem
from app.tidy import merge
from app.tidy.merge_plan import MergePlan

TEXT_WIDTH = 90


def preview_text(plan: MergePlan, content: str, *, project: bool, done: bool) -> str:
    count = len(plan.members)
    head = (
        f"merged {count} memories into #{plan.kept} (undo takes it back)"
        if done
        else f"would merge {count} memories into #{plan.kept} (dry run: nothing was changed)"
    )
    lines = [head, "merged text:", *(f"  {line}" for line in content.splitlines() or [""])]
    if plan.candidate_ids:
        lines.append("evidence, in promotion order: " + ", ".join(f"#{i}" for i in plan.candidate_ids))
    if plan.sources:
        lines.append("sources: " + ", ".join(one_line(source, 60) for source in plan.sources))
    lines.append("members:")
    for member in plan.members:
        lines.append(f"  #{member.id:<6} {plan.becomes(member.id, project=project)}")
        lines.append(f"          {one_line(member.text, TEXT_WIDTH)}")
    return "\n".join(lines)


def cmd_merge(args: argparse.Namespace, opener: Opener) -> int:
    if args.content is not None:
        problem = content_problem(args.content)
        if problem is not None:
            raise InvalidInputError(f"content {problem}; nothing was changed")
    project = args.kind == "project"
    with opener(args, write=not args.dry_run) as store:
        plan = merge.plan(store, args.ids, args.into, kind=args.kind)
        content = plan.draft if args.content is None else args.content
        if not args.dry_run:
            merge.apply(store, plan, content, "cli", kind=args.kind)
    if args.json:
        print_json({**plan.to_json(content, project=project), "dry_run": args.dry_run})
    else:
        print(preview_text(plan, content, project=project, done=not args.dry_run))
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add("merge", cmd_merge, "merge likely duplicate memories into one (undo takes it back)")
    parser.add_argument("ids", type=int64, nargs="+", metavar="ID", help="two or more memories")
    parser.add_argument("--into", type=int64, metavar="ID", help="the memory to keep (default: the oldest)")
    parser.add_argument("--content", metavar="TEXT", help="the merged text (default: the draft)")
    parser.add_argument("--kind", choices=("user", "project"), default="user")
    parser.add_argument("--dry-run", action="store_true", help="print the preview; change nothing")
    parser.add_argument("--json", action="store_true")
