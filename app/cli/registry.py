"""Registering subcommands: each is a handler taking the parsed arguments and the store opener."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

Opener = Callable[..., Any]
Handler = Callable[[argparse.Namespace, Opener], int]


def command_adder(
    subparsers: Any, parents: list[argparse.ArgumentParser]
) -> Callable[[str, Handler, str], Any]:
    """`add(name, handler, help)`: a subcommand with the global options, its help as its description."""

    def add(name: str, handler: Handler, help_text: str) -> Any:
        parser = subparsers.add_parser(name, parents=parents, help=help_text, description=help_text)
        parser.set_defaults(handler=handler)
        return parser

    return add


def add_force_option(parser: argparse.ArgumentParser) -> None:
    """`--force` for a command writing a file the person names (`app.cli.safe_output`): replace an existing
    file that is not a database. A database is refused whatever the option."""
    parser.add_argument(
        "--force", action="store_true", help="replace an existing file (never a database, never the open one)"
    )
