"""The window's side of the command line: its commands (`screenshot`) and how the window opens.

No Qt import at module level: `register` only adds argparse options; Qt is imported when a
command actually runs. `HOOKS` is what the entry point (`ui.main`) hands to `app.cli.main`.
"""

from __future__ import annotations

import argparse
import gc
import os
from collections.abc import Callable
from functools import partial
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from app.cli.arguments import int64
from app.cli.registry import add_force_option

if TYPE_CHECKING:
    from concurrent.futures import Future

    from app.core.errors import StoreError
    from ui.runtime.first_screen import FirstScreen, StoreOpener

THEMES = ("light", "dark")


def parse_size(text: str) -> tuple[int, int]:
    """`1400x900` → (1400, 900)."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit() or int(width) < 200 or int(height) < 150:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT like 1400x900, got {text!r}")
    return int(width), int(height)


def cmd_screenshot(args: argparse.Namespace, opener: Callable[..., Any]) -> int:
    from app.cli.commands.hub import hub_to_open

    hub = hub_to_open(args)
    if hub is not None:
        return _hub_screenshot(args, hub)
    from app.cli.arguments import as_of_instant
    from app.cli.opener import database_files
    from app.cli.safe_output import replacing
    from ui.runtime.qt_messages import quiet_qt
    from ui.window.app import screenshot

    as_of = as_of_instant(args.as_of) if args.as_of else None
    # The PNG goes to a temporary file beside OUT.png, renamed over it once whole (`app.cli.safe_output`).
    with (
        opener(args, write=False) as store,
        replacing(args.out, databases=database_files(store), force=args.force) as temporary,
        quiet_qt(),  # the offscreen plugin's notes ("does not support propagateSizeHints()") are noise here
    ):
        screenshot(
            store,
            temporary,
            select=args.select,
            size=args.size,
            theme=args.theme,
            as_of=as_of,
            project=args.project,
        )
    print(args.out)
    return 0


def _hub_screenshot(args: argparse.Namespace, url: str) -> int:
    """`--db URL` of a hub: the hub window, the card holding memory `--select` (on any machine)."""
    from app.cli.safe_output import replacing
    from ui.hub.app import hub_screenshot
    from ui.runtime.qt_messages import quiet_qt

    with replacing(args.out, databases=[], force=args.force) as temporary, quiet_qt():
        hub_screenshot(url, temporary, select=args.select, size=args.size, theme=args.theme)
    print(args.out)
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    help_text = (
        "render the main window offscreen to a PNG (with a memory's history panel); with --db URL of a "
        "hub, the hub window (--select ID: the card holding that memory id on any machine)"
    )
    parser = subparsers.add_parser("screenshot", parents=parents, help=help_text, description=help_text)
    parser.add_argument("out", metavar="OUT.png", help="where to write the PNG")
    parser.add_argument(
        "--select", type=int64, metavar="ID", help="the memory to select (default: the first)"
    )
    parser.add_argument(
        "--size", type=parse_size, default=(1400, 900), metavar="WxH", help="default 1400x900"
    )
    parser.add_argument("--theme", choices=THEMES, default="light")
    parser.add_argument(
        "--as-of",
        metavar="EPOCH_MS|ISO",
        help="the window looking back at this instant (As of…; a future one means now)",
    )
    parser.add_argument(
        "--project",
        metavar="P",
        help="show this project's memories (its identity or name; --select ID: one of them)",
    )
    add_force_option(parser)
    parser.set_defaults(handler=cmd_screenshot)


def open_window(args: argparse.Namespace, open_store: StoreOpener) -> int:
    """The window over the store `open_store` opens: its first frame's reads start now, in a process of
    their own, while Qt and the window load (`ui.runtime.first_screen.read_aside`); the window is shown
    once its first frame is complete, and opens its own store after that.

    Python's cycle collector waits meanwhile: the imports of both processes allocate much and free
    little, and a full collection amid them costs a tenth of the way to the first frame's paint. The
    window turns it back on once that frame is painted (`FirstFrame`)."""
    from ui.runtime.display import DisplayError, require_display
    from ui.runtime.first_page import read_first_screen  # no Qt, no store: the read starts before either
    from ui.runtime.first_screen import read_aside

    smoke = bool(getattr(args, "smoke", False))
    collecting = gc.isenabled()
    gc.disable()
    try:
        first_screen = read_aside(open_store, read_first_screen)
        try:
            require_display(offscreen=bool(getattr(args, "offscreen", False)), smoke=smoke)  # before Qt
        except DisplayError:
            _open_once(open_store, first_screen)  # a database it cannot use is said first, as always
            raise
        from ui.window.app import run_window

        again = None if smoke or _offscreen(args) else partial(_ask_again, args)
        return run_window(open_store, smoke=smoke, first_screen=first_screen, again=again)
    finally:
        if collecting:
            gc.enable()


def _offscreen(args: argparse.Namespace) -> bool:
    """Whether the window is drawn where nobody sees it (a question there would wait forever)."""
    return bool(getattr(args, "offscreen", False)) or os.environ.get("QT_QPA_PLATFORM") == "offscreen"


def _ask_again(args: argparse.Namespace, refusal: StoreError, current: StoreOpener) -> StoreOpener | None:
    """After the launch's store was refused: the person, told why, tries it again, opens another (the
    launch's other options kept: `--read-only`), or quits (None: the refusal is raised, and the command
    line says it as always)."""
    from app.cli import window_opener
    from ui.dialogs.launch_refusal import ask_after_refusal

    step = ask_after_refusal(refusal)
    if step is None or step.path is None:
        return None if step is None else current
    chosen = argparse.Namespace(**{**vars(args), "db": step.path, "demo": False})
    opener: StoreOpener = window_opener(chosen)
    return opener


def _open_once(open_store: StoreOpener, first_screen: Future[FirstScreen] | None) -> None:
    """Open and close the store, once the read aside has ended (no two processes open, or migrate, a
    file at once): its error, or its warnings, as the command line gives them before a launch goes on."""
    from ui.runtime.first_screen import raise_refusal

    raise_refusal(first_screen)  # once the child has ended
    with open_store():
        pass


def open_hub(args: argparse.Namespace, url: str) -> int:
    """The hub window (`--db URL` of a hub, `hub open`); Copy to this machine writes to the local database."""
    from app.cli.commands.hub import local_database
    from app.hub.browse import FirstScreen  # no Qt: the hub's first screen is read while Qt loads
    from ui.runtime.display import require_display

    local = local_database(args, url)
    smoke, offscreen = bool(getattr(args, "smoke", False)), bool(getattr(args, "offscreen", False))
    require_display(offscreen=offscreen, smoke=smoke)
    first = FirstScreen.start(url)
    from ui.hub.app import run_hub_window

    return run_hub_window(url, local, smoke=smoke, offscreen=offscreen, first=first)


HOOKS = SimpleNamespace(register=register, open_window=open_window, open_hub=open_hub)
