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
