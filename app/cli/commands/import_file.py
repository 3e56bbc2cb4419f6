"""`import FILE.json`: merge the app's own export into the open store (`--dry-run` says what it would do)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.arguments import read_text_input
from app.cli.registry import Opener, command_adder
from app.cli.render import print_json
from app.commands.presence import Import
from app.commands.runner import execute
from app.transfer.export_format import MAX_EXPORT_BYTES, parse_export


def cmd_import(args: argparse.Namespace, opener: Opener) -> int:
    text = read_text_input(args.file, MAX_EXPORT_BYTES)
    export = parse_export(text, Path(args.file).name, allow_hidden=args.allow_hidden)
    label = Path(args.file).name
    with opener(args, write=not args.dry_run) as store:
        if args.dry_run:
            result = store.import_export(export, label, dry_run=True)
        else:
            result = execute(store, Import(export, label), "cli")
    if args.json:
        print_json(result.to_json())
    else:
        print("\n".join(result.summary_lines()))
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add("import", cmd_import, "merge an export file (memory-dashboard export) into this store")
    parser.add_argument("file", metavar="FILE.json", help="a JSON export (- for standard input)")
    parser.add_argument("--dry-run", action="store_true", help="say what would be imported; write nothing")
    parser.add_argument(
        "--allow-hidden",
        action="store_true",
        help="also import memories whose content holds invisible, bidi or tag characters (else skipped)",
    )
    parser.add_argument("--json", action="store_true")
