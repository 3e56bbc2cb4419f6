"""`add`: a memory a person writes, as the host writes a promotion (`MemoryStore.add`)."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import read_text_input
from app.cli.registry import Opener, command_adder
from app.cli.render import memory_json, memory_line, print_json


def cmd_add(args: argparse.Namespace, opener: Opener) -> int:
    content = str(args.content) if args.content is not None else read_text_input(args.file)
    with opener(args, write=True) as store:
        memory = store.add(content)
        now = store.now()
    if args.json:
        print_json(memory_json(memory, now))
    else:
        print(memory_line(memory, now))
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add("add", cmd_add, "write a new memory yourself (active at once, trusted)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--content", metavar="TEXT")
    source.add_argument("--file", metavar="FILE", help="read the content from FILE (- for standard input)")
    parser.add_argument("--json", action="store_true")
