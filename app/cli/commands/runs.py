"""`runs`: every review run (the dashboard's and the host's), one run's changes, and undoing a run; and
`undo` and `redo`, the command log the window's Edit menu shares (`app.commands`), from a terminal.

`undo --list` shows every entry (label, when, where it was made, done or undone); `undo --steps N` takes
back the last N changes, newest first, each its own write; `redo` makes undone ones again, oldest first.
A step refused (a memory changed since) stops there: the steps before it stay made, and the refusal is
the command's error. `runs undo RUN` is itself a change in that log.
"""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.registry import Opener, command_adder
from app.cli.render import one_line, print_json, revision_line, revision_with_evidence
from app.commands import runner
from app.commands.other import UndoRun
from app.commands.runner import execute
from app.core.clock import format_instant
from app.core.errors import InvalidInputError, StoreError
from app.core.models.command_log import LogEntry
from app.core.models.runs import NOT_RESURRECTED, Run, RunDetail, undo_lines


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
    for change in detail.project_changes:
        lines.append(f"  project memory #{change.revision.memory_id} (inferred):")
        lines.append(f"    {revision_line(change.revision)}")
    if not detail.changes and not detail.project_changes:
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


def _entry_line(entry: LogEntry) -> str:
    state = "done  " if entry.done else "undone"
    when = format_instant(entry.made_at)
    return f"{entry.id:>6}  {state}  {when}  {entry.origin:<6}  {one_line(entry.label, 80)}"


def _steps(args: argparse.Namespace) -> int:
    if args.steps < 1:
        raise InvalidInputError("--steps must be at least 1")
    return int(args.steps)


def _walk(args: argparse.Namespace, opener: Opener, back: bool) -> int:
    steps = _steps(args)
    made: list[runner.Step] = []
    refusal: StoreError | None = None
    with opener(args, write=True) as store:
        for _ in range(steps):
            try:
                step = runner.undo(store) if back else runner.redo(store)
            except StoreError as exc:
                refusal = exc
                break
            if step is None:
                break
            made.append(step)
    verb = "undid" if back else "redid"
    if args.json:
        print_json(
            {
                "steps": [{**step.entry.to_json(), "memory_ids": list(step.memory_ids)} for step in made],
                "refused": refusal.message if refusal is not None else None,
            }
        )
    else:
        lines = [
            f"{verb} {one_line(step.entry.label, 80)}" + (f" ({step.note})" if step.note else "")
            for step in made
        ]
        if not made and refusal is None:
            lines.append(f"nothing to {'undo' if back else 'redo'}")
        if lines:
            print("\n".join(lines))
    if refusal is not None:
        raise refusal
    return 0


def cmd_log_undo(args: argparse.Namespace, opener: Opener) -> int:
    if args.list:
        with opener(args, write=False) as store:
            found = runner.history(store)
        if args.json:
            print_json([entry.to_json() for entry in found])
        else:
            print("\n".join(_entry_line(entry) for entry in found) or "no changes logged")
        return 0
    return _walk(args, opener, back=True)


def cmd_log_redo(args: argparse.Namespace, opener: Opener) -> int:
    return _walk(args, opener, back=False)


def register_undo(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    """`undo` and `redo`, top-level commands beside `runs`."""
    add = command_adder(subparsers, parents)
    parser = add("undo", cmd_log_undo, "take back the last change made here (window or CLI), or --list them")
    parser.add_argument("--list", action="store_true", help="every logged change: done or undone")
    parser.add_argument("--steps", type=int, default=1, metavar="N", help="how many changes (default 1)")
    parser.add_argument("--json", action="store_true")
    parser = add("redo", cmd_log_redo, "make again the changes undone last")
    parser.add_argument("--steps", type=int, default=1, metavar="N", help="how many changes (default 1)")
    parser.add_argument("--json", action="store_true")


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
