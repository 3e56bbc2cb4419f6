"""`memory-dashboard`: the command-line interface.

Global options (`--db`, `--read-only`) may stand before or after the subcommand. With no subcommand the
window opens through the `GuiHooks` the caller hands to `main`: the installed command's entry point
(`ui.main`) hands the window's, so `app/` never imports the window or Qt; `python -m app` hands none and
is the command line alone.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from app.cli.arguments import argument_problem
from app.core.errors import EXIT_ERROR, StoreError, refusal_of
from app.core.paths import is_url

DEBUG_ENV = "MEMORY_DASHBOARD_DEBUG"


class GuiHooks(Protocol):
    def register(self, subparsers: Any, parents: list[argparse.ArgumentParser]) -> None: ...

    def open_window(self, args: argparse.Namespace, open_store: Callable[[], Any]) -> int: ...

    def open_hub(self, args: argparse.Namespace, url: str) -> int: ...


def _global_options(suppress: bool) -> argparse.ArgumentParser:
    default: Any = argparse.SUPPRESS if suppress else None
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        default=default,
        help="database file or SQLAlchemy URL (default: $MEMORY_DASHBOARD_DB, the host's context.db, "
        "else the embedded store)",
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="open without writing anything, not even a migration",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="open the demo store (created on first use)",
    )
    return parser


class _Version(argparse.Action):
    """`--version`: the installed package's version, read only when asked for (`importlib.metadata` is
    not imported by a launch of the window)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_args: object) -> None:
        from app import __version__

        print(f"memory-dashboard {__version__}")
        parser.exit()


def build_parser(gui: GuiHooks | None, *, commands: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; `commands=False`: its global options alone, without loading a command
    (`parse` reads a plain launch of the window with it)."""
    parser = argparse.ArgumentParser(
        prog="memory-dashboard",
        description="See, review and restore the long-term memories your AI coding agent keeps about you.",
        parents=[_global_options(suppress=False)],
        add_help=commands,  # without the commands, `-h` is a word left over: the whole parser reads it
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    parser.add_argument(
        "--smoke", action="store_true", help="open the window, wait for the first paint, exit 0"
    )
    parser.add_argument(
        "--offscreen", action="store_true", help="open the window invisibly (no display needed)"
    )
    if commands:
        _add_commands(parser, gui)
    return parser


def _add_commands(parser: argparse.ArgumentParser, gui: GuiHooks | None) -> None:
    # The commands load here, not with this module: a plain launch of the window loads none of them.
    from app.cli.commands import digest as digest_commands
    from app.cli.commands import history_views
    from app.cli.commands import hub as hub_commands
    from app.cli.commands import import_file as import_commands
    from app.cli.commands import memory as memory_commands
    from app.cli.commands import merge as merge_commands
    from app.cli.commands import resolve as resolve_commands
    from app.cli.commands import review as review_commands
    from app.cli.commands import runs as run_commands
    from app.cli.commands import schedule as schedule_commands
    from app.cli.commands import sources as source_commands
    from app.cli.commands import tidy as tidy_commands
    from app.cli.commands import write as write_commands

    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    parents = [_global_options(suppress=True)]
    memory_commands.register(subparsers, parents)
    write_commands.register(subparsers, parents)
    history_views.register(subparsers, parents)
    source_commands.register(subparsers, parents)
    digest_commands.register(subparsers, parents)
    tidy_commands.register(subparsers, parents)
    merge_commands.register(subparsers, parents)
    resolve_commands.register(subparsers, parents)
    import_commands.register(subparsers, parents)
    schedule_commands.register(subparsers, parents)
    run_commands.register(subparsers, parents)
    hub_commands.register(subparsers, parents)
    run_commands.register_undo(subparsers, parents)  # undo, redo
    review_commands.register(subparsers, parents)
    if gui is not None:
        gui.register(subparsers, parents)


def parse(
    arguments: Sequence[str], gui: GuiHooks | None
) -> tuple[argparse.Namespace, argparse.ArgumentParser]:
    """The arguments and the parser that read them. Global options alone (a plain launch of the window)
    are read by the parser without its commands, which then never load; anything else by the whole
    parser."""
    if gui is not None:
        options = build_parser(gui, commands=False)
        args, rest = options.parse_known_args(arguments)
        if not rest:
            args.command = None
            return args, options
    parser = build_parser(gui)
    return parser.parse_args(arguments), parser


def _run(args: argparse.Namespace, gui: GuiHooks | None, parser: argparse.ArgumentParser) -> int:
    handler = getattr(args, "handler", None)
    if handler is not None:
        from app.cli.opener import open_store

        result: int = handler(args, open_store)
        return result
    if gui is None:
        parser.print_help()
        print(
            "\nerror: this entry point has no window (`python -m app` is the command line alone); "
            "run `memory-dashboard` or `python -m ui`.",
            file=sys.stderr,
        )
        return 2
    if is_url(getattr(args, "db", None) or "") or getattr(args, "open_hub", False):
        from app.cli.commands import hub as hub_commands

        hub = hub_commands.hub_to_open(args)  # `--db` of a hub, or `hub open`: the hub window
        if hub is not None:
            return gui.open_hub(args, hub)

    return gui.open_window(args, window_opener(args))


def window_opener(args: argparse.Namespace) -> Callable[..., Any]:
    """How the window opens the store `args` name. An unwritable file opens read-only; the window says
    so. The window observes outside rewrites with its complete listing, after its first frame
    (`ui.runtime.controller`), not before it is built; it opens the store when it needs it (the store's
    modules are not imported before its first frame)."""

    def opener(first_look: bool = False) -> Any:
        from app.cli.opener import open_store

        return open_store(args, observe=False, first_look=first_look)

    return opener


def main(argv: Sequence[str] | None = None, gui: GuiHooks | None = None) -> int:
    """Run one command line; `gui` opens the window (and adds the window's commands), None for none."""
    for name in ("stdout", "stderr"):  # a windowed executable has none; keep the CLI from crashing there
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w"))  # noqa: SIM115
    arguments = sys.argv[1:] if argv is None else list(argv)
    problem = argument_problem(arguments)
    if problem is not None:  # before argparse, whose own messages would fail to print such text
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_ERROR
    args, parser = parse(arguments, gui)
    try:
        return _run(args, gui, parser)
    except StoreError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        refused = refusal_of(exc)  # a database error, said as "the database failed: …"
        if refused is None or os.environ.get(DEBUG_ENV):
            raise
        print(f"error: {refused.message}", file=sys.stderr)
        return refused.exit_code
