"""`undo` and `redo`: the command log the window's Edit menu shares (`app.commands`), from a terminal.

`undo --list` shows every entry (label, when, where it was made, done or undone); `undo --steps N` takes
back the last N changes, newest first, each its own write; `redo` makes undone ones again, oldest first.
A step refused (a memory changed since) stops there: the steps before it stay made, and the refusal is
the command's error.
"""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.registry import Opener, command_adder
from app.cli.render import one_line, print_json
from app.commands import runner
from app.commands.log import LogEntry
from app.core.clock import format_instant
from app.core.errors import InvalidInputError, StoreError


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


def cmd_undo(args: argparse.Namespace, opener: Opener) -> int:
    if args.list:
        with opener(args, write=False) as store:
            found = runner.history(store)
        if args.json:
            print_json([entry.to_json() for entry in found])
        else:
            print("\n".join(_entry_line(entry) for entry in found) or "no changes logged")
        return 0
    return _walk(args, opener, back=True)


def cmd_redo(args: argparse.Namespace, opener: Opener) -> int:
    return _walk(args, opener, back=False)


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add("undo", cmd_undo, "take back the last change made here (window or CLI); --list shows them")
    parser.add_argument("--list", action="store_true", help="every logged change: done or undone")
    parser.add_argument("--steps", type=int, default=1, metavar="N", help="how many changes (default 1)")
    parser.add_argument("--json", action="store_true")
    parser = add("redo", cmd_redo, "make again the changes undone last")
    parser.add_argument("--steps", type=int, default=1, metavar="N", help="how many changes (default 1)")
    parser.add_argument("--json", action="store_true")
