"""`resolve KEEP --over OTHER [--kind user|project] [--json]`: of a pair that may contradict (as `tidy`
lists them), keep one memory and set the other aside (`app.tidy.resolve`), one command that `undo` takes
back. Only ever the person's call: `tidy` never resolves a pair by itself."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import int64
from app.cli.registry import Opener, command_adder
from app.cli.render import print_json
from app.commands.resolving import reason_for
from app.tidy.resolve import keep_over


def cmd_resolve(args: argparse.Namespace, opener: Opener) -> int:
    project = args.kind == "project"
    with opener(args, write=True) as store:
        keep_over(store, args.keep, args.over, "cli", kind=args.kind)
    what = "archived" if project else "dismissed"
    if args.json:
        print_json({"kept": args.keep, "set_aside": args.over, "kind": args.kind, "became": what})
    else:
        print(
            f"kept #{args.keep}; #{args.over} {what} ({reason_for(args.keep)}), linked to it "
            "(undo takes it back)"
        )
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add("resolve", cmd_resolve, "keep one memory of a pair that may contradict (undo takes it back)")
    parser.add_argument("keep", type=int64, metavar="KEEP", help="the memory to keep")
    parser.add_argument(
        "--over", type=int64, metavar="OTHER", required=True, help="the memory it contradicts: set aside"
    )
    parser.add_argument("--kind", choices=("user", "project"), default="user")
    parser.add_argument("--json", action="store_true")
