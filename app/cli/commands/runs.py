"""`runs`: every review run (the dashboard's and the host's), one run's changes, and undoing a run."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.registry import Opener, command_adder
from app.cli.render import one_line, print_json, revision_with_evidence
from app.commands.other import UndoRun
from app.commands.runner import execute
from app.core.clock import format_instant
from app.store.evidence.runs import Run, RunDetail
from app.store.evidence.undo import NOT_RESURRECTED, undo_lines


def run_line(run: Run) -> str:
    """`review-1f…  2026-10-21 03:13:32 UTC  dashboard review  promoted 1, rewrote 2, …  (holder)`."""
    finished = (
        f" – {format_instant(run.finished_at)}" if run.finished_at not in (None, run.started_at) else ""
    )
    holder = f"  ({one_line(run.holder, 60)})" if run.holder else ""
    return (
        f"{one_line(run.run_id, 44):<44} {format_instant(run.started_at)}{finished}  {run.label:<16} "
        f"{run.counts_line()}{holder}"
    )


def cmd_runs(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=False) as store:
        found = store.runs()
    if args.json:
        print_json([run.to_json() for run in found])
        return 0
    for run in found:
        print(run_line(run))
        for note in run.notes:
            print(f"    malformed: {note}")
    if not found:
        print("no review runs recorded")
    return 0


def _detail_lines(detail: RunDetail, found: dict[int, Any]) -> list[str]:
    lines = [run_line(detail.run)]
    if detail.run.origin == "host" and detail.run.readable:
        lines.append("changes inferred: outside rewrites the dashboard observed inside the run's window")
    for change in detail.changes:
        mark = " (inferred)" if change.inferred else ""
        lines.append(f"  memory #{change.revision.memory_id}{mark}:")
        lines += [f"    {line}" for line in revision_with_evidence(change.revision, found)]
    if not detail.changes:
        lines.append("  no changes recorded")
    return lines


def cmd_show(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=False) as store:
        detail = store.run(args.run)
        found = store.evidence([i for change in detail.changes for i in change.revision.candidate_ids])
    if args.json:
        data = detail.to_json()
        for change, item in zip(detail.changes, data["changes"], strict=True):
            item["evidence"] = {
                str(i): found[i].to_json() if i in found else None for i in change.revision.candidate_ids
            }
        print_json(data)
    else:
        print("\n".join(_detail_lines(detail, found)))
    return 0


def cmd_undo(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=True) as store:
        result = execute(store, UndoRun(args.run), "cli")
    if args.json:
        print_json({**result.to_json(), "note": NOT_RESURRECTED})
    else:
        print("\n".join(undo_lines(result)))
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    runs = subparsers.add_parser(
        "runs", parents=parents, help="review runs: list them, show one's changes, undo one"
    )
    runs.set_defaults(handler=cmd_runs)
    runs.add_argument("--json", action="store_true")
    commands = runs.add_subparsers(dest="runs_command", metavar="SUBCOMMAND")
    add = command_adder(commands, parents)
    parser = add("show", cmd_show, "one run: what it changed, each change with its evidence")
    parser.add_argument("run", metavar="RUN", help="a run id, as `runs` lists it")
    parser.add_argument("--json", action="store_true")
    parser = add("undo", cmd_undo, "put every memory a run changed back as it was before the run")
    parser.add_argument("run", metavar="RUN", help="a run id, as `runs` lists it")
    parser.add_argument("--json", action="store_true")
